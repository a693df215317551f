"""The grade history's cells: each grade a link to its list's page, with the grades a
later version of the list replaced (initial beside August, G27) below it.

Written as one tag rather than in the template: a long career has a row for every list.
Every text is escaped by ``format_html``.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

from ecfgrading.lookups.history import HistoryPoint, VersionGrade
from ecfgrading.lookups.versions import version_words

register = template.Library()

_NO_LIST = mark_safe('<span class="none">–<span class="visually-hidden">no list</span></span>')


def list_query(list_id: str, version: str = "") -> str:
    """'?list=2011-07' or '?list=2011-07&version=initial': a list's page of the player."""
    named = {"list": list_id} | ({"version": version} if version else {})
    return f"?{urlencode(named)}"


@register.simple_tag
def history_grade(point: HistoryPoint | None, url: str) -> SafeString:
    """A list's grade linked to that list's page of the player (``url`` is his page);
    'ungraded' (too few games); a dash (no list); the grades it replaced below it."""
    if point is None:
        return _NO_LIST
    where = format_html(
        '<span class="visually-hidden"> {}, {}</span>', point.rate.value, point.label
    )
    link = format_html(
        '<a href="{}{}">{}{}</a>',
        url,
        list_query(point.list_id),
        _grade(point.grade, point.category),
        where,
    )
    if not point.revised:
        return link
    was = format_html_join(" ", "{}", ((_replaced(point, step, url),) for step in point.earlier))
    return format_html('{} <span class="was">{}</span>', link, was)


def _replaced(point: HistoryPoint, step: VersionGrade, url: str) -> SafeString:
    """'initial 114D', linked to that version's page."""
    return format_html(
        '{} <a href="{}{}">{}<span class="visually-hidden"> {}, {}</span></a>',
        version_words(step.version).removesuffix(" version"),
        url,
        list_query(point.list_id, step.version),
        _grade(step.grade, step.category),
        point.rate.value,
        point.label,
    )


def _grade(grade: int | None, category: str) -> SafeString:
    if grade is None:
        return format_html('<span class="none">{}</span>', "ungraded")
    return format_html('{}<span class="cat-small">{}</span>', grade, category)


@register.filter(name="version_words")
def version_words_filter(name: str) -> str:
    """'initial version', 'August version', 'revision 1'."""
    return version_words(name)
