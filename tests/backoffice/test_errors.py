"""The back office maps the error contract once (issue 20, item 5): every view is an
``office_view``, so a ServiceError escaping it is the back office's error page with its
message, the status by its kind; a refusal the user can act on is said on the form's
page (``refused``, the same status) or the page a button is on (``refused_back``).
tests/web/test_errors_rule.py checks that no view does otherwise."""

from __future__ import annotations

import html5lib
import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse
from django.utils import timezone

from ecfgrading.backoffice import urls as backoffice_urls
from ecfgrading.backoffice.errors import MAPPED
from ecfgrading.registry.models import ForeignResult, GradingList, ListVersion
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db


def _views(patterns: list[URLPattern | URLResolver]) -> list[URLPattern]:
    found: list[URLPattern] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _views(pattern.url_patterns)
        else:
            found.append(pattern)
    return found


def _heading_and_message(content: bytes) -> tuple[str, str]:
    page = html5lib.parse(content, namespaceHTMLElements=False)
    alert = page.find(".//main//div[@role='alert']/p")
    return page.find(".//main//h1").text, alert.text if alert is not None else ""


def _in_the_back_office(content: bytes) -> bool:
    page = html5lib.parse(content, namespaceHTMLElements=False)
    return page.find(".//main/div[@class='office-bar']") is not None


def test_every_back_office_view_but_django_s_own_maps_service_errors() -> None:
    ours = [p for p in _views(backoffice_urls.urlpatterns) if not hasattr(p.callback, "view_class")]

    assert [p.name for p in ours if not getattr(p.callback, MAPPED, False)] == []
    assert len(ours) > 20  # the project's views, not only Django's auth views


def test_a_malformed_list_in_an_address_is_a_400_back_office_page_saying_so(team: object) -> None:
    url = reverse(
        "backoffice:team_draft", kwargs={"list_id": "2012-13", "rate": "standard", "version": "x"}
    )

    response = signed_in(team).get(url)

    assert response.status_code == 400
    heading, message = _heading_and_message(response.content)
    assert heading == "Not understood"
    assert "2012-13" in message
    assert _in_the_back_office(response.content)


def test_a_case_not_on_record_is_the_back_office_s_404_page(team: object) -> None:
    response = signed_in(team).get(reverse("backoffice:team_case", kwargs={"case_id": 999_999}))

    assert response.status_code == 404
    heading, message = _heading_and_message(response.content)
    assert heading == "Not found"
    assert "999999" in message
    assert _in_the_back_office(response.content)


def test_a_result_from_abroad_not_on_record_is_a_404_not_a_message_on_its_page(
    team: object,
) -> None:
    url = reverse("backoffice:abroad_accept", kwargs={"result_id": 999_999})
    assert not ForeignResult.objects.filter(pk=999_999).exists()

    response = signed_in(team).post(url)

    assert response.status_code == 404
    assert _in_the_back_office(response.content)


def test_a_version_already_published_is_refused_409_on_its_publish_page(team: object) -> None:
    grading_list = GradingList.objects.create(list_id="2012-07", rate="standard")
    ListVersion.objects.create(
        grading_list=grading_list, name="initial", status="published", published_at=timezone.now()
    )
    url = reverse(
        "backoffice:team_publish",
        kwargs={"list_id": "2012-07", "rate": "standard", "version": "initial"},
    )

    response = signed_in(team).post(url)

    assert response.status_code == 409
    heading, message = _heading_and_message(response.content)
    assert "already published" in message
    assert heading != "Not possible now"  # the publish page again, not the error page


def test_a_submit_without_a_checked_file_shows_the_upload_form_again(officer: object) -> None:
    client: Client = signed_in(officer)

    response = client.post(reverse("backoffice:submit"), {"filename": "x.txt", "content": "!"})

    assert response.status_code == 400
    text = response.content.decode()
    assert "expected a checked results file: upload it again" in text.lower()
    assert 'name="results"' in text  # the upload form, to send the file again
    assert _in_the_back_office(response.content)
