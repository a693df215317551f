"""What changes to an index concern an entry identified before them (issue 8).

An importer identifies a file's players before it takes the registry lock, then, under
it, brings its view up to date and identifies them again only if what arrived meanwhile
concerns them (``IndexChanges.concern``). That is safe only if an entry it does not
concern is decided exactly as before: the property below tries it on random indexes and
random changes. The examples after it show that the test is selective enough to be worth
having: most changes concern most entries not at all.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecfgrading.engine.codes import GradingCode
from ecfgrading.formats.results_model import PlayerEntry
from ecfgrading.matching.identify import (
    DEFAULT_POLICY,
    Decision,
    IndexChanges,
    PlayerRecord,
    Received,
    RecordIndex,
    identify,
)

# Few names, clubs and codes, so that random records and entries meet often: namesakes,
# similar surnames ('Smith'/'Smyth' 80, 'Bloggs'/'Blogs' 91), initials, shared clubs.
SURNAMES = ("Smith", "Smyth", "Smit", "Bloggs", "Blogs", "Jones")
FORENAMES = ("John", "J", "Jon", "John Robert", "Mary", "")
CLUBS = ("Walsall", "Dover", "Deal")
BIRTHS = (None, date(1970, 4, 3), date(2005, 1, 1))
CODES = tuple(range(100001, 100013))  # numbers; the check letter follows from each

_surnames = st.sampled_from(SURNAMES)
_forenames = st.sampled_from(FORENAMES)
_clubs = st.frozensets(st.sampled_from(CLUBS), max_size=2)
_births = st.sampled_from(BIRTHS)


@st.composite
def records(draw: st.DrawFn) -> list[PlayerRecord]:
    count = draw(st.integers(0, 8))
    codes = draw(st.lists(st.sampled_from(CODES), min_size=count, max_size=count, unique=True))
    coded = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    return [
        PlayerRecord(
            id=n + 1,
            code=code if has else None,
            surname=draw(_surnames),
            forenames=draw(_forenames),
            club_names=draw(_clubs),
            date_of_birth=draw(_births),
        )
        for n, (code, has) in enumerate(zip(codes, coded, strict=True))
    ]


@st.composite
def entries(draw: st.DrawFn, on_record: list[PlayerRecord]) -> Received:
    """An entry, often with the code or the very name of a player on record."""
    held = [record for record in on_record if record.code is not None]
    like = draw(st.none() | st.sampled_from(held)) if held else None
    code = like.code if like else draw(st.none() | st.sampled_from(CODES))
    surname = like.surname if like else draw(_surnames)
    forename = like.forenames if like else draw(_forenames)
    name = f"{surname}, {forename}" if forename else surname
    entry = PlayerEntry(
        pin=1,
        name=name,
        code_text=str(GradingCode(code)) if code else "",
        code=GradingCode(code) if code else None,
        club_name=draw(st.sampled_from(("", *CLUBS))),
        date_of_birth=draw(_births),
    )
    return Received.from_entry(entry)


def _free_code(index: RecordIndex, draw: st.DrawFn) -> int | None:
    free = [code for code in CODES if index.holder(code) is None]
    return draw(st.none() | st.sampled_from(free)) if free else None


def change(index: RecordIndex, ids: list[int], draw: st.DrawFn) -> None:
    """One change of the kinds a view brings in: a new player, a record replaced (clubs,
    birth date, forenames or surname changed), a record merged away, an alias."""
    kind = draw(st.sampled_from(("add", "replace", "replace", "remove", "alias")))
    if kind == "add" or not ids:
        new_id = max(ids, default=0) + 1
        surname, forenames = draw(_surnames), draw(_forenames)
        born, clubs = draw(_births), draw(_clubs)
        code = _free_code(index, draw)
        index.add(PlayerRecord(new_id, code, surname, forenames, frozenset(), clubs, born))
        ids.append(new_id)
        return
    player_id = draw(st.sampled_from(ids))
    record = index.record(player_id)
    assert record is not None
    if kind == "replace":
        what = draw(st.sampled_from(("clubs", "born", "forenames", "surname")))
        if what == "clubs":
            record = replace(record, club_names=record.club_names | draw(_clubs))
        elif what == "born":
            record = replace(record, date_of_birth=draw(_births))
        elif what == "forenames":
            record = replace(record, forenames=draw(_forenames))
        else:
            record = replace(record, surname=draw(_surnames))
        index.replace(record)
    elif kind == "remove":
        index.remove(player_id)
        ids.remove(player_id)
    else:
        code = _free_code(index, draw)
        if code is not None:
            index.add_alias(code, player_id)


def candidates_as_named(decision: Decision, index: RecordIndex) -> list[object]:
    """What the import report shows of each candidate: his code and name, as indexed."""
    shown: list[object] = []
    for player_id, _ in decision.candidates:
        record = index.record(player_id)
        shown.append(None if record is None else (record.code, record.written))
    return shown


@settings(max_examples=1000, deadline=None)
@given(records(), st.data())
def test_an_entry_the_changes_do_not_concern_is_decided_as_before(
    on_record: list[PlayerRecord], data: st.DataObject
) -> None:
    received = data.draw(st.lists(entries(on_record), min_size=1, max_size=4))
    index = RecordIndex.build(on_record)
    before = [identify(entry, index) for entry in received]
    named = [candidates_as_named(decision, index) for decision in before]
    ids = [record.id for record in on_record]
    with index.watch() as changes:
        for _ in range(data.draw(st.integers(1, 4))):
            change(index, ids, data.draw)
    for entry, decision, shown in zip(received, before, named, strict=True):
        if not changes.concern(entry, decision, DEFAULT_POLICY):
            again = identify(entry, index)
            assert again == decision
            assert again.similar == decision.similar
            assert candidates_as_named(again, index) == shown


@settings(max_examples=500, deadline=None)
@given(records(), st.data())
def test_an_entry_identified_on_a_copy_is_decided_as_on_the_index_unless_concerned(
    on_record: list[PlayerRecord], data: st.DataObject
) -> None:
    """Issue 25: a batch's reading process identifies its files on the copy of the
    index it was forked with, while the importer's index takes in changes. A watch
    opened at the fork, and one of a file's own from where it began (``watching_since``),
    opened later, as a file's when its reading comes back: an entry it does not concern
    is decided on the index now exactly as on the copy. Other watches open and close
    meanwhile, as files are written."""
    received = data.draw(st.lists(entries(on_record), min_size=1, max_size=4))
    index = RecordIndex.build(on_record)
    forked = index.watching()
    forked_copy = copy.deepcopy(index)  # what a fork leaves the reading process
    ids = [record.id for record in on_record]
    for _ in range(data.draw(st.integers(1, 4))):
        with index.watch():
            change(index, ids, data.draw)
    since = index.watching_since(forked)
    change(index, ids, data.draw)  # and after the file's own watch opened
    for entry in received:
        decision = identify(entry, forked_copy)
        if not since.concern(entry, decision, DEFAULT_POLICY):
            again = identify(entry, index)
            assert again == decision
            assert candidates_as_named(again, index) == candidates_as_named(decision, forked_copy)
    assert (since.surnames, since.codes) == (forked.surnames, forked.codes)


def test_a_watch_since_another_sees_what_changed_since_that_one_began() -> None:
    index = RecordIndex.build([smith()])
    forked = index.watching()
    index.add(PlayerRecord(id=2, code=None, surname="Jones", forenames="Mary"))
    since = index.watching_since(forked)
    since_now = index.watching()
    index.replace(smith(date_of_birth=date(1970, 4, 3)))
    index.unwatch(forked)  # its own: the other stays open
    index.add(PlayerRecord(id=3, code=None, surname="Bloggs", forenames="Joe"))
    assert (since.surnames, since.codes) == ({"jones", "smith", "bloggs"}, {100001})
    assert (since_now.surnames, since_now.codes) == ({"smith", "bloggs"}, {100001})
    with pytest.raises(ValueError, match="expected a watch open on this index"):
        index.watching_since(forked)


def test_a_search_of_similar_surnames_is_concerned_by_a_season_of_changes() -> None:
    """A watch open for a batch sees thousands of surnames changed: a decision made on
    similar surnames is then taken to be concerned, and made again (identification
    searches similar surnames by an index; comparing with each changed one would not),
    where a few changes are compared (above)."""
    index = RecordIndex.build([smith(2, code=100002, surname="Jones")])
    entry = by_name("Smyth, John")
    decision = identify(entry, index)
    with index.watch() as many:
        for n in range(5000):
            index.add(PlayerRecord(id=10 + n, code=None, surname=f"Zz{n}", forenames="Al"))
    assert decision.similar and "smyth" not in many.surnames
    assert many.concern(entry, decision, DEFAULT_POLICY)


# -- selective: what a change leaves alone -------------------------------------------------


def smith(player_id: int = 1, **fields: object) -> PlayerRecord:
    values: dict[str, object] = {
        "id": player_id,
        "code": 100001,
        "surname": "Smith",
        "forenames": "John",
        "club_names": frozenset({"Walsall"}),
    }
    return PlayerRecord(**{**values, **fields})  # type: ignore[arg-type]


def by_code(code: int = 100001, name: str = "Smith, John") -> Received:
    entry = PlayerEntry(pin=1, name=name, code_text=str(GradingCode(code)), code=GradingCode(code))
    return Received.from_entry(entry)


def by_name(name: str, club: str = "") -> Received:
    return Received.from_entry(PlayerEntry(pin=1, name=name, club_name=club))


def watched(index: RecordIndex, *records: PlayerRecord) -> IndexChanges:
    with index.watch() as changes:
        for record in records:
            if index.has(record.id):
                index.replace(record)
            else:
                index.add(record)
    return changes


def test_a_coded_player_is_not_concerned_by_his_own_new_club() -> None:
    """A player seen at a new club (the commonest change a view brings in): deciding by
    code reads no clubs."""
    index = RecordIndex.build([smith()])
    decision = identify(by_code(), index)
    changes = watched(index, smith(club_names=frozenset({"Walsall", "Dover"})))
    assert changes.surnames == {"smith"} and not changes.codes
    assert not changes.concern(by_code(), decision, DEFAULT_POLICY)


def test_a_coded_player_is_concerned_by_a_birth_date_learnt_for_him() -> None:
    """The date on record decides whether the import warns of another date."""
    index = RecordIndex.build([smith()])
    decision = identify(by_code(), index)
    changes = watched(index, smith(date_of_birth=date(1970, 4, 3)))
    assert changes.codes == {100001}
    assert changes.concern(by_code(), decision, DEFAULT_POLICY)


def test_a_coded_player_is_concerned_when_his_code_comes_on_record() -> None:
    index = RecordIndex.build([smith(code=None)])
    decision = identify(by_code(100002), index)  # a namesake without a code: queued
    changes = watched(index, smith(2, code=100002, surname="Jones"))
    assert changes.concern(by_code(100002), decision, DEFAULT_POLICY)


def test_a_search_by_name_is_not_concerned_by_another_surname() -> None:
    index = RecordIndex.build([smith(), smith(2, code=100002, surname="Jones")])
    entry = by_name("Smith, John", club="Walsall")
    decision = identify(entry, index)
    changes = watched(index, smith(2, code=100002, surname="Jones", date_of_birth=date(1970, 1, 1)))
    assert not decision.similar
    assert not changes.concern(entry, decision, DEFAULT_POLICY)


def test_a_search_by_name_is_concerned_by_its_own_surname() -> None:
    index = RecordIndex.build([smith()])
    entry = by_name("Smith, John", club="Walsall")
    decision = identify(entry, index)
    changes = watched(index, smith(2, code=100002, club_names=frozenset({"Walsall"})))
    assert changes.concern(entry, decision, DEFAULT_POLICY)


def test_a_search_by_name_is_not_concerned_by_a_namesake_of_another_initial() -> None:
    """Issue 25: only the records whose first forename begins as the entry's, or who
    have none, were read (a season's new players fall under the commonest surnames
    again and again). A new Smith, Mary leaves Smith, John as he was decided; a new
    Smith, J or a Smith without forenames may be him."""
    index = RecordIndex.build([smith()])
    entry = by_name("Smith, John", club="Walsall")
    decision = identify(entry, index)
    mary = watched(index, smith(2, code=100002, forenames="Mary"))
    assert mary.surnames == {"smith"}
    assert not mary.concern(entry, decision, DEFAULT_POLICY)
    assert identify(entry, index) == decision
    for player_id, forenames in ((3, "J"), (4, "")):
        added = watched(index, smith(player_id, code=100000 + player_id, forenames=forenames))
        assert added.concern(entry, decision, DEFAULT_POLICY)
    still_open = index.watching()  # asked while open, as a waiting file's watch is
    index.add(smith(5, code=100005, forenames="Mary Ann"))
    assert not still_open.concern(entry, decision, DEFAULT_POLICY)
    index.add(smith(6, code=100006, forenames="Jo"))
    assert still_open.concern(entry, decision, DEFAULT_POLICY)
    index.unwatch(still_open)


def test_a_new_code_is_not_concerned_by_a_namesake_of_another_initial() -> None:
    """A code not on record is created unless a namesake is on record: a new Smith, Mary
    is none for Smith, John; a Smith, John renamed Smith, Mary no longer is one."""
    index = RecordIndex.build([smith(code=None, forenames="Mary")])
    entry = by_code(100009)
    decision = identify(entry, index)
    mary = watched(index, smith(2, code=100002, forenames="Mary"))
    assert not mary.concern(entry, decision, DEFAULT_POLICY)
    renamed = watched(index, smith(code=None, forenames="John"))
    assert renamed.concern(entry, decision, DEFAULT_POLICY)
    assert identify(entry, index).kind is not decision.kind
    closed = watched(index, smith(code=None, forenames="Mary"))  # renamed back
    assert closed.initialled == {("smith", "j"), ("smith", "m")}
    assert closed.concern(entry, identify(entry, index), DEFAULT_POLICY)


def test_a_search_that_looked_at_similar_surnames_is_concerned_by_a_similar_one() -> None:
    """'Smyth, John' finds nobody as written, so similar surnames were looked at: a new
    Smith may now be a candidate. A new Jones may not."""
    index = RecordIndex.build([smith(2, code=100002, surname="Jones")])
    entry = by_name("Smyth, John")
    decision = identify(entry, index)
    assert decision.similar
    jones = watched(index, smith(3, code=100003, surname="Jones", forenames="Mary"))
    assert not jones.concern(entry, decision, DEFAULT_POLICY)
    smiths = watched(index, smith(4, code=100004))
    assert smiths.concern(entry, decision, DEFAULT_POLICY)


def test_no_change_concerns_nobody() -> None:
    index = RecordIndex.build([smith()])
    entry = by_name("Smith, John")
    decision = identify(entry, index)
    with index.watch() as changes:
        pass
    assert not changes
    assert not changes.concern(entry, decision, DEFAULT_POLICY)


def test_watches_that_overlap_each_see_what_changed_while_they_were_open() -> None:
    """An importer's waiting files each watch from their own identification to their
    own writing: a change is noted by every watch open, and by no watch closed."""
    index = RecordIndex.build([smith()])
    first = index.watching()
    index.add(PlayerRecord(id=2, code=None, surname="Jones", forenames="Mary"))
    second = index.watching()
    index.replace(smith(date_of_birth=date(1970, 4, 3)))
    index.unwatch(first)
    index.remove(2)
    index.unwatch(second)
    index.add(PlayerRecord(id=3, code=None, surname="Bloggs", forenames="Joe"))
    assert (first.surnames, first.codes) == ({"jones", "smith"}, {100001})
    assert (second.surnames, second.codes) == ({"jones", "smith"}, {100001})
    later = index.watching()
    index.remove(3)
    assert (later.surnames, later.codes, first.surnames) == ({"bloggs"}, set(), {"jones", "smith"})


def test_a_change_is_noted_once_however_many_files_watch() -> None:
    """Issue 25: a turn's files each watch the index; a change is noted once, in a log
    all the open watches share, not once in each. Each watch still tells its own: one
    cleared (its decisions kept as current) is concerned only by what comes after."""
    index = RecordIndex.build([smith()])
    entry = by_name("Smith, John", club="Walsall")
    decision = identify(entry, index)
    watches = [index.watching() for _ in range(50)]
    index.replace(smith(club_names=frozenset({"Walsall", "Dover"})))
    assert index._log.surnames == ["smith"]  # once, not fifty times
    assert all(watch.concern(entry, decision, DEFAULT_POLICY) for watch in watches)
    watches[0].clear()
    assert not watches[0] and not watches[0].concern(entry, decision, DEFAULT_POLICY)
    assert watches[1].concern(entry, decision, DEFAULT_POLICY)
    index.replace(smith(club_names=frozenset({"Walsall"})))
    assert watches[0].concern(entry, decision, DEFAULT_POLICY)
    assert watches[0].surnames == {"smith"} and not watches[0].codes


def test_a_watch_closed_keeps_what_it_saw_when_the_index_starts_a_new_log() -> None:
    """With no watch open nothing is noted, and the next watch starts a new log: a
    closed watch still tells what changed while it was open, and nothing after."""
    index = RecordIndex.build([smith()])
    closed = watched(index, smith(date_of_birth=date(1970, 4, 3)))
    index.add(PlayerRecord(id=2, code=None, surname="Jones", forenames="Mary"))  # unwatched
    with index.watch() as later:
        index.remove(2)
    assert (closed.surnames, closed.codes) == ({"smith"}, {100001})
    assert closed.concern(by_code(), identify(by_code(), index), DEFAULT_POLICY)
    assert (later.surnames, later.codes) == ({"jones"}, set())
    assert not later.concern(by_code(), identify(by_code(), index), DEFAULT_POLICY)
