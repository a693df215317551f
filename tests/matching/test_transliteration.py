"""Names written in ISO-8859-1 for the list file (docs/formats.md, "Encodings"): what
Latin-1 has is kept, the rest transliterated, never a silent '?'."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ecfgrading.matching.transliteration import latin1


@pytest.mark.parametrize(
    "name",
    [
        "Sørensen, Zoë",  # ø U+00F8 and ë U+00EB are Latin-1
        "Weiß, Jürgen",  # ß U+00DF
        "Núñez, Iñigo",
        "Ó Súilleabháin, Seán",
        "Æbelø, Þóra",  # Æ, ø, Þ, ó
        "Smith, John",
    ],
)
def test_a_name_latin1_can_write_is_kept_as_it_is(name: str) -> None:
    assert latin1(name) == name


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("Kozłowski, Paweł", "Kozlowski, Pawel"),  # ł U+0142 is not Latin-1
        ("Łukasz", "Lukasz"),
        ("Wiśniewski, Bożena", "Wisniewski, Bozena"),
        ("Dvořák, Jiří", "Dvorák, Jirí"),  # á and í are Latin-1: kept
        ("Černý, Zdeněk", "Cerný, Zdenek"),
        ("Erdős, Pál", "Erdos, Pál"),  # ő (double acute) -> o; á kept
        ("Nguyễn, Văn", "Nguyên, Van"),  # ễ keeps the circumflex Latin-1 has: ê
        ("Šimek, Œdipe", "Simek, OEdipe"),  # Windows-1252 letters are not Latin-1
        ("Đukić, Ivan", "Dukic, Ivan"),
        ("O’Brien, Seán", "O'Brien, Seán"),
        ("Смирнов, Борис", "Smirnov, Boris"),  # no Latin letters at all
    ],
)
def test_a_letter_latin1_lacks_is_transliterated(name: str, written: str) -> None:
    assert latin1(name) == written


def test_a_decomposed_accent_is_the_latin1_letter() -> None:
    assert latin1("Rene\u0301e") == "Renée"  # 'e' and a combining acute: é U+00E9


def test_control_characters_windows_1252_misreads_are_not_written() -> None:
    # U+0085 encodes to the byte 0x85, which a Windows-1252 reader takes for '…'.
    assert "\x85" not in latin1("Smith\x85, John")


@given(st.text())
def test_whatever_the_text_it_encodes_as_printable_latin1(text: str) -> None:
    written = latin1(text).encode("iso-8859-1")  # never raises
    assert not any(0x80 <= byte <= 0x9F for byte in written)


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFF)))
def test_latin1_text_is_unchanged(text: str) -> None:
    text = "".join(c for c in text if not 0x7F <= ord(c) <= 0x9F)
    # Latin-1 letters compose with nothing else in Latin-1, so NFC leaves them alone.
    assert latin1(text) == text


def test_a_symbol_with_no_transliteration_is_a_visible_question_mark() -> None:
    assert latin1("Smith \U0001f600, John") == "Smith ?, John"  # counted by the export
