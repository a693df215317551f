"""The home page (the current lists and the lookups) and the help page (the rules in
plain English, every number from the rule set, and the federation's rule sets side by side,
G31)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from ecfgrading.lookups.club_browse import lookup_examples
from ecfgrading.lookups.guide import guide, rule_sets
from ecfgrading.lookups.lists import current_lists_shown
from ecfgrading.web.caching import cached_page
from ecfgrading.web.render import respond
from ecfgrading.web.views.lists import current_data, current_view

# The help page's sections: their anchors are a contract too (other pages link to them).
HELP_SECTIONS = (
    ("listed", "Who is on the list"),
    ("categories", "Grade categories"),
    ("calculation", "How a grade is calculated"),
    ("rule-sets", "Rule sets: the three methods side by side"),
    ("juniors", "Juniors"),
    ("estimation", "Players without a grade: starting grades"),
    ("rates", "Rates of play"),
    ("not-graded", "What is not graded"),
    ("revisions", "The July list, the August revision and later revisions"),
    ("conversions", "ECF grades, FIDE and national Elo"),
    ("clubs", "Clubs"),
    ("inactive", "Inactive players"),
    ("errors", "Errors and corrections"),
)
_LINKS = (
    ("players", "web:players"),
    ("clubs", "web:clubs"),
    ("events", "web:events"),
    ("lists", "web:lists"),
    ("help", "web:help"),
    ("feedback", "web:feedback"),
)


@require_safe
@cached_page
def home(request: HttpRequest) -> HttpResponse:
    shown = current_lists_shown()
    links = {name: reverse(route) for name, route in _LINKS}
    context = {
        "lists": [current_view(current) for current in shown],
        "links": links,
        "club_examples": lookup_examples(),  # taken from the clubs on record
    }
    data = {"lists": [current_data(current) for current in shown], "links": links}
    return respond(request, "web/home.html", context, data=data)


@require_safe
@cached_page
def help_page(request: HttpRequest) -> HttpResponse:
    facts = guide()
    methods = rule_sets()  # G31: the federation's three methods, side by side
    help_url = reverse("web:help")
    sections = [
        {"id": anchor, "title": title, "url": f"{help_url}#{anchor}"}
        for anchor, title in HELP_SECTIONS
    ]
    context = {"sections": sections, "rules": facts, "rule_sets": methods}
    data = {"sections": sections, "rules": facts, "rule_sets": methods}
    return respond(request, "web/help.html", context, data=data)
