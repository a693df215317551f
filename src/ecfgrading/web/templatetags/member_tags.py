"""A member list's rows, written in Python (issue 25).

A club's or a county's page shows up to 200 members; the template language took most of
the time of the page made cold. This writes the same rows, byte for byte, as the loop of
``web/clubs/_members_table.html`` did: every value escaped as the template escaped it.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape  # what django.utils.html.escape calls, without its lazy wrapper

from django import template
from django.utils.safestring import SafeString, mark_safe

from ecfgrading.lookups.members import Member, RateGrade
from ecfgrading.web.templatetags.grading import grade as grade_text

register = template.Library()
_UNGRADED = '<span aria-hidden="true">–</span><span class="visually-hidden">ungraded</span>'
_ADULT = '<span aria-hidden="true">–</span><span class="visually-hidden">adult</span>'


@register.simple_tag
def member_rows(
    rows: Sequence[tuple[Member, Sequence[RateGrade | None]]], players_url: str, show_clubs: bool
) -> SafeString:
    """The ``<tr>`` of each member of the page, in order."""
    link = escape(players_url)
    return mark_safe("".join(_row(m, grades, link, show_clubs) for m, grades in rows))  # escaped


def _row(member: Member, grades: Sequence[RateGrade | None], link: str, show_clubs: bool) -> str:
    code, name = escape(member.code), escape(member.name)
    clubs = ", ".join(escape(club) for club in member.clubs)
    age = _ADULT if member.junior_age is None else str(member.junior_age)
    return "".join(
        (
            '\n<tr class="revised">\n' if member.revised else "\n<tr>\n",
            f'  <th scope="row" class="name"><a href="{link}{code}/">{name}</a>',
            f'<span class="inline"> {code}{", " + clubs if show_clubs else ""}</span></th>\n',
            f'  <td class="code">{code}</td>\n  ',
            f'<td class="club">{clubs}</td>' if show_clubs else "",
            "\n  ",
            "".join(_grade(found) for found in grades),
            f'\n  <td class="num age">{age}</td>\n</tr>\n',
        )
    )


def _grade(found: RateGrade | None) -> str:
    if not found:
        return f'<td class="num grade">{_UNGRADED}</td>'
    parts = [
        f'<td class="num grade"><span class="grade-value">{escape(grade_text(found.grade))}</span>'
    ]
    if found.category:
        parts.append(f'&nbsp;<span class="grade-cat">{escape(found.category)}</span>')
    parts.append("\n  ")
    if found.revised:
        august = found.august_grade
        said = "not on the August list" if august is None else f"August {august}"
        parts.append(f'<span class="revised-note">revised since August ({said})</span>')
    parts.append("\n  ")
    if not found.current:
        parts.append(f'<span class="grade-from">{escape(found.list_label)}</span>')
    parts.append("</td>")
    return "".join(parts)
