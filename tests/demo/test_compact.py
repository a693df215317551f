"""What the demo holds while it builds (issue 25: a national demo under 500 MB): games as
arrays, PINs as machine integers, saved files read from disk, and the figures it prints."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import numpy as np
import pytest

from ecfgrading.demo import generate
from ecfgrading.demo.events import Games, Played
from ecfgrading.demo.generator import Pins
from ecfgrading.demo.summary import DemoSummary, phase_of
from ecfgrading.formats.results_model import Colour

MONDAY, TUESDAY = date(2010, 3, 1), date(2010, 3, 2)


def test_games_read_back_as_the_games_played() -> None:
    played = [
        Played(7, 12, 0, MONDAY, Colour.WHITE, round=1),
        Played(3, 9, 2, TUESDAY, None, board=4),
        Played(12, 3, 5, TUESDAY, Colour.BLACK, board=1, round=2),
    ]
    games = Games.from_played(played)
    assert list(games) == played
    assert games[1] == played[1]
    assert list(games[1:]) == played[1:]
    assert len(games) == 3
    assert games.players() == [7, 12, 3, 9, 12, 3]
    assert games.codes.tolist() == [0, 2, 5]
    assert [date.fromordinal(day) for day in games.days.tolist()] == [MONDAY, TUESDAY, TUESDAY]
    assert games == Games.from_played(played) and hash(games) == hash(Games.from_played(played))
    assert games != Games.from_played(played[:2])


def test_a_round_of_games_is_the_players_side_by_side() -> None:
    games = Games.of([4, 6], [5, 7], np.array([1, 2]), MONDAY, colour=Colour.WHITE, round=3)
    assert list(games) == [
        Played(4, 5, 1, MONDAY, Colour.WHITE, None, 3),
        Played(6, 7, 2, MONDAY, Colour.WHITE, None, 3),
    ]
    match = Games.of([1, 2], [8, 9], [0, 1], TUESDAY, board=np.arange(1, 3))
    assert [(g.board, g.colour, g.round) for g in match] == [(1, None, None), (2, None, None)]
    assert list(Games.join([games, match])) == [*games, *match]
    assert len(Games.join([])) == 0


def test_pins_map_each_pin_to_its_player() -> None:
    pins = Pins({2: 40, 1: 17, 3: 5})
    assert dict(pins) == {1: 17, 2: 40, 3: 5}
    assert pins[3] == 5 and len(pins) == 3
    assert pins.get(4) is None and pins.get(0) is None and pins.get(None) is None  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="expected PINs 1 to 2"):
        Pins({1: 3, 3: 4})


def test_saved_files_are_read_from_disk_byte_for_byte(tmp_path: Path) -> None:
    federation = generate("tiny", 5)
    saved = federation.saved(tmp_path)
    assert len(saved.files) == len(federation.files)
    for before, after in zip(federation.files, saved.files, strict=True):
        assert after.packed == b""
        assert after.saved_at == tmp_path / "results" / before.folder / before.filename
        assert after.data == before.data
        assert after.pins == before.pins


def test_the_summary_sums_its_steps_by_phase_with_their_cpu_seconds() -> None:
    timings = (
        ("generate", 4.0),
        ("save files", 0.5),
        ("import for rapid 2010-01", 2.0),
        ("identify for rapid 2010-01", 1.0),
        ("grade rapid 2010-01 initial", 1.5),
        ("import for July 2010 initial", 3.0),
        ("grade standard 2010-07 initial", 0.25),
        ("demo logins", 0.125),
    )
    cpu = (3.0, 0.25, 1.0, 0.5, 1.25, 2.0, 0.25, 0.125)
    summary = _summary(timings, cpu, peaks=(300 * 2**20, 310 * 2**20, 499 * 2**20))
    text = summary.to_text()
    phases = text[text.index("By phase") :]
    assert re.search(r"^  generate +4\.50 s +3\.25 s CPU$", phases, re.M)
    assert re.search(r"^  import results +5\.00 s +3\.00 s CPU$", phases, re.M)
    assert re.search(r"^  identify queued players +1\.00 s +0\.50 s CPU$", phases, re.M)
    assert re.search(r"^  grade and publish +1\.75 s +1\.50 s CPU$", phases, re.M)
    assert re.search(r"^  demo logins +0\.12 s +0\.12 s CPU$", phases, re.M)
    assert re.search(r"^  total +12\.38 s +8\.38 s CPU, peak 499 MB$", phases, re.M)


def test_a_step_not_named_like_a_phase_is_its_own_phase() -> None:
    assert phase_of("load list 2009-07") == "load the starting list"
    assert phase_of("register events") == "register events"
    assert phase_of("something new") == "something new"


def _summary(
    timings: tuple[tuple[str, float], ...], cpu: tuple[float, ...], peaks: tuple[int, ...]
) -> DemoSummary:
    from ecfgrading.demo.generator import FederationStats
    from ecfgrading.demo.summary import ImportCounts

    stats = FederationStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {}, 0, {}, {}, {}, 0.0, 0, 0)
    return DemoSummary(
        home=Path(),
        folder=Path("demo"),
        start_list=Path("demo/grades200907.csv"),
        results_folder=Path("demo/results"),
        size="tiny",
        seed=1,
        federation=stats,
        players=0,
        clubs=0,
        events=0,
        imports=ImportCounts(),
        lists=(),
        timings=timings,
        peaks=peaks,
        cpu=cpu,
    )
