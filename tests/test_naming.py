"""Names say one thing each (issue 20, item 7): a name that once meant two or three things
(an officer's import report and the public's feedback; three ``Report`` classes; five
``Progress`` types in two argument orders) is now defined in one module only."""

from __future__ import annotations

import ast
from pathlib import Path

import ecfgrading

PACKAGE = Path(ecfgrading.__file__).parent

# Each name, and the one module (relative to the package) that defines it.
ONE_MEANING = {
    "Progress": "progress",  # the one callback type: progress(done, total, what)
    "Feedback": "registry.models.feedback",  # the public's Grading Feedback Form
    "NewFeedback": "services.feedback",  # one being sent
    "ImportReport": "services.results.import_report",  # what an import tells an officer
    "Problems": "formats.problems",  # every problem reading a file found
    "TeamReport": "lookups.reports.common",  # the grading team's reports
}


def defined(root: Path) -> dict[str, list[str]]:
    """Module names by each class or module-level assignment (a type alias) they define."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        tree = ast.parse(path.read_text(), str(path))
        names = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
        names += [target.id for node in tree.body for target in _targets(node)]
        for name in names:
            found.setdefault(name, []).append(module)
    return found


def _targets(node: ast.stmt) -> list[ast.Name]:
    if isinstance(node, ast.Assign):
        return [t for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target]
    return []


def test_each_name_that_had_several_meanings_is_defined_in_one_module() -> None:
    found = defined(PACKAGE)

    assert {name: found.get(name, []) for name in ONE_MEANING} == {
        name: [module] for name, module in ONE_MEANING.items()
    }


def test_report_alone_names_nothing() -> None:
    assert defined(PACKAGE).get("Report", []) == []


def test_the_scan_sees_a_second_definition(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("class Progress:\n    pass\n")
    (tmp_path / "b.py").write_text("Progress = int  # another order\n")

    assert defined(tmp_path)["Progress"] == ["a", "b"]
