"""The back office's URLs for the grading team's pages (included by backoffice/urls.py);
every one admits the team only (tests/backoffice/cases_team.py)."""

from django.urls import URLPattern, path

from ecfgrading.backoffice.views.team import (
    assignments,
    chase,
    corrections,
    duplicates,
    events,
    identify,
    lists,
    players,
    queries,
)

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
    # Corrections as data (issue 24, case 2).
    path("team/games/<int:game_id>/", corrections.game, name="team_game"),
    path("team/games/<int:game_id>/correct/", corrections.correct_game, name="team_game_correct"),
    path("team/players/<str:code>/games/", corrections.games, name="team_player_games"),
    path("team/players/<str:code>/details/", corrections.details, name="team_player_details"),
    # Files holding games on record under another event code (issue 24, case 1).
    path("team/duplicates/", duplicates.index, name="team_duplicates"),
    path(
        "team/duplicates/<int:submission_id>/decide/",
        duplicates.decide,
        name="team_duplicates_decide",
    ),
    # Events corrected by the team (issue 24, case 5).
    path("team/events/", events.index, name="team_events"),
    path("team/events/<int:event_id>/", events.detail, name="team_event"),
    path("team/events/<int:event_id>/edit/", events.edit, name="team_event_edit"),
    path("team/events/<int:event_id>/withdraw/", events.withdraw, name="team_event_withdraw"),
    path("team/events/<int:event_id>/reassign/", events.reassign, name="team_event_reassign"),
]
