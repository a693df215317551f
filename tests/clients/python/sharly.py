"""Replica of Sharly Chess' ECF national database update, written for this test.

Original: Sharly-Chess/sharly-chess (formerly papi-web; AGPL-3.0),
src/database/sqlite/national/ecf_database.py at commit 5f02c98c (pull request #2291,
"National databases"): the URL ``/api/rating-list/csv``, csv.DictReader over the file
opened as UTF-8 with errors='replace' and newline='', the columns read by name
(ECF_code, full_name, gender, title, nation, club_name, FIDE_no, revised_standard,
revised_rapid, revised_blitz), rows without an ECF_code skipped, the name split at its
first comma, and the numbers read by _int_or_none.

Not found in any stored source (the shared ``_download_file`` helper is not in the
snapshots), and so written from issue 22's account of running the program, as that issue
asks: the scheduled update downloads with a GET (conditional, with If-Modified-Since,
once a Last-Modified is known), then sends a HEAD and stops when the answer has no
Last-Modified; and the category columns are validated, every value ``A``, ``K``, ``P``
or empty, anything else raising ``ValueError: Unknown category value: E``.

Our own replica, nothing copied; the only change is the host. The player table's
``INSERT OR REPLACE`` keyed by national id becomes a dict.
"""

from __future__ import annotations

import csv
import io
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

CATEGORIES = ("A", "K", "P", "")
GENDERS = {"M": "MAN", "F": "WOMAN", "W": "WOMAN"}
ENGLAND = "ENG"


class UpdateStopped(Exception):
    """The scheduled run stops: the answer did not say when the list was published."""


@dataclass
class EcfDatabase:
    """The local national database: its players and the Last-Modified it was made from."""

    base: str
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    last_modified: str | None = None

    @property
    def url(self) -> str:
        return f"{self.base}/api/rating-list/csv"

    def update(self) -> bool:
        """One scheduled run: True when a new list was imported, False when the stored one
        is still the latest (304)."""
        headers = {"If-Modified-Since": self.last_modified} if self.last_modified else {}
        try:
            with urllib.request.urlopen(
                urllib.request.Request(self.url, headers=headers), timeout=60
            ) as answer:
                body = answer.read()
        except urllib.error.HTTPError as error:
            if error.code != 304:
                raise
            body = None
        head = urllib.request.Request(self.url, method="HEAD")
        with urllib.request.urlopen(head, timeout=60) as answer:
            published = answer.headers.get("Last-Modified")
        if not published:
            raise UpdateStopped(f"{self.url} gave no Last-Modified: the update stops")
        if body is None:
            return False
        self.players.update(read_players(body))
        self.last_modified = published
        return True


def _int_or_none(value: str | None) -> int | None:
    if value is None or not value.strip().isdigit() or int(value) == 0:
        return None
    return int(value)


def _category(value: str) -> str:
    if value not in CATEGORIES:
        raise ValueError(f"Unknown category value: {value}")
    return value


def read_players(body: bytes) -> dict[str, dict[str, Any]]:
    """The rows as the player table keeps them, by national id."""
    text = body.decode("utf-8", errors="replace")
    found = {}
    for row in csv.DictReader(io.StringIO(text, newline="")):
        national_id = row["ECF_code"].strip()
        if not national_id:
            continue
        for column in row:
            if column.endswith("_category"):
                _category(row[column].strip())
        last_name, _sep, first_name = row["full_name"].partition(",")
        found[national_id] = {
            "last_name": last_name.strip(),
            "first_name": first_name.strip(),
            "gender": GENDERS.get(row["gender"].strip(), ""),
            "title": row["title"].strip(),
            "federation": row["nation"].strip() or ENGLAND,
            "club": row["club_name"].strip() or None,
            "fide_id": _int_or_none(row["FIDE_no"]),
            "standard_rating": _int_or_none(row["revised_standard"]),
            "rapid_rating": _int_or_none(row["revised_rapid"]),
            "blitz_rating": _int_or_none(row["revised_blitz"]),
        }
    return found
