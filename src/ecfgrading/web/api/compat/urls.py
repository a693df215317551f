"""Routes of the federation's rating-API shapes (docs/api.md, "Using programs written for
the federation's rating API"): the v2 API routed by its query string, the newer REST
shapes, and the seeds' name for a rapid list's file."""

from django.urls import URLPattern, path, re_path

from ecfgrading.web.api.compat import downloads, rest, top_players, v2

urlpatterns: list[URLPattern] = [
    path("v2/new/api.php", v2.api, name="compat-v2"),
    path(
        "v2/new/list_top_players.php",
        top_players.list_top_players,
        name="compat-top-players",
    ),
    path("v2/app/list_top_players.php", top_players.list_top_players),  # the older app's
    path("api/ratings", rest.ratings_view, name="compat-ratings"),
    path("api/players/rating-code", rest.rating_code, name="compat-player-code"),
    path("api/players/fuzzy-names", rest.fuzzy_names, name="compat-fuzzy-names"),
    path("api/games", rest.games, name="compat-games"),
    path("api/clubs/players", rest.club_players, name="compat-club-players"),
    path("api/clubs/code", rest.club_code, name="compat-club-code"),
    path("api/clubs/name", rest.club_name, name="compat-club-name"),
    path("api/rating-list/csv", rest.rating_list_csv, name="compat-rating-list-csv"),
    re_path(
        r"^downloads/rgrades(?P<year>\d{4})(?P<month>01|07)\.csv$",
        downloads.rapid_grades,
        name="compat-rapid-grades",
    ),
    # Last: any other path under /api/ (but /api/v1/, whose own 404s are JSON) or /v2/ is
    # a JSON 404 in the shape its clients read, not the site's HTML page (issue 22).
    re_path(r"^api(?:$|/(?!v1(?:/|$)))", rest.unknown, name="compat-unknown-rest"),
    re_path(r"^v2(?:$|/)", v2.unknown, name="compat-unknown-v2"),
]
