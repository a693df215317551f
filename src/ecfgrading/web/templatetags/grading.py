"""Filters for the domain's words and numbers, as the seeds write them."""

from __future__ import annotations

import datetime as dt

from django import template
from django.urls import reverse
from django.utils.html import format_html

from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.lookups.guide import era
from ecfgrading.services import officers

register = template.Library()

# The rule set the pages explain: the help guide's (lookups.guide) and the player cards'.
RULES: RuleSet = ECF_2009


@register.filter(expects_localtime=True)
def british(value: dt.date | dt.datetime | None) -> str:
    """31 May 2011: dates on pages are British; JSON has ISO dates."""
    if value is None:
        return ""
    return f"{value.day} {value:%B %Y}"


@register.filter
def thousands(value: int | None) -> str:
    """3,715"""
    return "" if value is None else f"{value:,}"


@register.filter
def grade(value: int | None) -> str:
    """A grade, or an en dash where there is none."""
    return "–" if value is None else str(value)


@register.simple_tag
def rule(name: str) -> str:
    """A number of the rule set as players read it: ``{% rule "fide_offset" %}`` is 650
    (G29), so a page states the rules it is computed by, never a copy of them."""
    value = getattr(RULES, name, None)
    if not isinstance(value, int | float):
        raise template.TemplateSyntaxError(f"expected a number of the rule set, got {name!r}")
    return f"{value:g}"


@register.simple_tag
def results_due() -> str:
    """How long after an event's last day its results are due: '28 days' (RESULTS_DAYS)."""
    return officers.results_due_words()


@register.simple_tag
def computed_under(rules_name: str | None, capital: bool = False) -> str:
    """G31: 'computed under ecf-2012 (rules of January 2012 to July 2014)', the name linked
    to its column of the help page's comparison (not for a rule set of no era of the
    federation's); nothing for no rule set."""
    if not rules_name:
        return ""
    found = era(rules_name)
    name = found.name
    if found.anchor:
        name = format_html('<a href="{}#{}">{}</a>', reverse("web:help"), found.anchor, name)
    words = format_html(" ({})", found.words) if found.words else ""
    lead = "Computed" if capital else "computed"
    return format_html('<span class="rules">{} under {}{}</span>', lead, name, words)
