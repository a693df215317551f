"""Loading a published grading-list CSV as the system's starting point.

The CSV texts are written by hand; every expected value is read off them.
"""

from __future__ import annotations

from datetime import date

import pytest

from ecfgrading.engine.codes import GradingCode
from ecfgrading.engine.types import Category, Rate
from ecfgrading.formats import GradeList, GradeListRow, RateGrade, write_grade_list
from ecfgrading.registry.models import (
    AuditLog,
    Club,
    ClubMembership,
    GradingList,
    ListEntry,
    ListVersion,
    Player,
    PlayerAlias,
    Sequence,
)
from ecfgrading.registry.numbering import issue_code
from ecfgrading.services.lists.imports import ListImportError, import_grade_list

pytestmark = pytest.mark.django_db

# Quoted and unquoted fields; Smith's row ends with a trailing comma.
JULY_CSV = (
    b"Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    b"ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\r\n"
    b'261619B,"Bloggs, Joe",M,,A,150,148,35,B,142,,18,Anytown,Otherton,,,,,400041,ENG\r\n'
    b'233310H,"Smith, Jane",F,12,C,95,,12,X,101,90,40,"Anytown","Riverside Library*",'
    b",,,,,,\r\n"
    b'100001K,"O\'Brien, Patrick Sean",M,,,,,,D,88,91,7,Otherton,,,,,,,IRL\r\n'
)

# The upper-case header, every field quoted, a trailing comma on every line.
UPPER_CSV = (
    "REF,NAME,SEX,AGE,CATEGORY,GRADE,GRADELAST,GRADEGAMES,RAPIDCAT,RAPID,RAPIDLAST,"
    "RAPIDGAMES,CLUBNAM1,CLUBNAM2,CLUBNAM3,CLUBNAM4,CLUBNAM5,CLUBNAM6,FIDECODE,NATION,\n"
    '"150000E","Müller, Hans","M","","B","131","125","30","","","","",'
    '"Riverside Library*","","","","","","","GER",\n'
    '"123456A","Patel, Asha","F","9","E","62","","9","E","70","","11",'
    '"Otherton","","","","","","","",\n'
).encode()


def load(data: bytes = JULY_CSV, list_id: str = "2009-07", **options):
    return import_grade_list(data, list_id=list_id, filename="grades200907.csv", **options)


def entry(code: int, rate: Rate) -> ListEntry:
    return ListEntry.objects.get(player__code=code, version__grading_list__rate=rate)


def test_it_creates_the_players_of_the_list_by_code() -> None:
    result = load()

    assert result.imported
    assert result.players_created == 3
    bloggs = Player.objects.get(code=261619)
    assert (bloggs.surname, bloggs.forenames, bloggs.sex) == ("Bloggs", "Joe", "M")
    assert (bloggs.fide_id, bloggs.nation) == (400041, "ENG")
    obrien = Player.objects.get(code=100001)
    assert (obrien.surname, obrien.forenames, obrien.nation) == ("O'Brien", "Patrick Sean", "IRL")
    assert Player.objects.get(code=233310).nation == "ENG"  # empty Nation: ENG by default


def test_it_loads_a_standard_entry_with_the_published_values() -> None:
    load()

    bloggs = entry(261619, Rate.STANDARD)
    assert (bloggs.grade, bloggs.category, bloggs.previous_grade) == (150, "A", 148)
    assert (bloggs.unrounded, bloggs.calculated) == (150.0, 150.0)
    assert (bloggs.games_counted, bloggs.games_latest) == (35, 35)
    assert bloggs.junior_age is None
    assert bloggs.published
    assert bloggs.start_source == ""


def test_it_loads_a_rapid_entry_and_a_junior_age() -> None:
    load()

    smith = entry(233310, Rate.RAPID)
    assert (smith.grade, smith.category, smith.previous_grade, smith.games_counted) == (
        101,
        "X",
        90,
        40,
    )
    assert smith.junior_age == 12
    assert entry(233310, Rate.STANDARD).junior_age == 12


def test_a_player_gets_an_entry_only_in_the_rates_he_is_graded_in() -> None:
    result = load()

    assert result.entries == {Rate.STANDARD: 2, Rate.RAPID: 3}
    assert not ListEntry.objects.filter(player__code=100001, version__grading_list__rate="standard")
    assert entry(100001, Rate.RAPID).previous_grade == 91


def test_an_empty_previous_grade_stays_empty() -> None:
    load()

    assert entry(233310, Rate.STANDARD).previous_grade is None
    assert entry(261619, Rate.RAPID).previous_grade is None


def test_each_rate_becomes_a_published_initial_version() -> None:
    result = load()

    for rate in (Rate.STANDARD, Rate.RAPID):
        version = ListVersion.objects.get(pk=result.version_ids[rate])
        assert (version.grading_list.list_id, version.grading_list.rate) == ("2009-07", rate)
        assert (version.name, version.status, version.rules_name) == (
            "initial",
            "published",
            "ecf-2009",
        )
        assert version.published_at is not None
        assert version.report["entries"] == result.entries[rate]
        assert version.report["filename"] == "grades200907.csv"
        assert any("games_latest" in note for note in version.report["notes"])


def test_it_creates_the_clubs_by_name_without_codes() -> None:
    result = load()

    assert result.clubs_created == 3
    assert sorted(Club.objects.values_list("name", "code", "is_location")) == [
        ("Anytown", None, False),
        ("Otherton", None, False),
        ("Riverside Library", None, True),
    ]


def test_a_club_on_record_is_found_by_name_whatever_its_case() -> None:
    club = Club.objects.create(code="7ANY", name="ANYTOWN")

    result = load()

    assert result.clubs_created == 2
    assert Club.objects.filter(name__iexact="anytown").count() == 1
    assert ClubMembership.objects.filter(club=club).count() == 2


def test_memberships_take_the_season_of_the_list() -> None:
    load()

    smith = Player.objects.get(code=233310)
    assert sorted(smith.memberships.values_list("club__name", "first_season", "last_season")) == [
        ("Anytown", 2009, 2009),
        ("Riverside Library", 2009, 2009),
    ]


def test_a_later_list_extends_a_membership_on_record() -> None:
    load()

    load(list_id="2010-01", rates=[Rate.RAPID])

    bloggs = ClubMembership.objects.get(player__code=261619, club__name="Anytown")
    assert (bloggs.first_season, bloggs.last_season) == (2009, 2010)


def test_it_reads_the_upper_case_header_with_trailing_commas() -> None:
    result = load(UPPER_CSV)

    assert result.imported, result.report
    muller = Player.objects.get(code=150000)
    assert (muller.surname, muller.forenames, muller.nation) == ("Müller", "Hans", "GER")
    assert entry(150000, Rate.STANDARD).grade == 131
    assert entry(123456, Rate.RAPID).grade == 70
    assert entry(123456, Rate.RAPID).junior_age == 9
    assert Club.objects.get(name="Riverside Library").is_location


def test_reimporting_a_list_is_refused_and_changes_nothing() -> None:
    load()
    before = _snapshot()

    with pytest.raises(ListImportError, match=r"2009-07 .*already"):
        load(UPPER_CSV)

    assert _snapshot() == before


def test_a_list_loaded_for_one_rate_can_still_be_loaded_for_the_other() -> None:
    load(rates=[Rate.STANDARD])

    result = load(rates=[Rate.RAPID])

    assert result.entries == {Rate.RAPID: 3}
    assert result.players_created == 0


def test_a_bad_row_imports_nothing_and_reports_its_line() -> None:
    bad = JULY_CSV.replace(b"233310H", b"233310J")  # wrong check letter (G28)

    result = load(bad)

    assert not result.imported
    assert [(p.code, p.line) for p in result.report.errors] == [("bad-check-letter", 3)]
    assert _snapshot() == (0, 0, 0, 0, 0, 0)


def test_a_fide_code_that_is_not_a_number_is_a_warning_and_not_stored() -> None:
    bad = JULY_CSV.replace(b"400041", b"FIDE-1")

    result = load(bad)

    # The same rule as a results file's FIDE NO (services/people.py): a detail that plays
    # no part in grading does not stop the list.
    assert result.imported
    assert [(p.code, p.line, p.field) for p in result.report.warnings] == [
        ("bad-fide-id", 2, "FIDECode")
    ]
    assert Player.objects.get(code=261619).fide_id is None


def test_a_january_list_refuses_the_standard_rate() -> None:
    with pytest.raises(ListImportError, match="rapid only"):
        load(list_id="2010-01")

    assert GradingList.objects.count() == 0


def test_a_january_list_loads_its_rapid_part() -> None:
    result = load(list_id="2010-01", rates=[Rate.RAPID])

    assert result.entries == {Rate.RAPID: 3}
    assert list(GradingList.objects.values_list("list_id", "rate")) == [("2010-01", "rapid")]


def test_a_list_id_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(ListImportError, match="2010-07 or 2011-01, got '2010-03'"):
        load(list_id="2010-03")


def test_codes_issued_after_an_import_continue_above_the_highest_code_loaded() -> None:
    load()

    # G28: the high-water mark itself is raised, so the code stays out of circulation even
    # if its record is later merged away.
    assert Sequence.objects.get(name=Sequence.GRADING_CODES).last_value == 261619
    assert issue_code() == GradingCode(261620)


def test_dates_of_birth_of_players_on_record_are_untouched() -> None:
    Player.objects.create(
        code=261619, surname="Bloggs", forenames="J", date_of_birth=date(1970, 1, 2)
    )
    Player.objects.create(code=233310, surname="Smith", forenames="Jane", sex="F")

    result = load()

    bloggs = Player.objects.get(code=261619)
    assert bloggs.date_of_birth == date(1970, 1, 2)
    assert (bloggs.forenames, bloggs.fide_id) == ("Joe", 400041)
    assert Player.objects.get(code=233310).date_of_birth is None
    assert (result.players_created, result.players_updated, result.players_unchanged) == (1, 1, 1)


def test_an_empty_fide_code_keeps_the_one_on_record() -> None:
    Player.objects.create(code=233310, surname="Smith", forenames="Jane", fide_id=999)

    load()

    assert Player.objects.get(code=233310).fide_id == 999


def test_a_merged_code_gives_its_entry_to_the_surviving_player() -> None:
    survivor = Player.objects.create(code=500000, surname="Bloggs", forenames="Joseph")
    PlayerAlias.objects.create(code=261619, player=survivor)

    result = load()

    assert entry(500000, Rate.STANDARD).grade == 150
    assert Player.objects.get(code=500000).forenames == "Joseph"  # an alias row: details kept
    assert not Player.objects.filter(code=261619).exists()
    assert result.players_created == 2


def test_two_rows_of_one_merged_player_are_refused() -> None:
    survivor = Player.objects.create(code=261619, surname="Bloggs", forenames="Joe")
    merged = Player.objects.create(code=100001, surname="Bloggs", merged_into=survivor)

    with pytest.raises(ListImportError, match="one row per player"):
        load()

    assert ListEntry.objects.count() == 0
    assert merged.surviving() == survivor


def test_the_import_is_written_to_the_audit_log() -> None:
    result = load(actor="cli")

    audit = AuditLog.objects.get(action="list-imported")
    assert audit.actor == "cli"
    assert audit.details["list_id"] == "2009-07"
    assert audit.details["players_created"] == 3
    assert audit.details["versions"] == {str(r): pk for r, pk in result.version_ids.items()}


def test_a_long_list_costs_a_few_queries_per_thousand_rows(django_assert_max_num_queries) -> None:
    rows = tuple(
        GradeListRow(
            GradingCode(200_000 + n),
            f"Player{n}, Test",
            standard=RateGrade(Category.D, 100 + n % 50, None, 10),
            rapid=RateGrade(Category.E, 90, 91, 9),
            clubs=(f"Club {n % 40}", "Everytown"),
        )
        for n in range(2_000)
    )
    data = write_grade_list(GradeList(rows)).encode()

    # A query per row would be thousands; bulk writes batch a few hundred rows each (on
    # SQLite, 999 parameters a statement: a table with more columns takes more batches),
    # and each version published is frozen in a handful (issue 24, case 14).
    with django_assert_max_num_queries(175):
        result = load(data)

    assert result.entries == {Rate.STANDARD: 2_000, Rate.RAPID: 2_000}
    assert ClubMembership.objects.count() == 4_000


def _snapshot() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (Player, Club, ClubMembership, GradingList, ListVersion, ListEntry)
    )


def test_a_rate_without_grades_in_the_file_is_refused() -> None:
    standard_only = (
        b"\r\n".join(line for line in JULY_CSV.split(b"\r\n") if not line.startswith(b"100001K"))
        .replace(b"B,142,,18", b",,,")
        .replace(b"X,101,90,40", b",,,")
    )

    with pytest.raises(ListImportError, match="expected rapid grades for list 2009-07 rapid"):
        load(standard_only)

    assert load(standard_only, rates=[Rate.STANDARD]).entries == {Rate.STANDARD: 2}


def test_an_unknown_rate_is_refused_with_the_rate_named() -> None:
    with pytest.raises(ListImportError, match="expected a rate standard or rapid, got 'blitz'"):
        load(rates=["blitz"])
