#!/usr/bin/env python3
"""Checks docs/architecture.md against the code.

Every folder of src/ that holds code (a library, or a module of one such as src/site/games)
must have a row `src/<name>` in the table "The folders", and every `#include "<lib>/..."` in
that folder must name the folder itself or a folder that the row's "may use" cell allows. An
include names the deepest folder its path lies in ("site/games/room.h": site/games). The cell
allows a folder by its name (a word such as `rules` or `site/lobby`, outside a code span), one
header of it by a code span `lib/file.h`, or everything with "every library".
Exit 0 when the map and the code agree; 1 with one line per disagreement.

    python3 tests/arch/check_architecture.py [repo root]
"""
import pathlib
import re
import sys


def table_rows(doc: str):
    """Yields (folder, may_use cell) for each `src/<name>` row of the folders table."""
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        m = re.match(r"`src/([a-z_]+(?:/[a-z_]+)*)`", cells[0])
        if m:
            yield m.group(1), cells[-1]


def allowed_by(cell: str, libraries: set):
    """The libraries and single headers that a "may use" cell allows."""
    if "every library" in cell:
        return set(libraries), set()
    headers = set(re.findall(r"`([a-z_/]+\.h)`", cell))
    prose = re.sub(r"`[^`]*`", " ", cell)
    words = set(re.findall(r"[a-z_]+(?:/[a-z_]+)*", prose))
    return words & libraries, headers


SOURCES = (".h", ".cpp", ".hpp", ".cc")


def code_folders(src: pathlib.Path):
    """The folders below src/ that hold source files themselves, as "site/games"."""
    return {f.parent.relative_to(src).as_posix() for f in src.rglob("*")
            if f.suffix in SOURCES and f.parent != src}


def owner(path: str, libraries: set):
    """The deepest folder of `libraries` that the included path lies in, or None."""
    parts = path.split("/")[:-1]
    for k in range(len(parts), 0, -1):
        if "/".join(parts[:k]) in libraries:
            return "/".join(parts[:k])
    return None


def includes(folder: pathlib.Path, libraries: set):
    """Yields (file, line number, folder included, included path) for each quoted include of
    the folder's own files (not of the folders below it)."""
    for f in sorted(folder.iterdir()):
        if f.suffix not in SOURCES:
            continue
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([a-z_]+/[^"]+)"', line)
            if m:
                yield f, n, owner(m.group(1), libraries), m.group(1)


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    src = root / "src"
    libraries = code_folders(src)
    doc = (root / "docs" / "architecture.md").read_text()
    rows = dict(table_rows(doc))
    problems = []
    for lib in sorted(libraries - rows.keys()):
        problems.append(f"src/{lib}: no row `src/{lib}` in docs/architecture.md")
    for lib in sorted(rows.keys() - libraries):
        problems.append(f"docs/architecture.md: row `src/{lib}` names a folder that does not exist")
    for lib in sorted(libraries & rows.keys()):
        allowed, headers = allowed_by(rows[lib], libraries)
        for f, n, used, path in includes(src / lib, libraries):
            if used is None:
                continue  # a system or third-party header with a slash, not one of ours
            if used == lib or used in allowed or path in headers:
                continue
            problems.append(
                f"{f.relative_to(root)}:{n}: includes {path}, but the row of src/{lib} "
                f"in docs/architecture.md does not allow {used}")
    for p in problems:
        print(p)
    print(f"architecture: {len(libraries)} folders, {len(problems)} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
