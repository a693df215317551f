"""How long an officer has to send results is one constant (services.officers.RESULTS_DAYS):
the pages and the form say what it says (issue 20: they said "four weeks" beside it)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from ecfgrading.backoffice.forms import EventForm
from ecfgrading.services import officers
from tests.backoffice.conftest import signed_in

pytestmark = pytest.mark.django_db


def test_the_pages_give_the_deadline_of_results_days(officer: Any, team: Any) -> None:
    register = signed_in(officer).get(reverse("backoffice:register")).content.decode()
    chase = signed_in(team).get(reverse("backoffice:team_chase")).content.decode()
    assert "by\nthe deadline, 28 days after the last day." in register
    assert "The results are due 28 days after it." in register
    assert "(28 days after the last day)" in chase


def test_changing_results_days_changes_the_words_and_the_deadline_alike(
    officer: Any, team: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(officers, "RESULTS_DAYS", 21)
    register = signed_in(officer).get(reverse("backoffice:register")).content.decode()
    chase = signed_in(team).get(reverse("backoffice:team_chase")).content.decode()
    assert "the deadline, 21 days after the last day." in register
    assert "The results are due 21 days after it." in register
    assert "(21 days after the last day)" in chase
    assert "four weeks" not in register + chase
    assert EventForm().fields["end"].help_text == "The results are due 21 days after it."
    # 12 May + 21 days: the date the words promise.
    assert officers.results_deadline(dt.date(2013, 5, 12)) == dt.date(2013, 6, 2)
