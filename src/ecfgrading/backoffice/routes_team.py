"""The back office's URLs for the grading team's pages (included by backoffice/urls.py);
every one admits the team only (tests/backoffice/cases_team.py)."""

from django.urls import URLPattern, path

from ecfgrading.backoffice.views.team import assignments, chase, identify, lists, players, queries

_L = "team/lists/<str:list_id>/<str:rate>/<str:version>/"

urlpatterns: list[URLPattern] = [
    path("team/identify/", identify.queue, name="team_identify"),
    path("team/identify/<int:case_id>/", identify.case, name="team_case"),
    path("team/identify/<int:case_id>/preview/", identify.preview, name="team_case_preview"),
    path("team/identify/<int:case_id>/decide/", identify.decide, name="team_case_decide"),
    path("team/merge/", identify.merge, name="team_merge"),
    path("team/assignments/", assignments.index, name="team_assignments"),
    path("team/lists/", lists.index, name="team_lists"),
    path(_L, lists.draft, name="team_draft"),
    path(_L + "publish/", lists.publish, name="team_publish"),
    path("team/queries/", queries.index, name="team_queries"),
    path("team/queries/<str:ref>/", queries.detail, name="team_query"),
    path("team/queries/<str:ref>/assign/", queries.assign, name="team_query_assign"),
    path("team/chase/", chase.index, name="team_chase"),
    path("team/chase/<int:event_id>/", chase.chase, name="team_chase_event"),
    path("team/players/", players.lookup, name="team_players"),
    path("team/players/<str:code>/", players.detail, name="team_player"),
    path(
        "team/players/<str:code>/memberships/<int:membership_id>/end/",
        players.end_membership,
        name="team_end_membership",
    ),
]
