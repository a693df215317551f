"""The 2009 grading site's addresses, moved for good (issue 22, "Old links live").

Old club pages, Scid's player-info link (``getref.php?ref=%ID%``) and a scraping library
still call the old site's PHP pages. Each answers with a permanent redirect (301) to the
page that answers the same question now:

    getref.php?ref=CODE, new/getref.php?ref=CODE   the player page, /players/<code>/
    new/player.php?PlayerCode=CODE                 the player page
    new/glist.php?&player=Surname,%20Forename      the player lookup, /players/?q=...
    new/glist.php?&club=NAME                       the club lookup, /clubs/?q=...
    new/glist.php?Code=CLUBCODE                    the club page, /clubs/<code>/
    new/menu.php                                   the lists page (the grading lists' home)
    new/help.php                                   the help page

A code is resolved as the player page resolves it (``lookups.players.locate``): with or
without its check letter, in any case; an unknown one is the site's 404 page. A code
merged into another record (G28) moves to its own page, which sends the visitor on with
a temporary redirect: a merge is the grading team's decision and a correction may undo
it, so no browser may remember the survivor for good. A form without a usable
parameter goes to its lookup page. The target is built from the one parameter used,
never from the rest of the old query, so nothing else the old address carried (a
session, an e-mail address) is passed on.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from ecfgrading.engine.codes import code_text
from ecfgrading.lookups.clubs import find_club
from ecfgrading.lookups.players import locate


def _param(request: HttpRequest, name: str) -> str:
    """A parameter of the old query, whatever the case of its name ('ref', 'Ref'); ''
    when absent or blank."""
    for key, value in request.GET.items():
        if key.lower() == name.lower():
            return value.strip()
    return ""


def _moved(target: str) -> HttpResponse:
    return HttpResponsePermanentRedirect(target)


def _lookup(name: str, query: str) -> str:
    """A lookup page (``web:players`` or ``web:clubs``) with its query, if any."""
    url = reverse(name)
    return f"{url}?{urlencode({'q': query})}" if query else url


def _player_page(code: str) -> HttpResponse:
    """The player's page; the lookup without a code; PlayerNotFound (404) for a code on
    no record."""
    if not code:
        return _moved(reverse("web:players"))
    located = locate(code)
    # A merged code goes to its own page, which redirects on temporarily (see above);
    # located, it is six digits with or without its (right) letter.
    shown = code_text(int(code[:6])) if located.merged else located.code
    return _moved(reverse("web:player", kwargs={"code": shown}))


@require_safe
def getref(request: HttpRequest) -> HttpResponse:
    """``getref.php?ref=CODE``: Scid's player-info link (its ``%ID%`` is the code)."""
    return _player_page(_param(request, "ref"))


@require_safe
def player(request: HttpRequest) -> HttpResponse:
    """``new/player.php?PlayerCode=CODE``: the old player page."""
    return _player_page(_param(request, "PlayerCode"))


@require_safe
def glist(request: HttpRequest) -> HttpResponse:
    """``new/glist.php``: players by name (``player=``), clubs by name (``club=``), or
    the players of one club (``Code=``); a code goes to the club's page (ClubNotFound,
    404, for none), names to the lookups. Without any of them: the player lookup."""
    code = _param(request, "Code")
    if code:
        return _moved(reverse("web:club", args=[find_club(code).key]))
    club = _param(request, "club")
    if club:
        return _moved(_lookup("web:clubs", club))
    return _moved(_lookup("web:players", _param(request, "player")))


def _to(name: str) -> Callable[[HttpRequest], HttpResponse]:
    """A view moving an old page with no parameters to the named page."""

    @require_safe
    def moved(request: HttpRequest) -> HttpResponse:
        return _moved(reverse(name))

    return moved


menu = _to("web:lists")  # the grading lists' home
help_page = _to("web:help")
