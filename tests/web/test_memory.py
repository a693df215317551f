"""Each worker's memory of the pages it sent (web/memory.py): a repeat answered with one
query and the very headers the stack added; a new data token makes it ask again; cookies
and oversized bodies never remembered; least recently used forgotten first."""

from __future__ import annotations

import pytest
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import path

from ecfgrading.registry.models import Club
from ecfgrading.web.caching import cached_page
from ecfgrading.web.memory import MARK, MEMORY, PageMemory, Remembered

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]

MADE: list[str] = []


@cached_page
def clubs(request: HttpRequest) -> HttpResponse:
    MADE.append(request.get_full_path())
    ours = Club.objects.filter(code__in=["A1", "B2"]).order_by("name")  # the tests' clubs
    names = ", ".join(ours.values_list("name", flat=True))
    return HttpResponse(f"<p>{names}</p>")


@cached_page
def moved(request: HttpRequest) -> HttpResponse:
    MADE.append(request.get_full_path())
    return redirect("/clubs/")


def cookie_page(request: HttpRequest) -> HttpResponse:
    response = HttpResponse("<p>with a cookie</p>")
    setattr(response, MARK, (("html", "/cookie/"), "any", '"x"'))
    response.set_cookie("seen", "1")
    return response


urlpatterns = [path("clubs/", clubs), path("moved/", moved), path("cookie/", cookie_page)]


@pytest.fixture(autouse=True)
def _nothing_made_yet() -> None:
    MADE.clear()


def test_a_repeat_is_sent_from_memory_with_one_query_and_the_stacks_headers(
    client: Client,
) -> None:
    Club.objects.create(code="A1", name="Alpha")
    first = client.get("/clubs/")

    with CaptureQueriesContext(connection) as queries:
        again = client.get("/clubs/")

    assert MADE == ["/clubs/"]
    assert len(queries) == 1  # the data token, nothing else
    assert again.content == first.content == b"<p>Alpha</p>"
    for header in ("ETag", "Content-Security-Policy", "X-Frame-Options", "Cache-Control"):
        assert again[header] == first[header]


def test_a_change_of_data_is_seen_at_once(client: Client) -> None:
    Club.objects.create(code="A1", name="Alpha")
    before = client.get("/clubs/")

    Club.objects.create(code="B2", name="Beta")  # a new club id: a new data token
    after = client.get("/clubs/")

    assert after.content == b"<p>Alpha, Beta</p>"
    assert after["ETag"] != before["ETag"]
    assert MADE == ["/clubs/", "/clubs/"]


def test_the_remembered_etag_answers_304(client: Client) -> None:
    etag = client.get("/clubs/")["ETag"]

    with CaptureQueriesContext(connection) as queries:
        asked = client.get("/clubs/", headers={"If-None-Match": etag})

    assert (asked.status_code, asked.content, asked["ETag"]) == (304, b"", etag)
    assert len(queries) == 1


def test_the_json_twin_is_remembered_apart(client: Client) -> None:
    client.get("/clubs/")
    client.get("/clubs/?format=json")
    client.get("/clubs/")
    client.get("/clubs/?format=json")

    assert MADE == ["/clubs/", "/clubs/?format=json"]


def test_a_redirect_is_kept_with_where_it_sends(client: Client) -> None:
    first = client.get("/moved/")
    from_memory = client.get("/moved/")
    MEMORY.clear()
    from_shared_cache = client.get("/moved/")

    assert MADE == ["/moved/"]
    for response in (first, from_memory, from_shared_cache):
        assert (response.status_code, response["Location"]) == (302, "/clubs/")
        assert response.url == "/clubs/"  # a redirect a client (or the test client) follows


def test_a_response_that_sets_a_cookie_is_never_remembered(client: Client) -> None:
    client.get("/cookie/")

    assert MEMORY.get(("html", "/cookie/")) is None


def test_memory_off_remembers_nothing_and_leaves_pages_to_the_shared_cache(
    client: Client,
) -> None:
    capacity, MEMORY.capacity = MEMORY.capacity, 0
    try:
        first = client.get("/clubs/")
        again = client.get("/clubs/")
    finally:
        MEMORY.capacity = capacity

    assert MEMORY.get(("html", "/clubs/")) is None
    assert again.content == first.content
    assert MADE == ["/clubs/"]  # the second from the shared cache


def _page(body: bytes) -> Remembered:
    return Remembered("t", '"e"', 200, (), body)


def test_the_least_recently_used_page_is_forgotten_first() -> None:
    memory = PageMemory(capacity=300)
    memory.put(("html", "/a"), _page(b"a" * 30))
    memory.put(("html", "/b"), _page(b"b" * 30))
    memory.get(("html", "/a"))  # /a used since /b

    for n in range(9):  # 9 x 30 more bytes: 300 holds 10 pages of 30, not 11
        memory.put(("html", f"/{n}"), _page(b"x" * 30))

    assert memory.get(("html", "/a")) is not None
    assert memory.get(("html", "/b")) is None
    assert memory.size <= 300


def test_a_body_over_an_eighth_of_the_memory_is_left_to_the_shared_cache() -> None:
    memory = PageMemory(capacity=800)

    memory.put(("html", "/list.csv"), _page(b"x" * 101))
    memory.put(("html", "/small"), _page(b"x" * 100))

    assert memory.get(("html", "/list.csv")) is None
    assert memory.get(("html", "/small")) is not None
