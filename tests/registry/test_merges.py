"""The one walk along chains of merges (G28), on plain mappings: no database."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from ecfgrading.registry import merges
from ecfgrading.registry.merges import surviving_id, surviving_ids, surviving_records


def test_a_chain_of_merges_resolves_to_its_last_record() -> None:
    merged_into = {1: 2, 2: 3}  # 1 was merged into 2, later 2 into 3

    assert [surviving_id(merged_into, pk) for pk in (1, 2, 3)] == [3, 3, 3]


def test_a_record_never_merged_counts_for_itself() -> None:
    assert surviving_id({1: 2}, 7) == 7


def test_a_cycle_stops_with_each_record_on_it_counting_for_itself() -> None:
    merged_into = {1: 2, 2: 3, 3: 1}  # only a hand edit can make this

    assert surviving_ids(merged_into) == {1: 1, 2: 2, 3: 3}


def test_a_chain_into_a_cycle_stops_where_it_meets_the_cycle() -> None:
    merged_into = {9: 1, 1: 2, 2: 1}

    assert surviving_id(merged_into, 9) == 1


def test_every_merged_record_is_mapped_to_its_survivor() -> None:
    assert surviving_ids({1: 2, 2: 3, 5: 6}) == {1: 3, 2: 3, 5: 6}


@dataclass(frozen=True)
class _Record:
    name: str
    merged_into_id: int | None = None


def test_records_are_mapped_to_the_record_they_count_for() -> None:
    records = {1: _Record("first", 2), 2: _Record("middle", 3), 3: _Record("last"), 4: _Record("x")}

    survivors = surviving_records(records)

    assert {pk: record.name for pk, record in survivors.items()} == {
        1: "last",
        2: "last",
        3: "last",
        4: "x",
    }


def test_the_walk_imports_only_the_standard_library() -> None:
    """Models and services share it, so it may import neither (nor Django)."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(Path(merges.__file__).read_text())):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])

    assert imported <= {"__future__", "collections", "typing"}
