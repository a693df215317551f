"""Which player on record a results file means: the issue's "Identification" rules.

Pure: no Django, no database. The import service loads the records in bulk into a
``RecordIndex``, asks ``identify`` about each player of a file, writes what the
decisions say, and adds every player it creates to the index so that a later file of
the same batch finds him.

In order: a grading code whose holder's name agrees links; one whose holder's name
disagrees is an error. A well-formed code not on record (the records are older than
the system, and a published list holds only graded players) creates the player with
that code, unless a player of the same name is on record: then a person decides.
Without a code, records are scored by name, club and date of birth: one strong
candidate links, none creates a player with a new code (G28), anything else is queued.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from enum import Enum

from ecfgrading.engine.codes import GradingCode
from ecfgrading.formats.names import full_name
from ecfgrading.formats.results_model import PlayerEntry
from ecfgrading.matching.names import (
    Agreement,
    PersonName,
    SurnameSet,
    first_forenames_may_agree,
    fold_club,
    fold_club_code,
    forename_agreement,
    name_from_fields,
    names_agree,
    parse_name,
    similar_to_any,
)
from ecfgrading.pickled import by_fields

# -- values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchPolicy:
    """Thresholds and points of the name score (0..100), with the cases that fixed them.

    Exact surname and the same forenames make 80: a lone John Smith links, but not one
    of another club (70: players move, yet namesakes abound). A club in common makes 95,
    so of two John Smiths of different clubs the club picks one (95 against 70); without
    a club they tie at 80 and are queued. 'Bloggs, J' makes 60 and is queued unless the
    club (75) or the date of birth (85) agrees.
    """

    # At or above this a candidate may be linked without a person looking.
    link_score: int = 75
    # Below this a record is no candidate: 'Smith' without forenames at another club (40).
    queue_score: int = 45
    # The best must lead the second by this much: 95 against 80 (a John Smith whose club
    # is unknown) links, 80 against 70 (one at another club) does not.
    margin: int = 15
    # rapidfuzz ratio for another surname to be looked at: 'Smith'/'Smyth' is 80,
    # 'Bloggs'/'Blogs' 91; used only when the surname as written finds nobody.
    surname_cutoff: float = 80.0
    fuzzy_surnames: int = 20  # the most similar surnames looked at
    # An exact surname earns all of these; a similar one a share falling to 0 at the
    # cutoff, so 'Blogs, Joe' at Bloggs' club (72) is queued, never linked, unless the
    # date of birth agrees too.
    surname_points: int = 50
    same_forenames: int = 30  # 'John Robert' / 'John Robert'
    same_first_forename: int = 25  # 'John' / 'John R'
    consistent_initials: int = 10  # 'J' / 'John': common, so it needs club or birth
    unknown_forenames: int = 0
    similar_forename: int = 5  # 'Jon' / 'John': enough to queue, never to link
    club_agrees: int = 15  # a club code or folded club name in common
    club_differs: int = -10  # small: players change clubs
    birth_agrees: int = 25  # a different date of birth rules the record out

    def __post_init__(self) -> None:
        if not 0 <= self.queue_score <= self.link_score <= 100:
            raise ValueError(
                "expected 0 <= queue_score <= link_score <= 100, "
                f"got {self.queue_score} and {self.link_score}"
            )
        if not 0 < self.surname_cutoff < 100:
            raise ValueError(
                f"expected a surname_cutoff between 0 and 100, got {self.surname_cutoff}"
            )

    def surname_score(self, similarity: float) -> float:
        share = (similarity - self.surname_cutoff) / (100.0 - self.surname_cutoff)
        return self.surname_points * min(1.0, max(0.0, share))

    def forename_score(self, agreement: Agreement) -> int:
        """Points for forenames short of a CONFLICT, which rules the record out."""
        if agreement is Agreement.SAME:
            return self.same_forenames
        if agreement is Agreement.FIRST:
            return self.same_first_forename
        if agreement is Agreement.INITIALS:
            return self.consistent_initials
        if agreement is Agreement.SIMILAR:
            return self.similar_forename
        return self.unknown_forenames


DEFAULT_POLICY = MatchPolicy()


@dataclass(frozen=True, slots=True)  # a national index holds 60,000
class PlayerRecord:
    """A player on record, as the import service loads it.

    ``club_names`` may be given as stored: the index folds them with ``fold_club``.
    """

    id: int
    code: int | None
    surname: str
    forenames: str = ""
    club_codes: frozenset[str] = frozenset()
    club_names: frozenset[str] = frozenset()
    date_of_birth: date | None = None

    @property
    def written(self) -> str:
        """'Surname, Forenames', as the results file and the published list write it."""
        return full_name(self.surname, self.forenames)

    def with_clubs(self, codes: frozenset[str], names: frozenset[str]) -> PlayerRecord:
        """The record with these clubs (``dataclasses.replace`` costs three times as much,
        and an import makes a season's players anew as they join clubs: issue 25)."""
        return PlayerRecord(
            self.id, self.code, self.surname, self.forenames, codes, names, self.date_of_birth
        )

    def describe(self) -> str:
        """'Bloggs, Joe' 261619B, for messages (never the date of birth: it is private)."""
        held = str(GradingCode(self.code)) if self.code is not None else f"player {self.id}"
        return f"'{self.written}' {held}"


@by_fields
@dataclass(frozen=True)
class Received:
    """A player as a results file gives him, folded for comparison."""

    written: str  # the name as written, for messages
    name: PersonName
    code: GradingCode | None = None
    club_code: str = ""
    club_name: str = ""  # folded
    date_of_birth: date | None = None

    @classmethod
    def from_entry(cls, entry: PlayerEntry) -> Received:
        """NAME when given, else SURNAME/FORENAME/INITIALS.

        A code of the wrong shape or with a wrong check letter has no ``entry.code``:
        the file check rejects the file before anyone is identified.
        """
        if entry.name:
            name = parse_name(entry.name)
        else:
            name = name_from_fields(entry.surname, entry.forename, entry.initials)
        return cls(
            written=entry.full_name,
            name=name,
            code=entry.code,
            club_code=fold_club_code(entry.club_code),
            club_name=fold_club(entry.club_name),
            date_of_birth=entry.date_of_birth,
        )


class DecisionKind(Enum):
    LINK = "link"  # the player is ``player_id``
    CREATE_WITH_CODE = "create with code"  # a new player holding ``code``
    CREATE_NEW = "create new"  # a new player with a newly issued code (G28)
    PENDING = "pending"  # the queue: a person chooses among ``candidates``
    CODE_NAME_MISMATCH = "code name mismatch"  # an error: ``code`` is ``player_id``'s


@by_fields
@dataclass(frozen=True)
class Decision:
    """What to do with one player of a file; ``messages`` go in the import report."""

    kind: DecisionKind
    player_id: int | None = None
    code: GradingCode | None = None
    candidates: tuple[tuple[int, int], ...] = ()  # (player id, score), best first
    messages: tuple[str, ...] = ()
    # Made by name after looking under similar surnames (none plausible under the name as
    # written): what the decision read, not what it says, so decisions compare without it.
    similar: bool = field(default=False, compare=False)


# -- the index ---------------------------------------------------------------------------


class ChangeLog:
    """What changed in an index while any watch was open, noted once for all of them.

    Each change appends its surname keys (each with the first initial of the record
    noted under it) and codes; a watch is where the log stood when it opened (and,
    closed, where it stood then). For an open watch, whether a key, a key and initial, or
    a code changed since it opened is one look-up in ``surname_at``, ``initial_at`` or
    ``code_at``, the position of each one's latest change. A turn's files all watch the
    index: noting each change in each watch cost as many set insertions as files waiting
    (issue 25)."""

    def __init__(self) -> None:
        self.surnames: list[str] = []
        self.codes: list[int] = []
        self.surname_at: dict[str, int] = {}  # surname key -> its latest place in surnames
        # The first initial ('' for none) of each record noted under its key, and (key,
        # initial) -> its latest place.
        self.initials: list[str] = []
        self.initial_at: dict[tuple[str, str], int] = {}
        self.code_at: dict[int, int] = {}  # code -> its latest place in codes

    def surname(self, key: str, initial: str) -> None:
        """A record under ``key`` changed, whose first forename begins with ``initial``."""
        at = len(self.surnames)
        self.surname_at[key] = at
        self.initial_at[key, initial] = at
        self.surnames.append(key)
        self.initials.append(initial)

    def code(self, code: int) -> None:
        self.code_at[code] = len(self.codes)
        self.codes.append(code)


class IndexChanges:
    """What changes to an index touched while it was watched (``RecordIndex.watch``).

    ``surnames``: the surname key of every record added, removed or replaced, as it was
    and as it is now. ``codes``: every code whose holder is another record now, or none,
    or holds it under another name or date of birth (a record replaced only for its clubs
    keeps its codes out of it: deciding by code never reads clubs).

    Identifying an entry reads the holder of its code; without one, or when no one holds
    it, the records under its surname key; and only when those give no plausible
    candidate, the records under similar surname keys (``Decision.similar``). So a
    decision none of whose reads the changes touched is made again the same.
    """

    def __init__(self, log: ChangeLog, start: tuple[int, int] | None = None) -> None:
        self._log = log
        self._from = start if start is not None else (len(log.surnames), len(log.codes))
        self._to: tuple[int, int] | None = None  # where the log stood when closed
        self._sets: tuple[set[str], set[int], set[tuple[str, str]]] | None = None

    @property
    def surnames(self) -> set[str]:
        return set(self._log.surnames[self._from[0] : self._ends()[0]])

    @property
    def codes(self) -> set[int]:
        return set(self._log.codes[self._from[1] : self._ends()[1]])

    @property
    def initialled(self) -> set[tuple[str, str]]:
        """(surname key, first initial) of every record ``surnames`` noted."""
        start, end, log = self._from[0], self._ends()[0], self._log
        return set(zip(log.surnames[start:end], log.initials[start:end], strict=True))

    def __bool__(self) -> bool:
        return self._ends() != self._from

    @property
    def start(self) -> tuple[int, int]:
        """Where in the log the watch begins."""
        return self._from

    @property
    def log(self) -> ChangeLog:
        return self._log

    def clear(self) -> None:
        """Nothing changed so far: watched from now on."""
        self._from = self._ends()
        self._sets = None

    def close(self) -> None:
        self._to = self._ends()

    def _ends(self) -> tuple[int, int]:
        return self._to or (len(self._log.surnames), len(self._log.codes))

    def _has_surname(self, key: str) -> bool:
        if self._to is None:
            return self._log.surname_at.get(key, -1) >= self._from[0]
        return key in self._seen()[0]

    def _has_initial(self, key: str, initial: str) -> bool:
        if self._to is None:
            return self._log.initial_at.get((key, initial), -1) >= self._from[0]
        return (key, initial) in self._seen()[2]

    def _has_code(self, code: int) -> bool:
        if self._to is None:
            return self._log.code_at.get(code, -1) >= self._from[1]
        return code in self._seen()[1]

    def _seen(self) -> tuple[set[str], set[int], set[tuple[str, str]]]:
        """A closed watch's keys, codes and keys with initials, gathered once when first
        asked."""
        if self._sets is None:
            self._sets = (self.surnames, self.codes, self.initialled)
        return self._sets

    def concern(self, entry: Received, decision: Decision, policy: MatchPolicy) -> bool:
        """Whether identifying ``entry`` again could give other than ``decision``, which
        identification gave before the changes."""
        if entry.code is not None:
            if self._has_code(entry.code.number):
                return True
            if decision.kind in _BY_HOLDER:
                return False  # only the holder was read, and he is as he was
        key = entry.name.surname
        if not key:
            return False  # no name to look up: nothing was read
        first = entry.name.first_forename
        if first and not decision.similar:
            # Only the records under the key whose first forename begins as the entry's,
            # or who have none, were read (RecordIndex._named): a new Smith, Mary does
            # not concern Smith, John. A season's new players fall under the commonest
            # surnames again and again (issue 25).
            return self._has_initial(key, first[0]) or self._has_initial(key, "")
        if self._has_surname(key):
            return True
        if not decision.similar:
            return False
        if self._ends()[0] - self._from[0] > _COMPARED_AT_MOST:
            return True  # identified again: its search of similar surnames is indexed
        return similar_to_any(key, self.surnames, policy.surname_cutoff)


# Surname keys changed beyond which a decision made on similar surnames is taken to be
# concerned rather than its key compared with each: a watch open for a batch (the
# reading process's, services.results.reading) sees a whole season's changes.
_COMPARED_AT_MOST = 4096


# Decisions made on the holder of the code alone.
_BY_HOLDER = frozenset({DecisionKind.LINK, DecisionKind.CODE_NAME_MISMATCH})


@dataclass(frozen=True, slots=True)
class _Known:
    """A record with its name and clubs folded once, when indexed."""

    record: PlayerRecord
    name: PersonName
    club_codes: frozenset[str]
    club_names: frozenset[str]

    @classmethod
    def of(cls, record: PlayerRecord, sets: _SharedSets) -> _Known:
        return cls(
            record=record,
            name=name_from_fields(record.surname, record.forenames),
            club_codes=sets.folded(record.club_codes, fold_club_code),
            club_names=sets.folded(record.club_names, fold_club),
        )


class _SharedSets:
    """One frozenset object for each distinct set of clubs, as given and as folded.

    Most players on record have one club, the same set as every other member's: a
    national index's 60,000 records held four sets of their own each (216 bytes even for
    one club), 50 MB where a few thousand shared sets do.
    """

    def __init__(self) -> None:
        self._sets: dict[frozenset[str], frozenset[str]] = {}
        # (fold, a set) -> the set folded: each distinct set folded once, not once a
        # record (a sixth of a national index's load, issue 25).
        self._folded: dict[tuple[Callable[[str], str], frozenset[str]], frozenset[str]] = {}

    def shared(self, values: frozenset[str]) -> frozenset[str]:
        return self._sets.setdefault(values, values)

    def folded(self, values: frozenset[str], fold: Callable[[str], str]) -> frozenset[str]:
        key = (fold, values)
        found = self._folded.get(key)
        if found is None:
            found = self._folded[key] = self.shared(frozenset(map(fold, values)))
        return found

    def record(self, record: PlayerRecord) -> PlayerRecord:
        """``record`` with shared sets (the very record when it has them already)."""
        codes, names = self.shared(record.club_codes), self.shared(record.club_names)
        if codes is record.club_codes and names is record.club_names:
            return record
        return record.with_clubs(codes, names)


def _same_name(before: PlayerRecord, after: PlayerRecord) -> bool:
    """Whether the two are indexed alike but for their clubs and date of birth."""
    return (before.id, before.code, before.surname, before.forenames) == (
        after.id,
        after.code,
        after.surname,
        after.forenames,
    )


def _taken(code: int, holder: PlayerRecord, record: PlayerRecord) -> str:
    return (
        f"code {GradingCode(code)} already belongs to {holder.describe()}, not {record.describe()}"
    )


def _same_holder(before: PlayerRecord, after: PlayerRecord) -> bool:
    """Whether a decision by code reads the two alike: all but the clubs agree."""
    return (before.id, before.code, before.surname, before.forenames, before.date_of_birth) == (
        after.id,
        after.code,
        after.surname,
        after.forenames,
        after.date_of_birth,
    )


class RecordIndex:
    """Players on record by code, by surname key and first forename, and by similar surname.

    Mutable only through ``add``, ``add_alias``, ``replace`` and ``remove``: the players an
    import creates join it as it goes, and what other imports changed is brought in by
    ``replace`` (a record whose birth date or clubs changed) and ``remove`` (merged away).
    """

    def __init__(self) -> None:
        self._by_id: dict[int, _Known] = {}
        self._by_code: dict[int, _Known] = {}
        # Player id -> codes (own and aliases): a tuple, most often of one code (a set
        # each was 14 MB of a national index).
        self._codes_of: dict[int, tuple[int, ...]] = {}
        # Surname key -> first initial -> first forename -> records ('' for none): whole
        # groups of a common surname are passed over when their first forename conflicts.
        self._by_surname: dict[str, dict[str, dict[str, list[_Known]]]] = {}
        self._surnames = SurnameSet()
        self._watching: list[IndexChanges] = []  # every watch open, oldest first
        self._log = ChangeLog()  # what changed while any was open
        self._sets = _SharedSets()

    @classmethod
    def build(
        cls, records: Iterable[PlayerRecord], aliases: Mapping[int, int] | None = None
    ) -> RecordIndex:
        """Index ``records``; ``aliases`` maps a merged player's code to the survivor's id."""
        index = cls()
        for record in records:
            index.add(record)
        for code, player_id in (aliases or {}).items():
            index.add_alias(code, player_id)
        return index

    def __len__(self) -> int:
        return len(self._by_id)

    def add(self, record: PlayerRecord) -> None:
        if record.id in self._by_id:
            raise ValueError(f"expected a new player id, got {record.id} a second time")
        known = _Known.of(self._sets.record(record), self._sets)
        if record.code is not None:
            self._claim(record.code, known)
        if self._watching:
            self._log.surname(known.name.surname, known.name.first_forename[:1])
        self._by_id[record.id] = known
        self._group(known).append(known)
        self._surnames.add(known.name.surname)

    def replace(self, record: PlayerRecord) -> None:
        """The record as it now stands, keeping the codes that resolve to it."""
        before = self._by_id.get(record.id)
        held = set(self._codes_of.get(record.id, ()))
        watching = self._watching
        if before is not None and _same_name(before.record, record):
            self._swap(before, record)
        else:
            self._free_for(record)  # refused before anything is changed
            self._watching = []  # noted below, as one change
            try:
                self.remove(record.id)
                self.add(record)
                for code in held - {record.code}:
                    self._claim(code, self._by_id[record.id])
            finally:
                self._watching = watching
        if not watching:
            return
        # Noted once for every open watch (ChangeLog): a turn's files all watch, and a
        # season's first files replace most of their players (their clubs), issue 25.
        after = self._by_id[record.id].name
        noted = {(after.surname, after.first_forename[:1])}  # each key, with its initial
        if before is not None:
            noted.add((before.name.surname, before.name.first_forename[:1]))
        codes = (
            held.union(self._codes_of.get(record.id, ()))
            if before is None or not _same_holder(before.record, record)
            else None
        )
        for surname, initial in noted:
            self._log.surname(surname, initial)
        for code in codes or ():
            self._log.code(code)

    def _swap(self, before: _Known, record: PlayerRecord) -> None:
        """``record`` in the place of ``before``, of the same code and name: its name is
        not folded again, nor its group looked for (a player joining a club, the common
        change, is a quarter of an import's identification otherwise)."""
        after = _Known(
            record=self._sets.record(record),
            name=before.name,
            club_codes=self._sets.folded(record.club_codes, fold_club_code),
            club_names=self._sets.folded(record.club_names, fold_club),
        )
        self._by_id[record.id] = after
        for code in self._codes_of.get(record.id, ()):
            if self._by_code.get(code) is before:
                self._by_code[code] = after
        group = self._group(before)
        group[next(n for n, known in enumerate(group) if known is before)] = after

    def remove(self, player_id: int) -> None:
        """A record no longer on record by itself (merged into another); no-op if unknown."""
        known = self._by_id.pop(player_id, None)
        if known is None:
            return
        codes = self._codes_of.pop(player_id, ())
        for code in codes:
            if self._by_code.get(code) is known:
                del self._by_code[code]
        self._group(known).remove(known)
        if self._watching:
            self._log.surname(known.name.surname, known.name.first_forename[:1])
            for code in codes:
                self._log.code(code)

    @contextmanager
    def watch(self) -> Iterator[IndexChanges]:
        """What the changes made meanwhile touched."""
        changes = self.watching()
        try:
            yield changes
        finally:
            self.unwatch(changes)

    def watching(self) -> IndexChanges:
        """A watch that stays open until ``unwatch``: what changes touch from now on.
        Watches may overlap in any order (an importer's files waiting for their turn)."""
        changes = IndexChanges(self._log)
        self._watching.append(changes)
        return changes

    def watching_since(self, changes: IndexChanges) -> IndexChanges:
        """A watch of its own of what changes touched since ``changes``, open, began: for
        each file identified ahead on a copy of the index made when it began."""
        if changes.log is not self._log or not any(open_ is changes for open_ in self._watching):
            raise ValueError("expected a watch open on this index")
        since = IndexChanges(self._log, changes.start)
        self._watching.append(since)
        return since

    def unwatch(self, changes: IndexChanges) -> None:
        if not any(open_ is changes for open_ in self._watching):
            return
        changes.close()
        self._watching = [open_ for open_ in self._watching if open_ is not changes]
        if not self._watching:
            self._log = ChangeLog()  # none open: what the closed ones saw stays theirs

    def _group(self, known: _Known) -> list[_Known]:
        first = known.name.first_forename
        by_initial = self._by_surname.setdefault(known.name.surname, {})
        return by_initial.setdefault(first[:1], {}).setdefault(first, [])

    def add_alias(self, code: int, player_id: int) -> None:
        """A merged player's code keeps resolving to the surviving record."""
        survivor = self._by_id.get(player_id)
        if survivor is None:
            raise ValueError(
                f"expected the id of a player on record for alias {GradingCode(code)}, "
                f"got {player_id}"
            )
        self._claim(code, survivor)

    def has(self, player_id: int) -> bool:
        return player_id in self._by_id

    def record(self, player_id: int) -> PlayerRecord | None:
        known = self._by_id.get(player_id)
        return known.record if known else None

    def holder(self, code: int) -> PlayerRecord | None:
        known = self._by_code.get(code)
        return known.record if known else None

    def _claim(self, code: int, known: _Known) -> None:
        holder = self._by_code.get(code)
        if holder is not None and holder is not known:
            raise ValueError(_taken(code, holder.record, known.record))
        self._by_code[code] = known
        held = self._codes_of.get(known.record.id, ())
        if code not in held:
            self._codes_of[known.record.id] = (*held, code)
        if self._watching:
            self._log.code(code)

    def _free_for(self, record: PlayerRecord) -> None:
        """Raises, as ``_claim`` would, when the record's code belongs to another player:
        ``replace`` asks before it removes the record, so that a refused replacement
        leaves the index, and what its watches noted, as they were."""
        code = record.code
        holder = self._by_code.get(code) if code is not None else None
        if code is not None and holder is not None and holder.record.id != record.id:
            raise ValueError(_taken(code, holder.record, record))

    def _holding(self, code: int) -> _Known | None:
        return self._by_code.get(code)

    def _named(self, surname: str, first: str) -> Iterator[_Known]:
        """Records of this surname key whose forenames could agree with ``first``."""
        by_initial = self._by_surname.get(surname, {})
        for initial, by_first in by_initial.items():
            if first and initial and initial != first[0]:
                continue
            for theirs, group in by_first.items():
                if not first or not theirs or first_forenames_may_agree(first, theirs):
                    yield from group

    def _similar_surnames(self, surname: str, policy: MatchPolicy) -> list[tuple[str, float]]:
        return self._surnames.similar(surname, policy.surname_cutoff, policy.fuzzy_surnames)


# -- scoring -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Scored:
    known: _Known
    score: int
    agreement: Agreement


def _score(
    entry: Received, known: _Known, surname_points: float, policy: MatchPolicy
) -> _Scored | None:
    """None when the record cannot be this player: other forenames or birth date."""
    agreement = forename_agreement(entry.name.forenames, known.name.forenames)
    birth = _birth_score(entry, known, policy)
    if agreement is Agreement.CONFLICT or birth is None:
        return None
    points = (
        surname_points
        + policy.forename_score(agreement)
        + _club_score(entry, known, policy)
        + birth
    )
    return _Scored(known, max(0, min(100, round(points))), agreement)


def _birth_score(entry: Received, known: _Known, policy: MatchPolicy) -> int | None:
    """The bonus when both dates agree; None when both are known and differ."""
    ours, theirs = entry.date_of_birth, known.record.date_of_birth
    if ours is None or theirs is None:
        return 0
    return policy.birth_agrees if ours == theirs else None


def _births_differ(entry: Received, known: _Known) -> bool:
    ours, theirs = entry.date_of_birth, known.record.date_of_birth
    return ours is not None and theirs is not None and ours != theirs


def _club_score(entry: Received, known: _Known, policy: MatchPolicy) -> int:
    """A bonus for a club in common; a small malus only when both sides name clubs."""
    codes = bool(entry.club_code and known.club_codes)
    names = bool(entry.club_name and known.club_names)
    if (codes and entry.club_code in known.club_codes) or (
        names and entry.club_name in known.club_names
    ):
        return policy.club_agrees
    return policy.club_differs if codes or names else 0


def _ranked(found: Iterable[_Scored | None]) -> list[_Scored]:
    scored = [one for one in found if one is not None]
    scored.sort(key=lambda one: (-one.score, one.known.record.id))
    return scored


def _candidates(
    entry: Received, index: RecordIndex, policy: MatchPolicy
) -> tuple[list[_Scored], bool]:
    """Records scoring at least ``queue_score``, best first, and whether similar surnames
    were searched: only as a fallback, so a common surname spelt right never drags in its
    near neighbours."""
    surname, first = entry.name.surname, entry.name.first_forename
    full = policy.surname_score(100.0)
    exact = _ranked(_score(entry, known, full, policy) for known in index._named(surname, first))
    plausible = [one for one in exact if one.score >= policy.queue_score]
    if plausible:
        return plausible, False
    near = _ranked(
        _score(entry, known, policy.surname_score(similarity), policy)
        for other, similarity in index._similar_surnames(surname, policy)
        for known in index._named(other, first)
    )
    return [one for one in near if one.score >= policy.queue_score], True


# -- decisions ---------------------------------------------------------------------------


def identify(entry: Received, index: RecordIndex, policy: MatchPolicy = DEFAULT_POLICY) -> Decision:
    """Decide who ``entry`` is: by code when the file gives one, else by name."""
    if entry.code is not None:
        return _by_code(entry, entry.code, index, policy)
    return _by_name(entry, index, policy)


def _by_code(
    entry: Received, code: GradingCode, index: RecordIndex, policy: MatchPolicy
) -> Decision:
    holder = index._holding(code.number)
    if holder is None:
        return _code_not_on_record(entry, code, index, policy)
    if not names_agree(entry.name, holder.name):
        message = f"code {code} belongs to '{holder.record.written}', not '{entry.written}'"
        return Decision(
            DecisionKind.CODE_NAME_MISMATCH, holder.record.id, code, messages=(message,)
        )
    return Decision(DecisionKind.LINK, holder.record.id, messages=_birth_warning(entry, holder))


def _birth_warning(entry: Received, holder: _Known) -> tuple[str, ...]:
    # The date on record is private: the message shows only the date the file gave.
    given = entry.date_of_birth
    if given is None or not _births_differ(entry, holder):
        return ()
    return (
        f"date of birth {given:%d/%m/%Y} given for {holder.record.describe()} "
        "does not agree with the date on record",
    )


def _code_not_on_record(
    entry: Received, code: GradingCode, index: RecordIndex, policy: MatchPolicy
) -> Decision:
    """Create the player with his code, unless someone of that name is on record."""
    namesakes = _namesakes(entry, index, policy)
    if namesakes:
        message = (
            f"code {code} of '{entry.written}' is not on record, but the records hold "
            f"{_listing(namesakes)}: is it the same player?"
        )
        return Decision(
            DecisionKind.PENDING, code=code, candidates=_pairs(namesakes), messages=(message,)
        )
    message = f"code {code} is not on record: '{entry.written}' will be created with it"
    return Decision(DecisionKind.CREATE_WITH_CODE, code=code, messages=(message,))


def _namesakes(entry: Received, index: RecordIndex, policy: MatchPolicy) -> list[_Scored]:
    """Records whose name agrees as a code's must, and whose date of birth does not differ.

    Whatever their score: a code not on record may have been mistyped, so anyone it
    could belong to is worth a look before a second record of one player is made.
    """
    surname, first = entry.name.surname, entry.name.first_forename
    full = policy.surname_score(100.0)
    scored = _ranked(_score(entry, known, full, policy) for known in index._named(surname, first))
    return [one for one in scored if one.agreement.consistent]


def _by_name(entry: Received, index: RecordIndex, policy: MatchPolicy) -> Decision:
    if not entry.name.surname:
        message = f"expected a name 'Surname, Forenames', got '{entry.written}'"
        return Decision(DecisionKind.PENDING, messages=(message,))
    found, similar = _candidates(entry, index, policy)
    if not found:
        message = f"'{entry.written}' is not on record: a new code will be issued"
        return Decision(DecisionKind.CREATE_NEW, messages=(message,), similar=similar)
    best = found[0]
    if _links(found, policy):
        message = (
            f"no code given: '{entry.written}' taken to be "
            f"{best.known.record.describe()} (score {best.score})"
        )
        return Decision(
            DecisionKind.LINK, best.known.record.id, messages=(message,), similar=similar
        )
    message = f"'{entry.written}' could be {_listing(found)}: a person must choose"
    return Decision(
        DecisionKind.PENDING, candidates=_pairs(found), messages=(message,), similar=similar
    )


def _links(found: list[_Scored], policy: MatchPolicy) -> bool:
    """One strong candidate, or one far enough ahead of the rest."""
    best = found[0].score
    second = found[1].score if len(found) > 1 else 0
    return best >= policy.link_score and best - second >= policy.margin


def _pairs(found: list[_Scored]) -> tuple[tuple[int, int], ...]:
    return tuple((one.known.record.id, one.score) for one in found)


_LISTED = 5  # a message names this many candidates; the queue shows them all


def _listing(found: list[_Scored]) -> str:
    named = [f"{one.known.record.describe()} (score {one.score})" for one in found[:_LISTED]]
    more = len(found) - _LISTED
    return " or ".join(named) + (f" or {more} more" if more > 0 else "")
