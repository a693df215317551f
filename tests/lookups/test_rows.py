"""lookups.rows.fetch_array: a query's rows laid into a structured array a chunk at a
time hold the same rows, in order, as the query gives them, whatever the chunk."""

from __future__ import annotations

import numpy as np
import pytest

from ecfgrading.lookups import rows
from ecfgrading.registry.models import Player

pytestmark = pytest.mark.django_db

_ROW = np.dtype([("id", np.int64), ("code", np.int64), ("surname", "U20")])


@pytest.mark.parametrize("chunk", [1, 3, 7, 100])
def test_every_row_in_order_whatever_the_chunk(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(rows, "ARRAY_CHUNK", chunk)
    made = [Player.objects.create(code=500_000 + k, surname=f"Row{k}") for k in range(7)]
    query = Player.objects.order_by("-code").values_list("id", "code", "surname")
    found = rows.fetch_array(query, _ROW)
    assert found.dtype == _ROW
    assert found["code"].tolist() == [500_006 - k for k in range(7)]
    assert found["surname"].tolist() == [f"Row{6 - k}" for k in range(7)]
    assert found["id"].tolist() == [player.id for player in reversed(made)]


def test_no_rows_and_an_empty_filter_give_an_empty_array_of_the_type() -> None:
    none = rows.fetch_array(Player.objects.values_list("id", "code", "surname"), _ROW)
    empty = rows.fetch_array(
        Player.objects.filter(id__in=[]).values_list("id", "code", "surname"), _ROW
    )
    for found in (none, empty):
        assert found.shape == (0,)
        assert found.dtype == _ROW
