"""Each door maps the error contract once (issue 20, item 5): a ServiceError escaping a
public view is, by its kind, a page in the site's layout or its JSON twin's error body
(``web.errors``); /api/v1's handler answers with the same body. INVALID is 400, as on
the page, except where django-ninja's own schema refuses a parameter first (422)."""

from __future__ import annotations

import json
from typing import Any

import html5lib
import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import include, path

import ecfgrading.urls
from ecfgrading.errors import Conflict, ServiceError
from ecfgrading.web.api.v1 import api

pytestmark = pytest.mark.django_db

BAD_SEASON = "expected a season such as 2011-12, got 'abc'"
BODY = {"status", "kind", "message"}


def parsed(response: HttpResponse) -> Any:
    return html5lib.parse(response.content, namespaceHTMLElements=False)


# -- INVALID: 400 with the page ---------------------------------------------------------------


def test_a_bad_season_is_a_400_page_in_the_site_layout_saying_what_was_expected(
    client: Client,
) -> None:
    response = client.get("/events/?season=abc")

    assert response.status_code == 400
    assert response["Content-Type"] == "text/html; charset=utf-8"
    page = parsed(response)
    assert page.find(".//h1").text == "Not understood"
    assert page.find(".//main/p[@class='error-message']").text == BAD_SEASON
    assert page.find(".//header[@class='site']/div/nav") is not None  # the site's layout
    assert page.find(".//main//a[@href='/events/']") is not None  # the page without it
    assert page.find(".//input[@name='q']") is not None  # and the lookup boxes


@pytest.mark.parametrize(
    "asked",
    [{"query": {"format": "json"}}, {"headers": {"Accept": "application/json"}}],
    ids=["format=json", "Accept"],
)
def test_a_bad_season_in_the_json_twin_is_400_with_the_one_error_body(
    client: Client, asked: dict[str, Any]
) -> None:
    query = {"season": "abc", **asked.get("query", {})}

    response = client.get("/events/", query, headers=asked.get("headers", {}))

    assert response.status_code == 400
    assert response.json() == {"status": 400, "kind": "invalid", "message": BAD_SEASON}
    assert response["Vary"] == "Accept"


def test_the_api_refuses_a_season_its_schema_refuses_with_422_and_the_same_body(
    client: Client,
) -> None:
    response = client.get("/api/v1/events", {"season": "abc"})

    body = response.json()
    assert response.status_code == 422
    assert set(body) == BODY | {"detail"}
    assert (body["status"], body["kind"]) == (422, "invalid")
    assert [problem["where"] for problem in body["detail"]] == ["query.season"]


def test_the_api_answers_a_request_the_records_refuse_400_as_the_page_does() -> None:
    request = RequestFactory().get("/api/v1/events")

    response = api.on_exception(request, ServiceError("expected a July list, got 2012-01"))

    assert response.status_code == 400
    body = json.loads(response.content)
    assert body == {
        "status": 400,
        "kind": "invalid",
        "message": "expected a July list, got 2012-01",
    }


# -- NOT_FOUND: 404; CONFLICT: 409 ------------------------------------------------------------


def test_an_event_not_on_record_is_a_404_page_and_twin_with_the_message(client: Client) -> None:
    page = client.get("/events/NOPE1/")
    twin = client.get("/events/NOPE1/", {"format": "json"})

    assert (page.status_code, twin.status_code) == (404, 404)
    assert parsed(page).find(".//h1").text == "Not found"
    body = twin.json()
    assert (set(body), body["status"], body["kind"]) == (BODY, 404, "not-found")
    assert "'NOPE1'" in body["message"]
    assert parsed(page).find(".//main/p[@class='error-message']").text == body["message"]


def test_a_page_twin_and_the_api_say_not_found_in_one_body(client: Client) -> None:
    twin = client.get("/players/999999Z/", {"format": "json"}).json()
    answered = client.get("/api/v1/players/999999").json()
    no_page = client.get("/no/such/page/", headers={"Accept": "application/json"}).json()

    for body in (twin, answered, no_page):
        assert (set(body), body["status"], body["kind"]) == (BODY, 404, "not-found"), body


def forbidden(request: HttpRequest) -> HttpResponse:
    raise Conflict("expected a draft version, got one already published")


def refused(request: HttpRequest) -> HttpResponse:
    raise ServiceError("expected a page number, got 'x'")


urlpatterns = [
    path("conflict/", forbidden),
    path("invalid/", refused),
    path("", include(ecfgrading.urls)),
]


@override_settings(ROOT_URLCONF=__name__)
@pytest.mark.parametrize(
    ("url", "status", "kind", "heading"),
    [
        ("/conflict/", 409, "conflict", "Not possible now"),
        ("/invalid/", 400, "invalid", "Not understood"),
    ],
)
def test_any_view_s_service_error_is_mapped_by_its_kind(
    client: Client, url: str, status: int, kind: str, heading: str
) -> None:
    page = client.get(url)
    twin = client.get(url, {"format": "json"})

    assert (page.status_code, twin.status_code) == (status, status)
    assert parsed(page).find(".//h1").text == heading
    assert twin.json()["kind"] == kind
    assert parsed(page).find(".//main/p[@class='error-message']").text == twin.json()["message"]
