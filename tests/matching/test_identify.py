"""Identifying the players of a results file (the issue's "Identification" rules).

Pure: records are built in memory, no database. The speed check at the bottom is run by
hand: ``.venv/bin/python -m tests.matching.test_identify``.
"""

from __future__ import annotations

import random
import time
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from ecfgrading.engine.codes import GradingCode
from ecfgrading.formats.results_model import PlayerEntry
from ecfgrading.matching.identify import (
    Decision,
    DecisionKind,
    MatchPolicy,
    PlayerRecord,
    Received,
    RecordIndex,
    identify,
)
from ecfgrading.matching.names import (
    Agreement,
    SurnameSet,
    fold,
    fold_club,
    forename_agreement,
    forename_tokens,
    name_from_fields,
    names_agree,
    parse_name,
    surname_key,
)

LINK = DecisionKind.LINK
PENDING = DecisionKind.PENDING
CREATE_NEW = DecisionKind.CREATE_NEW
CREATE_WITH_CODE = DecisionKind.CREATE_WITH_CODE
MISMATCH = DecisionKind.CODE_NAME_MISMATCH


def received(name: str = "", code: str = "", **fields: Any) -> Received:
    """A player set as the reader gives it; ``code`` must be valid (the file check ran)."""
    parsed = GradingCode.parse(code) if code else None
    entry = PlayerEntry(pin=1, name=name, code_text=code, code=parsed, **fields)
    return Received.from_entry(entry)


def record(
    player_id: int,
    name: str,
    code: str = "",
    clubs: tuple[str, ...] = (),
    club_codes: tuple[str, ...] = (),
    born: date | None = None,
) -> PlayerRecord:
    surname, _, forenames = name.partition(", ")
    return PlayerRecord(
        id=player_id,
        code=GradingCode.parse(code).number if code else None,
        surname=surname,
        forenames=forenames,
        club_codes=frozenset(club_codes),
        club_names=frozenset(clubs),
        date_of_birth=born,
    )


def decide(entry: Received, *records: PlayerRecord) -> Decision:
    return identify(entry, RecordIndex.build(records))


# -- rules of thumb: by name ---------------------------------------------------------------


def test_a_lone_john_smith_of_the_entrys_club_links() -> None:
    decision = decide(
        received("Smith, John", club_name="Anytown"),
        record(1, "Smith, John", "233310H", clubs=("Anytown",)),
        record(2, "Smith, Mary", "102807J", clubs=("Anytown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)
    assert decision.messages == (
        "no code given: 'Smith, John' taken to be 'Smith, John' 233310H (score 95)",
    )


def test_two_john_smiths_of_different_clubs_are_queued_when_the_entry_has_no_club() -> None:
    decision = decide(
        received("Smith, John"),
        record(1, "Smith, John", clubs=("Anytown",)),
        record(2, "Smith, John", clubs=("Othertown",)),
    )
    assert decision.kind is PENDING
    assert decision.candidates == ((1, 80), (2, 80))
    assert "'Smith, John' could be 'Smith, John' player 1 (score 80) or" in decision.messages[0]


def test_the_entrys_club_picks_one_of_two_john_smiths() -> None:
    decision = decide(
        received("Smith, John", club_name="Othertown"),
        record(1, "Smith, John", clubs=("Anytown",)),
        record(2, "Smith, John", clubs=("Othertown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 2)


def test_a_club_code_in_common_counts_like_a_club_name() -> None:
    decision = decide(
        received("Smith, John", club_code="7any"),
        record(1, "Smith, John", club_codes=("7WAL",)),
        record(2, "Smith, John", club_codes=("7ANY",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 2)


def test_club_names_agree_however_the_officer_writes_them() -> None:
    decision = decide(
        received("Smith, John", club_name="Anytown Chess Club"),
        record(1, "Smith, John", clubs=("Anytown C.C.",)),
        record(2, "Smith, John", clubs=("Othertown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_bloggs_j_with_one_joe_bloggs_is_queued_as_a_weak_candidate() -> None:
    decision = decide(received("Bloggs, J"), record(1, "Bloggs, Joe", clubs=("Anytown",)))
    assert decision.kind is PENDING
    assert decision.candidates == ((1, 60),)


def test_bloggs_j_links_when_the_club_agrees() -> None:
    decision = decide(
        received("Bloggs, J", club_name="Anytown"), record(1, "Bloggs, Joe", clubs=("Anytown",))
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_bloggs_j_links_when_the_date_of_birth_agrees() -> None:
    decision = decide(
        received("Bloggs, J", date_of_birth=date(2001, 3, 2)),
        record(1, "Bloggs, Joe", born=date(2001, 3, 2)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_bloggs_j_at_another_club_is_still_queued() -> None:
    decision = decide(
        received("Bloggs, J", club_name="Othertown"), record(1, "Bloggs, Joe", clubs=("Anytown",))
    )
    assert decision.candidates == ((1, 50),)
    assert decision.kind is PENDING


def test_no_code_and_no_candidate_creates_a_new_player() -> None:
    decision = decide(received("Newman, Nina", club_name="Anytown"), record(1, "Smith, John"))
    assert decision == Decision(
        CREATE_NEW, messages=("'Newman, Nina' is not on record: a new code will be issued",)
    )


def test_other_forenames_rule_a_record_out() -> None:
    decision = decide(
        received("Smith, Jane", club_name="Anytown"),
        record(1, "Smith, John", clubs=("Anytown",)),
    )
    assert decision.kind is CREATE_NEW


def test_a_different_date_of_birth_rules_a_record_out() -> None:
    decision = decide(
        received("Smith, John", club_name="Anytown", date_of_birth=date(2001, 3, 2)),
        record(1, "Smith, John", clubs=("Anytown",), born=date(1960, 1, 1)),
    )
    assert decision.kind is CREATE_NEW


def test_a_different_date_of_birth_leaves_the_other_namesake() -> None:
    decision = decide(
        received("Smith, John", date_of_birth=date(2001, 3, 2)),
        record(1, "Smith, John", born=date(1960, 1, 1)),
        record(2, "Smith, John"),
    )
    assert (decision.kind, decision.player_id) == (LINK, 2)


def test_a_similar_forename_is_queued_never_linked() -> None:
    decision = decide(
        received("Smith, Jon", club_name="Anytown"), record(1, "Smith, John", clubs=("Anytown",))
    )
    assert (decision.kind, decision.candidates) == (PENDING, ((1, 70),))


def test_a_long_queue_message_names_five_and_counts_the_rest() -> None:
    namesakes = [record(n, "Smith, John", clubs=(f"Club {n}",)) for n in range(1, 8)]
    decision = decide(received("Smith, John"), *namesakes)
    assert len(decision.candidates) == 7
    assert decision.messages[0].endswith("(score 80) or 2 more: a person must choose")


def test_an_entry_without_a_name_is_queued_with_a_message() -> None:
    decision = decide(received("", club_name="Anytown"), record(1, "Smith, John"))
    assert decision.kind is PENDING
    assert decision.messages == ("expected a name 'Surname, Forenames', got ''",)


# -- spelling: accents, hyphens, apostrophes, initials, older fields ----------------------


def test_accents_are_folded() -> None:
    decision = decide(
        received("Müller, Jürgen", club_name="Anytown"),
        record(1, "Muller, Jurgen", clubs=("Anytown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_a_hyphenated_surname_matches_the_spaced_one() -> None:
    decision = decide(
        received("Smith-Jones, Ann", club_name="Anytown"),
        record(1, "Smith Jones, Ann", clubs=("Anytown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_an_apostrophe_makes_no_difference() -> None:
    decision = decide(
        received("O'Brien, Pat", club_name="Anytown"), record(1, "OBrien, Pat", clubs=("Anytown",))
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_full_forenames_match_initials_with_dots() -> None:
    decision = decide(
        received("Smith, J.R.", club_name="Anytown"),
        record(1, "Smith, John Robert", clubs=("Anytown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_the_older_separate_fields_identify_like_name() -> None:
    decision = decide(
        received(surname="BLOGGS", forename="Joe", initials="JR", club_name="Anytown"),
        record(1, "Bloggs, Joe Robert", clubs=("Anytown",)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_a_surname_spelt_wrong_is_queued_not_linked() -> None:
    decision = decide(
        received("Blogs, Joe", club_name="Anytown"), record(1, "Bloggs, Joe", clubs=("Anytown",))
    )
    assert (decision.kind, decision.candidates) == (PENDING, ((1, 72),))


def test_a_surname_spelt_wrong_links_when_the_date_of_birth_agrees() -> None:
    decision = decide(
        received("Blogs, Joe", club_name="Anytown", date_of_birth=date(2001, 3, 2)),
        record(1, "Bloggs, Joe", clubs=("Anytown",), born=date(2001, 3, 2)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


def test_similar_surnames_are_looked_at_when_the_surname_finds_nobody_plausible() -> None:
    decision = decide(
        received("Smyth, John", club_name="Anytown"),
        record(1, "Smyth, Mary", clubs=("Anytown",)),
        record(2, "Smith, John", clubs=("Anytown",)),
    )
    assert (decision.kind, decision.candidates) == (PENDING, ((2, 45),))


def test_similar_surnames_are_not_looked_at_when_the_surname_finds_someone() -> None:
    decision = decide(
        received("Smith, John"),
        record(1, "Smith, John"),
        record(2, "Smyth, John"),
    )
    assert (decision.kind, decision.player_id) == (LINK, 1)


# -- rules of thumb: by code -----------------------------------------------------------------


def test_a_code_whose_name_agrees_links() -> None:
    decision = decide(received("Bloggs, J", "261619B"), record(7, "Bloggs, Joe", "261619B"))
    assert decision == Decision(LINK, player_id=7)


def test_a_code_links_whatever_the_accents() -> None:
    decision = decide(received("Müller, Jürgen", "261619B"), record(7, "Muller, Jurgen", "261619B"))
    assert (decision.kind, decision.player_id) == (LINK, 7)


def test_a_code_of_another_surname_is_a_mismatch_naming_both() -> None:
    decision = decide(received("Smith, Jane", "261619B"), record(7, "Bloggs, Joe", "261619B"))
    assert decision == Decision(
        MISMATCH,
        player_id=7,
        code=GradingCode.parse("261619B"),
        messages=("code 261619B belongs to 'Bloggs, Joe', not 'Smith, Jane'",),
    )


def test_a_code_of_the_same_surname_but_another_forename_is_a_mismatch() -> None:
    decision = decide(received("Smith, Jane", "261619B"), record(7, "Smith, John", "261619B"))
    assert decision.kind is MISMATCH
    assert decision.messages == ("code 261619B belongs to 'Smith, John', not 'Smith, Jane'",)


def test_a_code_not_on_record_creates_the_player_with_it_and_warns() -> None:
    decision = decide(received("Bloggs, Joe", "261619B"), record(1, "Smith, John", "233310H"))
    assert decision == Decision(
        CREATE_WITH_CODE,
        code=GradingCode.parse("261619B"),
        messages=("code 261619B is not on record: 'Bloggs, Joe' will be created with it",),
    )


def test_a_code_not_on_record_goes_to_the_queue_when_a_namesake_is_on_record() -> None:
    decision = decide(received("Bloggs, Joe", "261619B"), record(3, "Bloggs, Joe", "233310H"))
    assert decision.kind is PENDING
    assert decision.candidates == ((3, 80),)
    assert decision.code == GradingCode.parse("261619B")
    assert "'Bloggs, Joe' 233310H" in decision.messages[0]


def test_a_code_not_on_record_is_queued_with_a_namesake_known_by_initial() -> None:
    decision = decide(received("Bloggs, J", "261619B"), record(3, "Bloggs, Joe", "233310H"))
    assert (decision.kind, decision.candidates) == (PENDING, ((3, 60),))


def test_a_code_not_on_record_ignores_players_of_other_forenames() -> None:
    decision = decide(received("Bloggs, Jane", "261619B"), record(3, "Bloggs, Joe", "233310H"))
    assert decision.kind is CREATE_WITH_CODE


def test_a_code_not_on_record_ignores_a_namesake_of_another_birth_date() -> None:
    decision = decide(
        received("Bloggs, Joe", "261619B", date_of_birth=date(2001, 3, 2)),
        record(3, "Bloggs, Joe", "233310H", born=date(1950, 1, 1)),
    )
    assert decision.kind is CREATE_WITH_CODE


def test_a_code_linking_with_another_birth_date_warns_without_showing_the_record() -> None:
    decision = decide(
        received("Bloggs, Joe", "261619B", date_of_birth=date(2001, 3, 2)),
        record(7, "Bloggs, Joe", "261619B", born=date(1950, 1, 1)),
    )
    assert (decision.kind, decision.player_id) == (LINK, 7)
    assert decision.messages == (
        "date of birth 02/03/2001 given for 'Bloggs, Joe' 261619B "
        "does not agree with the date on record",
    )


def test_a_merged_players_code_resolves_to_the_survivor() -> None:
    index = RecordIndex.build(
        [record(7, "Bloggs, Joe", "233310H")], aliases={GradingCode.parse("261619B").number: 7}
    )
    decision = identify(received("Bloggs, Joe", "261619B"), index)
    assert (decision.kind, decision.player_id) == (LINK, 7)


# -- the index during a batch ------------------------------------------------------------------


def test_a_player_created_by_one_file_is_found_by_the_next() -> None:
    index = RecordIndex.build([record(1, "Smith, John", clubs=("Anytown",))])
    newcomer = received("Newman, Nina", club_name="Anytown")
    assert identify(newcomer, index).kind is CREATE_NEW
    index.add(record(2, "Newman, Nina", "102807J", clubs=("Anytown",)))
    assert identify(newcomer, index) == Decision(
        LINK,
        player_id=2,
        messages=("no code given: 'Newman, Nina' taken to be 'Newman, Nina' 102807J (score 95)",),
    )
    assert identify(received("Newman, Nina", "102807J"), index) == Decision(LINK, player_id=2)


def test_a_player_created_with_his_code_is_found_by_the_code() -> None:
    index = RecordIndex.build([])
    entry = received("Bloggs, Joe", "261619B")
    assert identify(entry, index).kind is CREATE_WITH_CODE
    index.add(record(1, "Bloggs, Joe", "261619B"))
    assert identify(entry, index) == Decision(LINK, player_id=1)


def test_a_new_surname_is_found_by_similarity_once_added() -> None:
    index = RecordIndex.build([record(1, "Smith, John")])
    index.add(record(2, "Zbigniewski, Olaf", clubs=("Anytown",)))
    decision = identify(received("Zbigniewsky, Olaf", club_name="Anytown"), index)
    assert decision.candidates[0][0] == 2


def test_the_index_refuses_a_code_held_by_another_player() -> None:
    index = RecordIndex.build([record(1, "Smith, John", "233310H")])
    with pytest.raises(ValueError, match="code 233310H already belongs to 'Smith, John'"):
        index.add(record(2, "Bloggs, Joe", "233310H"))


def test_an_alias_must_name_a_player_on_record() -> None:
    with pytest.raises(ValueError, match="alias 261619B, got 99"):
        RecordIndex.build([], aliases={GradingCode.parse("261619B").number: 99})


def test_a_policy_whose_thresholds_cross_is_refused() -> None:
    with pytest.raises(ValueError, match="queue_score <= link_score"):
        MatchPolicy(link_score=40, queue_score=45)


def test_a_stricter_policy_queues_what_the_default_links() -> None:
    index = RecordIndex.build([record(1, "Smith, John", clubs=("Anytown",))])
    entry = received("Smith, John", club_name="Anytown")
    assert identify(entry, index, MatchPolicy(link_score=96)).kind is PENDING


# -- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "folded"),
    [
        ("Müller", "muller"),
        ("  SMITH-Jones ", "smith jones"),
        ("O'Brien", "obrien"),
        ("O’Brien", "obrien"),
        ("Zoë  Ångström", "zoe angstrom"),
    ],
)
def test_fold(written: str, folded: str) -> None:
    assert fold(written) == folded


def test_surname_keys_ignore_spaces_and_hyphens() -> None:
    assert {surname_key(s) for s in ("Smith-Jones", "Smith Jones", "SmithJones")} == {"smithjones"}


def test_club_names_lose_the_words_that_vary() -> None:
    assert fold_club("The Anytown Chess Club") == fold_club("Anytown CC") == "anytown"


@pytest.mark.parametrize(
    ("written", "tokens"),
    [("John R.", ("john", "r")), ("J.R.", ("j", "r")), ("JR", ("j", "r")), ("Amy", ("amy",))],
)
def test_forename_tokens(written: str, tokens: tuple[str, ...]) -> None:
    assert forename_tokens(written) == tokens


def test_a_name_without_a_comma_is_all_surname() -> None:
    assert parse_name("Bloggs") == name_from_fields("BLOGGS")


@pytest.mark.parametrize("initials", ["R", "JR", "J R", "J.R."])
def test_initials_may_or_may_not_repeat_the_forename(initials: str) -> None:
    assert name_from_fields("Bloggs", "Joe", initials) == parse_name("Bloggs, Joe R")


@pytest.mark.parametrize(
    ("ours", "theirs", "agreement"),
    [
        ("John Robert", "John Robert", Agreement.SAME),
        ("John", "John R", Agreement.FIRST),
        ("John Robert", "John R", Agreement.FIRST),
        ("J", "John", Agreement.INITIALS),
        ("J R", "John Robert", Agreement.INITIALS),
        ("J", "J", Agreement.INITIALS),
        ("", "John", Agreement.UNKNOWN),
        ("Jon", "John", Agreement.SIMILAR),
        ("Jane", "John", Agreement.CONFLICT),
        ("J R", "John Peter", Agreement.CONFLICT),
        ("P", "John", Agreement.CONFLICT),
    ],
)
def test_forename_agreement(ours: str, theirs: str, agreement: Agreement) -> None:
    assert forename_agreement(forename_tokens(ours), forename_tokens(theirs)) is agreement
    assert forename_agreement(forename_tokens(theirs), forename_tokens(ours)) is agreement


def test_names_agree_for_a_code_only_when_consistent() -> None:
    assert names_agree(parse_name("Bloggs, J"), parse_name("Bloggs, Joe"))
    assert names_agree(parse_name("Bloggs"), parse_name("Bloggs, Joe"))
    assert not names_agree(parse_name("Bloggs, Jon"), parse_name("Bloggs, Joe"))
    assert not names_agree(parse_name("Blogs, Joe"), parse_name("Bloggs, Joe"))


_KEYS = st.text(alphabet="abcdehilmnorst", min_size=1, max_size=9)


@settings(max_examples=60, deadline=None)
@given(st.lists(_KEYS, max_size=200), _KEYS, st.sampled_from([70.0, 80.0, 90.0]))
def test_the_surname_prefilter_loses_nothing_rapidfuzz_would_find(
    keys: list[str], query: str, cutoff: float
) -> None:
    surnames = SurnameSet()
    for key in keys:
        surnames.add(key)
    expected = {k for k in keys if k != query and fuzz.ratio(query, k) >= cutoff}
    assert {k for k, _ in surnames.similar(query, cutoff, limit=1000)} == expected


# -- synthetic federation: correctness here, speed by hand ----------------------------------------

_FORENAMES = (
    *("John", "James", "David", "Peter", "Michael", "Robert", "Paul", "Andrew", "Mark"),
    *("Richard", "Anne", "Mary", "Susan", "Jane", "Sarah", "Emma", "Ruth", "Alan", "Brian"),
)
_SYLLABLES = (
    *("ab", "al", "an", "ar", "ash", "ber", "bur", "can", "car", "dal", "den", "ell", "ford"),
    *("gar", "ham", "har", "ing", "kin", "lee", "ley", "man", "mar", "mor", "ney", "ock"),
    *("per", "quin", "rad", "rig", "sel", "son", "tan", "ton", "ush", "val", "war", "wood"),
    *("bry", "cot", "dun", "fer", "gil", "hol", "jor", "kel", "lin", "nor", "pit", "ross"),
)


def _federation(players: int, seed: int = 1) -> list[PlayerRecord]:
    """Surnames of skewed frequency (a few very common), clubs, half the dates of birth."""
    rng = random.Random(seed)
    pool: dict[str, None] = {}  # distinct, in the order drawn
    while len(pool) < players:
        pool["".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).title()] = None
    surnames = list(pool)
    # Zipf-like: about 1% share the commonest surname (Smith in England), and 60,000
    # players have some 17,000 distinct surnames.
    weights = [1.0 / (rank + 10) for rank in range(len(surnames))]
    chosen = rng.choices(surnames, weights=weights, k=players)
    return [
        PlayerRecord(
            id=number,
            code=number + 100_000,
            surname=surname,
            forenames=" ".join(rng.sample(_FORENAMES, rng.randint(1, 2))),
            club_codes=frozenset({f"C{rng.randrange(1500):03d}"}),
            date_of_birth=date(1950 + number % 60, 1 + number % 12, 1) if number % 2 else None,
        )
        for number, surname in enumerate(chosen, start=1)
    ]


def _as_entry(player: PlayerRecord, with_code: bool) -> Received:
    return Received.from_entry(
        PlayerEntry(
            pin=1,
            name=f"{player.surname}, {player.forenames}",
            code=GradingCode(player.code) if with_code and player.code else None,
            club_code=next(iter(player.club_codes)),
        )
    )


def _entries(players: list[PlayerRecord], count: int, seed: int = 2) -> list[Received]:
    """Most with a code, a fifth by name, a tenth newcomers of an unknown surname."""
    rng = random.Random(seed)
    entries = []
    for number in range(count):
        player = rng.choice(players)
        if number % 10 == 0:
            newcomer = player.surname + "ovich"
            player = PlayerRecord(0, None, newcomer, player.forenames, frozenset({"C999"}))
        entries.append(_as_entry(player, with_code=number % 10 > 2))
    return entries


def test_on_a_synthetic_federation_codes_link_and_newcomers_are_not_linked() -> None:
    players = _federation(6_000)
    index = RecordIndex.build(players)
    entries = _entries(players, 2_000)
    decisions = [identify(entry, index) for entry in entries]
    for number, decision in enumerate(decisions):
        if number % 10 > 2:
            assert decision.kind is LINK
        elif number % 10 == 0:
            assert decision.kind is not LINK


def _speed_check(players: int = 60_000, entries: int = 20_000) -> None:
    started = time.perf_counter()
    records = _federation(players)
    index = RecordIndex.build(records)
    built = time.perf_counter()
    received_entries = _entries(records, entries)
    made = time.perf_counter()
    decisions = [identify(entry, index) for entry in received_entries]
    done = time.perf_counter()
    kinds = {kind.name: sum(d.kind is kind for d in decisions) for kind in DecisionKind}
    print(f"index of {players:,} records built in {built - started:.2f} s")
    print(f"{entries:,} entries folded in {made - built:.2f} s")
    print(f"{entries:,} identified in {done - made:.2f} s: {entries / (done - made):,.0f} a second")
    print(kinds)


if __name__ == "__main__":
    _speed_check()


# -- keeping the index current: what other imports changed ---------------------------------


def test_a_replaced_record_is_found_with_its_new_birth_date() -> None:
    index = RecordIndex.build([record(1, "Bloggs, Joe", "261619B")])
    born = date(2001, 3, 2)
    index.replace(record(1, "Bloggs, Joe", "261619B", born=born))
    assert index.holder(GradingCode.parse("261619B").number) == record(
        1, "Bloggs, Joe", "261619B", born=born
    )
    # Another Joe Bloggs born on another day is now ruled out, so a new player is made.
    entry = received("Bloggs, Joe", date_of_birth=date(1970, 1, 1))
    assert identify(entry, index).kind is DecisionKind.CREATE_NEW


def test_a_replaced_record_keeps_the_aliases_that_resolve_to_it() -> None:
    index = RecordIndex.build([record(1, "Bloggs, Joe", "261619B")], {233310: 1})
    index.replace(record(1, "Bloggs, Joe", "261619B", clubs=("Anytown",)))
    assert index.holder(233310) is not None and index.holder(233310).id == 1


def test_a_record_replaced_for_its_club_is_found_once_and_scored_with_the_club() -> None:
    # Two John Smiths without codes: by name alone they tie (80 each) and are queued.
    index = RecordIndex.build([record(1, "Smith, John"), record(2, "Smith, John")])
    entry = received("Smith, John", club_name="Anytown")
    assert identify(entry, index).kind is DecisionKind.PENDING
    # Player 2 joins Anytown: 95 against 80, a lead of 15, so he is linked.
    index.replace(record(2, "Smith, John", clubs=("Anytown",)))
    decision = identify(entry, index)
    assert (decision.kind, decision.player_id) == (DecisionKind.LINK, 2)
    assert len(index) == 2 and index.record(2) == record(2, "Smith, John", clubs=("Anytown",))
    # Player 1 joins it too: a tie again, each record scored once.
    index.replace(record(1, "Smith, John", clubs=("Anytown",)))
    assert identify(entry, index).candidates == ((1, 95), (2, 95))


def test_a_removed_record_no_longer_links_or_holds_its_code() -> None:
    index = RecordIndex.build([record(1, "Bloggs, Joe", "261619B", clubs=("Anytown",))])
    index.remove(1)
    assert len(index) == 0 and index.holder(261619) is None
    entry = received("Bloggs, Joe", club_name="Anytown")
    assert identify(entry, index).kind is DecisionKind.CREATE_NEW


def test_removing_an_unknown_record_changes_nothing() -> None:
    index = RecordIndex.build([record(1, "Bloggs, Joe")])
    index.remove(99)
    assert len(index) == 1


def test_a_replacement_taking_a_code_held_by_another_is_refused_and_changes_nothing() -> None:
    # Joe Bloggs renamed and given John Smith's code: refused, as ``add`` refuses it, and
    # Joe stays on record as he was, found by his own code and name.
    index = RecordIndex.build(
        [record(1, "Smith, John", "233310H"), record(2, "Bloggs, Joe", "261619B")]
    )
    by_name, by_code = received("Bloggs, Joe"), received("Bloggs, Joe", code="261619B")
    decided = [(entry, identify(entry, index)) for entry in (by_name, by_code)]
    with index.watch() as changes:
        with pytest.raises(ValueError, match="code 233310H already belongs to 'Smith, John'"):
            index.replace(record(2, "Bloggs, Joseph", "233310H"))
        # Nothing was noted: decisions made before stand without a second look.
        assert not any(changes.concern(e, d, MatchPolicy()) for e, d in decided)
    assert index.record(2) == record(2, "Bloggs, Joe", "261619B")
    assert index.holder(GradingCode.parse("261619B").number) == record(2, "Bloggs, Joe", "261619B")
    assert index.holder(GradingCode.parse("233310H").number) == record(1, "Smith, John", "233310H")
    decision = identify(by_name, index)
    assert (decision.kind, decision.player_id) == (DecisionKind.LINK, 2)
