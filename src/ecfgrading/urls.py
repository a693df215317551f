"""URL configuration: the admin for now; the public site and the API come later."""

from django.contrib import admin
from django.urls import path

urlpatterns = [
    path("admin/", admin.site.urls),
]
