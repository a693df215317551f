"""URL configuration: the public site (``web.urls``, the stable contract) and the admin."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("ecfgrading.web.urls")),
]

handler404 = "ecfgrading.web.views.errors.not_found"
handler500 = "ecfgrading.web.views.errors.server_error"
