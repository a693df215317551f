"""Replica of ChessReports' ECF downloads and their checks, written for this test.

Original: RogerMarsh/chessreports (BSD-3-Clause), commit 2e044c542d18 (version 7.1.12):
chessreports/core/constants.py (DEFAULT_URLS, PLAYERS_RATINGS_KEYS, ACTIVE_CLUBS_KEYS, the
two column-name tuples), core/workarounds.py (url_headers), gui/ecf/control.py
(_ecf_download, _ecf_players_structure, _ecf_clubs_structure), gui/ecf/ratedplayers.py and
gui/ecf/activeclubs.py (the download displays and their "Unexpected data found" counts),
basecore/ecfdataimport.py (copy_ecf_players/clubs_post_2020_rules and the single-record
copies), gui/ecf/ecfdetail.py and gui/ecf/newplayers.py (the code check before a lookup).

This is our own replica of its request and parsing code, not the original: the same
URLs, header, key-set and column checks, keys read and None handling. The only change is
the base URL (the federation's host becomes the demo's); the GUI's message boxes become
exceptions and return values, and the database writes become the values they would write.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

URL_HEADERS = {"User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_9_3)"}
PLAYERS_RATINGS_KEYS = frozenset(
    (
        "rating_effective_date",
        "column_names",
        "players",
        "success",
        "processing_time",
        "total_processing_time_today",
        "max_processing_time_daily",
    )
)
ACTIVE_CLUBS_KEYS = frozenset(
    (
        "clubs",
        "success",
        "processing_time",
        "total_processing_time_today",
        "max_processing_time_daily",
    )
)
ACTIVE_CLUBS_ROW_KEY_NAMES = ("club_code", "club_name", "comment", "assoc_code", "assoc_name")
_RATED = ("standard", "rapid", "blitz", "standard_online", "rapid_online", "blitz_online")
COLUMN_NAMES_2022_10 = (
    "ECF_code",
    "full_name",
    "member_no",
    "FIDE_no",
    "gender",
    "nation",
    *(
        name
        for rate in _RATED
        for name in (
            f"original_{rate}",
            f"{rate}_original_category",
            f"revised_{rate}",
            f"{rate}_revised_category",
        )
    ),
    "club_code",
    "club_name",
)
COLUMN_NAMES_ORIGINAL = (
    "ECF_code",
    "full_name",
    "member_no",
    "FIDE_no",
    "gender",
    "nation",
    "original_standard",
    "revised_standard",
    "standard_category",
    "original_rapid",
    "revised_rapid",
    "rapid_category",
    "original_standard_online",
    "revised_standard_online",
    "original_rapid_online",
    "revised_rapid_online",
    "original_blitz_online",
    "revised_blitz_online",
    "club_code",
    "club_name",
)
PLAYERS_RATINGS_COLUMN_COUNTS = (len(COLUMN_NAMES_2022_10), len(COLUMN_NAMES_ORIGINAL))
CODE_CHECK_CHARACTERS = "ABCDEFGHJKL"


def default_urls(base: str) -> dict[str, str]:
    """DEFAULT_URLS with the demo's base for the federation's host."""
    api = f"{base}/v2/new/api.php?v2/"
    return {
        "active_clubs_url": api + "clubs/all_active",
        "players_ratings_url": api + "rating_list",
        "player_info_url": api + "players/code/",
        "member_info_url": api + "players/mid/",
        "club_info_url": api + "clubs/code/",
    }


def download(url: str) -> Any:
    """What _ecf_download reads: the whole body, as JSON; no status or header is read
    (urllib raises on a 4xx or 5xx, which the program shows as a message)."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=URL_HEADERS)) as answer:
        return json.loads(answer.read())


def players_structure(data: Any) -> Any:
    if set(data.keys()) == PLAYERS_RATINGS_KEYS:
        column_names = tuple(data["column_names"])
        if column_names in (COLUMN_NAMES_2022_10, COLUMN_NAMES_ORIGINAL):
            return data
    raise RuntimeError(
        "Downloaded data not in expected format for rated players.\n\nHas the format been changed?"
    )


def clubs_structure(data: Any) -> Any:
    if set(data.keys()) == ACTIVE_CLUBS_KEYS:
        return data
    raise RuntimeError(
        "Downloaded data not in expected format for active clubs.\n\nHas the format been changed?"
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def rated_players_display(data: Any) -> tuple[list[str], int]:
    """The rated-players display's lines and its count of unexpected records: every row a
    list as long as the first list row, which must be 20 or 32 long."""
    names = data["column_names"]
    ignore = {0, 1, 2, 3, len(names) - 2, len(names) - 1}
    expected = set(PLAYERS_RATINGS_COLUMN_COUNTS)
    for row in data["players"]:
        if isinstance(row, list):
            expected = expected & {len(row)} if len(row) in expected else set()
            break
    lines, errors = [], 0
    for row in data["players"]:
        if not isinstance(row, list) or len(row) not in expected:
            errors += 1
            continue
        club = row[-2]
        club_text = str(club).zfill(4) if isinstance(club, int) else _text(club)
        cells = [_text(row[i]) for i in (0, 1, 2, 3)] + [club_text, _text(row[-1])]
        others = [_text(value) for at, value in enumerate(row) if at not in ignore]
        lines.append("\t".join(cells) + "\t" + "\t".join(others))
    return ([] if errors else lines), errors


def import_players(data: Any) -> dict[str, tuple[str, list[str]]]:
    """copy_ecf_players_post_2020_rules: name and club codes by ECF code; the list's date
    is joined into its log messages, so it must be text."""
    _message = "".join(
        ("Start processing players list published on ", data["rating_effective_date"])
    )
    names = data["column_names"]
    code_at, name_at = names.index("ECF_code"), names.index("full_name")
    club_at = (names.index("club_code"),)
    found: dict[str, tuple[str, list[str]]] = {}
    for row in data["players"]:
        code = "" if row[code_at] is None else row[code_at]
        name = "" if row[name_at] is None else row[name_at]
        clubs = [row[i] if isinstance(row[i], str) else str(row[i]).zfill(4) for i in club_at]
        found[code] = (name, clubs)
    return found


def active_clubs_display(data: Any) -> tuple[list[str], int]:
    """The first club's keys must be exactly the five; later clubs' keys among them; every
    value text or null (joined with tabs)."""
    expected: set[str] = {*ACTIVE_CLUBS_ROW_KEY_NAMES}
    for club in data["clubs"]:
        if isinstance(club, dict):
            expected = set(club) if set(club) == expected else set()
            break
    lines, errors = [], 0
    for club in data["clubs"]:
        if not isinstance(club, dict):
            errors += 1
            continue
        if set(club) - expected:
            errors += 1
        row = ["" if club.get(key) is None else club.get(key) for key in ACTIVE_CLUBS_ROW_KEY_NAMES]
        lines.append("\t".join(row))  # TypeError on a value that is not text
    return ([] if errors else lines), errors


def import_clubs(data: Any) -> dict[str, tuple[str, str]]:
    """copy_ecf_clubs_post_2020_rules: name and association code by club code."""
    found = {}
    for club in data["clubs"]:
        code, name, assoc = (club.get(key) for key in ("club_code", "club_name", "assoc_code"))
        found["" if code is None else code] = ("" if name is None else name, assoc or "")
    return found


def code_is_valid(code: str) -> bool:
    """The check made before a player is looked up: six digits and their check letter."""
    if len(code) != 7 or not code[:6].isdigit():
        return False
    total = sum(int(code[5 - i]) * (i + 2) for i in range(6))
    return code[-1] == CODE_CHECK_CHARACTERS[total % 11]


def player_detail(urls: dict[str, str], code: str) -> tuple[str, str, list[str]]:
    """ecfdetail/newplayers: the lookup by the six digits, then the single-player copy; the
    new-player message joins the code and name, so both must be text."""
    data = download("".join((urls["player_info_url"], code[:6])))
    ecf_code = "" if data["ECF_code"] is None else data["ECF_code"]
    full_name = "" if data["full_name"] is None else data["full_name"]
    _message = "".join(("Player ", data["ECF_code"], " ", data["full_name"], " found"))
    return ecf_code, full_name, [str(data["club_code"]).zfill(4)]


def club_detail(urls: dict[str, str], club: str) -> tuple[str, str, str]:
    """The single-club copy: a four-character code appended as typed."""
    assert len(club) == 4
    data = download("".join((urls["club_info_url"], club)))
    return tuple(data.get(key) or "" for key in ("club_code", "club_name", "assoc_code"))  # type: ignore[return-value]
