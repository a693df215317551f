"""The dependency rule of architecture.md, checked by scanning imports.

engine <- formats <- matching <- services <- (cli, web, backoffice); the pure packages
never import Django, and each imports only the project packages beneath it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import ecfgrading

PACKAGE = Path(ecfgrading.__file__).parent

# package -> (project packages it may import, third-party packages it may import)
PURE = {
    "engine": ({"engine"}, {"numpy", "scipy"}),
    "formats": ({"engine", "formats"}, {"numpy"}),
    "matching": ({"engine", "formats", "matching"}, {"numpy", "rapidfuzz", "unidecode"}),
}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", sorted(PURE))
def test_a_pure_package_imports_only_what_lies_beneath_it(package: str) -> None:
    own, third_party = PURE[package]
    for path in (PACKAGE / package).rglob("*.py"):
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "ecfgrading":
                assert len(parts) > 1 and parts[1] in own, f"{package}/{path.name} imports {name}"
            else:
                allowed = parts[0] in third_party or parts[0] in sys.stdlib_module_names
                assert allowed, f"{package}/{path.name} imports {name}"


@pytest.mark.parametrize("package", sorted(PURE))
def test_a_pure_package_never_imports_django(package: str) -> None:
    for path in (PACKAGE / package).rglob("*.py"):
        assert not any(n.split(".")[0] == "django" for n in _imports(path)), path.name


def test_services_never_import_an_edge() -> None:
    """Services are called by the CLI, the web and the back office, never the reverse."""
    edges = {"ecfgrading.cli", "ecfgrading.web", "ecfgrading.backoffice"}
    for path in (PACKAGE / "services").rglob("*.py"):
        for name in _imports(path):
            assert not any(name == e or name.startswith(e + ".") for e in edges), path.name
