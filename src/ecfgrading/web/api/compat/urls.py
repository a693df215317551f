"""Routes of the federation's rating API shapes: being built."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
