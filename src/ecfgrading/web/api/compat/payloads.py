"""The answers the v2 and REST shapes share: the rating list (JSON rows and CSV), a club's
players, games and ratings, read from the player read model (``lookups.players``,
``grades``, ``games``, ``clubs``) and given the federation's shapes by ``shapes``."""

from __future__ import annotations

import csv
import datetime as dt
import io
from typing import Any

from ecfgrading.engine.types import Rate
from ecfgrading.errors import NotFound, ServiceError
from ecfgrading.lookups.clock import today
from ecfgrading.lookups.clubs import ClubEntry, club_player_ids
from ecfgrading.lookups.games import graded_games
from ecfgrading.lookups.grades import RatingRow, lists_in_force, rating_rows
from ecfgrading.lookups.lists import CurrentList
from ecfgrading.lookups.players import locate, rating_on
from ecfgrading.web.api.compat import shapes


def day_asked(text: str | None) -> dt.date | None:
    """A date as the shapes take it (YYYY-MM-DD); None when left out: the current lists."""
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError(f"expected a date YYYY-MM-DD, got {text!r}") from None


def effective(on: dt.date | None) -> str:
    """The date the answer holds for: the one asked, else today."""
    return (on or today()).isoformat()


def rating_list(on: dt.date | None) -> dict[str, Any]:
    """Every player published in the lists in force on ``on``, as rows of COLUMN_NAMES."""
    rows = rating_rows(_in_force(on))
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
    writer.writerows(shapes.csv_row(row) for row in rating_rows(_in_force(on)))
    return out.getvalue().encode()


def csv_filename(on: dt.date | None) -> str:
    return f"rating_list_{effective(on)}.csv"


def _in_force(on: dt.date | None) -> dict[Rate, CurrentList]:
    found = lists_in_force(on)
    if not found:
        raise NotFound(f"no list was in force on {effective(on)}")
    return found


def list_published_at(on_text: str | None) -> dt.datetime | None:
    """When the rating list of ``on_text`` (a date, or None: today) was last published:
    the latest publication among the versions in force (its ``Last-Modified``); None
    when the date is malformed or no list was in force then (a failure, not a list)."""
    try:
        on = day_asked(on_text)
    except ServiceError:
        return None
    found = lists_in_force(on).values()
    return max((each.current.published_at for each in found), default=None)


def club_rows(code: str) -> tuple[ClubEntry, list[RatingRow]]:
    """A club and its members published in the current lists (C2: not lapsed)."""
    club, members = club_player_ids(code)
    in_force = lists_in_force()
    return club, rating_rows(in_force, members) if members and in_force else []


def club_players(code: str) -> dict[str, Any]:
    """The club, then its members as rows of CLUB_PLAYER_COLUMNS (v2 ``club_players``
    and REST ``/api/clubs/players`` alike)."""
    club, rows = club_rows(code)
    return {
        "club_code": club.code,
        "club_name": club.name,
        "rating_effective_date": effective(None),
        "column_names": list(shapes.CLUB_PLAYER_COLUMNS),
        "players": [shapes.club_player_row(row) for row in rows],
    }


def games(code: str, rate_text: str, limit_text: str | None) -> list[dict[str, Any]]:
    rate = shapes.parse_rate(rate_text)
    limit = _limit(limit_text)
    return [shapes.game(line) for line in graded_games(locate(code), rate, limit)]


def _limit(text: str | None) -> int | None:
    if text is None or text.strip() == "":
        return None
    if not text.strip().isdigit():
        raise ServiceError(f"expected a limit of games, a whole number, got {text!r}")
    return int(text)


def rating(code: str, rate_text: str, on_text: str | None) -> dict[str, Any]:
    rate = shapes.parse_rate(rate_text)
    on = day_asked(on_text)
    return shapes.rating(rating_on(locate(code), rate, on))
