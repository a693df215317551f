"""What issuing numbers costs: an import reserves its games' numbers and its new players'
codes on every file, under the importers' lock, so each takes a fixed, small number of
statements however many numbers it issues (issue 25)."""

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ecfgrading.registry.models import Player, Sequence
from ecfgrading.registry.numbering import issue_codes, reserve_game_sequence

pytestmark = pytest.mark.django_db


def test_a_block_of_game_numbers_is_one_statement() -> None:
    reserve_game_sequence(1)  # the counter's row is made at its first use

    with CaptureQueriesContext(connection) as sent:
        block = reserve_game_sequence(500)

    assert list(block) == list(range(2, 502))
    assert len(sent.captured_queries) == 1
    assert Sequence.objects.get(name=Sequence.GAMES).last_value == 501


def test_a_files_new_codes_are_three_statements_however_many() -> None:
    issue_codes(1)  # the counter's row is made at its first use
    Player.objects.create(code=4, surname="Quoted", forenames="In A File")

    with CaptureQueriesContext(connection) as sent:
        codes = issue_codes(40)

    # read and lock the counter, find the numbers held above it, move the counter on
    assert len(sent.captured_queries) == 3
    assert [code.number for code in codes] == [2, 3, *range(5, 43)]
    assert Sequence.objects.get(name=Sequence.GRADING_CODES).last_value == 42


def test_codes_held_past_the_first_look_are_skipped_too() -> None:
    # 1,001 held numbers in a row: more than one look at what is held is needed.
    Player.objects.bulk_create(Player(code=n, surname=f"Held {n}") for n in range(2, 1_003))

    assert [code.number for code in issue_codes(2)] == [1, 1_003]


@pytest.mark.postgresql  # row locks need a server database; SQLite serialises writers
@pytest.mark.django_db(transaction=True)
def test_concurrent_imports_never_get_overlapping_game_numbers() -> None:
    blocks: list[range] = []

    def reserve_five() -> None:
        try:
            blocks.extend(reserve_game_sequence(size) for size in (3, 1, 7, 2, 5))
        finally:
            connection.close()

    threads = [threading.Thread(target=reserve_five) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    numbers = sorted(n for block in blocks for n in block)
    assert numbers == list(range(1, 4 * (3 + 1 + 7 + 2 + 5) + 1))
