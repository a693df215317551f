"""The dependency rule of architecture.md: the engine imports nothing of the project."""

from __future__ import annotations

import ast
from pathlib import Path

import ecfgrading.engine

ENGINE = Path(ecfgrading.engine.__file__).parent
ALLOWED_THIRD_PARTY = {"numpy", "scipy"}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_engine_imports_only_stdlib_numpy_scipy_and_itself() -> None:
    import sys

    for path in ENGINE.rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("ecfgrading"):
                assert name.startswith("ecfgrading.engine"), f"{path.name} imports {name}"
            else:
                assert top in ALLOWED_THIRD_PARTY or top in sys.stdlib_module_names, (
                    f"{path.name} imports {name}"
                )


def test_engine_never_imports_django() -> None:
    for path in ENGINE.rglob("*.py"):
        assert not any(n.split(".")[0] == "django" for n in _imports(path)), path.name
