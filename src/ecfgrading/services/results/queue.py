"""The pending-identification queue's decision: link a doubtful player to one on record,
or put him on record as new. The queue as listed is ``lookups.identification``.

A decision is taken for every open case of the same person (the file's spelling, club
and event: ``lookups.identification.same_person``) and remembered for later files
(``services.results.remembered``); cases whose file is superseded close themselves.
Many decisions are taken in one session (``deciding``): the demo's grading team decides
ten thousand a national season, each as ``resolve`` would alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.engine.periods import season_of
from ecfgrading.lookups.identification import same_person
from ecfgrading.registry.bulk import IN_CHUNK, update_rows
from ecfgrading.registry.models import (
    AuditLog,
    Game,
    NameAlias,
    PendingIdentification,
    Player,
    Submission,
)
from ecfgrading.registry.numbering import (
    code_held,
    issue_code,
    player_on_record,
    players_holding,
)
from ecfgrading.services.changes import note_changed
from ecfgrading.services.errors import ErrorKind, ServiceError
from ecfgrading.services.locks import busy_as_error, take_registry_lock
from ecfgrading.services.people import from_case, insert_new_players, normalise
from ecfgrading.services.results.registry_cache import RegistryCache
from ecfgrading.services.results.remembered import Decided, remember_cases

# A case's status and how its decision is remembered (values: choices type as tuples).
_CREATED = (str(PendingIdentification.Status.CREATED), str(NameAlias.Decision.NEW))
_LINKED = (str(PendingIdentification.Status.LINKED), str(NameAlias.Decision.LINK))


class PendingError(ServiceError):
    """A decision that cannot be carried out (unknown case or player, already decided)."""


def resolve(
    case_id: int,
    *,
    code: str | None = None,
    create: bool = False,
    user: Any = None,
    actor: str = "",
) -> Player:
    """Link a case to the player holding ``code``, or create a new player (G28 code),
    with the other open cases of the same person; the decision is remembered."""
    _check_choice(code, create)
    with deciding(f"deciding case {case_id}", user=user, actor=actor) as decide:
        return decide.resolve(case_id, code=code, create=create)


def _check_choice(code: str | None, create: bool) -> None:
    if (code is None) == (not create):
        raise PendingError(
            "expected either a grading code to link the case to or a new player, "
            "not both or neither"
        )


@contextmanager
def deciding(
    what: str = "deciding cases", *, user: Any = None, actor: str = ""
) -> Iterator[Deciding]:
    """Decisions taken one after another under one registry lock, in one transaction,
    as ``resolve`` takes one: each has the outcome it would have alone, in the order
    taken, audit included. What the next decision does not need to read (games, cases,
    audit, remembered decisions, change notes) is written at the end, set-based. A
    refused decision (PendingError) changes nothing; the others stand."""
    with busy_as_error(what), transaction.atomic():
        take_registry_lock()  # it changes who is on record: one such writer at a time
        session = Deciding(user, actor)
        yield session
        session.flush()


class Deciding:
    """The open cases of the events touched so far, with their waiting games, as the
    decisions taken left them; and the writes still to do. See ``deciding``."""

    def __init__(self, user: Any, actor: str) -> None:
        self.user, self.actor = user, actor
        self._cases: dict[int, PendingIdentification] = {}
        self._by_event: dict[int, list[PendingIdentification]] = {}  # oldest first
        self._games: dict[int, list[int]] = {}  # case -> its waiting games
        self._sides: dict[int, list[Any]] = {}  # game -> [player1, player2, pending1, pending2]
        self._players: dict[str, Player] = {}  # code -> surviving player on record
        self._clubs: RegistryCache | None = None
        self._members_loaded: set[int] = set()
        self._linked: dict[int, tuple[int, int]] = {}  # game -> player1, player2
        self._closed: list[PendingIdentification] = []
        self._audit: list[AuditLog] = []
        self._remembered: list[Decided] = []
        self._changed: list[int] = []

    def resolve(self, case_id: int, *, code: str | None = None, create: bool = False) -> Player:
        """``resolve``'s decision, taken in this session."""
        _check_choice(code, create)
        cases = self._same_person(self._open_case(case_id))
        player = _new_player(cases[0]) if create else self._player(code or "")
        if create:
            self._members_loaded.add(player.id)  # new: none to load
        self._link_games(cases, player)
        self._join_club(cases[0], player)  # one person: one spelling, one club
        self._changed.append(player.id)
        status, how = _CREATED if create else _LINKED
        for case in cases:
            self._close(case, status, player)
        self._remembered.append((cases, player, how))
        return player

    # -- the cases and their games, loaded an event at a time --------------------------

    def load_open(self) -> int:
        """Load every open case and its waiting games at once, as the first case of
        each event would (for deciding the whole queue); the number of cases."""
        found = _locked().filter(status=PendingIdentification.Status.OPEN)
        cases = [one for one in sorted(found, key=_age) if one.id not in self._cases]
        for case in cases:
            self._cases[case.id] = case
            event = case.submission.event_id
            if event is not None:
                self._by_event.setdefault(event, []).append(case)
        self._load_games([case.id for case in cases])
        return len(cases)

    def _open_case(self, case_id: int) -> PendingIdentification:
        case = self._cases.get(case_id) or self._load(case_id)
        if case.status == PendingIdentification.Status.SUPERSEDED:
            raise PendingError(
                f"case {case_id} is closed: a later submission of its event replaced its file",
                kind=ErrorKind.CONFLICT,
            )
        if not _is_open(case):
            raise PendingError(
                f"case {case_id} was already decided ({case.status})", kind=ErrorKind.CONFLICT
            )
        return case

    def _load(self, case_id: int) -> PendingIdentification:
        """The case; the first of its event also loads (locked: decided once) the
        event's open cases, those of its person among them, and their waiting games."""
        found = _locked().filter(id=case_id).first()
        if found is None:
            raise PendingError(
                f"expected the number of an open identification case, got {case_id}",
                kind=ErrorKind.NOT_FOUND,
            )
        self._cases[found.id] = found
        event = found.submission.event_id
        if event is None or event in self._by_event:
            self._load_games([found.id])
            return found
        opened = _locked().filter(submission__event=event, status=PendingIdentification.Status.OPEN)
        cases = sorted([found, *(one for one in opened if one.id != found.id)], key=_age)
        self._by_event[event] = cases
        self._cases.update((one.id, one) for one in cases)
        self._load_games([one.id for one in cases])
        return found

    def _load_games(self, ids: list[int]) -> None:
        ids = [pk for pk in ids if pk not in self._games]
        for start in range(0, len(ids), IN_CHUNK):
            part = ids[start : start + IN_CHUNK]
            self._games.update((pk, []) for pk in part)
            rows = (
                Game.objects.filter(Q(pending1__in=part) | Q(pending2__in=part))
                .order_by()
                .values_list("id", "player1_id", "player2_id", "pending1_id", "pending2_id")
            )
            for game, *sides in rows:
                if game in self._sides:
                    continue  # both sides waiting, loaded with the first
                self._sides[game] = sides
                for pending in {sides[2], sides[3]} - {None}:
                    self._games.setdefault(pending, []).append(game)

    def _same_person(self, case: PendingIdentification) -> list[PendingIdentification]:
        """``lookups.identification.same_person_cases`` over the cases loaded: itself
        first, then the other open cases of its person, oldest first, that did not play
        him."""
        event = case.submission.event_id
        if event is None:
            return [case]
        key = same_person(case)
        played = {pk for game in self._games[case.id] for pk in self._sides[game][2:]}
        others = (one for one in self._by_event[event] if _is_open(one) and one.id not in played)
        return [case, *(one for one in others if one.id != case.id and same_person(one) == key)]

    def expect(self, codes: Iterable[str]) -> None:
        """The players on record these codes name, and their clubs, read at once: the
        decisions about to link cases to them read neither again (a national demo links
        thousands). A code not read so (malformed, an alias, a merged record's, no one's)
        is looked up when a decision names it, as before."""
        numbers: dict[int, str] = {}
        for code in codes:
            try:
                numbers[GradingCode.parse(code).number] = code
            except InvalidCode:
                continue
        held = players_holding(numbers)
        for number, player in held.items():
            self._players.setdefault(numbers[number], player)
        self._load_memberships({player.id for player in held.values()})

    def _player(self, code: str) -> Player:
        if code not in self._players:
            self._players[code] = player_on_record(code, PendingError)
        return self._players[code]

    def _link_games(self, cases: list[PendingIdentification], player: Player) -> None:
        ids = {case.id for case in cases}
        games = [game for case in cases for game in self._games[case.id]]
        for game in games:
            one, two, pending1, pending2 = self._sides[game]
            if (pending1 in ids and two == player.id) or (pending2 in ids and one == player.id):
                raise PendingError(
                    f"{player.ref} is the opponent in this player's games: not the same",
                    kind=ErrorKind.CONFLICT,
                )
        for game in games:
            sides = self._sides[game]
            sides[0] = player.id if sides[2] in ids else sides[0]
            sides[1] = player.id if sides[3] in ids else sides[1]
            self._linked[game] = (sides[0], sides[1])

    def _join_club(self, case: PendingIdentification, player: Player) -> None:
        """The club the file gave joins the player's memberships, as an import would."""
        if not (case.club_code or case.club_name):
            return
        clubs = self._load_memberships({player.id})
        club = clubs.club(case.club_code, case.club_name, "")
        event = case.submission.event
        if event is not None:
            clubs.note_memberships({(player.id, club)}, season_of(event.end_date))

    def _load_memberships(self, players: set[int]) -> RegistryCache:
        """The clubs, and these players' memberships, known to the session from now on."""
        if self._clubs is None:
            self._clubs = RegistryCache.load_clubs()
        self._clubs.load_memberships_of(players - self._members_loaded)
        self._members_loaded |= players
        return self._clubs

    def _close(self, case: PendingIdentification, status: str, player: Player) -> None:
        case.status, case.resolved_player = status, player
        case.resolved_by, case.resolved_at = self.user, timezone.now()
        self._closed.append(case)
        self._audit.append(
            AuditLog(
                action="resolve identification",
                user=self.user,
                actor=self.actor,
                object_type=case._meta.label_lower,
                object_id=str(case.pk),
                details={"player": player.ref},
            )
        )

    # -- the writes left ---------------------------------------------------------------

    def flush(self) -> None:
        """The games, cases, audit entries, remembered decisions and change notes of the
        decisions taken, in the order taken."""
        games = ((one, two, game) for game, (one, two) in self._linked.items())
        update_rows(Game, ("player1_id", "player2_id"), games)
        update_rows(PendingIdentification, _CLOSING, (_closing(case) for case in self._closed))
        AuditLog.objects.bulk_create(self._audit)
        remember_cases(self._remembered, self.user)
        note_changed(self._changed)
        self._linked, self._closed, self._audit, self._remembered, self._changed = (
            {},
            [],
            [],
            [],
            [],
        )


_CLOSING = ("status", "resolved_player_id", "resolved_by_id", "resolved_at")


def _closing(case: PendingIdentification) -> tuple[Any, ...]:
    """A row for ``update_rows``: the columns a decision sets (``_CLOSING``), then the id."""
    by = getattr(case.resolved_by, "pk", None)
    at = connection.ops.adapt_datetimefield_value(case.resolved_at)
    return (case.status, case.resolved_player_id, by, at, case.id)


def _locked() -> QuerySet[PendingIdentification]:
    """The cases with their file's event, not the file's bytes and report: each case would
    hold a copy of them (the national demo's whole queue, 250 MB)."""
    return (
        PendingIdentification.objects.select_for_update(of=("self",))
        .select_related("submission__event")
        .defer("submission__raw", "submission__report")
    )


def _age(case: PendingIdentification) -> tuple[Any, int]:
    """Oldest first, as the queue lists them: by the file's receipt, then PIN."""
    return (case.submission.received_at, case.pin)


def _is_open(case: PendingIdentification) -> bool:
    return case.status == PendingIdentification.Status.OPEN


def close_superseded(earlier: QuerySet[Submission]) -> int:
    """The open cases of submissions a later file of their event replaced close
    themselves, saying so: their games are no longer graded (issue 24, case 3)."""
    return PendingIdentification.objects.filter(
        submission__in=earlier, status=PendingIdentification.Status.OPEN
    ).update(status=PendingIdentification.Status.SUPERSEDED, resolved_at=timezone.now())


def _new_player(case: PendingIdentification) -> Player:
    """A new player keeps the well-formed code his file gave, if no one holds it (G28).

    The case holds details its file's import normalised and reported on; normalising
    them again gives the same record any import would.
    """
    details, _ = normalise(from_case(case))
    return insert_new_players([details.new_player(_code_for(case))])[0]


def _code_for(case: PendingIdentification) -> int:
    try:
        given = GradingCode.parse(case.code_text) if case.code_text else None
    except InvalidCode:
        given = None
    if given is not None and not code_held(given.number):
        return given.number  # held now, so the sequence will skip it
    return issue_code().number
