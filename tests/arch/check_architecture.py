#!/usr/bin/env python3
"""Checks docs/architecture.md against the code.

Every folder of src/ must have a row `src/<name>` in the table "The folders", and every
`#include "<lib>/..."` in that folder must name the folder itself or a library that the row's
"may use" cell allows. The cell allows a library by its folder name (a word, outside a code
span), one header of it by a code span `lib/file.h`, or everything with "every library".
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
        m = re.match(r"`src/([a-z_]+)`", cells[0])
        if m:
            yield m.group(1), cells[-1]


def allowed_by(cell: str, libraries: set):
    """The libraries and single headers that a "may use" cell allows."""
    if "every library" in cell:
        return set(libraries), set()
    headers = set(re.findall(r"`([a-z_]+/[a-z_]+\.h)`", cell))
    prose = re.sub(r"`[^`]*`", " ", cell)
    words = set(re.findall(r"[a-z_]+", prose))
    return words & libraries, headers


def includes(folder: pathlib.Path):
    """Yields (file, line number, included path) for each quoted include of the folder."""
    for f in sorted(folder.rglob("*")):
        if f.suffix not in (".h", ".cpp", ".hpp", ".cc"):
            continue
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            m = re.match(r'\s*#\s*include\s+"([a-z_]+)/([^"]+)"', line)
            if m:
                yield f, n, m.group(1), f"{m.group(1)}/{m.group(2)}"


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    src = root / "src"
    libraries = {p.name for p in src.iterdir() if p.is_dir()}
    doc = (root / "docs" / "architecture.md").read_text()
    rows = dict(table_rows(doc))
    problems = []
    for lib in sorted(libraries - rows.keys()):
        problems.append(f"src/{lib}: no row `src/{lib}` in docs/architecture.md")
    for lib in sorted(rows.keys() - libraries):
        problems.append(f"docs/architecture.md: row `src/{lib}` names a folder that does not exist")
    for lib in sorted(libraries & rows.keys()):
        allowed, headers = allowed_by(rows[lib], libraries)
        for f, n, used, path in includes(src / lib):
            if used == lib or used in allowed or path in headers:
                continue
            if used not in libraries:
                continue  # a system or third-party header with a slash, not one of ours
            problems.append(
                f"{f.relative_to(root)}:{n}: includes {path}, but the row of src/{lib} "
                f"in docs/architecture.md does not allow {used}")
    for p in problems:
        print(p)
    print(f"architecture: {len(libraries)} folders, {len(problems)} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
