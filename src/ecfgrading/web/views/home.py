"""Placeholder: being built."""

from django.http import Http404, HttpRequest, HttpResponse


def home(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("not built yet")


def help_page(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
    raise Http404("not built yet")
