"""Filters for the domain's words and numbers, as the seeds write them."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from ecfgrading.engine.rules import ECF_2009, RuleSet
from ecfgrading.lookups.guide import era
from ecfgrading.services import officers
from ecfgrading.web.reversed import reversed_once

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
        name = format_html('<a href="{}#{}">{}</a>', reversed_once("web:help"), found.anchor, name)
    words = format_html(" ({})", found.words) if found.words else ""
    lead = "Computed" if capital else "computed"
    return format_html('<span class="rules">{} under {}{}</span>', lead, name, words)


# -- the player's words (issue 23: "they/their" unless the record says otherwise) -------------


@dataclass(frozen=True)
class Pronouns:
    """The words a page uses for a player: 'they' unless the record's sex is M or F."""

    they: str
    them: str
    their: str
    theirs: str
    singular: bool  # 'he stays', 'she stays'; 'they stay'

    @property
    def s(self) -> str:
        """The verb ending that agrees with ``they``: '{{ p.they }} stay{{ p.s }}'."""
        return "s" if self.singular else ""


_PRONOUNS = {
    "M": Pronouns("he", "him", "his", "his", singular=True),
    "F": Pronouns("she", "her", "her", "hers", singular=True),
}
THEY = Pronouns("they", "them", "their", "theirs", singular=False)


@register.filter
def pronouns(sex: str | None) -> Pronouns:
    """The record's sex (``Player.sex``: M, F or blank) as the page's pronouns."""
    return _PRONOUNS.get((sex or "").upper(), THEY)


# The read model's sentences about the player (``Breakdown.start_words``) say "his" and
# "he had"; the page says them in the player's own words.
_PLAYER_WORDS = re.compile(r"\b(his|him|he)\b")


@register.filter
def in_words_of(text: str, p: Pronouns) -> str:
    """A read-model sentence about the player with ``p``'s pronouns ('he had' -> 'they had')."""
    swap = {"his": p.their, "him": p.them, "he": p.they}
    return _PLAYER_WORDS.sub(lambda found: swap[found.group(1)], text)


# -- rule ids as footnotes (issue 23: "the rulebook instead of the player's words") ----------

# Where the help page explains each rule the pages cite, in plain words.
HELP_SECTIONS: dict[int, str] = {
    **dict.fromkeys((4, 5, 6, 7, 8, 9, 10, 30, 33), "estimation"),
    11: "unanchored",
    12: "forty-point-rule",
    13: "points",
    **dict.fromkeys((14, 15, 17, 18, 19, 34, 35, 37, 38), "bring-forward"),
    **dict.fromkeys((16, 36), "x-grades"),
    **dict.fromkeys((20, 25, 42), "juniors"),
    21: "zero",
    22: "rounding",
    **dict.fromkeys((23, 39, 40), "categories"),
    **dict.fromkeys((24, 41), "games-figures"),
    **dict.fromkeys((26, 27, 43), "revisions"),
    28: "errors",
    29: "conversions",
    **dict.fromkeys((31, 32, 44), "rule-sets"),
}
_RULE = r"G(\d+)(?:\s*[-–]\s*G\d+)?"
_RULE_ID = re.compile(_RULE)
# A parenthesis that cites rules: '(G4)', '(G16, G36)', '(the 40-point rule, G12)'.
_CITATION = re.compile(r"\s*\(([^()]*\b" + _RULE + r"[^()]*)\)")


@register.simple_tag
def ref(rule_ids: str) -> SafeString:
    """A rule id as a small footnote link to the help page's plain words: ``{% ref "G12" %}``.

    Kept for the curious, out of the sentence (issue 23); 'G7-G9' is one link.
    """
    found = _RULE_ID.fullmatch(rule_ids.strip())
    if found is None:
        raise template.TemplateSyntaxError(f"expected a rule id such as G12, got {rule_ids!r}")
    anchor = HELP_SECTIONS.get(int(found.group(1)), "calculation")
    return format_html(
        '<sup class="rule-ref"><a href="{}#{}"><span class="visually-hidden">rule </span>{}</a>'
        "</sup>",
        reversed_once("web:help"),
        anchor,
        rule_ids.strip(),
    )


@register.filter
def rule_refs(text: str) -> SafeString:
    """A read-model sentence with its rule citations as footnote links: 'estimated from
    their games (G7-G9)' -> 'estimated from their games' and a small link 'G7-G9'. Words
    beside the ids stay in the parenthesis: '(the 40-point rule, G12)' -> '(the 40-point
    rule)' and a link."""
    parts: list[SafeString | str] = []
    last = 0
    for found in _CITATION.finditer(text):
        parts.append(text[last : found.start()])
        words = [w for w in found.group(1).split(", ") if not _RULE_ID.fullmatch(w.strip())]
        ids = [w.strip() for w in found.group(1).split(", ") if _RULE_ID.fullmatch(w.strip())]
        if words:
            parts.append(f" ({', '.join(words)})")
        parts.extend(ref(rule_id) for rule_id in ids)
        last = found.end()
    parts.append(text[last:])
    return format_html_join("", "{}", ((part,) for part in parts))


@register.filter
def of_rate(found: Iterable[Any], rate: str) -> Any:
    """The one of ``found`` (next lists, cards) of the rate given; None when none is."""
    return next((item for item in found if item.rate == rate), None)


@register.filter
def cards_answer_first(page: Any) -> list[Any]:
    """A player page's grade cards, those with an answer first: a grade, then a provisional
    grade (a newcomer's page leads with it, issue 23), then the rest, standard first."""

    def rank(card: Any) -> int:
        if card.grade is not None:
            return 0
        upcoming = of_rate(page.next_lists, card.rate)
        return 1 if upcoming is not None and upcoming.provisional and not page.shown_list else 2

    return sorted(page.cards, key=rank)
