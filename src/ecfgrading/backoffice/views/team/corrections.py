"""Corrections as data (issue 24, case 2): a game's page with what can be done to it
(change its result, remove it, give a side to another player), a player's games, and
his details. Each correction is previewed (GET) before it is confirmed (POST); the
query that asked for it, if any, travels along (``?query=FB-...``) and is answered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from ecfgrading.backoffice.errors import refused
from ecfgrading.backoffice.forms_corrections import (
    ACTIONS,
    CorrectionForm,
    DetailsForm,
    MoveForm,
    RemoveForm,
    ResultForm,
    query_ref,
)
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.lookups.corrections import GameShown, game_shown, player_details, player_games
from ecfgrading.registry.numbering import player_on_record
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.team import corrections
from ecfgrading.services.team.corrections import Asked, Corrected, CorrectionError, Details
from ecfgrading.services.team.identification import Preview
from ecfgrading.web.context import site_url

_T = "backoffice/team/"
_FORMS: dict[str, type[CorrectionForm]] = {
    "result": ResultForm,
    "remove": RemoveForm,
    "move": MoveForm,
}


@require_GET
@team_only
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game, and a form for each correction (each leads to its preview)."""
    shown = game_shown(game_id)
    query = query_ref(request.GET.get("query", ""))
    initial = {"query": query}
    context = {
        "game": shown,
        "query": query,
        "result": ResultForm(initial=initial | {"result": shown.result}),
        "remove": RemoveForm(initial=initial),
        "move": _move_form(shown, initial=initial),
    }
    return render(request, _T + "game.html", context)


@team_only
def correct_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the preview of ``action`` with the confirm form; POST: the correction."""
    shown = game_shown(game_id)
    data = request.POST if request.method == "POST" else request.GET
    action = data.get("action", "")
    if action not in ACTIONS:
        raise CorrectionError(f"expected an action among {', '.join(ACTIONS)}, got {action!r}")
    form = _move_form(shown, data) if action == "move" else _FORMS[action](data)
    context: dict[str, Any] = {"game": shown, "action": action, "form": form}
    if not form.is_valid():
        return render(request, _T + "game_correct.html", context, status=400)
    preview, apply = _GAME_ACTIONS[action]
    data = form.cleaned_data
    return _previewed(
        request,
        _T + "game_correct.html",
        context,
        lambda: preview(game_id, data),
        lambda asked: apply(game_id, data, asked),
        reverse("backoffice:team_game", args=[game_id]),
    )


@require_GET
@team_only
def games(request: HttpRequest, code: str) -> HttpResponse:
    player = player_on_record(code)
    context = {"player": player, "games": player_games(player)}
    return render(request, _T + "player_games.html", context)


@team_only
def details(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the form as on record (with ``preview``: what will change); POST: the
    correction."""
    found = player_details(player_on_record(code))
    query = query_ref(request.GET.get("query", ""))
    bound = request.method == "POST" or "preview" in request.GET
    data = request.POST if request.method == "POST" else request.GET
    form = DetailsForm(
        list(found.memberships),
        data if bound else None,
        initial=found.initial | {"query": query},
    )
    context: dict[str, Any] = {"found": found, "form": form}
    if not bound:
        return render(request, _T + "player_details.html", context)
    if not form.is_valid():
        return render(request, _T + "player_details.html", context, status=400)
    wanted = Details(**{k: form.cleaned_data[k] for k in Details.__dataclass_fields__})
    return _previewed(
        request,
        _T + "player_details.html",
        context,
        lambda: corrections.preview_details(found.code, wanted),
        lambda asked: corrections.correct_details(found.code, wanted, asked),
        reverse("backoffice:team_player", args=[found.code]),
    )


_Data = dict[str, Any]
_GAME_ACTIONS: dict[
    str, tuple[Callable[[int, _Data], Preview], Callable[[int, _Data, Asked], Corrected]]
] = {
    "result": (
        lambda g, d: corrections.preview_result(g, d["result"]),
        lambda g, d, a: corrections.change_result(g, d["result"], a),
    ),
    "remove": (
        lambda g, d: corrections.preview_removal(g),
        lambda g, d, a: corrections.remove_game(g, a),
    ),
    "move": (
        lambda g, d: corrections.preview_move(g, d["side"], d["code"]),
        lambda g, d, a: corrections.move_side(g, d["side"], d["code"], a),
    ),
}


def _previewed(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    preview: Callable[[], Preview],
    apply: Callable[[Asked], Corrected],
    back: str,
) -> HttpResponse:
    """GET: the preview and the confirm form; POST: the correction. A refusal is said
    above the preview again, when there is one, so that it can be put right and
    confirmed."""
    form: CorrectionForm = context["form"]
    try:
        context["preview"] = preview()
        if request.method == "POST":
            return _done(request, apply(_asked(request, form)), back)
    except ServiceError as error:
        if "preview" in context:
            context["form"] = _confirming(form)
        return refused(request, template, context, error)
    context["form"] = _confirming(form)
    return render(request, template, context)


def _move_form(shown: GameShown, data: Any = None, **kwargs: Any) -> MoveForm:
    form = MoveForm(data, **kwargs)
    form.name_sides(shown.first.text, shown.second.text)
    return form


def _confirming(form: CorrectionForm) -> CorrectionForm:
    """The confirm step: the previewed fields carried hidden; why, to fill in (a query's
    reference proposes itself as the reason)."""
    for name, field in form.fields.items():
        if name != "why":
            field.widget = forms.HiddenInput()
    query = form.cleaned_data.get("query", "")
    if query and not form.cleaned_data.get("why"):
        form.data = form.data.copy()
        form.data["why"] = f"reported in query {query.upper()}"
    return form


def _asked(request: HttpRequest, form: CorrectionForm) -> Asked:
    query = form.cleaned_data.get("query", "").strip().upper()
    status_url = site_url(reverse("web:feedback-status", kwargs={"ref": query})) if query else ""
    return Asked(form.cleaned_data["why"], user=request.user, query=query, status_url=status_url)


def _done(request: HttpRequest, done: Corrected, fallback: str) -> HttpResponse:
    told = " The sender is told by e-mail." if done.mailed else ""
    if done.query:
        messages.success(request, f"Corrected: {done.what}. {done.query} is resolved.{told}")
        return redirect("backoffice:team_query", ref=done.query)
    messages.success(request, f"Corrected: {done.what}.")
    return redirect(fallback)
