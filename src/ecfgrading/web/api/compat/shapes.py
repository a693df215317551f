"""The federation's rating-API shapes, key by key (issue 10, compatibility; issue 22).

Programs check these names and orders exactly (a rating-list reader rejects any other
column order), so each is written once here. Values:

- grades are whole numbers; a rating or category the player does not have is ``null``
  in JSON and an empty cell in CSV; blitz and online columns are always empty, as no
  such lists are kept; ``title`` (CSV) is empty, as titles are not kept;
- every category is the federation's letter, ``A``, ``K`` or ``P`` (``federation_category``):
  its programs accept no other; our own letters (A-E, X) stay on our pages and /api/v1;
- what the registry does not keep about a player (membership ``category`` and
  ``due_date``, ``nation2``, ``flag``, ``title``) is ``null``; a game's ``club_code`` is
  ``null`` (results are recorded by event, not by club);
- a game's ``score`` is 1, 0 or 5 (a draw, as the federation writes it); ``colour`` is W,
  B or ``null`` when the results file did not say; ``org_name`` and ``event_name`` are
  text, never ``null``.
"""

from __future__ import annotations

from typing import Any

from ecfgrading.engine.types import Rate
from ecfgrading.errors import ServiceError
from ecfgrading.lookups.clubs import ClubEntry
from ecfgrading.lookups.games import GameLine
from ecfgrading.lookups.grades import Club, RateGrades, RatingRow
from ecfgrading.lookups.players import PlayerInfo, Rating

# Every JSON body of the v2 shapes carries these.
META_KEYS = (
    "success",
    "processing_time",
    "total_processing_time_today",
    "max_processing_time_daily",
)
# The rating list's columns, in the only order clients accept.
COLUMN_NAMES = (
    "ECF_code",
    "full_name",
    "member_no",
    "FIDE_no",
    "gender",
    "nation",
    "original_standard",
    "standard_original_category",
    "revised_standard",
    "standard_revised_category",
    "original_rapid",
    "rapid_original_category",
    "revised_rapid",
    "rapid_revised_category",
    "original_blitz",
    "blitz_original_category",
    "revised_blitz",
    "blitz_revised_category",
    "original_standard_online",
    "standard_online_original_category",
    "revised_standard_online",
    "standard_online_revised_category",
    "original_rapid_online",
    "rapid_online_original_category",
    "revised_rapid_online",
    "rapid_online_revised_category",
    "original_blitz_online",
    "blitz_online_original_category",
    "revised_blitz_online",
    "blitz_online_revised_category",
    "club_code",
    "club_name",
)
CSV_COLUMNS = (*COLUMN_NAMES, "title")
BLANK_COLUMNS = 16  # blitz, then standard, rapid and blitz online: four columns each
PLAYER_KEYS = (
    "ECF_code",
    "full_name",
    "member_no",
    "category",
    "due_date",
    "FIDE_no",
    "gender",
    "nation",
    "nation2",
    "flag",
    "title",
    "date_last_game",
    "club_code",
    "club_name",
    "clubs",
)
CLUB_KEYS = ("club_code", "club_name", "comment", "assoc_code", "assoc_name")
GAME_KEYS = (
    "game_date",
    "colour",
    "score",
    "opponent_name",
    "opponent_no",
    "opponent_rating",
    "player_rating",
    "increment",
    "club_code",
    "event_code",
    "org_name",
    "event_name",
    "section_title",
)
RATING_KEYS = (
    "ECF_code",
    "full_name",
    "domain",
    "rating_type",
    "effective_date",
    "list",
    "version",
    "original_rating",
    "original_category",
    "revised_rating",
    "revised_category",
    "games",
)
# A club's players (v2 club_players, REST /api/clubs/players): the rating list's columns,
# then the current grades by the short names club-roster programs look up.
CLUB_PLAYER_COLUMNS = (*COLUMN_NAMES, "std", "rpd", "btz")

RATE_NAMES = {Rate.STANDARD: "Standard", Rate.RAPID: "Rapid"}
RATE_LETTERS = {Rate.STANDARD: "S", Rate.RAPID: "R"}  # the federation's ``domain``
_RATES = {"s": Rate.STANDARD, "standard": Rate.STANDARD, "r": Rate.RAPID, "rapid": Rate.RAPID}
_NOT_KEPT = {"b", "blitz", "sw", "rw", "bw"}


def parse_rate(text: str) -> Rate:
    """S or Standard, R or Rapid, in any case; blitz and online ratings are not kept."""
    wanted = text.strip().lower()
    if wanted in _RATES:
        return _RATES[wanted]
    if wanted in _NOT_KEPT:
        raise ServiceError(f"no {text} ratings are kept: only S (standard) and R (rapid) are")
    raise ServiceError(f"expected a rating type S, Standard, R or Rapid, got {text!r}")


def _or_none(text: str) -> str | None:
    return text or None


# -- the federation's rating categories (issue 22) --------------------------------------------
#
# The federation names its categories after how a rating is updated, and publishes:
# - "Category A - A player who has 30 or more rated results in the previous 12 calendar
#   months"; "Category K - All ratings of players not qualifying as A or H, with active
#   ratings that will be updated by the K-method"; "Category P - All ratings of players
#   with active ratings that will be updated by the P-method" (englishchess.org.uk,
#   "ECF rating categories", version of 8 December 2021);
# - "Partial Rating - A rating calculated from a small number of games (<10) using
#   P Rating"; "Full Rating - a) A rating calculated using K Rating or b) A rating
#   calculated using P Rating on at least 10 games" (ecfrating.org.uk/v2/help/
#   help_rating.php).
# Its H category was phased out in 2022; its programs accept only A, K, P or nothing.
FULL_RATING_GAMES = 10  # fewer games counted: a partial (P) rating
_THIRTY_GAMES = frozenset({"A", "X"})  # G23: 30+ games in the latest period (X: G16)


def federation_category(category: str, games_counted: int) -> str | None:
    """The federation's letter for one of our published grades (docs/api.md): ``A`` for
    our A or X (30 or more graded games in the latest period, G23 and G16: its "30 or
    more rated results in the previous 12 calendar months"); ``P`` when the grade rests
    on fewer than 10 games counted (G24: its partial rating, "fewer than 10 games", by
    the P-method); ``K`` for every other grade; None with no grade (``category`` '')."""
    if not category:
        return None
    if category in _THIRTY_GAMES:
        return "A"
    if games_counted < FULL_RATING_GAMES:
        return "P"
    return "K"


def club(entry: ClubEntry) -> dict[str, Any]:
    return {
        "club_code": entry.code,
        "club_name": entry.name,
        "comment": "",
        "assoc_code": entry.assoc_code,
        "assoc_name": entry.assoc_name,
    }


def _club_ref(found: Club) -> dict[str, Any]:
    return {"club_code": found.code, "club_name": found.name}


def player(info: PlayerInfo) -> dict[str, Any]:
    first = info.clubs[0] if info.clubs else None
    return {
        "ECF_code": info.code,
        "full_name": info.name,
        "member_no": None,  # private (issue 24): the field is kept for the clients' parsers
        "category": None,
        "due_date": None,
        "FIDE_no": info.fide_no,
        "gender": _or_none(info.gender),
        "nation": info.nation,
        "nation2": None,
        "flag": None,
        "title": None,
        "date_last_game": info.date_last_game.isoformat() if info.date_last_game else None,
        "club_code": first.code if first else None,
        "club_name": first.name if first else None,
        "clubs": [_club_ref(found) for found in info.clubs],
    }


def game(line: GameLine) -> dict[str, Any]:
    return {
        "game_date": line.date.isoformat(),
        "colour": _or_none(line.colour),
        "score": score(line.score),
        "opponent_name": line.opponent_name,
        "opponent_no": line.opponent_code,
        "opponent_rating": line.opponent_rating,
        "player_rating": line.player_rating,
        "increment": line.increment,
        "club_code": None,
        "event_code": line.event_code,
        "org_name": line.event_name,  # no organiser is recorded: the event's name
        "event_name": line.event_name,
        "section_title": line.section,
    }


def score(points: float) -> int:
    """A game's score from the player's side as the federation writes it: 1 a win, 0 a
    loss, 5 a draw (its results files' "55"; programs compare ``score === 5``)."""
    return _SCORES[points]


_SCORES = {1.0: 1, 0.5: 5, 0.0: 0}


def rating(found: Rating) -> dict[str, Any]:
    """The *revised* rating is the grade in the version in force, the *original* one the
    grade in the list's first version (docs/api.md); categories are the federation's."""
    grades = found.grades
    return {
        "ECF_code": found.code,
        "full_name": found.name,
        "domain": RATE_LETTERS[grades.rate],
        "rating_type": RATE_NAMES[grades.rate],
        "effective_date": found.on.isoformat(),
        "list": grades.list_id,
        "version": grades.version.name,
        "original_rating": grades.original,
        "original_category": federation_category(grades.original_category, grades.original_games),
        "revised_rating": grades.grade,
        "revised_category": federation_category(grades.category, grades.games_counted),
        "games": grades.games_counted,
    }


def _rate_cells(grades: RateGrades | None) -> list[Any]:
    if grades is None:
        return [None, None, None, None]
    return [
        grades.original,
        federation_category(grades.original_category, grades.original_games),
        grades.grade,
        federation_category(grades.category, grades.games_counted),
    ]


def list_row(row: RatingRow) -> list[Any]:
    """A rating-list row in COLUMN_NAMES' order; empty cells are None."""
    return [
        row.code,
        row.name,
        None,  # member_no: private (issue 24), the column kept for the clients' parsers
        row.fide_no,
        _or_none(row.gender),
        row.nation,
        *_rate_cells(row.standard),
        *_rate_cells(row.rapid),
        *[None] * BLANK_COLUMNS,
        row.club.code if row.club else None,
        row.club.name if row.club else None,
    ]


def csv_row(row: RatingRow) -> list[str]:
    """A row of the CSV in CSV_COLUMNS' order: the list row, then the (empty) title."""
    return ["" if cell is None else str(cell) for cell in [*list_row(row), None]]


def club_player_row(row: RatingRow) -> list[Any]:
    """CLUB_PLAYER_COLUMNS: the rating list's row, then the revised (current) standard
    and rapid grades as plain numbers; no blitz is kept."""
    standard, rapid = row.standard, row.rapid
    return [
        *list_row(row),
        standard.grade if standard else None,
        rapid.grade if rapid else None,
        None,
    ]
