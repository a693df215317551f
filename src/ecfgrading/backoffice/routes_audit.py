"""The back office's URLs for the audit pages (included by backoffice/urls.py)."""

from django.urls import URLPattern, path

from ecfgrading.backoffice.views import audit

urlpatterns: list[URLPattern] = [
    path("audit/", audit.log, name="audit"),
]
