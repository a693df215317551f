"""Security checks (issue 11, item 9): every back-office URL refuses a POST without the
CSRF token; an upload that is huge, binary or no results file is refused with a clear
message, nothing stored but the rejected bytes; and no private field (date of birth,
e-mail, address, membership number) of a player, a direct member or an officer's file
reaches a public page, its JSON twin, the API or a published list file."""

from __future__ import annotations

import base64
import datetime as dt
import zipfile
from io import BytesIO
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ecfgrading.engine.types import Rate
from ecfgrading.registry.models import DirectMember, Game, Player, Submission
from ecfgrading.services.amendments import record_amendment
from ecfgrading.services.grading.compute import compute_version, publish_version
from ecfgrading.services.officers import MAX_UPLOAD_BYTES
from tests.backoffice.conftest import signed_in
from tests.backoffice.test_permissions import (  # noqa: F401 (fixtures)
    CASES,
    objects,
    olgas_event,
    users,
)
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

# --- CSRF -----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["anonymous", "officer", "team"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_back_office_url_refuses_a_post_without_the_csrf_token(
    name: str,
    role: str,
    users: dict[str, Any],  # noqa: F811 (the permission table's fixtures)
    objects: dict[str, Any],  # noqa: F811
) -> None:
    _, arguments, _ = CASES[name]
    url = reverse(f"backoffice:{name}", kwargs=arguments(objects))
    client = signed_in(users[role], enforce_csrf_checks=True)

    response = client.post(url, {"anything": "x"})

    assert response.status_code == 403, (name, role, response.status_code)
    assert b"CSRF" in response.content


def test_the_same_post_with_the_token_gets_through(officer: Any) -> None:
    client = signed_in(officer, enforce_csrf_checks=True)
    page = client.get(reverse("backoffice:register"))
    token = page.cookies["csrftoken"].value

    response = client.post(reverse("backoffice:register"), {"csrfmiddlewaretoken": token})

    assert response.status_code == 200  # the form, with its errors: CSRF let it through


# --- uploads --------------------------------------------------------------------------


def _png() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02" + (
        b"\x00" * 64
    )


def _zip() -> bytes:
    out = BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("results.txt", "#EVENT DETAILS\n" * 50)
    return out.getvalue()


def _counts() -> tuple[int, int]:
    return Game.objects.count(), Player.objects.count()


@pytest.fixture
def counted(team: Any) -> tuple[int, int]:
    """One accepted file on record first (the team may send any event's), so that
    "unchanged" means something."""
    players = ["#PIN=1#NAME=Able, Ann#CLUB NAME=Walsall", "#PIN=2#NAME=Baker, Bob#CLUB=Walsall"]
    data = results_file(players, ["#PIN1=1#SCORE=10#PIN2=2"], code="SEC1")
    client = signed_in(team)
    client.post(reverse("backoffice:submit"), _submitted(data, "sec1.txt"))
    assert _counts() == (1, 2)
    return _counts()


def _submitted(data: bytes, name: str) -> dict[str, str]:
    return {"filename": name, "content": base64.b64encode(data).decode()}


@pytest.mark.parametrize(
    ("name", "data"),
    [("picture.png", _png()), ("results.zip", _zip())],
    ids=["png", "zip"],
)
def test_a_binary_upload_is_refused_and_only_its_bytes_are_kept(
    officer: Any, counted: tuple[int, int], name: str, data: bytes
) -> None:
    client = signed_in(officer)

    checked = client.post(reverse("backoffice:upload"), {"results": SimpleUploadedFile(name, data)})
    assert Submission.objects.count() == 1  # the check stored nothing
    done = client.post(reverse("backoffice:submit"), _submitted(data, name))

    assert checked.status_code == 400
    assert "got a binary file such as a spreadsheet or a picture" in checked.content.decode()
    assert "Results rejected" in done.content.decode()
    kept = Submission.objects.latest("id")
    assert kept.status == Submission.Status.REJECTED and bytes(kept.raw) == data
    assert _counts() == counted


def test_a_huge_upload_is_refused_unread_and_nothing_is_stored(
    officer: Any, counted: tuple[int, int]
) -> None:
    huge = b"#PIN=1#NAME=Padding, Line\n" * (MAX_UPLOAD_BYTES // 26 + 10)
    client = signed_in(officer)

    checked = client.post(
        reverse("backoffice:upload"), {"results": SimpleUploadedFile("big.txt", huge)}
    )
    done = client.post(reverse("backoffice:submit"), _submitted(huge[: MAX_UPLOAD_BYTES + 1], "b"))

    assert checked.status_code == 400 and done.status_code == 400
    assert "Expected a results file of at most 1024 KB" in checked.content.decode()
    assert "at most 1024 KB" in done.content.decode()
    assert Submission.objects.count() == 1 and _counts() == counted


def test_a_text_that_is_no_results_file_is_rejected_with_its_problems_and_kept(
    officer: Any, counted: tuple[int, int]
) -> None:
    csv = b"Name,Grade\nBloggs Joe,150\nSmith Jane,140\n"
    client = signed_in(officer)

    done = client.post(reverse("backoffice:submit"), _submitted(csv, "grades.csv"))

    page = done.content.decode()
    assert "Results rejected" in page and '<td class="num">1</td>' in page
    kept = Submission.objects.latest("id")
    assert kept.status == Submission.Status.REJECTED and bytes(kept.raw) == csv
    assert _counts() == counted


# --- privacy ----------------------------------------------------------------------------

BIRTH = dt.date(1971, 11, 17)
PRIVATE = (
    "joe.bloggs@private.example",  # a direct member's e-mail
    "M0123456",  # his membership number
    "High Street",  # the officer's and treasurer's addresses in the file
    "olga@club.example",  # the officer's e-mail
    "tess@team.example",  # a staff member's e-mail
    BIRTH.isoformat(),
    "17 November 1971",
    "17/11/1971",
    "17 Nov 1971",
)


@pytest.fixture
def published(team: Any) -> Player:
    """Bloggs (born 17 November 1971, a direct member with a private e-mail and number)
    played in an event whose file gives the officer's address; the standard list of
    July 2013 is published with him on it, and an amendment names him."""
    client = signed_in(team)
    players = [
        "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Walsall#DATE OF BIRTH=17/11/1971",
        "#PIN=2#NAME=Smith, Jane#CLUB NAME=Walsall",
    ]
    games = ["#PIN1=1#SCORE=10#PIN2=2", "#PIN1=2#SCORE=55#PIN2=1"] * 5  # 10: category E
    client.post(reverse("backoffice:submit"), _submitted(results_file(players, games), "r.txt"))
    bloggs = Player.objects.get(surname="Bloggs")
    assert bloggs.date_of_birth == BIRTH
    DirectMember.objects.create(
        player=bloggs, number="M0123456", member_class="Standard", email=PRIVATE[0]
    )
    record_amendment(what="Club corrected", why="he asked", user=team, player=bloggs)
    compute_version("2013-07", Rate.STANDARD, "initial")
    publish_version("2013-07", Rate.STANDARD, "initial", allow_unanchored=True)
    return bloggs


def test_no_private_field_reaches_a_public_page_the_api_or_a_list_file(
    published: Player,
) -> None:
    code = published.ref
    paths = [
        f"/players/{code}/",
        "/players/?q=bloggs",
        "/events/XX12345/",
        "/events/",
        "/clubs/?q=wal",
        "/amendments/",
        "/lists/",
        f"/api/v1/players/{code}",
        f"/api/v1/players/{code}/games",
        f"/api/v1/players/{code}/history",
        "/api/v1/events/XX12345",
        "/api/v1/lists/2013-07/standard",
        f"/api/players/rating-code?code={code}",
        "/downloads/grades201307.csv",
        "/downloads/grades201307.json",
    ]
    client = Client()
    leaks: dict[str, list[str]] = {}
    for path in paths:
        for shown in (path, f"{path}{'&' if '?' in path else '?'}format=json"):
            response = client.get(shown)
            assert response.status_code == 200, (shown, response.status_code)
            body = b"".join(response) if response.streaming else response.content
            found = [s for s in PRIVATE if s in body.decode("utf-8", "replace")]
            if found:
                leaks[shown] = found
    assert not leaks, leaks
    xlsx = client.get("/downloads/grades201307-standard.xlsx").content
    with zipfile.ZipFile(BytesIO(xlsx)) as book:
        inside = "".join(book.read(n).decode("utf-8", "replace") for n in book.namelist())
    assert "Bloggs" in inside
    assert [s for s in PRIVATE if s in inside] == []
    page = client.get(f"/players/{code}/").content.decode()
    assert "Bloggs, Joe" in page  # the test looked at his page, not at an empty one
    assert "Bloggs" in client.get("/downloads/grades201307.csv").content.decode()
