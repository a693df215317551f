"""``Surname, Forenames``: one formatter for every name a file, list or page writes
(results-file.md: NAME and the list's Name are ``Surname, Forenames``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ecfgrading.formats.names import full_name
from ecfgrading.formats.results_model import PlayerEntry
from ecfgrading.formats.trf import parse_trf
from tests.formats.test_trf import EVENT, player, trf

SRC = Path(__file__).resolve().parents[2] / "src" / "ecfgrading"
FORMATTER = SRC / "formats" / "names.py"
# "Smith, John" built by hand: an f-string with a surname before ", {", a template with
# "{{ x.surname }}, {{ x.forenames }}", or ", ".join over a surname. The search key
# ("smith,john": no space) is not a written name.
BY_HAND = re.compile(
    r"\{[^{}\n]*surname[^{}\n]*\}, \{"
    r"|surname\s*\}\}, \{\{[^}\n]*forename"
    r"|[\"'], [\"']\.join\([^)\n]*surname"
)


def test_a_name_is_surname_comma_forenames() -> None:
    assert full_name("Smith", "John") == "Smith, John"
    assert full_name("Müller", "Jürgen Karl") == "Müller, Jürgen Karl"


@pytest.mark.parametrize("forenames", ["", None])
def test_a_name_without_forenames_is_the_surname_alone(forenames: str | None) -> None:
    assert full_name("Smith", forenames) == "Smith"


def test_no_one_has_no_name() -> None:
    """An outer join's missing player (a game's side not identified yet)."""
    assert full_name(None, None) == ""


def test_older_fields_without_forename_or_initials_give_the_surname_alone() -> None:
    """results-file.md: SURNAME, FORENAME, INITIALS are the older way to give NAME."""
    entry = PlayerEntry(pin=1, surname="Smith")
    assert entry.full_name == "Smith"
    assert PlayerEntry(pin=1, surname="Smith", forename="John", initials="A").full_name == (
        "Smith, John A"
    )


def test_a_trf_name_is_written_as_the_registry_reads_it() -> None:
    """TRF writes ``Surname,Forenames``; a name with nothing after its comma is the
    surname alone, as a list writes it, not ``Smith,``."""
    lines = [player(1, "Adams,Michael", []), player(2, "Smith,", []), player(3, "Nakamura", [])]
    results, _ = parse_trf(trf(lines), EVENT)
    assert results is not None
    assert [p.name for p in results.players] == ["Adams, Michael", "Smith", "Nakamura"]


def _hand_built() -> list[str]:
    found = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".py", ".html", ".txt") or path == FORMATTER:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BY_HAND.search(line):
                found.append(f"{path.relative_to(SRC)}:{number}: {line.strip()}")
    return found


def test_no_module_but_the_formatter_writes_a_name_by_hand() -> None:
    assert _hand_built() == []


def test_the_scan_sees_the_ways_a_name_was_written_by_hand() -> None:
    """The scan itself: each way the copies were written, and not the search key."""
    copies = [
        'on_record = f"{holder.surname}, {holder.forenames}" if holder else "?"',
        'return f"{self.surname}, {given}" if given else self.surname',
        "<td>{{ p.surname }}, {{ p.forenames }}</td>",
        'name = ", ".join((row.surname, row.forenames))',
    ]
    assert all(BY_HAND.search(copy) for copy in copies)
    assert not BY_HAND.search('return f"{surname_key(surname)},{fold(forenames)}"')
