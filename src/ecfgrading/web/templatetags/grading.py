"""Filters for the domain's words and numbers, as the seeds write them."""

from __future__ import annotations

import datetime as dt

from django import template

register = template.Library()


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
