"""The leaderboard logic sits below every front end, and the Spaces' modules import in one direction only
(ngrameval issue #27, item 6): read from the sources' import statements, those inside functions included."""

import ast
from pathlib import Path

import ngrameval

PACKAGE = Path(ngrameval.__file__).parent


def imported_modules(path):
    """Every module ``path`` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_leaderboard_package_imports_no_front_end():
    for path in (PACKAGE / "leaderboard").glob("*.py"):
        front_ends = {
            name for name in imported_modules(path) if name.startswith(("ngrameval.frontends", "ngrameval.ui"))
        }
        assert not front_ends, f"{path.name} imports {sorted(front_ends)}"


def test_hub_imports_no_page():
    """hub -> ui -> page -> hub was a circle: the pages import hub, hub imports none of them."""
    hub = imported_modules(PACKAGE / "frontends" / "hub.py")
    assert not {name for name in hub if name.startswith("ngrameval.ui")}
    assert "ngrameval.frontends.hub" in imported_modules(PACKAGE / "ui" / "page.py")


def test_front_ends_take_the_leaderboard_logic_from_the_package():
    for path in (
        PACKAGE / "frontends" / "cli.py",
        PACKAGE / "frontends" / "report.py",
        PACKAGE / "ui" / "leaderboard.py",
    ):
        assert {name for name in imported_modules(path) if name.startswith("ngrameval.leaderboard")}, path.name
    source = (PACKAGE / "frontends" / "cli.py").read_text(encoding="utf-8")
    assert not [
        line
        for line in source.splitlines()
        if line.startswith(("def score_leaderboard", "def read_corpus", "class Significance"))
    ]
