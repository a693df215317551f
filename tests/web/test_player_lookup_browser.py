"""Issue 23, items 1 and 2, as a person on a phone sees them: a name typed without a comma
finds a card that is one link to the player; a "did you mean" page stays accessible.

Served demo, Debian's Chromium; expected players from the demo's database by plain SQL.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ecfgrading.engine.codes import GradingCode
from tests.web.browser import Browser
from tests.web.live import Site

pytestmark = pytest.mark.sqlite

CURRENT_STANDARD = """
    SELECT v.id FROM registry_listversion v JOIN registry_gradinglist l ON l.id = v.grading_list_id
    WHERE l.rate = 'standard' AND v.status = 'published'
    ORDER BY l.list_id DESC, v.published_at DESC, v.id DESC LIMIT 1
"""


def test_on_a_phone_a_name_typed_without_a_comma_leads_through_its_card(
    site: Site, browser: Browser, screenshots: Path
) -> None:
    with site.database() as db:
        code, surname, forenames = db.execute(
            f"""SELECT p.code, p.surname, p.forenames FROM registry_listentry e
                JOIN registry_player p ON p.id = e.player_id
                WHERE e.version_id = ({CURRENT_STANDARD}) AND e.published
                  AND p.forenames <> '' AND p.merged_into_id IS NULL
                ORDER BY p.code LIMIT 1"""
        ).fetchone()
    ref = str(GradingCode(code))
    typed = f"{forenames.split()[0].lower()} {surname.lower()}"

    tab = browser.page(390)
    try:
        tab.goto(site.url + "/players/")
        tab.locator("#player-q").press_sequentially(typed, delay=20)
        tab.get_by_role("button", name="Find player").click()
        expect(tab).to_have_url(re.compile(r"/players/\?q="))
        card = tab.get_by_role("link", name=f"{surname}, {forenames}", exact=True)
        expect(card).to_be_visible()
        box = card.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] >= 44  # the card
        assert tab.evaluate("document.documentElement.scrollWidth") <= 390
        tab.screenshot(path=str(screenshots / "lookup-no-comma-phone.png"), full_page=True)
        violations = browser.axe_runner.run(tab).response["violations"]
        assert [v["id"] for v in violations if v["impact"] in ("serious", "critical")] == []
        card.click()
        expect(tab).to_have_url(f"{site.url}/players/{ref}/")
    finally:
        tab.context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_did_you_mean_page_is_accessible(site: Site, browser: Browser, width: int) -> None:
    with site.database() as db:
        (surname,) = db.execute(
            "SELECT surname FROM registry_player WHERE merged_into_id IS NULL "
            "AND length(surname) >= 6 GROUP BY surname ORDER BY COUNT(*) DESC, surname LIMIT 1"
        ).fetchone()
    typo = surname[0] + surname[2] + surname[1] + surname[3:]
    violations = browser.axe(f"{site.url}/players/?q={typo}&inactive=1", width)
    assert [v["id"] for v in violations if v["impact"] in ("serious", "critical")] == []
