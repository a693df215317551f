"""Placeholder: being built."""

from django.http import Http404, HttpRequest, HttpResponse


def index(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("not built yet")


def download(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("not built yet")
