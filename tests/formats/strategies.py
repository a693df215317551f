"""Hypothesis strategies for results-file values that a results file can carry."""

from __future__ import annotations

from datetime import date

from hypothesis import strategies as st

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rateplay import Session, TimeControl
from ecfgrading.engine.types import ResultCode
from ecfgrading.formats import (
    Colour,
    EventDetails,
    GameResult,
    PartKind,
    PlayerEntry,
    ResultsFile,
    ResultsPart,
    WhiteOn,
)

# A value cannot hold '#' (it starts a field) or a line break, and readers trim it.
texts = st.text(st.characters(codec="utf-8", exclude_characters="#\r\n"), max_size=12).map(
    str.strip
)
days = st.dates(date(1900, 1, 1), date(2099, 12, 31))
minutes = st.integers(0, 2400).map(lambda halves: halves / 2)
moves = st.integers(1, 120)
environments = st.sampled_from(["OTB", "Online", "Correspondence"])


def optional(strategy: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.none() | strategy


@st.composite
def time_controls(draw: st.DrawFn) -> TimeControl:
    """One of the three combinations of results-file.md."""
    combination = draw(st.sampled_from("abc"))
    first = Session(draw(minutes), None if combination == "a" else draw(moves))
    sessions = (first, Session(draw(minutes), draw(moves))) if combination == "c" else (first,)
    return TimeControl(
        sessions,
        rest_minutes=0.0 if combination == "a" else draw(minutes),
        increment_seconds=draw(minutes),
        environment=draw(environments),
    )


# The federation's pattern, in capitals as a code is kept (formats.event_codes, issue 24).
event_codes = st.from_regex(r"[A-Z][A-Z0-9]{1,19}", fullmatch=True)

events = st.builds(
    EventDetails,
    code=event_codes,
    submission_index=optional(st.integers(0, 999)),
    name=texts,
    event_date=optional(days),
    final_result_date=optional(days),
    results_officer=texts,
    results_officer_address=st.lists(texts, max_size=3).map(tuple),
    treasurer=texts,
    treasurer_address=st.lists(texts, max_size=3).map(tuple),
    time_control=optional(time_controls()),
    adjudicated=optional(texts),
    inform_grand_prix=optional(texts),
    inform_fide=optional(texts),
    inform_chessmoves=optional(texts),
    inform_union=optional(texts),
)

valid_codes = st.integers(0, 999_999).map(GradingCode)


@st.composite
def players(draw: st.DrawFn) -> PlayerEntry:
    code = draw(optional(valid_codes))
    return draw(
        st.builds(
            PlayerEntry,
            pin=st.integers(0, 99_999),
            code_text=st.just(str(code) if code else ""),
            code=st.just(code),
            name=texts,
            surname=texts,
            forename=texts,
            initials=texts,
            gender=st.sampled_from(["", "M", "F"]),
            title=texts,
            date_of_birth=optional(days),
            club_code=texts,
            club_name=texts,
            club_county=texts,
            membership_no=texts,
            fide_no=texts,
            comment=texts,
        )
    )


games = st.builds(
    GameResult,
    pin1=st.integers(0, 99_999),
    score=st.sampled_from(ResultCode),
    pin2=st.integers(0, 99_999),
    colour=optional(st.sampled_from(Colour)),
    game_date=optional(days),
    board=optional(st.integers(0, 99)),
    round=optional(st.integers(1, 99)),
    comment=texts,
)

parts = st.builds(
    ResultsPart,
    kind=st.sampled_from(PartKind),
    name=texts,
    white_on=optional(st.sampled_from(WhiteOn)),
    results_date=optional(days),
    games=st.lists(games, max_size=6).map(tuple),
)

results_files = st.builds(
    ResultsFile,
    event=events,
    players=st.lists(players(), max_size=6).map(tuple),
    parts=st.lists(parts, max_size=3).map(tuple),
)
