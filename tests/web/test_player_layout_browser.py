"""The player page on a 390 px phone, in Debian's Chromium (issue 23, "What was seen" 4
and 7): a newcomer's provisional grade on the first screen, the details below folded and
opened by keyboard, and axe-core clean with every fold open. Screenshots of each are left
in var/test-output/screenshots.

Players are chosen from the served demo's database with plain SQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ecfgrading.engine.codes import GradingCode
from tests.web.browser import Browser
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

PHONE = {"width": 390, "height": 844}  # the phone: one screen is 844 px
FOLDS = ("history-fold", "games-fold", "how-fold", "next-fold")

# The current standard version: the latest published version of the latest list.
CURRENT_STANDARD = """
    SELECT v.id FROM registry_listversion v JOIN registry_gradinglist l ON l.id = v.grading_list_id
    WHERE l.rate = 'standard' AND v.status = 'published'
    ORDER BY l.list_id DESC, v.published_at DESC, v.id DESC LIMIT 1
"""


def newcomer(site: Site) -> str:
    """The player never published in a list with the most graded games since the latest
    list's month began (the games of a provisional grade)."""
    with site.database() as db:
        (code,) = db.execute(
            f"""SELECT p.code FROM registry_player p JOIN registry_game g
                  ON (g.player1_id = p.id OR g.player2_id = p.id) AND g.graded
                WHERE p.merged_into_id IS NULL
                  AND NOT EXISTS (SELECT 1 FROM registry_listentry e
                                  WHERE e.player_id = p.id AND e.published)
                  AND g.game_date >= (SELECT l.list_id || '-01' FROM registry_listversion v
                      JOIN registry_gradinglist l ON l.id = v.grading_list_id
                      WHERE v.id = ({CURRENT_STANDARD}))
                GROUP BY p.id ORDER BY COUNT(*) DESC, p.code LIMIT 1"""
        ).fetchone()
    return str(GradingCode(code))


def busy_junior(site: Site) -> str:
    """The junior of the current standard list with the most games on record."""
    with site.database() as db:
        (code,) = db.execute(
            f"""SELECT p.code FROM registry_listentry e
                JOIN registry_player p ON p.id = e.player_id
                JOIN registry_game g ON g.player1_id = p.id OR g.player2_id = p.id
                WHERE e.version_id = ({CURRENT_STANDARD}) AND e.published
                  AND e.junior_age IS NOT NULL
                GROUP BY p.id ORDER BY COUNT(*) DESC, p.code LIMIT 1"""
        ).fetchone()
    return str(GradingCode(code))


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    opened = browser.page(PHONE["width"])
    opened.set_viewport_size(PHONE)
    yield opened
    opened.context.close()


def test_a_newcomers_provisional_grade_is_on_the_first_phone_screen(
    site: Site, phone: Page, screenshots: Path
) -> None:
    phone.goto(f"{site.url}/players/{newcomer(site)}/")
    expect(phone.get_by_text("Provisional grade", exact=True).first).to_be_in_viewport()
    figure = phone.locator(".grade-card .big.prov").first
    expect(figure).to_be_in_viewport()
    box = figure.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    phone.screenshot(path=str(screenshots / "player-newcomer-phone.png"), full_page=True)


def test_the_details_are_folded_and_each_opens_by_keyboard(
    site: Site, phone: Page, screenshots: Path
) -> None:
    phone.goto(f"{site.url}/players/{busy_junior(site)}/")
    for fold in FOLDS:
        expect(phone.locator(f"#{fold}")).not_to_have_attribute("open", "")
    games = phone.locator("#games-fold table.games-table").first
    expect(games).to_be_hidden()
    # Keyboard only: Tab to the Games summary, Enter opens it; Space opens the next one.
    for _ in range(200):
        phone.keyboard.press("Tab")
        if phone.evaluate("document.activeElement.closest('summary') !== null"):
            opened = phone.evaluate("document.activeElement.closest('details').id")
            if opened == "games-fold":
                break
    else:
        pytest.fail("the Games summary is not reached by Tab")
    phone.keyboard.press("Enter")
    expect(phone.locator("#games-fold")).to_have_attribute("open", "")
    expect(games).to_be_visible()
    phone.keyboard.press("Tab")  # into the open fold's links, then on to the next summary
    while phone.evaluate("document.activeElement.closest('details.fold')?.id") == "games-fold":
        phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.closest('details').id") == "how-fold"
    phone.keyboard.press("Space")
    expect(phone.locator("#how-fold")).to_have_attribute("open", "")
    expect(phone.locator("#how-standard")).to_be_visible()
    phone.screenshot(path=str(screenshots / "player-junior-phone-open.png"), full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_page_is_accessible_with_every_fold_open(
    site: Site, browser: Browser, width: int
) -> None:
    for code in (newcomer(site), busy_junior(site)):
        page = browser.page(width)
        try:
            page.goto(f"{site.url}/players/{code}/")
            for fold in FOLDS:
                page.locator(f"#{fold} > summary").click()
            violations = browser.axe_runner.run(page).response["violations"]
        finally:
            page.context.close()
        assert not violations, [(v["id"], v["nodes"][0]["target"]) for v in violations]
