"""The public URLs: a contract (people bookmark them, programs call them).

See ../shared/spec/architecture.md, "The web contract". Each page has a JSON twin, by
``?format=json`` or an ``Accept: application/json`` header (``web.render``).
"""

from django.urls import path

from ecfgrading.web.views import (
    amendments,
    clubs,
    events,
    feedback,
    home,
    lists,
    old_links,
    player,
    players,
)

app_name = "web"

urlpatterns = [
    path("", home.home, name="home"),
    path("help/", home.help_page, name="help"),
    path("players/", players.lookup, name="players"),
    path("players/<str:code>/", player.player, name="player"),
    path("clubs/", clubs.lookup, name="clubs"),
    path("clubs/<str:code>/", clubs.club, name="club"),
    path("counties/", clubs.counties, name="counties"),
    path("counties/<str:code>/", clubs.county, name="county"),
    path("events/", events.received, name="events"),
    # path: a code registered before codes were checked (``A/B``) keeps its page (issue 24).
    path("events/<path:code>/", events.event, name="event"),
    path("lists/", lists.index, name="lists"),
    path("downloads/<str:filename>", lists.download, name="download"),
    path("feedback/", feedback.form, name="feedback"),
    path("feedback/<str:ref>/", feedback.status, name="feedback-status"),
    path("amendments/", amendments.amendments_page, name="amendments"),
    # The 2009 grading site's addresses, moved for good (301) to the pages above.
    path("getref.php", old_links.getref),
    path("new/getref.php", old_links.getref),
    path("new/player.php", old_links.player),
    path("new/glist.php", old_links.glist),
    path("new/menu.php", old_links.menu),
    path("new/help.php", old_links.help_page),
]
