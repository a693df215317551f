"""Replica of ToMaChess' ECF rating-list loader, written for this test.

Original: Moritz72/ToMaChess (GPL-3.0), commit 18b8cd0d,
scripts/player/functions_rating_lists.py (get_ecf_list, download_file, process_csv) and
scripts/player/player.py (how Player keeps sex and rating).

Our own replica of its request and parsing: the same URL (``v2/rating_list_csv``), the
same User-Agent, raise_for_status, the file decoded as strict UTF-8 without a byte-order
mark, csv.reader with the header looked up by ``header.index`` (ValueError when a column
is missing), every row indexed (IndexError on a blank or short line), ``int(ECF_code[:-1])``
for the player's id (ValueError on an odd code), ``original_*`` as the rating when it is
all digits, and sex M, F/W or D. The only change is the host (the federation's becomes
the demo's); the app's player objects become plain dicts.
"""

from __future__ import annotations

from csv import reader
from pathlib import Path
from typing import Any

import requests

USER_AGENT_DUMMY = (
    "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/104.0.0.0 Safari/537.36"
)
RATING_LISTS = ("standard", "rapid", "blitz")  # sub_id 0, 1, 2
SEXES = {"M": "M", "F": "F", "W": "F", "D": "D"}


def download_file(url: str, path: Path) -> None:
    response = requests.get(url, verify=True, headers={"User-Agent": USER_AGENT_DUMMY}, timeout=60)
    response.raise_for_status()
    path.write_bytes(response.content)


def process_csv(path: Path, keys: tuple[str, ...], encoding: str) -> list[tuple[str, ...]]:
    with path.open(encoding=encoding) as file:
        rows = reader(file)
        header = next(rows)
        indices = tuple(-1 if key == "" else header.index(key) for key in keys)
        return [
            tuple("" if key == "" else row[indices[j]] for j, key in enumerate(keys))
            for row in rows
        ]


def get_ecf_list(base: str, folder: Path, sub_id: int = 0) -> list[dict[str, Any]]:
    """The players the update would store: name, sex, country, rating and the id built
    from the code's digits."""
    path = folder / "ecf.csv"
    download_file(f"{base}/v2/new/api.php?v2/rating_list_csv", path)
    rating_list = RATING_LISTS[sub_id]
    keys = ("full_name", "gender", "", "nation", "", f"original_{rating_list}", "ECF_code")
    data = process_csv(path, keys, "utf-8")
    players = [
        {
            "name": entry[0],
            "sex": SEXES.get(entry[1]),
            "country": entry[3] or None,
            "rating": int(entry[5]) if entry[5].isdigit() else None,
            "id": (int(entry[6][:-1]), 4, sub_id),
        }
        for entry in data
    ]
    _first = players[0]  # the update reads the first player: an empty list raises IndexError
    return players
