"""A federation fed as results files from June 2009 to June 2016, graded and published
through the CLI under the rule set of each list's date (G31..G44), and checked line by
line against an independent replay with the reference implementation.

The CLI runs as real processes of the installed ``ecfgrading`` command on a database
made for the run: a SQLite file under an ECFGRADING_HOME of its own, or on the
PostgreSQL pass a database created on DATABASE_URL's server and dropped after (as in
test_concurrency). Its steps, as the grading team would take them: ``init``; ``lists
import`` of the July 2009 list; then for every list from 2010-01 to 2016-07 in order,
``results import`` of the files received by its cut-off, ``grade`` and ``publish
--version initial`` of each rate it publishes, with no ``--rule-set``. Each list is
then exported as JSON.

The replay (``eras_replay``) grades the same federation with ``reference_compute`` only,
list by list from its own earlier lists; every published grade, category and game
count of the CLI's lists must equal the replay's.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from bench.soak import Database, must, scratch_database

from ecfgrading.engine.periods import ListId
from ecfgrading.engine.types import Rate
from tests.e2e.eras_federation import NEW, START_LIST_ID, EraFederation, ResultsFile, build
from tests.e2e.eras_replay import (
    Line,
    Replay,
    cutoff,
    features,
    half_years,
    latest_before,
    list_months,
    period,
    publishes,
    replay,
    rule_set_of,
    schedule,
    stored_sources,
)
from tests.engine.reference import rules_of_date

SCHEDULE = schedule()


@dataclass(frozen=True)
class Graded:
    """What the CLI did: each list month's JSON export, and the players the imports
    created."""

    exports: dict[ListId, list[dict[str, Any]]]
    new_players: list[str]

    def rows(self, list_id: ListId, rate: Rate) -> dict[str, dict[str, Any]]:
        return {row["name"]: row for row in self.exports[list_id] if row["rate"] == rate}

    def lines(self, list_id: ListId, rate: Rate) -> dict[str, Line]:
        return {
            name: (row["grade"], row["category"], row["games_latest"], row["games_counted"])
            for name, row in self.rows(list_id, rate).items()
        }


@pytest.fixture(scope="module")
def federation() -> EraFederation:
    return build()


@pytest.fixture(scope="module")
def reference(federation: EraFederation) -> Replay:
    return replay(federation)


@pytest.fixture(
    scope="module",
    params=[
        # SQLite files whatever DATABASE_URL says: run in the SQLite pass only.
        pytest.param("sqlite", marks=pytest.mark.sqlite),
        pytest.param("postgresql", marks=pytest.mark.postgresql),
    ],
)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def database(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    home = tmp_path_factory.mktemp(f"eras_{backend}")
    with ExitStack() as stack:
        url = None
        if backend == "postgresql":
            server = os.environ["DATABASE_URL"]
            name = f"{urlsplit(server).path.strip('/')}_eras_{os.getpid()}".lower()
            url = stack.enter_context(scratch_database(server, name))
        yield Database(home, url)


@pytest.fixture(scope="module")
def graded(
    database: Database, federation: EraFederation, tmp_path_factory: pytest.TempPathFactory
) -> Graded:
    """The team's steps, list by list; then every list exported as JSON."""
    folder = tmp_path_factory.mktemp("eras_files")
    start_list = folder / f"grades{START_LIST_ID.replace('-', '')}.csv"
    start_list.write_bytes(federation.start_list())
    must(database.run("init"))
    must(database.run("lists", "import", str(start_list), "--list", START_LIST_ID))
    new_players: list[str] = []
    after = date.min
    for list_id in list_months():
        files = federation.received(after, cutoff(list_id))  # G32: by the cut-off
        new_players += _imported(database, _written(folder, files))
        _grade_and_publish(database, list_id)
        after = cutoff(list_id)
    assert max(results.final for results in federation.files) <= after
    months = list(list_months())
    exported = _each(
        database, [("lists", "export", "--list", str(m), "--format", "json") for m in months]
    )
    return Graded(
        {m: json.loads(out) for m, out in zip(months, exported, strict=True)}, new_players
    )


def _written(folder: Path, files: list[ResultsFile]) -> list[str]:
    for results in files:
        (folder / results.name).write_bytes(results.data)
    return [str(folder / results.name) for results in files]


def _grade_and_publish(database: Database, list_id: ListId) -> None:
    """Each rate the list publishes, with no --rule-set (G31). The rates of one month
    read only earlier lists (G33, G34), so they are graded, then published, side by side."""
    rates = [rate for rate in (Rate.STANDARD, Rate.RAPID) if publishes(list_id, rate)]
    lists = [("--list", str(list_id), "--rate", rate) for rate in rates]
    _each(database, [("grade", *options) for options in lists])
    _each(database, [("publish", *options, "--version", "initial") for options in lists])


NEW_PLAYER = re.compile(r"^  new player (?P<name>.+): \d{6}[A-L]$", re.MULTILINE)


def _imported(database: Database, paths: list[str]) -> list[str]:
    """Every file accepted without a problem, every player identified (nobody left for a
    person to decide); the names of the players created."""
    if not paths:
        return []
    done = database.run("results", "import", *paths)
    out = must(done) + done.stderr
    assert f"{len(paths)} accepted, 0 already accepted (skipped), 0 rejected" in out, out
    for sign in ("pending:", "waiting for identification", "warning:", "error:"):
        assert sign not in out, out
    return NEW_PLAYER.findall(out)


def _each(database: Database, commands: list[tuple[str, ...]]) -> list[str]:
    """The commands two at a time; the output of each, which must succeed."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda args: must(database.run(*args)), commands))


# --- the replay's calendar is the engine's ----------------------------------------------------


def test_the_replay_reads_the_lists_the_calendar_names() -> None:
    """G32..G34 as written in the replay agree with ``ListId`` on every list of the span."""
    for list_id, rate in SCHEDULE:
        assert list_id.cutoff() == cutoff(list_id)
        halves = [(h.start, h.end) for h in list_id.half_years()]
        assert halves == half_years(list_id), list_id
        for k in (0, 1, 2):
            assert (list_id.period(k).start, list_id.period(k).end) == period(list_id, k)
        age_year = list_id.year if list_id.month == 7 else list_id.year - 1  # G42
        assert list_id.age_date(rules_of_date(list_id)) == date(age_year, 8, 31)
        assert list_id.previous_same_rate(rate) == latest_before(list_id, rate)
        assert list_id.previous_other_rate(rate) == latest_before(list_id, rate.other)
        for k in (1, 2):
            wanted = period(list_id, k)
            read = [s for s in stored_sources(list_id, rate, k) if _overlaps(s, wanted)]
            assert list(list_id.stored_by(rate, k)) == read, (list_id, rate, k)


def _overlaps(source: ListId, span: tuple[Any, Any]) -> bool:
    start, end = period(source, 0)
    return start <= span[1] and span[0] <= end


def test_the_federation_holds_what_the_rule_sets_treat_differently(reference: Replay) -> None:
    found = features(reference)
    wanted = {
        "ecf-2009 rapid X",
        "ecf-2009 notional games",
        "ecf-2009 junior +10",
        "ecf-2009 junior +5",
        "ecf-2009 newcomer estimated",
        "ecf-2009 estimated with history (returner)",
        "ecf-2012 standard X",
        "ecf-2012 rapid X",
        "X on the transition half-year, standard",
        "X on the transition half-year, rapid",
        "standard 2012-01 reads P1 from two annual lists by date",
        "ecf-2012 counts back the most recent N of more than N in P0",
        "ecf-2012 counts back into P1/P2",
        "ecf-2012 newcomer estimated",
        "ecf-2012 estimated with history (returner)",
        "ecf-2012 junior +5",
        "ecf-2015 A with 30 in H0 (no X)",
        "ecf-2015 brings whole half-years forward",
        "ecf-2015 takes a half-year pro rata",
        "a junior grows up",
        "ecf-2015 F standard",
        "ecf-2015 F rapid",
        "ecf-2015 newcomer estimated",
        "ecf-2015 estimated with history (returner)",
        "ecf-2015 junior +5",
    }
    assert wanted - set(found) == set()


# --- through the CLI ----------------------------------------------------------------------------


def test_every_list_is_published_under_the_rule_set_of_its_date(graded: Graded) -> None:
    """G31: no option given, each version records its list's rule set, and the JSON
    export carries it on every entry."""
    for list_id, rows in graded.exports.items():
        rates = {rate for rate in Rate if publishes(list_id, rate)}
        assert {row["rate"] for row in rows} == rates, list_id
        assert {row["version"] for row in rows} == {"initial"}, list_id
        assert {row["rule_set"] for row in rows} == {rule_set_of(list_id)}, list_id


def test_each_newcomer_is_created_once_and_everyone_else_found_by_code(
    graded: Graded, federation: EraFederation
) -> None:
    newcomers = [p.name for p in federation.people if p.kind in NEW]
    assert sorted(graded.new_players) == sorted(newcomers)


@pytest.mark.parametrize(("list_id", "rate"), SCHEDULE, ids=[f"{r}-{lid}" for lid, r in SCHEDULE])
def test_every_published_line_agrees_with_the_reference(
    graded: Graded, reference: Replay, list_id: ListId, rate: Rate
) -> None:
    """Grade, category, games in P0 and games counted of every published player, and
    who is published at all, as the reference computes them from the spec; the unrounded
    grades too, to a millionth, so that no difference hides in the rounding."""
    ours, theirs = graded.lines(list_id, rate), reference.published(list_id, rate)
    assert len(theirs) >= 25, f"{rate} {list_id}: too few players to check"
    wrong = [
        f"{rate} {list_id} {name}: the CLI published {ours.get(name)}, "
        f"the reference {theirs.get(name)} (grade, category, games_latest, games_counted)"
        for name in sorted(ours.keys() | theirs.keys())
        if ours.get(name) != theirs.get(name)
    ]
    assert not wrong, f"{len(wrong)} lines differ:\n" + "\n".join(wrong[:20])
    unrounded = reference.unrounded(list_id, rate)
    apart = [
        f"{rate} {list_id} {name}: unrounded {row['unrounded']} by the CLI, "
        f"{unrounded[name]} by the reference"
        for name, row in graded.rows(list_id, rate).items()
        if abs(row["unrounded"] - unrounded[name]) > 1e-6
    ]
    assert not apart, f"{len(apart)} unrounded grades differ:\n" + "\n".join(apart[:20])
