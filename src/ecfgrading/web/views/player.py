"""Placeholder: being built."""

from django.http import Http404, HttpRequest, HttpResponse


def player(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("not built yet")
