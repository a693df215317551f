"""bench/scale.py (issue 25, how cost grows) and bench/step_floor.py, its floors.

The benchmark runs whole at the tiny size scaled by 0.5 and 1: every step at each factor,
the floors, the pages, the growth. Its sums are checked against the season's own files.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bench import scale, step_floor

from ecfgrading.demo.sizes import SIZES
from ecfgrading.registry.models import Player

ROOT = Path(__file__).resolve().parent.parent


def test_a_factor_scales_players_and_games_together() -> None:
    doubled = scale.scaled(SIZES["national"], 2)
    assert (doubled.players, doubled.games) == (120_000, 400_000)
    assert doubled.counties == SIZES["national"].counties  # the federation's shape stays
    halved = scale.scaled(SIZES["tiny"], 0.5)
    assert (halved.players, halved.games, halved.name) == (150, 750, "tiny x0.5")


def test_factors_must_grow() -> None:
    assert scale.factors_given("1,2,4") == [1.0, 2.0, 4.0]
    for wrong in ("2,1", "1,1", "0,1", ""):
        with pytest.raises(Exception, match="increasing factors"):
            scale.factors_given(wrong)


def test_a_workdir_not_yet_there_is_made_and_a_file_refused(tmp_path: Path) -> None:
    """Its temporary homes go under --workdir: a folder not yet made is made (it used to
    end in a traceback from tempfile), a file in its place is refused by name."""
    wanted = tmp_path / "not" / "yet"
    assert scale.parse(["--workdir", str(wanted)]).workdir == wanted
    assert wanted.is_dir()
    taken = tmp_path / "a-file"
    taken.write_text("")
    with pytest.raises(SystemExit):
        scale.parse(["--workdir", str(taken)])


def test_a_season_is_graded_in_the_next_july_standard_list() -> None:
    assert scale.season_list_id("2009-10") == "2010-07"
    assert scale.season_list_id("2014-15") == "2015-07"


def test_a_step_growing_more_than_15_percent_faster_than_its_size_is_flagged() -> None:
    # Twice the games: linear is 2.0; above 2.3 is flagged.
    assert scale.worse_than_linear(2.31, 2.0)
    assert not scale.worse_than_linear(2.29, 2.0)
    assert not scale.worse_than_linear(None, 2.0)
    assert scale.growth(4.0, 9.0) == 2.25
    assert scale.growth(0.0, 1.0) is None
    # A page's cost should not follow the size of the database.
    assert scale.page_grew(1.51)
    assert not scale.page_grew(1.49)


def test_the_next_factor_runs_only_if_its_estimated_peak_fits() -> None:
    # 1 GiB at 1x is 2 GiB at 2x, 2.5 GiB with the 25 % margin.
    gib = 1024 * 1024
    assert scale.fits(gib, 1, 2, available_kib=int(2.5 * gib))
    assert not scale.fits(gib, 1, 2, available_kib=int(2.5 * gib) - 1)
    assert scale.fits(gib, 2, 4, available_kib=int(2.5 * gib))


@pytest.mark.django_db
def test_a_floor_inserts_again_exactly_the_rows_a_step_added() -> None:
    Player.objects.create(code=900_001, surname="Before", forenames="A")
    before = step_floor.marks()
    for n in range(3):
        Player.objects.create(code=900_010 + n, surname=f"Added{n}", forenames="B")
    ranges = step_floor.added(before, step_floor.marks())
    assert [(each.table, each.upto - each.after) for each in ranges] == [("registry_player", 3)]
    floor = step_floor.floor_of(ranges)
    assert floor.rows == 3
    assert floor.seconds > 0
    assert floor.cpu >= 0
    assert step_floor.floor_of([]) == step_floor.Floor(0.0, 0.0, 0)


@pytest.mark.sqlite  # its children use SQLite files of their own
def test_the_benchmark_runs_every_step_at_two_factors(tmp_path: Path) -> None:
    figures = tmp_path / "figures.json"
    options = ["--tiny", "--factors", "0.5,1", "--samples", "1", "--json", str(figures)]
    folders = ["--season-dir", str(tmp_path / "seasons"), "--workdir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scale.py"), *options, *folders],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    measured = json.loads(figures.read_text())
    assert [each["factor"] for each in measured] == [0.5, 1.0]
    for each in measured:
        season = tmp_path / "seasons" / f"tiny-x{each['factor']:g}-seed2009"
        steps = each["figures"]["steps"]
        # Every row of the list file but its header is a player imported.
        listed = json.loads((season / "season.json").read_text())["list_file"]
        rows = (season / listed).read_bytes().count(b"\n") - 1
        assert steps["list import"]["units"] == rows
        files = list((season / "results").iterdir())
        games = sum(path.read_bytes().count(b"#PIN1=") for path in files)
        assert steps["results import"]["units"] == games == each["season"]["games"]
        assert steps["results import"]["files"] == len(files)
        assert 0 < steps["grading run"]["units"] <= games
        for name in scale.STEPS:
            assert steps[name]["floor_rows"] > 0, name
            assert steps[name]["cpu"] > 0, name
        assert "player page" in each["figures"]["pages"]
    out = done.stdout
    for name in scale.STEPS:
        for factor in ("0.5x", "1x"):
            assert re.search(rf"^{name} +{factor} ", out, re.MULTILINE), (name, factor)
    assert re.search(r"^growth.* 1x/0\.5x$", out, re.MULTILINE)
