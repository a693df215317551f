"""The demo federation's generator: deterministic, valid files, a realistic federation."""

from __future__ import annotations

import ast
from collections import Counter
from datetime import date
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import ecfgrading.demo
from ecfgrading.demo import SIZES, Federation, generate, generator
from ecfgrading.demo.events import EventKind
from ecfgrading.demo.seasons import DEMO_SEASONS, SEASONS, age_date, season_label
from ecfgrading.demo.teams import Team, _divisions
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rateplay import rate_of_play
from ecfgrading.engine.types import Category, NotGraded, Rate, ResultCode
from ecfgrading.formats import PartKind, ResultsFile, read_grade_list_bytes, read_results_bytes

SEED = 11


@pytest.fixture(scope="module")
def federation() -> Federation:
    return generate("tiny", SEED)


@pytest.fixture(scope="module")
def readings(federation: Federation) -> dict[str, ResultsFile]:
    found = {}
    for demo_file in federation.files:
        results, report = read_results_bytes(demo_file.data)
        assert report.ok, (demo_file.filename, [str(p) for p in report.errors])
        assert results is not None
        found[demo_file.filename] = results
    return found


def _games(readings: dict[str, ResultsFile]) -> list[tuple[ResultsFile, ResultCode]]:
    return [(results, game.score) for results in readings.values() for _, game in results.games()]


# -- determinism ------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_bytes(federation: Federation) -> None:
    again = generate("tiny", SEED)
    assert again.start_list == federation.start_list
    assert [f.filename for f in again.files] == [f.filename for f in federation.files]
    assert [f.data for f in again.files] == [f.data for f in federation.files]


def test_files_written_by_forked_workers_are_the_files_written_here(
    federation: Federation, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A national demo's files are written a process a core (issue 25): the same bytes,
    the same truth of who each PIN is, in the same order, as one process writes them."""
    monkeypatch.setattr(generator, "FILES_ON_ONE_CORE", 0)
    monkeypatch.setattr(generator, "forking_cores", lambda: 2)
    forked, killed = [], []
    real_pool = generator.fork_context().Pool

    def counted_pool(processes: int) -> object:
        forked.append(processes)
        pool = real_pool(processes)
        kill = pool.terminate

        def terminate() -> None:
            killed.append(processes)
            kill()

        pool.terminate = terminate  # type: ignore[method-assign]
        return pool

    monkeypatch.setattr(generator.fork_context(), "Pool", counted_pool)
    again = generate("tiny", SEED)
    assert forked == [2]
    # The workers, done, leave on their own: killing them could leave one waiting for
    # a lock the other held when killed, and the join hung (a CI run, 2026-12-04).
    assert killed == []
    assert [f.filename for f in again.files] == [f.filename for f in federation.files]
    assert [f.data for f in again.files] == [f.data for f in federation.files]
    assert [dict(f.pins) for f in again.files] == [dict(f.pins) for f in federation.files]
    assert [f.uncoded for f in again.files] == [f.uncoded for f in federation.files]


def test_writers_cut_short_finish_and_leave_without_being_killed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A caller that stops reading the files (here its progress report fails at the 50th
    file) gets its error, and the writers finish and leave: none is killed, and none is
    left behind."""
    import multiprocessing

    monkeypatch.setattr(generator, "FILES_ON_ONE_CORE", 0)
    monkeypatch.setattr(generator, "forking_cores", lambda: 2)
    killed = []
    real_pool = generator.fork_context().Pool

    def watched_pool(processes: int) -> object:
        pool = real_pool(processes)
        pool.terminate = lambda: killed.append(processes)  # type: ignore[method-assign]
        return pool

    monkeypatch.setattr(generator.fork_context(), "Pool", watched_pool)

    def progress(done: int, total: int, stage: str) -> None:
        if stage == "write results files" and done == 50:
            raise RuntimeError("stopped reading")

    with pytest.raises(RuntimeError, match="stopped reading"):
        generate("tiny", SEED, progress)
    assert killed == []
    assert multiprocessing.active_children() == []


def test_another_seed_gives_another_federation(federation: Federation) -> None:
    other = generate("tiny", SEED + 1)
    assert other.start_list != federation.start_list


def test_an_unknown_size_is_refused() -> None:
    with pytest.raises(ValueError, match="expected a demo size tiny, default, national"):
        generate("enormous")


# -- the files read back --------------------------------------------------------------------


def test_every_results_file_reads_back_without_errors(readings: dict[str, ResultsFile]) -> None:
    assert readings  # the fixture asserts report.ok for each


def test_files_read_back_with_the_event_codes_they_are_named_by(
    federation: Federation, readings: dict[str, ResultsFile]
) -> None:
    for demo_file in federation.files:
        event = readings[demo_file.filename].event
        assert event.code == demo_file.event_code
        assert event.submission_index == demo_file.submission_index
        assert demo_file.filename.startswith(event.code)


def test_the_starting_list_reads_back_without_problems(federation: Federation) -> None:
    grade_list, report = read_grade_list_bytes(federation.start_list)
    assert grade_list is not None
    assert len(report) == 0
    assert len(grade_list.rows) == int(np.count_nonzero(federation.listed))
    assert {row.standard.category for row in grade_list.rows} >= {Category.A, Category.E}


def test_every_player_is_given_with_a_name_and_a_code_or_a_club(
    readings: dict[str, ResultsFile],
) -> None:
    for results in readings.values():
        for player in results.players:
            assert player.full_name
            assert player.code_text or player.club_name or player.club_code


# -- what the seasons hold ---------------------------------------------------------------


def test_each_season_has_about_the_sizes_number_of_games(federation: Federation) -> None:
    wanted = SIZES["tiny"].games
    by_season = federation.stats().games
    for season in DEMO_SEASONS:
        games = by_season[season_label(season)]
        assert 0.85 * wanted <= games <= 1.25 * wanted, season
    # 2015-16 is begun only (nextseason): its tournaments of June to November.
    assert 0.1 * wanted <= by_season["2015-16"] <= 0.4 * wanted


def test_the_next_seasons_first_events_arrive_after_the_last_list(
    federation: Federation,
) -> None:
    begun = [event for event in federation.events if event.season == DEMO_SEASONS[-1] + 1]
    assert begun
    assert {event.kind for event in begun} <= {
        EventKind.CONGRESS, EventKind.RAPIDPLAY, EventKind.JUNIOR, EventKind.LIGHTNING
    }  # fmt: skip
    for event in begun:
        assert date(2015, 7, 1) <= event.first_day <= event.last_day <= date(2015, 11, 30)
        assert date(2015, 8, 15) < event.received <= date(2015, 12, 15)  # after the August list


def test_files_arrive_by_the_cut_off_of_the_half_year_they_were_played_in(
    federation: Federation,
) -> None:
    """G32: 31 December or 30 June; late files (for the August versions) in July."""
    for demo_file in federation.files:
        if demo_file.late or demo_file.season > DEMO_SEASONS[-1]:
            continue
        last = demo_file.last_day
        cut_off = date(last.year, 6, 30) if last.month <= 6 else date(last.year, 12, 31)
        assert last <= demo_file.received <= cut_off, demo_file.filename


def _standard_games_by_half_year(federation: Federation) -> dict[date, Counter[int]]:
    """Graded standard games per player in each half-year, by the half-year's last day."""
    found: dict[date, Counter[int]] = {}
    for event in federation.events:
        if rate_of_play(event.control) is not Rate.STANDARD:
            continue
        for part in event.parts:
            for game in part.games:
                if game.code <= 2:  # win, loss or draw: graded (G1)
                    day = game.day
                    end = date(day.year, 6, 30) if day.month <= 6 else date(day.year, 12, 31)
                    found.setdefault(end, Counter()).update((game.first, game.second))
    return found


def test_a_few_regulars_play_30_standard_games_in_every_half_year_of_ecf_2012(
    federation: Federation,
) -> None:
    """The congress circuit's regulars: X in the standard lists 2012-01..2014-07 (G36)."""
    by_half_year = _standard_games_by_half_year(federation)
    # The H0 of the lists 2012-01 (its last six months) to 2014-07.
    ends = [date(year, month, 30 if month == 6 else 31) for year in range(2011, 2015)
            for month in (6, 12)][1:-1]  # fmt: skip
    assert len(ends) == 6
    for end in ends:
        keen = [player for player, games in by_half_year[end].items() if games >= 30]
        assert len(keen) >= 2, end


def test_every_kind_of_event_is_played_every_season(federation: Federation) -> None:
    for season in DEMO_SEASONS:
        kinds = {event.kind for event in federation.events if event.season == season}
        assert kinds == set(EventKind), season


def test_lightning_and_online_events_are_there_and_not_graded(
    readings: dict[str, ResultsFile],
) -> None:
    reasons = Counter(
        rate_of_play(results.event.time_control)
        for results in readings.values()
        if results.event.time_control is not None
    )
    assert reasons[NotGraded.LIGHTNING] >= 3
    assert reasons[NotGraded.ONLINE] >= 3
    assert reasons[Rate.STANDARD] > reasons[Rate.RAPID] > 0


def test_defaults_of_every_kind_are_recorded(readings: dict[str, ResultsFile]) -> None:
    scores = Counter(score for _, score in _games(readings))
    for default in (ResultCode.DEFAULT_WIN, ResultCode.DEFAULT_LOSS, ResultCode.DOUBLE_DEFAULT):
        assert scores[default] > 0, default
    assert sum(scores[code] for code in ResultCode if not code.graded) < 0.05 * scores.total()


def test_about_a_quarter_of_the_games_are_drawn(readings: dict[str, ResultsFile]) -> None:
    scores = Counter(score for _, score in _games(readings))
    played = scores[ResultCode.WIN] + scores[ResultCode.LOSS] + scores[ResultCode.DRAW]
    assert 0.2 <= scores[ResultCode.DRAW] / played <= 0.3


def test_about_a_fifth_of_the_players_are_juniors(federation: Federation) -> None:
    share = federation.stats().juniors / len(federation.people)
    assert 0.15 <= share <= 0.25
    people = federation.people
    # Each player's age on 31 August of his first season (newcomers join until 2014-15).
    ages = np.select(
        [people.first == season for season in range(SEASONS)],
        [people.age_on(age_date(season)) for season in range(SEASONS)],
    )
    juniors = ages[ages <= 17]
    assert juniors.min() >= 8
    assert set(range(9, 18)) <= set(juniors.tolist())


def test_a_few_per_cent_hold_fide_ids(federation: Federation) -> None:
    share = federation.stats().fide / len(federation.people)
    assert 0.01 <= share <= 0.08


def test_some_newcomers_share_a_name_with_a_player_of_another_club(
    federation: Federation,
) -> None:
    people = federation.people
    assert len(people.namesakes) >= 2
    for newcomer in people.namesakes.tolist():
        twins = [p for p, name in enumerate(people.names) if name == people.names[newcomer]]
        assert len(twins) >= 2
        assert len({int(people.club[p, 1]) for p in twins}) == len(twins)


def test_leagues_are_matches_with_boards_and_team_colours(
    federation: Federation, readings: dict[str, ResultsFile]
) -> None:
    leagues = [f for f in federation.files if f.kind is EventKind.LEAGUE]
    assert leagues
    for demo_file in leagues:
        for part in readings[demo_file.filename].parts:
            assert part.kind is PartKind.MATCH
            assert part.white_on is not None
            assert [game.board for game in part.games] == list(range(1, len(part.games) + 1))


def test_club_championships_are_round_robins(
    federation: Federation, readings: dict[str, ResultsFile]
) -> None:
    for demo_file in federation.files:
        if demo_file.kind is not EventKind.CLUB:
            continue
        (part,) = readings[demo_file.filename].parts
        players = len(readings[demo_file.filename].players)
        assert part.kind is PartKind.SECTION
        assert len(part.games) == players * (players - 1) // 2


def test_most_players_come_with_codes_and_some_by_name_and_club_only(
    federation: Federation,
) -> None:
    stats = federation.stats()
    assert 0.01 <= stats.uncoded_entries / stats.entries <= 0.15


def test_some_names_have_accents_and_some_files_are_old_windows_bytes(
    federation: Federation, readings: dict[str, ResultsFile]
) -> None:
    names = [p.full_name for results in readings.values() for p in results.players]
    assert any(not name.isascii() for name in names)
    assert any(b"\r\n" in f.data for f in federation.files)


def test_a_few_files_arrive_late_and_one_event_is_corrected(federation: Federation) -> None:
    late = [f for f in federation.files if f.late]
    assert late
    assert all(f.received.month == 7 for f in late)
    (second,) = [f for f in federation.files if f.submission_index == 2]
    (first,) = [
        f for f in federation.files if f.event_code == second.event_code and f is not second
    ]
    assert first.received < second.received
    assert second.filename == f"{second.event_code}-2.txt"


def test_the_highest_code_on_record_is_on_the_starting_list(federation: Federation) -> None:
    codes = federation.people.code
    assert federation.listed[int(np.argmax(codes))]
    listed_codes = {str(GradingCode(int(c))) for c in codes[federation.listed]}
    assert str(GradingCode(int(codes.max()))) in listed_codes


def test_newcomers_have_no_code_until_the_system_issues_one(federation: Federation) -> None:
    people = federation.people
    assert np.all(people.code[people.first > 0] == 0)
    assert np.all(people.code[people.first == 0] > 0)
    assert len(np.unique(people.code[people.first == 0])) == np.count_nonzero(people.first == 0)


def test_the_generator_needs_no_database() -> None:
    """Only build.py, registration.py and logins.py (the database's parts of the demo)
    touch Django: files can be generated anywhere."""
    folder = Path(ecfgrading.demo.__file__).parent
    for path in folder.glob("*.py"):
        if path.name in ("build.py", "registration.py", "logins.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                top = node.module.split(".")
                assert top[0] != "django", path.name
                assert top[:2] not in (["ecfgrading", "registry"], ["ecfgrading", "services"]), (
                    f"{path.name} imports {node.module}"
                )


def test_the_corrected_file_puts_a_few_results_right_and_nothing_else(
    federation: Federation, readings: dict[str, ResultsFile]
) -> None:
    (second,) = [f for f in federation.files if f.submission_index == 2]
    first = readings[f"{second.event_code}.txt"]
    fixed = readings[second.filename]
    assert fixed.players == first.players
    changed = [
        (old.score, new.score)
        for (_, old), (_, new) in zip(first.games(), fixed.games(), strict=True)
        if old != new
    ]
    assert len(changed) == 3
    assert all({old, new} == {ResultCode.WIN, ResultCode.LOSS} for old, new in changed)


@pytest.mark.parametrize(
    ("teams", "sizes"),
    [(16, [8, 8]), (10, [10]), (19, [8, 11]), (20, [8, 8, 4]), (3, [3])],
)
def test_league_divisions_hold_every_team_once_a_short_last_one_merged_up(
    teams: int, sizes: list[int]
) -> None:
    """Eight teams to a division by strength; a last division of three or fewer joins the
    one above it (10 teams: one of ten, not an error; 19: the last eleven together)."""
    seen = np.arange(teams * 4, dtype=float)[::-1].reshape(teams * 4, 1)  # strongest first
    world = SimpleNamespace(people=SimpleNamespace(seen=seen))
    squads = [Team(f"Team {k}", np.arange(4 * k, 4 * k + 4)) for k in range(teams)]
    divisions = _divisions(world, 0, squads)  # type: ignore[arg-type]
    assert [len(division) for division in divisions] == sizes
    assert [team.name for division in divisions for team in division] == [
        f"Team {k}" for k in range(teams)
    ]
