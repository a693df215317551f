"""G28: grading codes are issued by the system, in sequence, and never reused."""

import threading

import pytest
from django.db import connection

from ecfgrading.engine.codes import GradingCode, InvalidCode
from ecfgrading.registry.models import Player, PlayerAlias
from ecfgrading.registry.numbering import (
    CodesExhausted,
    code_held,
    issue_code,
    issue_codes,
    note_codes_on_record,
    reserve_game_sequence,
    resolve_code,
)

pytestmark = pytest.mark.django_db


def test_codes_are_issued_in_sequence_with_their_check_letter() -> None:
    codes = [issue_code() for _ in range(3)]

    assert [code.number for code in codes] == [1, 2, 3]
    assert [GradingCode.parse(str(code)) for code in codes] == codes


def test_a_player_shows_his_full_code_with_its_check_letter() -> None:
    player = Player(code=261619, surname="Bloggs", forenames="Joe")

    assert player.ref == "261619B"  # a G28 example
    assert str(player) == "Bloggs, Joe (261619B)"


def test_a_code_is_never_reused_after_its_player_is_deleted(make_player) -> None:
    make_player()
    last = make_player()
    last.delete()

    assert issue_code().number == last.code + 1


def test_new_codes_follow_the_highest_code_loaded_from_a_list() -> None:
    Player.objects.create(code=233310, surname="Loaded", forenames="From A List")
    note_codes_on_record(233310)  # what the list import does

    assert str(issue_code()) == str(GradingCode(233311))


def test_a_code_quoted_in_a_file_does_not_move_the_sequence_but_is_skipped() -> None:
    # A file's well-formed 999998L must not use up every code above it.
    Player.objects.create(code=999998, surname="Typo")
    Player.objects.create(code=2, surname="Old record")

    assert [code.number for code in issue_codes(3)] == [1, 3, 4]


def test_running_out_of_codes_is_a_clear_error() -> None:
    note_codes_on_record(999_998)

    assert issue_code().number == 999_999
    with pytest.raises(CodesExhausted, match="the grading codes are used up"):
        issue_code()


def test_a_noted_code_is_never_issued_even_when_its_player_is_gone() -> None:
    player = Player.objects.create(code=155624, surname="Loaded")
    note_codes_on_record(155624)
    player.delete()

    assert issue_code().number == 155625


def test_an_alias_keeps_its_code_out_of_circulation(make_player) -> None:
    note_codes_on_record(499_999)
    PlayerAlias.objects.create(code=500000, player=make_player())

    assert issue_code().number == 500001


def test_issuing_many_codes_gives_a_consecutive_block() -> None:
    first = issue_code().number

    assert [code.number for code in issue_codes(4)] == [first + 1, first + 2, first + 3, first + 4]
    assert issue_code().number == first + 5


def test_game_sequence_blocks_never_overlap() -> None:
    first, second = reserve_game_sequence(3), reserve_game_sequence(2)

    assert list(first) == [1, 2, 3]
    assert list(second) == [4, 5]


def test_an_alias_resolves_to_the_surviving_player(make_player) -> None:
    survivor = make_player()
    PlayerAlias.objects.create(code=102807, player=survivor)

    assert resolve_code("102807J") == survivor
    assert resolve_code(102807) == survivor


def test_a_merged_players_code_resolves_through_every_merge(make_player) -> None:
    survivor = make_player("Smith", "Jane")
    middle = make_player("Smith", "J", merged_into=survivor)
    first = make_player("Smith", "Jayne", merged_into=middle)

    assert resolve_code(first.grading_code) == survivor
    assert resolve_code(first.ref) == survivor


def test_an_unknown_code_resolves_to_nothing() -> None:
    assert resolve_code("233310H") is None


def test_a_code_is_held_by_a_player_an_alias_or_a_merged_record_and_nothing_else(
    make_player,
) -> None:
    """code_held agrees with resolve_code finding someone: a player's code, an alias's,
    a merged record's; not a code next to them, nor one no one has."""
    survivor = make_player(code=233310)
    make_player("Smith", "J", code=233312, merged_into=survivor)
    PlayerAlias.objects.create(code=233314, player=survivor)

    held = {number for number in range(233309, 233316) if code_held(number)}

    assert held == {233310, 233312, 233314}
    assert held == {n for n in range(233309, 233316) if resolve_code(n) is not None}


def test_resolving_a_code_with_a_wrong_check_letter_says_what_was_expected() -> None:
    with pytest.raises(InvalidCode, match="expected 'H'"):
        resolve_code("233310A")


@pytest.mark.postgresql  # row locks need a server database; SQLite serialises writers
@pytest.mark.django_db(transaction=True)
def test_concurrent_imports_never_get_the_same_code() -> None:
    issued: list[int] = []

    def issue_five() -> None:
        try:
            issued.extend(code.number for code in (issue_code() for _ in range(5)))
        finally:
            connection.close()

    threads = [threading.Thread(target=issue_five) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(issued) == list(range(1, 21))
