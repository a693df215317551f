"""Fixtures shared by the import tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ecfgrading.services.results import identifying
from ecfgrading.services.results.ingest import ResultsImporter


@pytest.fixture
def identifications(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[ResultsImporter]]:
    """Each importer that identified a file, once per time."""
    calls: list[ResultsImporter] = []
    original = ResultsImporter._identify

    def counted(self: ResultsImporter, results: Any, *again: Any) -> Any:
        calls.append(self)
        return original(self, results, *again)

    monkeypatch.setattr(ResultsImporter, "_identify", counted)
    yield calls


@pytest.fixture
def identified_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The players identified in this process, by name, once per time (a forked reading
    process's are its own)."""
    here: list[str] = []
    original = identifying.identify

    def counted(entry: Any, *args: Any) -> Any:
        here.append(entry.written)
        return original(entry, *args)

    monkeypatch.setattr(identifying, "identify", counted)
    return here
