"""One place for each fact (style.md 13): names once defined in two modules, with two
values or two caches free to drift apart, are defined once in the package and imported
everywhere else."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import ecfgrading

PACKAGE = Path(ecfgrading.__file__).parent

ONCE = (
    "MAX_GRADE",  # the highest grade a reader or an assignment accepts
    "code_text",  # a grading code with its check letter (G28), cached once
)


@pytest.mark.parametrize("name", ONCE)
def test_the_name_is_defined_in_one_module_only(name: str) -> None:
    found = [where for where, defined in _definitions(PACKAGE) if defined == name]
    assert len(found) == 1, found


def test_the_scan_finds_a_second_definition(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("MAX_GRADE = 400\ndef code_text(n): ...\n")
    (tmp_path / "b.py").write_text("from a import code_text\nMAX_GRADE: int = 400\n")
    found = sorted(_definitions(tmp_path))
    assert found == [("a.py", "MAX_GRADE"), ("a.py", "code_text"), ("b.py", "MAX_GRADE")]


def _definitions(root: Path) -> Iterator[tuple[str, str]]:
    """(module, name) for each function, class or constant a module defines at its top."""
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                yield where, node.name
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                yield from ((where, t.id) for t in targets if isinstance(t, ast.Name))
