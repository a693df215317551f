"""Association codes (issue 22): every county has four capital letters or digits, unique,
given or made from its name by the rule of ``registry.associations`` (worked out by hand
below from the rule as docs/api.md states it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import DataError, IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from ecfgrading.registry.associations import (
    AssociationCodesExhausted,
    assoc_code_for,
    validate_assoc_code,
)
from ecfgrading.registry.models import County
from ecfgrading.services.results.ingest import import_results
from tests.services.results_text import results_file

BEFORE = ("registry", "0011_version_rules_of_its_date")
AFTER = ("registry", "0012_county_association_code")

# -- the rule -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Yorkshire", "YORK"),  # one word: its first four letters
        ("Kent", "KENT"),
        ("North Yorkshire", "NYOR"),  # N, then YORKSHIRE
        ("Isle of Wight", "IWIG"),  # 'of' is left out: I, then WIGHT
        ("Sheffield & District CA", "SDCA"),  # S, D, then CA
        ("Cleveland CA", "CLEV"),  # C + CA is three: the words run together instead
        ("Ely", "ELYX"),  # three letters, padded with X
        ("4NCL", "4NCL"),  # digits count as letters
        ("Åland", "ALAN"),  # accents folded
        ("King's Lynn & West Norfolk", "KLWN"),  # apostrophe dropped: KINGS, LYNN, WEST, NORFOLK
    ],
)
def test_a_code_is_made_from_the_initials_and_the_last_word(name: str, code: str) -> None:
    assert assoc_code_for(name, set()) == code


def test_a_code_already_held_ends_in_the_smallest_free_number() -> None:
    assert assoc_code_for("Yorkshire", {"YORK"}) == "YOR2"
    assert assoc_code_for("Yorkshire", {"YORK", "YOR2", "YOR3"}) == "YOR4"
    nine = {"YORK", *(f"YOR{d}" for d in range(2, 10))}
    assert assoc_code_for("Yorkshire", nine) == "YO10"
    hundred = nine | {f"YO{n}" for n in range(10, 100)}
    assert assoc_code_for("Yorkshire", hundred) == "Y100"


def test_a_name_whose_every_variant_is_held_is_refused_saying_so() -> None:
    every = {"KENT", *(f"KEN{d}" for d in range(2, 10))}
    every |= {f"KE{n}" for n in range(10, 100)} | {f"K{n}" for n in range(100, 1000)}
    with pytest.raises(AssociationCodesExhausted, match="give this county its code"):
        assoc_code_for("Kent", every)


@pytest.mark.parametrize("good", ["NORF", "4NCL", "Y100"])
def test_four_capital_letters_or_digits_are_a_code(good: str) -> None:
    validate_assoc_code(good)


@pytest.mark.parametrize("bad", ["norf", "NOR", "NORFO", "NO-F", "NÖRF", "", "NOR "])
def test_anything_else_is_refused_showing_the_value(bad: str) -> None:
    with pytest.raises(ValidationError) as refused:
        validate_assoc_code(bad)
    assert repr(bad) in refused.value.messages[0]
    assert "four capital letters or digits" in refused.value.messages[0]


# -- counties on record ---------------------------------------------------------------------


@pytest.mark.django_db
def test_a_county_created_without_a_code_gets_the_one_its_name_makes() -> None:
    norfolk = County.objects.create(name="Norfolk")
    suffolk, _ = County.objects.get_or_create(name="Suffolk")  # as the results import does
    norfolk_ca = County.objects.create(name="Norfolk CA")  # N + CA is short: NORFOLKCA

    assert [c.code for c in (norfolk, suffolk, norfolk_ca)] == ["NORF", "SUFF", "NOR2"]
    assert list(County.objects.order_by("id").values_list("code", flat=True)) == [
        "NORF",
        "SUFF",
        "NOR2",
    ]


@pytest.mark.django_db
def test_a_code_given_is_kept_and_survives_a_rename() -> None:
    county = County.objects.create(name="Middlesex", code="MDX1")
    county.name = "Greater London"
    county.save()
    county.refresh_from_db()
    assert county.code == "MDX1"


@pytest.mark.django_db
def test_the_database_refuses_a_duplicate_a_short_or_a_lower_case_code() -> None:
    County.objects.create(name="Kent")
    other = County.objects.create(name="Sussex")
    for code in ("KENT", "SUS", "suss", "SUSSE"):
        # Too long is a DataError on PostgreSQL (varchar(4)), the length check on SQLite.
        with pytest.raises((IntegrityError, DataError)), transaction.atomic():
            County.objects.filter(pk=other.pk).update(code=code)
    assert County.objects.get(pk=other.pk).code == "SUSS"
    with pytest.raises(IntegrityError), transaction.atomic():
        County.objects.bulk_create([County(name="Surrey")])  # bulk_create skips save()


@pytest.mark.django_db
def test_a_code_taken_meanwhile_by_another_import_is_passed_over(monkeypatch) -> None:
    County.objects.create(name="Kent")
    made = iter(["KENT", "ESSE"])  # the first as if another import had just taken it
    monkeypatch.setattr(County, "made_code", lambda self: next(made))

    essex = County.objects.create(name="Essex")

    assert essex.code == "ESSE"
    assert County.objects.filter(code="KENT").count() == 1


@pytest.mark.django_db
def test_a_county_named_in_a_results_file_arrives_with_its_code() -> None:
    player = "#PIN={pin}#NAME={name}#CLUB NAME={club}#CLUB COUNTY={county}"
    players = [
        player.format(pin=1, name="Bloggs, Joe", club="Anytown", county="Isle of Wight"),
        player.format(pin=2, name="Smith, Jane", club="Otherton", county="North Yorkshire"),
    ]
    games = ["#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013#COLOUR=WHITE"]

    outcome = import_results(results_file(players, games), filename="counties.txt")

    assert outcome.accepted, outcome.report.errors
    codes = dict(County.objects.values_list("name", "code"))
    assert codes == {"Isle of Wight": "IWIG", "North Yorkshire": "NYOR"}


# -- the admin ------------------------------------------------------------------------------


def add_county(admin_client, **form: str):
    return admin_client.post(reverse("admin:registry_county_add"), form)


def test_a_county_added_in_the_admin_without_a_code_is_given_one(admin_client) -> None:
    County.objects.create(name="Devon")
    response = add_county(admin_client, name="Devon & Cornwall", code="")
    assert response.status_code == 302, response.content.decode()
    # D, CORNWALL -> DCOR (the '&' is no word)
    assert County.objects.get(name="Devon & Cornwall").code == "DCOR"


def test_a_code_typed_in_lower_case_is_stored_in_capitals(admin_client, db) -> None:
    response = add_county(admin_client, name="Hampshire", code=" hmp1 ")
    assert response.status_code == 302, response.content.decode()
    assert County.objects.get(name="Hampshire").code == "HMP1"


@pytest.mark.parametrize("code", ["HA-S", "HAM", "KENT"])
def test_a_bad_or_held_code_is_refused_by_the_admin_form(admin_client, code: str) -> None:
    County.objects.create(name="Kent")
    response = add_county(admin_client, name="Hampshire", code=code)
    assert response.status_code == 200
    page = response.content.decode()
    assert "errorlist" in page
    assert not County.objects.filter(name="Hampshire").exists()


def test_the_admin_lists_and_finds_counties_by_code(admin_client) -> None:
    County.objects.create(name="Norfolk")
    County.objects.create(name="Suffolk")
    page = admin_client.get(reverse("admin:registry_county_changelist"), {"q": "NORF"})
    text = page.content.decode()
    assert "Norfolk" in text and "Suffolk" not in text


# -- the migration --------------------------------------------------------------------------


@pytest.fixture
def back_to_the_latest_schema() -> Iterator[None]:
    yield
    call_command("migrate", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_each_county_on_record_a_code_in_order_of_recording(
    back_to_the_latest_schema: None,
) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps.get_model("registry", "County")
    for name in ("Yorkshire", "Isle of Wight", "Yorkshire CA", "Ely", "Ély"):
        old.objects.create(name=name)

    executor = MigrationExecutor(connection)  # the graph as it now stands
    executor.migrate([AFTER])

    new = executor.loader.project_state([AFTER]).apps.get_model("registry", "County")
    assert dict(new.objects.values_list("name", "code")) == {
        "Yorkshire": "YORK",
        "Isle of Wight": "IWIG",  # 'of' left out
        "Yorkshire CA": "YOR2",  # Y + CA is short: YORKSHIRECA, after Yorkshire's YORK
        "Ely": "ELYX",
        "Ély": "ELY2",  # folds as Ely, recorded later
    }
