"""URL configuration: the public site (``web.urls``, the stable contract), the APIs and
the admin."""

from django.contrib import admin
from django.urls import include, path

from ecfgrading.web.api.v1 import api
from ecfgrading.web.context import SITE_NAME

# The admin is titled as the site, not "Django administration".
admin.site.site_header = admin.site.site_title = f"{SITE_NAME} admin"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("", include("ecfgrading.web.api.compat.urls")),
    path("backoffice/", include("ecfgrading.backoffice.urls")),
    path("", include("ecfgrading.web.urls")),
]

handler404 = "ecfgrading.web.views.errors.not_found"
handler500 = "ecfgrading.web.views.errors.server_error"
