"""``/v2/new/list_top_players.php``: the federation's page of top players, as JSON.

Programs ask it, for instance, for the national juniors (``?domain=S&age_limit=U18&
age_class=under&age_col=age31dec&nation=ENG&gender=both&type=rating&format=json&
count=500``) and read ``players``, ranked by position, with ``ECFcode`` (the code as
``ECF_code`` elsewhere), ``full_name``, ``club``, ``current_rating``, ``prior_rating``
and ``title`` (docs/api.md, "The top players page"). Who is ranked, and how ages are
counted, is ``lookups.top_players``; this module reads the parameters and shapes the
answer.

Parameters, each optional, values in any case; other parameters are ignored:

- ``domain``: S or Standard (the default), R or Rapid (``shapes.parse_rate``);
- ``age_limit``: ``none`` (the default), ``U18`` (under 18), ``O50`` (50 or over), or a
  bare age with ``age_class``; ``age_class``: ``under`` or ``over``, agreeing with the
  limit's letter; ``age_col``: ``age31dec`` (the default: age on 31 December of the
  list's year) or ``Age`` (age today);
- ``nation``: three letters (ENG), or ``all`` / empty for every nation;
- ``gender``: ``both`` (the default), ``M`` / ``male``, ``F`` / ``female``;
- ``type``: ``rating`` only (players by their current rating);
- ``count``: how many, 1 or more, by default 100; more than 1,000 gives 1,000;
- ``format``: ``json``, or left out: the answer is always JSON (the site's list pages
  are the pages for people).

A parameter out of these is the caller's mistake: status 400, JSON ``success: false``
and a message saying what was expected. The answer is kept in the shared cache under
its parameters (``answers.v2_json``), with the v2 answers' processing times.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.http import HttpRequest, HttpResponseBase, QueryDict
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ecfgrading.errors import ServiceError
from ecfgrading.lookups.top_players import (
    AgeBasis,
    AgeLimit,
    AgeSide,
    TopPlayer,
    TopQuery,
    top_players,
)
from ecfgrading.web.api.compat import answers, shapes

DEFAULT_COUNT = 100
MAX_COUNT = 1000
MAX_AGE_LIMIT = 120
_AGE_LIMIT = re.compile(r"(?P<side>[uo])?\s*(?P<years>\d{1,3})", re.IGNORECASE)
_SIDES = {"u": AgeSide.UNDER, "o": AgeSide.OVER}
_BASES = {"age31dec": AgeBasis.YEAR_END, "age": AgeBasis.TODAY}
_NO_LIMIT = {"", "none", "all"}
_EVERY_NATION = {"", "all", "any"}
_GENDERS: dict[str, str | None] = {
    "": None,
    "both": None,
    "all": None,
    "m": "M",
    "male": "M",
    "f": "F",
    "female": "F",
}


def _text(params: QueryDict, name: str) -> str:
    return str(params.get(name, "")).strip()


def parse(params: QueryDict) -> TopQuery:
    """The query the parameters ask for; a ServiceError naming what was expected."""
    _check_type(_text(params, "type"))
    _check_format(_text(params, "format"))
    domain = _text(params, "domain")
    return TopQuery(
        rate=shapes.parse_rate(domain or "S"),
        count=_count(_text(params, "count")),
        age=_age(_text(params, "age_limit"), _text(params, "age_class"), _text(params, "age_col")),
        nation=_nation(_text(params, "nation")),
        sex=_sex(_text(params, "gender")),
    )


def _check_type(text: str) -> None:
    if text.lower() not in ("", "rating"):
        raise ServiceError(f"expected type=rating (players by their current rating), got {text!r}")


def _check_format(text: str) -> None:
    if text.lower() not in ("", "json"):
        raise ServiceError(f"expected format=json (the only format answered), got {text!r}")


def _count(text: str) -> int:
    if not text:
        return DEFAULT_COUNT
    if not text.isdigit() or int(text) < 1:
        raise ServiceError(f"expected count, a whole number of players from 1, got {text!r}")
    return min(int(text), MAX_COUNT)


def _age(limit: str, side: str, column: str) -> AgeLimit | None:
    """``age_limit`` with ``age_class`` and ``age_col``; None: no age limit."""
    basis = _basis(column)
    wanted = _side(side)
    if limit.lower() in _NO_LIMIT:
        return None
    match = _AGE_LIMIT.fullmatch(limit)
    if match is None or not 1 <= int(match["years"]) <= MAX_AGE_LIMIT:
        raise ServiceError(
            f"expected age_limit=none, U and an age (U18: under 18) or O and an age "
            f"(O50: 50 or over), ages 1 to {MAX_AGE_LIMIT}, got {limit!r}"
        )
    lettered = _SIDES[match["side"].lower()] if match["side"] else None
    if lettered is not None and wanted is not None and lettered is not wanted:
        raise ServiceError(f"age_limit={limit} does not agree with age_class={side}")
    chosen = lettered or wanted
    if chosen is None:
        raise ServiceError(
            f"expected age_class=under or over with age_limit={limit}, or U{limit} or O{limit}"
        )
    return AgeLimit(chosen, int(match["years"]), basis)


def _side(text: str) -> AgeSide | None:
    if not text:
        return None
    try:
        return AgeSide(text.lower())
    except ValueError:
        raise ServiceError(f"expected age_class=under or over, got {text!r}") from None


def _basis(text: str) -> AgeBasis:
    if not text:
        return AgeBasis.YEAR_END
    found = _BASES.get(text.lower())
    if found is None:
        raise ServiceError(
            f"expected age_col=age31dec (age on 31 December of the list's year) "
            f"or Age (age today), got {text!r}"
        )
    return found


def _nation(text: str) -> str | None:
    if text.lower() in _EVERY_NATION:
        return None
    if not re.fullmatch(r"[A-Za-z]{3}", text):
        raise ServiceError(f"expected nation, three letters such as ENG, or all, got {text!r}")
    return text.upper()


def _sex(text: str) -> str | None:
    if text.lower() not in _GENDERS:
        raise ServiceError(f"expected gender=both, M (male) or F (female), got {text!r}")
    return _GENDERS[text.lower()]


def route_key(query: TopQuery) -> str:
    """The parameters that make the answer, for the shared cache (``answers.kept``)."""
    age = "none" if query.age is None else f"{query.age.side}{query.age.years}{query.age.basis}"
    return f"list_top_players|{query.rate.value}|{age}|{query.nation}|{query.sex}|{query.count}"


def answer(query: TopQuery) -> dict[str, Any]:
    """The answer's members: the list ranked from, then ``players`` in rank order."""
    found = top_players(query)
    return {
        "domain": shapes.RATE_NAMES[query.rate][0],  # S or R, as it is asked
        "list": found.found.list_id,
        "version": found.found.current.name,
        "age_date": found.age_date.isoformat() if found.age_date else None,
        "count": len(found.players),
        "players": [player(ranked) for ranked in found.players],
    }


def player(ranked: TopPlayer) -> dict[str, Any]:
    """A ranked player, keys in docs/api.md's order: no date of birth, no age."""
    row = ranked.row
    return {
        "rank": ranked.rank,
        "ECFcode": row.code,
        "full_name": row.name,
        "club": row.club.name if row.club else "",
        "club_code": row.club.code if row.club else None,
        "current_rating": ranked.grade,
        "prior_rating": ranked.prior,
        "title": None,  # titles are not kept
        "fedn": row.nation,
        "nation": row.nation,
        "sex": row.gender or None,
        "FIDE": row.fide_no,
    }


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def list_top_players(request: HttpRequest) -> HttpResponseBase:
    """The top players the parameters ask for; 400 for a parameter out of range."""
    query, refused = answers.attempt(lambda: parse(request.GET))
    if refused is not None:
        return answers.v2_failure(request, refused.message, status=400)
    return answers.v2_json(request, functools.partial(answer, query), keep=route_key(query))
