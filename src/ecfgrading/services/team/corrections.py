"""Corrections as data (issue 24, case 2): the grading team changes a game's result,
removes a game, gives a game's side to another player, or corrects a player's details.

Each is previewed first (``preview_*``: exactly what will change), then made in one
transaction that audits the row before and after, records the amendment the public
/amendments/ page shows and, when a query asked for it, writes into the query's answer
exactly what changed (``queries.note_correction``: the query is resolved, its sender
told). Nothing is deleted: a removed game stays on record, not graded, with the reason
"removed".

The grading run reads games from the registry (``lookups.list_inputs``): the next
version computed of a list whose latest period holds a corrected game reads it as it now
is, and a removed game is read by no run. A version already published never changes
(G26): a revision of it carries the correction. The ``what`` of a correction is public
(amendments page, the query's status page): a private value (date of birth, membership
number) is named there, never shown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ecfgrading.engine.periods import ListId, season_of
from ecfgrading.engine.types import Rate, ResultCode
from ecfgrading.lookups import clock, versions
from ecfgrading.lookups.corrections import DETAIL_FIELDS, GameShown, shown
from ecfgrading.lookups.queries import query
from ecfgrading.registry.models import (
    Amendment,
    Club,
    ClubMembership,
    Game,
    NotGradedReason,
    Player,
    Result,
)
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.amendments import record_amendment
from ecfgrading.services.audit import record_change
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import ErrorKind, NotFound, ServiceError
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.team import queries
from ecfgrading.services.team.identification import Preview

_RESULTS = dict(Result.choices)
_FINAL = (NotGradedReason.SUPERSEDED, NotGradedReason.REMOVED)
_RATES = {rate.value for rate in Rate}
# Each result as player 1 and player 2 read it.
_OUTCOMES = {
    ResultCode.WIN: ("a win", "a loss"),
    ResultCode.LOSS: ("a loss", "a win"),
    ResultCode.DRAW: ("a draw", "a draw"),
    ResultCode.DEFAULT_WIN: ("a win by default", "a loss by default"),
    ResultCode.DEFAULT_LOSS: ("a loss by default", "a win by default"),
    ResultCode.DOUBLE_DEFAULT: ("a double default", "a double default"),
}
_PLAYED = ("", NotGradedReason.DEFAULT)  # reasons a result decides (G1)
PRIVATE = {"date_of_birth", "membership_no"}  # never shown publicly (named only)
_WORDS = {
    "date_of_birth": "date of birth",
    "fide_id": "FIDE id",
    "membership_no": "membership number",
}


class CorrectionError(ServiceError):
    """A correction that cannot be made as asked."""


@dataclass(frozen=True)
class Asked:
    """Who makes a correction and why (public, on the amendments page); the query that
    asked for it, if one did."""

    why: str
    user: Any = None
    actor: str = ""
    query: str = ""  # a query's reference: its answer then says what changed
    status_url: str = ""  # the query's public status page, for the mail to its sender


@dataclass(frozen=True)
class Corrected:
    what: str
    amendment: Amendment
    query: str  # the query resolved by it, "" when none
    mailed: bool  # whether the query's sender is told by e-mail


@dataclass(frozen=True)
class Plan:
    """One correction worked out: what the preview says, the fields to set, and the
    values before and after for the audit log."""

    title: str
    what: str  # public words: the amendment's and the query's answer's
    lines: tuple[str, ...]
    fields: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]

    @property
    def preview(self) -> Preview:
        return Preview(self.title, self.lines)


@dataclass(frozen=True)
class Details:
    """A player's details as they should be (every field, as the form holds them), and a
    club to add him to, perhaps in place of one of his memberships."""

    surname: str
    forenames: str = ""
    sex: str = ""
    date_of_birth: dt.date | None = None
    fide_id: int | None = None
    membership_no: str = ""
    nation: str = "ENG"
    club: str = ""  # a club's code or name, as on record
    replacing: int | None = None  # the id of his membership that the club replaces


# -- games ------------------------------------------------------------------------------


def preview_result(game_id: int, result: str) -> Preview:
    return _result_plan(_game(game_id), result).preview


def change_result(game_id: int, result: str, asked: Asked) -> Corrected:
    """The game's result becomes ``result`` (a results file's SCORE, from player 1's
    side); a default is recorded and not graded (G1), a played result is graded."""
    return _correct_game(game_id, lambda game: _result_plan(game, result), "game.result", asked)


def preview_removal(game_id: int) -> Preview:
    return _removal_plan(_game(game_id)).preview


def remove_game(game_id: int, asked: Asked) -> Corrected:
    """The game is no longer graded, with the reason "removed"; it stays on record."""
    return _correct_game(game_id, _removal_plan, "game.removed", asked)


def preview_move(game_id: int, side: int, code: str) -> Preview:
    return _move_plan(_game(game_id), side, code).preview


def move_side(game_id: int, side: int, code: str, asked: Asked) -> Corrected:
    """Side ``side`` (1 or 2) of the game is given to the player holding ``code``: he
    played it, with its result and colour, and the player before him did not."""
    return _correct_game(game_id, lambda game: _move_plan(game, side, code), "game.moved", asked)


def _correct_game(
    game_id: int, plan_of: Callable[[Game], Plan], action: str, asked: Asked
) -> Corrected:
    why = _why(asked)
    with busy_as_error(f"correcting game {game_id}"), transaction.atomic():
        game = _game(game_id, locked=True)
        plan = plan_of(game)
        for name, value in plan.fields.items():
            setattr(game, name, value)
        game.save(update_fields=list(plan.fields))
        about = _about(game, asked)
        codes = {"event": game.event.code} | ({"player": about.ref} if about else {})
        record_change(
            action, game, before=plan.before, after=plan.after, user=asked.user,
            actor=asked.actor, why=why, **codes,
        )  # fmt: skip
        rate = game.rate if game.rate in _RATES else ""
        return _recorded(plan.what, asked, player=about, event=game.event, rate=rate)


def _result_plan(game: Game, result: str) -> Plan:
    _correctable(game)
    if result not in _RESULTS:
        known = ", ".join(f"{code} ({label})" for code, label in _RESULTS.items())
        raise CorrectionError(f"expected a result among {known}, got {result!r}")
    if result == game.result:
        raise CorrectionError(f"expected a new result: game {game.id} is already {_label(result)}")
    fields = {"result": result, **_grading_after(game, result)}
    before = {name: getattr(game, name) for name in fields}
    now = replace(shown(game), result=result, result_label=_label(result))
    was, became = _label(game.result), _label(result)
    lines = [
        f"The result of {now.title} becomes {became} (was {was}).",
        *_scores(now, shown(game)),
        *_grading_lines(game, fields),
    ]
    what = f"Result of {now.title} corrected from {was} to {became}"
    return Plan(f"Correct the result to {became}", what, tuple(lines), fields, before, fields)


def _grading_after(game: Game, result: str) -> dict[str, Any]:
    """G1: a default is recorded, never graded; a played result is graded, unless the
    game is not graded for a reason of its event's (lightning, online...)."""
    if game.not_graded_reason not in _PLAYED:
        return {}
    graded = ResultCode.from_text(result).graded
    reason = "" if graded else str(NotGradedReason.DEFAULT)
    if (graded, reason) == (game.graded, game.not_graded_reason):
        return {}
    return {"graded": graded, "not_graded_reason": reason}


def _scores(now: GameShown, was: GameShown) -> list[str]:
    """The result from each side, as each player reads it."""
    first, second = _OUTCOMES[ResultCode.from_text(now.result)]
    first_was, second_was = _OUTCOMES[ResultCode.from_text(was.result)]
    return [
        f"For {now.first.text}: {first} (was {first_was}); "
        f"for {now.second.text}: {second} (was {second_was}).",
    ]


def _grading_lines(game: Game, fields: dict[str, Any]) -> list[str]:
    graded = fields.get("graded", game.graded)
    if not graded:
        gone = " (it no longer counts)" if game.graded else ""
        return [f"The game is recorded and not graded{gone}."]
    return [_reaches(game)]


def _removal_plan(game: Game) -> Plan:
    _correctable(game)
    fields = {"graded": False, "not_graded_reason": str(NotGradedReason.REMOVED)}
    before = {"graded": game.graded, "not_graded_reason": str(game.not_graded_reason)}
    game_ = shown(game)
    lines = [
        f"The game {game_.title} ({game_.result_label}) is removed: it stays on record, "
        "marked removed by the grading team, and is never graded.",
        _reaches(game) if game.graded else "It was not graded: no grade changes.",
    ]
    what = f"Game {game_.title} ({game_.result_label}) removed: not graded"
    return Plan("Remove the game", what, tuple(lines), fields, before, fields)


def _move_plan(game: Game, side: int, code: str) -> Plan:
    _correctable(game)
    if side not in (1, 2):
        raise CorrectionError(f"expected side 1 or 2 of the game, got {side!r}")
    holder, other = _sides(game, side)
    if holder is None:
        raise CorrectionError(
            f"expected an identified side: side {side} of game {game.id} is still in the "
            "identification queue, where it is decided"
        )
    target = player_on_record(code, CorrectionError)
    if target.id == holder.surviving().id:
        raise CorrectionError(f"expected another player: side {side} is {target.ref}'s already")
    if other is not None and target.id == other.surviving().id:
        raise CorrectionError(f"expected a player other than his opponent, got {target.ref}")
    name = f"player{side}"
    game_ = shown(game)
    lines = [
        f"In {game_.title} ({game_.result_label}), side {side} was played by "
        f"{target.name} ({target.ref}), not {holder.name} ({holder.ref}).",
        f"The game, its result and colour count for {target.ref} and no longer for {holder.ref}.",
        _reaches(game) if game.graded else "The game is not graded: no grade changes.",
    ]
    what = (
        f"Game {game_.title}: played by {target.name} ({target.ref}), "
        f"not {holder.name} ({holder.ref})"
    )
    title = f"Give side {side} to {target.name} ({target.ref})"
    return Plan(title, what, tuple(lines), {name: target}, {name: holder.ref}, {name: target.ref})


def _sides(game: Game, side: int) -> tuple[Player | None, Player | None]:
    return (game.player1, game.player2) if side == 1 else (game.player2, game.player1)


def _reaches(game: Game) -> str:
    """Which versions read the corrected game: the next computed of each list whose
    latest period holds its date (G3, G32); a published version never changes (G26)."""
    if game.rate not in _RATES:
        return "Its event is not graded: no list reads it."
    rate = Rate(game.rate)
    lists = _lists_holding(game.game_date, rate)
    line = (
        f"The next version computed of {_lists(rate, lists)} (whose latest period holds "
        f"{_day(game.game_date)}) reads it as corrected."
    )
    done = [list_id for list_id in lists if versions.published(list_id, rate)]
    if done:
        line += (
            f" A published version never changes (G26): {_lists(rate, done)} carries the "
            "correction in a revision (revN), computed and published."
        )
    return line


def _lists(rate: Rate, lists: list[ListId]) -> str:
    """'the standard list 2013-07', 'the standard lists 2013-07 and 2014-01'."""
    plural = "s" if len(lists) > 1 else ""
    return f"the {rate} list{plural} {' and '.join(str(list_id) for list_id in lists)}"


def _lists_holding(day: dt.date, rate: Rate) -> list[ListId]:
    found = [ListId.grading(day, rate)]
    while day in found[-1].next(rate).p0():
        found.append(found[-1].next(rate))
    return found


def _correctable(game: Game) -> None:
    if game.not_graded_reason in _FINAL:
        label = NotGradedReason(game.not_graded_reason).label.lower()
        raise CorrectionError(
            f"expected a game on record to correct: game {game.id} is {label}",
            kind=ErrorKind.CONFLICT,
        )


def _game(game_id: int, *, locked: bool = False) -> Game:
    games = Game.objects.select_related("event", "player1", "player2", "pending1", "pending2")
    if locked:
        games = games.select_for_update(of=("self",))
    found = games.filter(id=game_id).first()
    if found is None:
        raise NotFound(f"expected the number of a game on record, got {game_id}")
    return found


def _about(game: Game, asked: Asked) -> Player | None:
    """The player an amendment names: the query's, when he played the game; else the
    first identified side (after the change)."""
    sides = [p.surviving() for p in (game.player1, game.player2) if p is not None]
    if asked.query:
        named = query(asked.query).player
        if named is not None and any(p.id == named.surviving().id for p in sides):
            return named.surviving()
    return sides[0] if sides else None


# -- a player's details -----------------------------------------------------------------


def preview_details(code: str, details: Details) -> Preview:
    player = player_on_record(code, CorrectionError)
    return _details_plan(player, details).preview


def correct_details(code: str, details: Details, asked: Asked) -> Corrected:
    """The player's record holds ``details``; his club, if one is given, is added for
    this season (in place of ``replacing``, ended today). Importers see the change."""
    why = _why(asked)
    with busy_as_error(f"correcting the details of {code}"), transaction.atomic():
        take_registry_lock()  # it changes who is who, as importers match names
        player = Player.objects.select_for_update().get(id=player_on_record(code).id)
        plan = _details_plan(player, details)
        fields = dict(plan.fields)
        if player.date_of_birth is None and fields.get("date_of_birth") is not None:
            fields["born_noted_at"] = timezone.now()  # learnt now: a replay reads it after
        for name, value in fields.items():
            setattr(player, name, value)
        if fields:
            player.save(update_fields=list(fields))
        _rejoin(player, details)
        note_changed([player.id])
        record_change(
            "player.details", player, before=plan.before, after=plan.after, user=asked.user,
            actor=asked.actor, why=why, player=player.ref,
        )  # fmt: skip
        return _recorded(plan.what, asked, player=player)


def _details_plan(player: Player, details: Details) -> Plan:
    wanted = _valid(player, details)
    fields = {k: v for k, v in wanted.items() if getattr(player, k) != v}
    before = {k: _plain(getattr(player, k)) for k in fields}
    after = {k: _plain(v) for k, v in fields.items()}
    club = _club_change(player, details)
    if not fields and club is None:
        raise CorrectionError(f"expected a change to {player.ref}'s details: they are as given")
    lines = [_detail_line(k, before[k], after[k]) for k in fields]
    words = [_detail_words(k, before[k], after[k]) for k in fields]
    if club is not None:
        (club_line, club_words, was, now) = club
        lines.append(club_line)
        words.append(club_words)
        before, after = before | {"club": was}, after | {"club": now}
    lines.append("Importers match his name as it now is; public pages show it at once.")
    what = f"Details of {player.name} ({player.ref}) corrected: {'; '.join(words)}"
    return Plan(f"Correct the details of {player.ref}", what, tuple(lines), fields, before, after)


def _valid(player: Player, details: Details) -> dict[str, Any]:
    """The details as fields of his record, checked by the record's own rules."""
    wanted: dict[str, Any] = {
        "surname": details.surname.strip(),
        "forenames": details.forenames.strip(),
        "sex": details.sex.strip().upper(),
        "date_of_birth": details.date_of_birth,
        "fide_id": details.fide_id,
        "membership_no": details.membership_no.strip(),
        "nation": details.nation.strip().upper(),
    }
    if not wanted["surname"]:
        raise CorrectionError("expected a surname, got nothing")
    if details.date_of_birth is not None and details.date_of_birth > timezone.localdate():
        raise CorrectionError(f"expected a date of birth in the past, got {details.date_of_birth}")
    copy = Player(**{k: getattr(player, k) for k in ("code", *DETAIL_FIELDS)} | wanted)
    try:
        copy.clean_fields(exclude=["code", "name_key", "merged_into"])
    except ValidationError as bad:
        shown_ = "; ".join(f"{k}: {' '.join(v)}" for k, v in bad.message_dict.items())
        raise CorrectionError(f"expected details the record can hold: {shown_}") from None
    return wanted


def _detail_line(name: str, was: Any, now: Any) -> str:
    word = _WORDS.get(name, name)
    return f"His {word} becomes {_text(now)} (was {_text(was)})."


def _detail_words(name: str, was: Any, now: Any) -> str:
    """The public words: a private value is named, never shown."""
    word = _WORDS.get(name, name)
    if name in PRIVATE:
        return f"{word} (private)"
    return f"{word} {_text(was)} → {_text(now)}"


def _club_change(player: Player, details: Details) -> tuple[str, str, str, str] | None:
    """(preview line, public words, club before, club after) when a club is given."""
    if not details.club.strip():
        if details.replacing is not None:
            raise CorrectionError("expected the club that replaces his membership, got nothing")
        return None
    club = _club(details.club)
    ended = _membership(player, details.replacing)
    current = ClubMembership.objects.filter(player=player, club=club, ended_on__isnull=True)
    if current.exists() and ended is None:
        raise CorrectionError(f"expected a club he is not shown in: {player.ref} is in {club}")
    season = season_of(clock.today())  # the site's season (a demo's world is 2015)
    instead = f" in place of {ended.club} (ended today)" if ended else ""
    line = f"He plays for {club} from the {season - 1}-{season % 100:02d} season{instead}."
    words = f"club {ended.club} → {club}" if ended else f"club {club} added"
    return line, words, str(ended.club) if ended else "", str(club)


def _club(text: str) -> Club:
    wanted = text.strip()
    by_code = Club.objects.filter(code__iexact=wanted).first()
    if by_code is not None:
        return by_code
    named = list(Club.objects.filter(name__iexact=wanted, merged_into__isnull=True)[:3])
    if len(named) == 1:
        return named[0]
    if named:
        codes = ", ".join(c.code or "no code" for c in named)
        raise CorrectionError(f"expected one club: several are named {wanted!r} ({codes})")
    raise CorrectionError(f"expected the code or name of a club on record, got {wanted!r}")


def _membership(player: Player, membership_id: int | None) -> ClubMembership | None:
    if membership_id is None:
        return None
    found = (
        ClubMembership.objects.select_related("club")
        .filter(id=membership_id, player=player, ended_on__isnull=True)
        .first()
    )
    if found is None:
        raise CorrectionError(
            f"expected one of {player.ref}'s current memberships, got {membership_id}"
        )
    return found


def _rejoin(player: Player, details: Details) -> None:
    """The club given, for this season; the membership it replaces ends today."""
    if not details.club.strip():
        return
    today = timezone.localdate()
    ended = _membership(player, details.replacing)
    if ended is not None:
        ended.ended_on = today
        ended.save(update_fields=["ended_on"])
    season = season_of(clock.today())
    joined, made = ClubMembership.objects.get_or_create(
        player=player,
        club=_club(details.club),
        defaults={"first_season": season, "last_season": season},
    )
    if not made:
        joined.last_season, joined.ended_on = max(joined.last_season, season), None
        joined.save(update_fields=["last_season", "ended_on"])


# -- shared -----------------------------------------------------------------------------


def _recorded(
    what: str,
    asked: Asked,
    *,
    player: Player | None,
    event: Any = None,
    rate: str = "",
) -> Corrected:
    """The amendment, and the query's answer saying what changed (in the caller's
    transaction)."""
    noted = None
    if asked.query:
        noted = queries.note_correction(
            asked.query, what, user=asked.user, status_url=asked.status_url
        )
    amendment = record_amendment(
        what=what,
        why=asked.why.strip(),
        user=asked.user,
        actor=asked.actor,
        player=player,
        event=event,
        rate=rate,
        feedback=noted.feedback if noted else None,
    )
    ref = noted.feedback.ref if noted else ""
    return Corrected(what, amendment, ref, noted.mailed if noted else False)


def _why(asked: Asked) -> str:
    why = asked.why.strip()
    if not why:
        raise CorrectionError(
            "expected a reason (why), shown with the correction on the amendments page"
        )
    return why


def _label(result: str) -> str:
    return _RESULTS.get(result, result)


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def _text(value: Any) -> str:
    return "(none)" if value in (None, "") else str(value)


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"
