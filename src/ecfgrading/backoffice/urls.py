"""The back office's URLs, under /backoffice/. Every view but the login and password
reset pages admits named roles only (backoffice.access); tests/backoffice checks each."""

from django.contrib.auth import views as auth
from django.urls import path, reverse_lazy

from ecfgrading.backoffice import routes_audit, routes_members, routes_team
from ecfgrading.backoffice.views import accounts, officers
from ecfgrading.web.context import SITE_NAME

app_name = "backoffice"

_T = "backoffice/accounts/"

urlpatterns = [
    path("", accounts.home, name="home"),
    path("events/", officers.events, name="events"),
    path("events/new/", officers.register, name="register"),
    path("events/rate/", officers.rate, name="rate"),
    path("events/<int:event_id>/results.txt", officers.download, name="download"),
    path("results/", officers.upload, name="upload"),
    path("results/submit/", officers.submit, name="submit"),
    path("results/sent/", officers.submissions, name="submissions"),
    path(
        "login/",
        auth.LoginView.as_view(
            template_name=_T + "login.html",
            redirect_authenticated_user=True,
            # Django's login names the site after the host ("127.0.0.1:8000"); ours is named.
            extra_context={"site_name": SITE_NAME},
        ),
        name="login",
    ),
    path("logout/", auth.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth.PasswordChangeView.as_view(
            template_name=_T + "password_change.html",
            success_url=reverse_lazy("backoffice:password_change_done"),
        ),
        name="password_change",
    ),
    path(
        "password/changed/",
        auth.PasswordChangeDoneView.as_view(template_name=_T + "password_change_done.html"),
        name="password_change_done",
    ),
    # Through the outbox, limited, the same answer for any address (issue 24, case 10).
    path("password/reset/", accounts.password_reset, name="password_reset"),
    path(
        "password/reset/sent/",
        auth.PasswordResetDoneView.as_view(template_name=_T + "password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth.PasswordResetConfirmView.as_view(
            template_name=_T + "password_reset_confirm.html",
            success_url=reverse_lazy("backoffice:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth.PasswordResetCompleteView.as_view(template_name=_T + "password_reset_complete.html"),
        name="password_reset_complete",
    ),
    *routes_team.urlpatterns,
    *routes_members.urlpatterns,
    *routes_audit.urlpatterns,
]
