"""The answers the v2 and REST shapes share: the rating list (JSON rows and CSV), a club's
players, games and ratings, built from ``services.public.ratings`` with ``shapes``."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

from django.utils import timezone

from ecfgrading.engine.types import Rate
from ecfgrading.lookups import ratings
from ecfgrading.lookups.ratings import RatingRow, RatingsError
from ecfgrading.web.api.compat import shapes


def day_asked(text: str | None) -> dt.date | None:
    """A date as the shapes take it (YYYY-MM-DD); None when left out: the current lists."""
    return ratings.parse_date(text) if text else None


def effective(on: dt.date | None) -> str:
    """The date the answer holds for: the one asked, else today."""
    return (on or timezone.localdate()).isoformat()


def rating_list(on: dt.date | None) -> dict[str, Any]:
    """Every player published in the lists in force on ``on``, as rows of COLUMN_NAMES."""
    rows = ratings.rating_rows(_in_force(on))
    return {
        "rating_effective_date": effective(on),
        "column_names": list(shapes.COLUMN_NAMES),
        "players": [shapes.list_row(row) for row in rows],
    }


def rating_list_csv(on: dt.date | None) -> bytes:
    """The same rows as CSV: the header CSV_COLUMNS (the 32 columns and title) first."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(shapes.CSV_COLUMNS)
    writer.writerows(shapes.csv_row(row) for row in ratings.rating_rows(_in_force(on)))
    return out.getvalue().encode()


def csv_filename(on: dt.date | None) -> str:
    return f"rating_list_{effective(on)}.csv"


def _in_force(on: dt.date | None) -> dict[Rate, ratings.InForce]:
    found = ratings.lists_in_force(on)
    if not found:
        raise RatingsError(f"no list was in force on {effective(on)}")
    return found


def club_rows(code: str) -> tuple[ratings.ClubEntry, list[RatingRow]]:
    """A club and its members published in the current lists (C2: not lapsed)."""
    club, members = ratings.club_members(code)
    in_force = ratings.lists_in_force()
    return club, ratings.rating_rows(in_force, members) if members and in_force else []


def club_players(code: str) -> dict[str, Any]:
    """v2: the club, then its members as rating-list rows."""
    club, rows = club_rows(code)
    return {
        "club_code": club.code,
        "club_name": club.name,
        "rating_effective_date": effective(None),
        "column_names": list(shapes.COLUMN_NAMES),
        "players": [shapes.list_row(row) for row in rows],
    }


def club_players_rest(code: str) -> dict[str, Any]:
    """REST: the members' current grades by CLUB_PLAYER_COLUMNS."""
    _club, rows = club_rows(code)
    return {
        "column_names": list(shapes.CLUB_PLAYER_COLUMNS),
        "rows": [shapes.club_player_row(row) for row in rows],
    }


def games(code: str, rate_text: str, limit_text: str | None) -> list[dict[str, Any]]:
    rate = shapes.parse_rate(rate_text)
    _code, lines = ratings.player_games(code, rate, _limit(limit_text))
    return [shapes.game(line) for line in lines]


def _limit(text: str | None) -> int | None:
    if text is None or text.strip() == "":
        return None
    if not text.strip().isdigit():
        raise RatingsError(f"expected a limit of games, a whole number, got {text!r}")
    return int(text)


def rating(code: str, rate_text: str, on_text: str | None) -> dict[str, Any]:
    rate = shapes.parse_rate(rate_text)
    return shapes.rating(ratings.rating_on(code, rate, day_asked(on_text)))
