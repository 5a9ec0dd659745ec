"""The type stubs (python/toguz.pyi) name exactly what the module exports."""
import ast
import pathlib

import toguz

STUB = pathlib.Path(__file__).resolve().parents[1] / "toguz.pyi"
STUB_ONLY = {"VariantName", "Tags", "KnownResult", "AnalysisScore", "AnalysisLine", "Analysis",
             "Solution"}  # typing helpers


def stub_members():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        if isinstance(node, (ast.AnnAssign, ast.Assign)):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            top.update(t.id for t in targets if isinstance(t, ast.Name))
    return top - STUB_ONLY, {k: v for k, v in classes.items() if k not in STUB_ONLY}


def test_stub_matches_module():
    top, classes = stub_members()
    exported = {name for name in dir(toguz) if not name.startswith("_")} | {"__version__"}
    assert top == exported
    for cls, members in classes.items():
        if cls == "ParseError":
            continue  # an exception: its members are BaseException's
        public = {m for m in dir(getattr(toguz, cls)) if not m.startswith("_")}
        assert {m for m in members if not m.startswith("_")} == public, cls
