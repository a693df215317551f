"""Every season's games and breakdown on the player page (issue 23, items 3 and 9):
``?list=2011-07`` (and ``&version=initial``) shows that list's grade, its games and its
breakdown as the version published them; every history row links there; grades a later
version changed show the earlier grade beside them, with the reason the registry records.

Expected values come from plain registry queries, never from the page's own read model.
"""

from __future__ import annotations

import json
import re
from typing import Any

import html5lib
import pytest
from django.db import transaction
from django.test import Client

from ecfgrading.demo.summary import DemoSummary
from ecfgrading.engine.codes import GradingCode
from ecfgrading.registry.models import Amendment, ListEntry, ListVersion, Player, StoredGamePoints

pytestmark = pytest.mark.django_db

NS = "{http://www.w3.org/1999/xhtml}"


def url(player: Player, query: str = "") -> str:
    return f"/players/{GradingCode(player.code)}/{query}"


def current_of(list_id: str, rate: str) -> ListVersion:
    """A list's current version: its latest published (G26), by a plain query."""
    return (
        ListVersion.objects.filter(
            status="published", grading_list__list_id=list_id, grading_list__rate=rate
        )
        .order_by("-published_at", "-id")
        .first()
    )


def graded_lists(player: Player, rate: str) -> list[str]:
    """The lists of a rate whose current version grades him from stored games."""
    found = []
    entries = ListEntry.objects.filter(player=player, version__grading_list__rate=rate)
    for list_id in sorted(set(entries.values_list("version__grading_list__list_id", flat=True))):
        entry = ListEntry.objects.filter(player=player, version=current_of(list_id, rate)).first()
        if entry is not None and entry.published and entry.start_source:
            found.append(list_id)
    return found


def busy_player() -> Player:
    """A player graded from stored games in the most standard lists."""
    players = Player.objects.filter(list_entries__published=True).distinct().order_by("code")
    return max(players[:80], key=lambda p: (len(graded_lists(p, "standard")), -p.code))


def stored_games(version: ListVersion, player: Player) -> list[tuple[str, str]]:
    """(ISO date, event code) of the games the version graded in its latest period."""
    rows = StoredGamePoints.objects.filter(version=version, player=player, period=0)
    return sorted((row.game.game_date.isoformat(), row.game.event.code) for row in rows)


def twin(client: Client, address: str) -> Any:
    joiner = "&" if "?" in address else "?"
    response = client.get(f"{address}{joiner}format=json")
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content)


def twin_games(card: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((g["date"], g["event_code"]) for g in card["breakdown"]["games"])


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def revised_entries(rate: str = "standard") -> list[tuple[ListEntry, ListEntry]]:
    """(initial, august) entries of one player in a July list whose August version
    published another grade than the initial: by a plain query."""
    pairs = []
    for august in ListEntry.objects.filter(
        version__name="august",
        version__status="published",
        version__grading_list__rate=rate,
        published=True,
    ).select_related("version__grading_list", "player"):
        initial = ListEntry.objects.filter(
            version__grading_list=august.version.grading_list,
            version__name="initial",
            player=august.player,
            published=True,
        ).first()
        if initial is not None and initial.grade != august.grade:
            pairs.append((initial, august))
    return sorted(
        pairs, key=lambda pair: (pair[1].version.grading_list.list_id, pair[1].player.code)
    )


# --- ?list= ----------------------------------------------------------------------------


def test_each_list_shows_its_grade_and_exactly_its_versions_games(
    client: Client, demo: DemoSummary
) -> None:
    player = busy_player()
    lists = graded_lists(player, "standard")
    assert len(lists) >= 3, f"expected a player with several standard lists, got {lists}"
    current = twin(client, url(player))["standard"]
    for list_id in lists:
        version = current_of(list_id, "standard")
        entry = ListEntry.objects.get(version=version, player=player)
        card = twin(client, url(player, f"?list={list_id}"))["standard"]
        assert (card["list"], card["version"]) == (list_id, version.name)
        assert (card["grade"], card["category"]) == (entry.grade, entry.category)
        assert twin_games(card) == stored_games(version, player)
        page = client.get(url(player, f"?list={list_id}")).content.decode()
        assert f"{entry.grade}<" in page.split('id="card-standard"')[1].split("</article>")[0]
    # The page of the current list is another page in the cache, not one of those above.
    assert twin(client, url(player))["standard"] == current


def test_the_page_shows_the_lists_games_in_its_games_table(
    client: Client, demo: DemoSummary
) -> None:
    player = busy_player()
    list_id = graded_lists(player, "standard")[0]
    version = current_of(list_id, "standard")
    html = client.get(url(player, f"?list={list_id}")).content.decode()
    section = html.split('id="games-standard"')[1].split("</section>")[0]
    bodies = re.findall(r"<tbody>(.*?)</tbody>", section, re.S)
    rows = [row for body in bodies for row in body.split("<tr")[1:]]
    assert len(rows) == len(stored_games(version, player))
    assert "games of the" in section and list_label_words(list_id) in section


def list_label_words(list_id: str) -> str:
    year, month = list_id.split("-")
    return f"{'January' if month == '01' else 'July'} {year}"


def test_a_list_before_the_current_is_not_the_current_lists_page(
    client: Client, demo: DemoSummary
) -> None:
    player = busy_player()
    list_id = graded_lists(player, "standard")[0]
    html = client.get(url(player, f"?list={list_id}")).content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)  # type: ignore[union-attr]
    assert list_label_words(list_id) in title
    assert f'href="{url(player)}?list={list_id}"' in html
    assert "current grades" in text_of(html).lower()


def test_the_twin_says_which_list_it_shows(client: Client, demo: DemoSummary) -> None:
    player = busy_player()
    list_id = graded_lists(player, "standard")[0]
    data = twin(client, url(player, f"?list={list_id}"))
    assert (data["shown_list"], data["shown_version"]) == (list_id, None)
    assert twin(client, url(player))["shown_list"] is None


def test_a_rate_with_no_list_that_month_shows_the_one_in_force(
    client: Client, demo: DemoSummary
) -> None:
    """Standard lists were annual until 2012 (G31): a January rapid list's page shows the
    July standard list before it."""
    entry = (
        ListEntry.objects.filter(
            version__grading_list__rate="rapid",
            version__grading_list__list_id__lt="2012-01",
            version__grading_list__list_id__endswith="-01",
        )
        .select_related("version__grading_list", "player")
        .order_by("version__grading_list__list_id", "player__code")
        .first()
    )
    list_id = entry.version.grading_list.list_id
    before = f"{int(list_id[:4]) - 1}-07"
    data = twin(client, url(entry.player, f"?list={list_id}"))
    assert data["rapid"]["list"] == list_id
    assert data["standard"]["list"] == before


# --- refusals ----------------------------------------------------------------------------


def test_a_list_he_has_no_entry_in_is_a_404_naming_his_lists(
    client: Client, demo: DemoSummary
) -> None:
    published = set(
        ListVersion.objects.filter(status="published").values_list(
            "grading_list__list_id", flat=True
        )
    )
    for player in Player.objects.order_by("code")[:200]:
        held = set(player.list_entries.values_list("version__grading_list__list_id", flat=True))
        missing = sorted(published - held)
        if held and missing:
            break
    response = client.get(url(player, f"?list={missing[0]}"))
    assert response.status_code == 404
    words = text_of(response.content.decode())
    assert "has no entry in the" in words and list_label_words(missing[0]) in words
    assert list_label_words(max(held)) in words  # his latest list, named


def test_a_list_never_published_is_a_404(client: Client, demo: DemoSummary) -> None:
    player = busy_player()
    response = client.get(url(player, "?list=1999-07"))
    assert response.status_code == 404
    assert "no list of July 1999 has been published" in response.content.decode()


@pytest.mark.parametrize("query", ["?list=2011", "?list=2011-13", "?list=x", "?version=initial"])
def test_a_malformed_list_is_a_400_that_says_what_was_expected(
    client: Client, demo: DemoSummary, query: str
) -> None:
    player = busy_player()
    response = client.get(url(player, query))
    assert response.status_code == 400
    assert "?list=2011-07" in response.content.decode()
    data = json.loads(client.get(url(player, query + "&format=json")).content)
    assert data["status"] == 400 and data["kind"] == "invalid"


def test_an_unknown_version_is_a_404_naming_the_versions(client: Client, demo: DemoSummary) -> None:
    player = busy_player()
    list_id = next(each for each in graded_lists(player, "standard") if each.endswith("-01"))
    response = client.get(url(player, f"?list={list_id}&version=august"))
    assert response.status_code == 404
    assert "they have initial" in response.content.decode()


# --- initial and August side by side -------------------------------------------------------


def test_a_grade_august_changed_shows_the_initial_beside_it_with_the_late_games(
    client: Client, demo: DemoSummary
) -> None:
    initial, august = next((i, a) for i, a in revised_entries() if a.games_latest > i.games_latest)
    player, list_id = august.player, august.version.grading_list.list_id
    html = client.get(url(player)).content.decode()
    row = html.split(f'?list={list_id}">{list_label_words(list_id)}</a>')[1].split("</tr>")[0]
    standard_cell = row.split("<td")[1]
    assert f">{august.grade}<" in standard_cell and f">{initial.grade}<" in standard_cell
    assert f"?list={list_id}&amp;version=initial" in standard_cell
    more = august.games_latest - initial.games_latest
    revisions = text_of(html.split('class="revisions"')[1].split("</ul>\n  <p")[0])
    assert f"{initial.grade}{initial.category} in the initial version" in revisions
    assert f"{august.grade}{august.category} in the August version" in revisions
    assert f"{more} more game{'s' if more > 1 else ''} graded" in revisions


def test_the_initial_version_shows_its_own_grade_and_games(
    client: Client, demo: DemoSummary
) -> None:
    initial, august = next((i, a) for i, a in revised_entries() if a.games_latest > i.games_latest)
    player, list_id = august.player, august.version.grading_list.list_id
    card = twin(client, url(player, f"?list={list_id}&version=initial"))["standard"]
    assert (card["grade"], card["version"]) == (initial.grade, "initial")
    assert twin_games(card) == stored_games(initial.version, player)
    card = twin(client, url(player, f"?list={list_id}"))["standard"]
    assert (card["grade"], card["version"]) == (august.grade, "august")
    assert twin_games(card) == stored_games(august.version, player)
    assert len(twin_games(card)) > len(stored_games(initial.version, player))


def test_an_amendment_carried_by_the_august_version_is_given_as_the_reason(
    client: Client, demo: DemoSummary
) -> None:
    initial, august = revised_entries()[0]
    Amendment.objects.create(
        player=august.player,
        rate="standard",
        what="Result of round 3 corrected to a win",
        why="the organiser's report",
        version=august.version,
    )
    data = twin(client, url(august.player))
    list_id = august.version.grading_list.list_id
    point = next(r for r in data["history"] if r["list"] == list_id)["standard"]
    assert [s["grade"] for s in point["steps"]] == [initial.grade, august.grade]
    assert any(
        "a correction: Result of round 3 corrected to a win (the organiser's report)" in reason
        for reason in point["reasons"]
    )


def test_a_grade_no_version_changed_has_one_step_and_no_reason(
    client: Client, demo: DemoSummary
) -> None:
    player = busy_player()
    data = twin(client, url(player))
    changed = {(i.version.grading_list.list_id) for i, a in revised_entries() if a.player == player}
    for row in data["history"]:
        point = row["standard"]
        if point is not None and row["list"] not in changed:
            assert len(point["steps"]) == 1 and point["reasons"] == []


def test_the_history_table_links_every_row_to_its_list(client: Client, demo: DemoSummary) -> None:
    player = busy_player()
    held = set(player.list_entries.values_list("version__grading_list__list_id", flat=True))
    html = client.get(url(player)).content.decode()
    tree = html5lib.parse(html)
    table = next(t for t in tree.iter(f"{NS}table") if "history-table" in t.get("class", ""))
    links = [
        th.find(f"{NS}a").get("href") for th in table.iter(f"{NS}th") if th.get("scope") == "row"
    ]
    assert sorted(links) == sorted(f"{url(player)}?list={list_id}" for list_id in held)


# --- /amendments/ --------------------------------------------------------------------------


def test_the_amendments_page_does_not_say_august_versions_changed_nothing(
    client: Client, demo: DemoSummary
) -> None:
    """With no correction recorded, the page says so, and that an August version changes
    grades without one (G26): the demo's August versions changed grades. (The demo's one
    amendment, its merge, is set aside for this.)"""
    (merge,) = Amendment.objects.all()
    assert "merged into" in merge.what
    assert revised_entries(), "expected the demo's August versions to change some grades"
    with transaction.atomic():
        Amendment.objects.all().delete()
        words = text_of(client.get("/amendments/").content.decode())
        transaction.set_rollback(True)
    assert "No amendments have been made yet" in words
    assert "the August version of a July list is the same calculation run again" in words
