"""The dependency rule of architecture.md, checked by scanning imports.

    engine <- formats <- matching <- registry <- lookups <- services <- (web, backoffice,
    cli, demo)

An import may skip floors going down and never goes up; the read side (``lookups``)
contains no write and imports nothing of ``services``; no module of the read or write side
is named after the door that uses it; no import cycle anywhere, imports inside functions
included. The pure packages never import Django.

Each rule is a function over a source tree, so that the tests below can show it catching
a breach in a small tree made for the purpose as well as passing on the project.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import ecfgrading

PACKAGE = Path(ecfgrading.__file__).parent

# Floors, lowest first. ``errors`` (the one error contract), ``progress`` (the one
# progress callback type), ``collector`` (the cycle collector paused), ``workers``
# (forked processes on the other cores) and ``pickled`` (records pickled by their fields)
# are
# standard-library-only modules every floor may raise, take or use; settings, urls and
# wsgi belong to the edges.
FLOORS: dict[str, int] = {
    "errors": 0,
    "progress": 0,
    "collector": 0,
    "workers": 0,
    "pickled": 0,
    "engine": 1,
    "formats": 2,
    "matching": 3,
    "registry": 4,
    "lookups": 5,
    "services": 6,
    "web": 7,
    "backoffice": 7,
    "cli": 7,
    "demo": 7,
    "settings": 7,
    "urls": 7,
    "wsgi": 7,
}

# package -> (project packages it may import, third-party packages it may import)
PURE = {
    "engine": ({"engine", "pickled"}, {"numpy", "scipy"}),
    "formats": ({"engine", "formats", "collector", "pickled"}, {"numpy"}),
    "matching": ({"engine", "formats", "matching", "pickled"}, {"numpy", "rapidfuzz", "unidecode"}),
}

# Words that name a door (a consumer), not a subject: a read or write module named so is
# a second copy of some fact waiting to drift (style.md 18).
DOOR_WORDS = frozenset(
    {"api", "v1", "v2", "compat", "public", "web", "page", "pages", "backoffice", "cli"}
    | {"twin", "json", "html", "downloads", "ratings", "screen", "form", "forms"}
)

# Calls that change the registry. ``update`` is a write on a query
# (``Model.objects...update()``), not on a dict or a set; ``delete`` is one on anything
# but the cache (a cache of what was read is no write). SQL that writes counts too.
WRITES = frozenset(
    {"save", "create", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
    | {"select_for_update", "atomic", "insert_rows", "take_registry_lock", "record"}
)
QUERY_WRITES = frozenset({"update", "delete"})
QUERY_STEPS = frozenset({"objects", "filter", "exclude", "all", "get", "order_by"})
NOT_THE_REGISTRY = frozenset({"cache"})
WRITING_SQL = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|MERGE|COPY)\b", re.IGNORECASE)
# The one write-shaped call the read side may make, and why.
NOT_REGISTRY = {("exports.py", "book.save")}  # an XLSX workbook written to a byte stream


def modules(root: Path) -> dict[str, Path]:
    """Every module under ``root`` (the ``ecfgrading`` package folder) by dotted name
    relative to it (``lookups.players``; a package by its folder's name)."""
    found = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules that module ``name`` imports, anywhere in it (functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        for target in _targets(node, package):
            if target.startswith("ecfgrading."):
                found.add(_nearest(target.removeprefix("ecfgrading."), known))
    found.discard(name)
    found.discard("")
    return found


def _targets(node: ast.AST, package: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = ["ecfgrading", *package.split(".")] if package else ["ecfgrading"]
            base = base[: len(base) - node.level + 1]
            module = ".".join([*base, *([node.module] if node.module else [])])
        else:
            module = node.module or ""
        yield module
        yield from (f"{module}.{alias.name}" for alias in node.names)


def _nearest(name: str, known: dict[str, Path]) -> str:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imported(name, path, known) for name, path in known.items()}


def floor(name: str) -> int | None:
    return FLOORS.get(name.split(".")[0])


def upward_imports(root: Path) -> list[str]:
    """Imports from a floor to a higher one."""
    breaches = []
    for name, targets in graph(root).items():
        for target in sorted(targets):
            low, high = floor(name), floor(target)
            if low is not None and high is not None and high > low:
                breaches.append(f"{name} imports {target}")
    return breaches


def cycles(root: Path) -> list[list[str]]:
    """Each set of modules that import one another round a loop (Tarjan's algorithm)."""
    edges = graph(root)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(edges)))
    try:
        for node in edges:
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return found


def writes(path: Path) -> list[str]:
    """Calls in ``path`` that change the registry (line and call)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if WRITING_SQL.match(node.value):
                found.append((node.lineno, f"{path.name}:{node.lineno} SQL {node.value[:30]!r}"))
            continue
        if not isinstance(node, ast.Call):
            continue
        chain = _chain(node.func)
        call = ".".join(chain[-2:])
        if (path.name, call) in NOT_REGISTRY:
            continue
        last = chain[-1] if chain else ""
        on_query = last in QUERY_WRITES and bool(QUERY_STEPS & set(chain[:-1]))
        deleting = last == "delete" and chain[0] not in NOT_THE_REGISTRY
        if last in WRITES or on_query or deleting:
            found.append((node.lineno, f"{path.name}:{node.lineno} {'.'.join(chain)}()"))
    return [text for _, text in sorted(found)]


def _chain(func: ast.expr) -> list[str]:
    """``Player.objects.filter(...).update`` -> [Player, objects, filter, update]."""
    names: list[str] = []
    while True:
        if isinstance(func, ast.Attribute):
            names.append(func.attr)
            func = func.value
        elif isinstance(func, ast.Call):
            func = func.func
        elif isinstance(func, ast.Name):
            names.append(func.id)
            return names[::-1]
        else:
            return names[::-1]


def door_named(root: Path, side: str) -> list[str]:
    """Modules of ``side`` named after a door (``api_players``, ``public``)."""
    named = []
    for name in modules(root):
        parts = name.split(".")
        if parts[0] == side and DOOR_WORDS & {w for p in parts[1:] for w in p.split("_")}:
            named.append(name)
    return named


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


# The project ----------------------------------------------------------------------------


def test_every_top_level_module_has_a_floor() -> None:
    assert {name.split(".")[0] for name in modules(PACKAGE)} - {""} <= set(FLOORS)


def test_no_import_goes_up_a_floor() -> None:
    assert upward_imports(PACKAGE) == []


def test_no_import_cycle_anywhere_imports_inside_functions_included() -> None:
    assert cycles(PACKAGE) == []


def test_the_read_side_never_writes() -> None:
    found = [w for path in (PACKAGE / "lookups").rglob("*.py") for w in writes(path)]
    assert found == []


def test_the_read_side_imports_nothing_of_the_write_side() -> None:
    edges = graph(PACKAGE)
    reads = {name: targets for name, targets in edges.items() if name.startswith("lookups")}
    assert {n: t for n, t in reads.items() if any(x.startswith("services") for x in t)} == {}


@pytest.mark.parametrize("side", ["lookups", "services"])
def test_no_module_is_named_after_the_door_that_uses_it(side: str) -> None:
    assert door_named(PACKAGE, side) == []


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


# The rules catch what they are for, in trees made to break them --------------------------


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in {p.parent for p in root.rglob("*.py")} | {root}:
        (folder / "__init__.py").touch()
    return root


def test_a_write_in_the_read_side_is_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "lookups/players.py": (
                "from django.db import transaction\n"
                "def rename(p):\n"
                "    with transaction.atomic():\n"
                "        Player.objects.filter(id=p).update(surname='X')\n"
                "    p.save()\n"
                "    seen = {}\n"
                "    seen.update({1: 2})\n"  # a dict's update is no write
                "    cache.delete('k')\n"  # nor is the cache's
                "    p.delete()\n"
                "    cursor.execute('UPDATE registry_player SET surname = %s', ['X'])\n"
            )
        },
    )
    found = writes(root / "lookups/players.py")
    assert [w.split()[1] for w in found] == [
        "transaction.atomic()",
        "Player.objects.filter.update()",
        "p.save()",
        "p.delete()",
        "SQL",  # the statement itself, whatever runs it
    ]


def test_an_import_of_the_write_side_from_the_read_side_is_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "lookups/players.py": "def f():\n    from ecfgrading.services.merge import merge\n",
            "services/merge.py": "merge = 1\n",
        },
    )
    assert upward_imports(root) == ["lookups.players imports services.merge"]


def test_a_module_named_after_a_door_is_caught(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"lookups/api_players.py": "", "lookups/players.py": ""})
    assert door_named(root, "lookups") == ["lookups.api_players"]


def test_an_import_cycle_through_a_function_is_caught(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "services/mail.py": "def ask():\n    from ecfgrading.services import tasks\n",
            "services/tasks.py": "from ecfgrading.services.members import x\n",
            "services/members.py": "from ecfgrading.services.mail import ask\nx = 1\n",
        },
    )
    assert cycles(root) == [["services.mail", "services.members", "services.tasks"]]


def test_a_relative_import_counts_like_an_absolute_one(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {"registry/models.py": "from ..lookups import lists\n", "lookups/lists.py": ""},
    )
    assert upward_imports(root) == [
        "registry.models imports lookups",  # the package's __init__ runs first
        "registry.models imports lookups.lists",
    ]
