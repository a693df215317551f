"""The player page's service on a small federation whose every figure is worked by hand.

Notional, Peter is cases.md C3 through the whole pipeline (as tests/e2e/test_pipeline.py):
three standard lists graded from results files, then the first results of the next
season, graded provisionally for the next list. Opponents are one-off players with
assigned starting grades (G6), so each figure below follows from the rules by hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from itertools import count
from typing import Any

import numpy as np
import pytest
from django.core.cache import cache

from ecfgrading.engine import Category, ListId, Rate
from ecfgrading.engine.categories import CATEGORY_CODES, categories
from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.rules import ECF_2009
from ecfgrading.lookups import provisional
from ecfgrading.lookups.players import (
    Located,
    PlayerNotFound,
    PlayerPage,
    locate,
    player_page,
    player_summary,
    rating_on,
)
from ecfgrading.lookups.provisional import games_needed, next_list, x_needed
from ecfgrading.registry.models import Player, PlayerAlias
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.merge import merge_players
from ecfgrading.services.results.ingest import import_files
from ecfgrading.services.results.view import shared_view
from tests.e2e.federation import Federation

pytestmark = pytest.mark.django_db

STANDARD, RAPID = Rate.STANDARD, Rate.RAPID
CSV_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)


def run(list_id: str, rate: Rate = STANDARD) -> str:
    """Compute and publish the next version of a list."""
    name = compute_version(list_id, rate).version
    publish_version(list_id, rate, name)
    return name


def imported(*files: tuple[str, bytes]) -> None:
    outcomes = import_files(list(files))
    assert [p.message for o in outcomes for p in o.report.errors] == []


def listed(name: str, grade: int, year: int = 2009, number: int = 200_001) -> Player:
    """A player put on record by a starting list (standard, July ``year``), as a loaded
    list puts players on record: his code is below the Federation's own."""
    code = GradingCode(number)
    csv = CSV_HEADER + f'{code},"{name}",M,,A,{grade},{grade},30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id=f"{year}-07", rates=(STANDARD,))
    return Player.objects.get(code=number)


def notional_history(start: int = 2008, code: int = 200_001) -> tuple[Federation, Player]:
    """C3 over three seasons; each list's figures are worked in the comments.

    ``start`` is the year of the first list graded (July): by default the three lists and
    the next one (2008-07 .. 2011-07) are all ecf-2009's, annual standard lists (G31).
    The web tests move it clear of the demo federation's years, and ``code`` clear of
    its codes.
    """
    fed = Federation(codes=count(code + 1), assigned_from=f"{start - 1}-07")
    notional = listed("Notional, Peter", 150, start - 1, code)
    # First list: S 150; 8 losses (100) and 12 draws (150) against 150s: 2600 / 20 = 130, D.
    s1 = fed.against(notional, ["01"] * 8 + ["55"] * 12, 150, date(start - 1, 9, 5))
    imported(fed.event(s1))
    run(f"{start}-07")
    # Second: S 130; 2 wins (200), 4 draws (150), 4 losses (100): 1400 in 10 games,
    # and 20 notional games at 130 from P1: (1400 + 2600) / 30 = 133.33 -> 133, C.
    s2 = fed.against(notional, ["10"] * 2 + ["55"] * 4 + ["01"] * 4, 150, date(start, 9, 4))
    imported(fed.event(s2))
    run(f"{start + 1}-07")
    # Third: S 133; 12 draws against 150s (inside 93..173): 1800; 10 at 140 from P1
    # and 8 at 130 from P2: (1800 + 1400 + 1040) / 30 = 141.33 -> 141, C, games 12 / 30.
    imported(fed.event(fed.against(notional, ["55"] * 12, 150, date(start + 1, 9, 3))))
    run(f"{start + 2}-07")
    return fed, notional


def notional_half_years(start: int = 2017, code: int = 200_001) -> tuple[Federation, Player]:
    """C3's games under ecf-2015 (G31), half-yearly lists from ``start``-07 to
    (``start`` + 2)-07, each list worked in the comments. Games are played in March, so
    each lies in the H0 of a July list and in the H1 of the January list after it; with
    every opponent at 150 (within 40 of each starting grade) a game scores the same in
    both lists, and the figures come out as C3's.
    """
    fed = Federation(codes=count(code + 1), assigned_from=f"{start}-01")
    number = GradingCode(code)
    csv = CSV_HEADER + f'{number},"Notional, Peter",M,,A,150,150,30,,,,,,,,,,,,ENG\n'
    import_grade_list(csv.encode(), list_id=f"{start}-01", rates=(STANDARD,))
    notional = Player.objects.get(code=code)
    # {start}-07: S 150 (G33: standard {start}-01); 8 losses, 12 draws: 2600 / 20 = 130;
    # nothing stored before (a list loaded from a file): D.
    imported(fed.event(fed.against(notional, ["01"] * 8 + ["55"] * 12, 150, date(start, 3, 5))))
    run(f"{start}-07")
    # {start + 1}-01: the same games (its H1), S 130: 130, D.
    run(f"{start + 1}-01")
    # {start + 1}-07: S 130; 2 wins, 4 draws, 4 losses: 1400 in 10; need 20 (G38): H2,
    # January-June {start}, 20 games stored by {start}-07 (2600), taken whole:
    # (1400 + 2600) / 30 = 133.33 -> 133, C (n0 10, n0 + n1 30).
    s2 = fed.against(notional, ["10"] * 2 + ["55"] * 4 + ["01"] * 4, 150, date(start + 1, 3, 4))
    imported(fed.event(s2))
    run(f"{start + 1}-07")
    # {start + 2}-01: the same 10 games (1400) and H3's 20 (2600, stored by {start + 1}-01
    # at S 130, the same points): 133, C.
    run(f"{start + 2}-01")
    # {start + 2}-07: S 133; 12 draws: 1800; need 18: H2 (January-June {start + 1}), 10
    # games stored by {start + 1}-07 (1400), whole; H3 empty; H4 (January-June {start}),
    # 20 games stored by {start}-07 (2600, average 130), 8 pro rata: 1040.
    # (1800 + 1400 + 1040) / 30 = 141.33 -> 141, C, games 12 / 30.
    imported(fed.event(fed.against(notional, ["55"] * 12, 150, date(start + 2, 3, 3))))
    run(f"{start + 2}-07")
    return fed, notional


def page_of(player: Player) -> PlayerPage:
    return player_page(locate(player.ref))


@pytest.fixture(autouse=True)
def _fresh_provisional() -> Iterator[None]:
    """Provisional outcomes are keyed by the data token; no test reads another's."""
    cache.clear()
    provisional._LATEST = provisional._Latest()
    with shared_view() as view:  # nor the importer's view of a rolled-back test's players
        view.drop()
    yield


# --- the current grade and its conversions (G27, G29) ---------------------------------


def test_the_card_gives_the_grade_its_list_and_the_g29_equivalents() -> None:
    _fed, notional = notional_history()
    card = page_of(notional).standard
    assert (card.grade, card.category, card.games_latest, card.games_counted) == (141, "C", 12, 30)
    assert (card.list, card.version) == ("2010-07", "initial")
    # G29 by hand: 141 x 8 + 650 = 1778; 141 x 8 + 600 = 1728; 1778 is above 1200.
    assert (card.fide, card.national_elo, card.below_fide_minimum) == (1778, 1728, False)
    assert card.category_words == "30 games over three seasons"  # adult C: n0+n1+n2 >= 30


def test_a_grade_below_the_fide_minimum_says_so() -> None:
    weak = listed("Weak, Will", 60)
    card = page_of(weak).standard
    # 60 x 8 + 650 = 1130 < 1200 (the seeds' note); 60 x 8 + 600 = 1080.
    assert (card.fide, card.national_elo, card.below_fide_minimum) == (1130, 1080, True)
    assert card.from_file and card.breakdown is None  # loaded from a file: no games


def test_the_title_names_the_player_his_code_and_his_grade() -> None:
    _fed, notional = notional_history()
    page = page_of(notional)
    assert page.title == f"Notional, Peter ({notional.ref}) - standard 141"


def test_g27_a_revision_after_august_shows_both_grades_and_is_marked() -> None:
    fed, notional = notional_history()
    # August: a late win (S 133, the opponent counts 150): P0 13 games, 2000 points;
    # 10 at 140 and 7 at 130 brought forward: (2000 + 1400 + 910) / 30 = 143.67 -> 144.
    imported(fed.event(fed.against(notional, ["10"], 150, date(2010, 3, 1))))
    assert run("2010-07") == "august"
    card = page_of(notional).standard
    # G27: the August version is the current one; its grade is the August grade, which
    # eligibility uses, and nothing has revised it.
    assert (card.grade, card.august_grade, card.revised) == (144, 144, False)
    # rev1: a late loss scores 100: 14 games, 2100; 10 at 140 and 6 at 130:
    # (2100 + 1400 + 780) / 30 = 142.67 -> 143, which differs from August's 144.
    imported(fed.event(fed.against(notional, ["01"], 150, date(2010, 3, 2))))
    assert run("2010-07") == "rev1"
    card = page_of(notional).standard
    assert (card.grade, card.version, card.august_grade, card.revised) == (143, "rev1", 144, True)


def test_g27_the_august_grade_is_the_same_whichever_door_asks() -> None:
    fed, notional = notional_history()
    # August: 144 (worked above); it is the current version, and the August grade, which
    # eligibility uses, whether or not a later version revises it.
    imported(fed.event(fed.against(notional, ["10"], 150, date(2010, 3, 1))))
    assert run("2010-07") == "august"
    located = locate(notional.ref)
    page, summary = player_page(located).standard, player_summary(located).standard
    assert (page.grade, page.august_grade, page.revised) == (144, 144, False)
    assert (summary.grade, summary.august_grade, summary.revised) == (144, 144, False)
    rating = rating_on(located, STANDARD, None).grades  # the federation's API
    # Original: the initial version's 141; revised: the version in force, August's 144.
    assert (rating.original, rating.grade, rating.august_grade) == (141, 144, 144)


# --- how the grade was calculated (section 10) ----------------------------------------


def test_c3_the_breakdown_adds_up_to_the_published_grade() -> None:
    _fed, notional = notional_history()
    b = page_of(notional).standard.breakdown
    assert b is not None
    assert (b.start_grade, b.start_source, b.start_list) == (133, "previous", "2009-07")
    assert "July 2009 standard list (G4)" in b.start_words
    assert (b.latest_games, b.latest_points) == (12, pytest.approx(1800))
    assert {g.counted_as for g in b.games} == {150}  # 150 lies within 133 +/- 40
    assert [(f.period, f.games, f.average, f.points) for f in b.forward] == [
        (1, 10, pytest.approx(140), pytest.approx(1400)),
        (2, 8, pytest.approx(130), pytest.approx(1040)),
    ]
    assert b.points_total == pytest.approx(1800 + 1400 + 1040)
    assert b.games_counted == 30
    assert b.calculated == pytest.approx(4240 / 30)
    assert (b.bonus, b.floored, b.grade) == (0, False, 141)
    assert b.reason.category == "C"
    # n0 = 12 >= 10 and n0 + n1 + n2 = 12 + 10 + 20 = 42 >= 30 (adult C)
    assert b.reason.text == (
        "12 games in the latest season (at least 10), 42 games in the latest three seasons "
        "(at least 30): the first row of the adult table to fit"
    )


def test_the_games_name_their_events_and_opponents() -> None:
    _fed, notional = notional_history()
    games = page_of(notional).standard.breakdown.games  # type: ignore[union-attr]
    assert len(games) == 12
    assert all(g.result == "draw" and g.points == pytest.approx(150) for g in games)
    assert all(g.opponent is not None and g.opponent.name.startswith("Opponent150") for g in games)
    assert len({g.event_code for g in games}) == 1
    assert {g.date for g in games} == {date(2009, 9, 3)}


def test_the_history_gives_every_list_with_its_current_grade() -> None:
    _fed, notional = notional_history()
    history = page_of(notional).history
    assert [(row.list_id, row.standard.grade, row.standard.category) for row in history] == [  # type: ignore[union-attr]
        ("2010-07", 141, "C"),
        ("2009-07", 133, "C"),
        ("2008-07", 130, "D"),
        ("2007-07", 150, "A"),  # the starting list, as loaded
    ]
    assert all(row.rapid is None for row in history)


# --- the next list --------------------------------------------------------------------


def test_next_list_follows_the_previous_list_rule_of_g4() -> None:
    assert next_list(ListId.parse("2010-07"), STANDARD) == ListId.parse("2011-07")
    assert next_list(ListId.parse("2011-07"), STANDARD) == ListId.parse("2012-01")  # G31
    assert next_list(ListId.parse("2012-07"), STANDARD) == ListId.parse("2013-01")
    assert next_list(ListId.parse("2012-07"), RAPID) == ListId.parse("2013-01")
    assert next_list(ListId.parse("2013-01"), RAPID) == ListId.parse("2013-07")


def test_before_any_new_game_the_page_says_what_keeps_him_on_the_list() -> None:
    _fed, notional = notional_history()
    (nxt,) = page_of(notional).next_lists
    assert (nxt.list, nxt.since, nxt.provisional, nxt.received) == (
        "2011-07",
        date(2010, 5, 31),
        None,
        (),
    )
    # P1 and P2 of 2011-07 are what 2010-07 (12 games) and 2009-07 (10) stored (G17).
    assert (nxt.games_latest, nxt.games_before) == (0, (12, 10))
    # E: n0 >= 1 -> 1 more; D: n0 >= 5 -> 5; C: n0 >= 10 (and 22 + 8 >= 30) -> 10;
    # B: n0 >= 20 -> 20; A: 30.
    assert [(n.category, n.more) for n in nxt.needs] == [
        ("A", 30),
        ("B", 20),
        ("C", 10),
        ("D", 5),
        ("E", 1),
    ]
    assert nxt.to_stay is not None and nxt.to_stay.more == 1


def test_the_provisional_grade_of_the_next_list_worked_by_hand() -> None:
    fed, notional = notional_history()
    imported(fed.event(fed.against(notional, ["10", "10"], 150, date(2010, 9, 1))))
    (nxt,) = page_of(notional).next_lists
    assert [(g.date, g.result) for g in nxt.received] == [(date(2010, 9, 1), "win")] * 2
    p = nxt.provisional
    assert p is not None and p.version == "provisional"
    # 2011-07: S 141 (the 2010-07 grade, G4); each opponent counts 150 (inside 101..181)
    # and a win scores 200: 400 in 2 games. Target 30: all 12 of P1 (2010-07 stored 1800,
    # average 150) and all 10 of P2 (2009-07 stored 1400, average 140) come forward:
    # (400 + 1800 + 1400) / 24 = 150, category E (n0 2 >= 1, 24 >= 9), games 2 / 24.
    assert (p.start_grade, p.start_source) == (141, "previous")
    assert [g.points for g in p.games] == [pytest.approx(200)] * 2
    assert [(f.period, f.games, f.average) for f in p.forward] == [
        (1, 12, pytest.approx(150)),
        (2, 10, pytest.approx(140)),
    ]
    assert p.calculated == pytest.approx(150)
    assert (p.grade, p.reason.category, p.latest_games, p.games_counted) == (150, "E", 2, 24)
    # The received games carry the same provisional points.
    assert [g.points for g in nxt.received] == [pytest.approx(200)] * 2
    # D needs n0 >= 5: 3 more; C: n0 >= 10: 8 more (24 + 8 >= 30 too); B: 18; A: 28.
    assert [(n.category, n.more) for n in nxt.needs] == [
        ("A", 28),
        ("B", 18),
        ("C", 8),
        ("D", 3),
        ("E", 0),
    ]
    assert nxt.on_course == "E"


def test_the_provisional_outcome_is_computed_once_per_data_token(monkeypatch: Any) -> None:
    fed, notional = notional_history()
    calls: list[str] = []
    real = provisional.compute_next

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(str(args[0]))
        return real(*args, **kwargs)

    monkeypatch.setattr(provisional, "compute_next", counted)
    page_of(notional)
    provisional._LATEST = provisional._Latest()  # another process: reads the shared cache
    page_of(notional)
    assert calls == ["2011-07"]
    imported(fed.event(fed.against(notional, ["10"], 150, date(2010, 9, 1))))  # a new token
    page_of(notional)
    assert calls == ["2011-07", "2011-07"]


def test_the_cached_outcome_keeps_no_date_of_birth() -> None:
    fed = Federation()
    young = fed.player("Young", "Jay", born=date(2000, 3, 1))
    imported(fed.event(fed.against(young, ["55"] * 9, 100, date(2010, 10, 2))))
    run("2011-07")
    imported(fed.event(fed.against(young, ["10"], 100, date(2011, 10, 2))))
    found = provisional.provisional_run(ListId.parse("2012-07"), STANDARD)
    assert found.outcome is not None
    assert np.isnat(found.outcome.inputs.players.birth).all()
    entry = found.entry(young.id)
    assert entry is not None and entry.junior_age == 12  # 12 on 31 August 2012, kept


# --- games needed: the category table read backwards (G23) ----------------------------


def test_g23_games_needed_for_an_adult_with_four_games_this_season() -> None:
    # E: n0 >= 1 and n0+n1+n2 >= 9: 9 - 4 = 5 more; D: 15 - 4 = 11; C: 30 - 4 = 26;
    # B: 30 - 4 = 26 (20 - 4 = 16 is less); A: 30 - 4 = 26.
    needs = games_needed(4, 0, 0, junior=False, rules=ECF_2009)
    assert [(n.category, n.more) for n in needs] == [
        ("A", 26),
        ("B", 26),
        ("C", 26),
        ("D", 11),
        ("E", 5),
    ]


def test_g23_games_needed_for_a_junior_uses_the_junior_table() -> None:
    # Junior, 4 this season, 10 last: E met (14 >= 9); D: 5 - 4 = 1 (15 - 14 = 1);
    # C: n0 >= 10 -> 6 (and 20 - 14 = 6); B: n0 >= 20 -> 16; A: 26.
    needs = games_needed(4, 10, 0, junior=True, rules=ECF_2009)
    assert [(n.category, n.more) for n in needs] == [
        ("A", 26),
        ("B", 16),
        ("C", 6),
        ("D", 1),
        ("E", 0),
    ]
    assert needs[2].words == "20 games in the latest two seasons, at least 10 in the latest"


def test_g16_x_needs_thirty_rapid_games_in_the_half_year() -> None:
    assert x_needed(12, ECF_2009).more == 18
    assert x_needed(31, ECF_2009).more == 0


@pytest.mark.parametrize(
    ("counts", "junior"),
    [((0, 0, 0), False), ((4, 12, 3), False), ((17, 2, 30), False), ((3, 9, 9), True)],
)
def test_the_games_needed_reach_each_category_by_the_engines_own_table(
    counts: tuple[int, int, int], junior: bool
) -> None:
    """Playing exactly the games needed gives that category or a better one, by the
    engine's ``categories``; one game fewer does not reach it."""
    n0, n1, n2 = counts
    order = [c.value for c in CATEGORY_CODES]

    def engine_category(games: int) -> str:
        found = categories(
            (np.array([games]), np.array([n1]), np.array([n2])),
            np.array([False]),
            np.array([junior]),
            ECF_2009,
        )
        return CATEGORY_CODES[int(found[0])].value

    for need in games_needed(n0, n1, n2, junior=junior, rules=ECF_2009):
        reached = engine_category(n0 + need.more)
        assert reached != Category.NONE.value
        assert order.index(reached) <= order.index(need.category)
        if need.more:
            short = engine_category(n0 + need.more - 1)
            assert short == "" or order.index(short) > order.index(need.category)


# --- codes, merges ---------------------------------------------------------------------


def test_locate_accepts_a_code_without_its_letter_or_in_lower_case() -> None:
    fed = Federation()
    one = fed.player("One", "A")
    expected = Located(one.ref, one.id, merged=False)
    assert locate(one.ref) == expected
    assert locate(one.ref[:6]) == expected
    assert locate(one.ref.lower()) == expected


def test_locate_refuses_a_wrong_check_letter_and_an_unknown_code() -> None:
    fed = Federation()
    one = fed.player("One", "A")
    wrong = one.ref[:6] + ("A" if one.ref[6] != "A" else "B")
    with pytest.raises(PlayerNotFound, match="wrong check letter"):
        locate(wrong)
    with pytest.raises(PlayerNotFound, match="no player on record"):
        locate("999999B")  # 9 x (7+6+5+4+3+2) = 243; 243 % 11 = 1 -> B: valid, unused
    with pytest.raises(PlayerNotFound, match="expected a grading code"):
        locate("smith")


def test_a_merged_code_and_an_alias_locate_the_survivor() -> None:
    fed = Federation()
    kept, gone = fed.player("Kept", "A"), fed.player("Gone", "B")
    merge_players(gone.ref, kept.ref)
    assert locate(gone.ref) == Located(kept.ref, kept.id, merged=True)
    PlayerAlias.objects.create(code=777777, player=kept)
    assert locate(str(GradingCode(777777))) == Located(kept.ref, kept.id, merged=True)


def test_a_merged_records_games_count_for_the_survivor_on_his_page() -> None:
    fed, notional = notional_history()
    twin = fed.player("Notional", "P")  # the same man, put on record twice
    imported(fed.event(fed.against(twin, ["10", "10"], 150, date(2010, 9, 1))))
    merge_players(twin.ref, notional.ref)
    assert locate(twin.ref) == Located(notional.ref, notional.id, merged=True)
    (nxt,) = page_of(notional).next_lists
    # The twin's two wins are the survivor's: the same figures as worked above, 150 E.
    assert [g.result for g in nxt.received] == ["win", "win"]
    p = nxt.provisional
    assert p is not None and (p.grade, p.reason.category, p.latest_games) == (150, "E", 2)


# --- the same games under ecf-2015, half-yearly (G31, G38, G44) -----------------------


def test_g38_c3s_games_under_ecf_2015_make_the_same_grade_from_whole_and_pro_rata_half_years() -> (
    None
):
    _fed, notional = notional_half_years()
    card = page_of(notional).standard
    assert (card.list, card.grade, card.category, card.games_latest, card.games_counted) == (
        "2019-07",
        141,
        "C",
        12,
        30,
    )
    b = card.breakdown
    assert b is not None and b.rule_set == "ecf-2015"
    assert [(p.name, p.start, p.end) for p in b.periods] == [
        ("P0", date(2018, 7, 1), date(2019, 6, 30)),
        ("P1", date(2017, 7, 1), date(2018, 6, 30)),
        ("P2", date(2016, 7, 1), date(2017, 6, 30)),
    ]
    assert b.long_half_year is None  # the 7-month half-year is 2011's (G32)
    assert (b.start_grade, b.start_list, b.latest_points) == (133, "2019-01", pytest.approx(1800))
    assert [
        (f.rule, f.start, f.end, f.games, f.average, f.points, f.half_year_games) for f in b.forward
    ] == [
        ("G38", date(2018, 1, 1), date(2018, 6, 30), 10, None, pytest.approx(1400), 10),
        (
            "G38",
            date(2017, 1, 1),
            date(2017, 6, 30),
            8,
            pytest.approx(130),
            pytest.approx(1040),
            20,
        ),
    ]
    assert [f.whole for f in b.forward] == [True, False]
    assert len(b.forward[0].stored) == 10  # the whole half-year's games, listed
    history = [(row.list_id, row.standard.grade) for row in page_of(notional).history]  # type: ignore[union-attr]
    assert history == [
        ("2019-07", 141),
        ("2019-01", 133),
        ("2018-07", 133),
        ("2018-01", 130),
        ("2017-07", 130),
        ("2017-01", 150),
    ]


# --- the next list follows its own rule set (G31) -------------------------------------


@pytest.mark.parametrize(
    ("current", "following", "rule_set", "lowest", "x"),
    [
        ("2010-07", "2011-07", "ecf-2009", ("E", 9), False),  # annual standard, no X
        ("2011-07", "2012-01", "ecf-2012", ("E", 9), True),  # half-yearly, X for standard
        ("2014-07", "2015-01", "ecf-2015", ("F", 5), False),  # F on 5 games, no X
    ],
)
def test_g31_the_next_list_panel_follows_the_next_lists_rule_set(
    current: str, following: str, rule_set: str, lowest: tuple[str, int], x: bool
) -> None:
    player = listed("Steady, Sam", 140, int(current[:4]), 200_101)  # a July list
    (nxt,) = page_of(player).next_lists
    assert (nxt.list, nxt.rule_set) == (following, rule_set)
    to_stay = nxt.to_stay
    assert to_stay is not None and to_stay.category == lowest[0]
    # Nothing stored for P1, P2 (a list loaded from a file): the row's own total is
    # the games still needed, at least one of them in the latest period (G23, G40).
    assert to_stay.more == lowest[1]
    assert (nxt.x_need is not None) == x
