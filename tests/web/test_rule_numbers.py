"""Rule numbers on pages come from the rule set (issue 20: "ECF × 8 + 650" and "1200"
were written into the player page's templates though the help guide builds them from the
rule set). Another rule set, other numbers on the page."""

from __future__ import annotations

import pytest
from django.template import TemplateSyntaxError
from django.template.loader import render_to_string
from django.test import Client

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.rules import RuleSet
from ecfgrading.registry.models import ListEntry
from ecfgrading.web.templatetags import grading

pytestmark = pytest.mark.django_db

OTHER = RuleSet(elo_factor=9.0, fide_offset=700.0, national_elo_offset=610.0, fide_minimum=1300.0)


def a_published_player() -> str:
    entry = ListEntry.objects.filter(version__status="published", published=True).first()
    assert entry is not None
    return str(entry.player.ref)


def test_the_player_page_states_g29_as_the_rule_set_has_it(
    client: Client, demo: DemoSummary
) -> None:
    page = client.get(f"/players/{a_published_player()}/").content.decode()
    # G29 (grading-rules.md): FIDE = ECF x 8 + 650, national Elo = ECF x 8 + 600, and the
    # seeds' note that the minimum published FIDE Elo is 1200.
    assert "FIDE = ECF × 8 + 650; national Elo = ECF × 8 + 600<sup" in page
    assert "</sup>. The minimum published FIDE Elo is 1200." in page


def test_the_player_page_follows_another_rule_set(
    client: Client, demo: DemoSummary, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(grading, "RULES", OTHER)
    page = client.get(f"/players/{a_published_player()}/").content.decode()
    assert "FIDE = ECF × 9 + 700; national Elo = ECF × 9 + 610<sup" in page
    assert "</sup>. The minimum published FIDE Elo is 1300." in page
    assert "ECF × 8" not in page


def test_a_card_below_the_fide_minimum_names_the_rule_sets_minimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    card = {"rate": "standard", "grade": 50, "category": "E", "fide": 1150}
    below = render_to_string(
        "web/players/_card.html", {"card": card | {"below_fide_minimum": True}}
    )
    assert "(below the minimum published FIDE Elo, 1200)" in below
    monkeypatch.setattr(grading, "RULES", OTHER)
    below = render_to_string(
        "web/players/_card.html", {"card": card | {"below_fide_minimum": True}}
    )
    assert "(below the minimum published FIDE Elo, 1300)" in below
    above = render_to_string("web/players/_card.html", {"card": card})
    assert "below the minimum" not in above


def test_a_template_asking_for_no_number_of_the_rule_set_is_refused() -> None:
    with pytest.raises(TemplateSyntaxError, match="expected a number of the rule set"):
        grading.rule("name")
    with pytest.raises(TemplateSyntaxError, match="'fide_ofset'"):
        grading.rule("fide_ofset")
