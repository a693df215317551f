"""Fixtures shared by the import tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

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
