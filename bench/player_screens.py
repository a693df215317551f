"""How long the player page is on a 390 px phone (issue 23): screens before the first
folded section, for a served site and the codes given, and where the first
provisional grade is (a newcomer's page should lead with it).

    python bench/player_screens.py http://127.0.0.1:8000 235209G 300551D 227220K

Prints, per page, the HTML's size, the page's height and the screens (of 844 px, a
390 x 844 phone) down to the first closed ``details.fold``; a page with none folded is
measured whole. Debian's Chromium through Playwright, as the browser tests use it.
"""

from __future__ import annotations

import sys
import urllib.request

from playwright.sync_api import sync_playwright

WIDTH, SCREEN = 390, 844
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
FOLD_TOP = """() => {
  const fold = document.querySelector('details.fold:not([open])');
  const end = document.documentElement.scrollHeight;
  const shown = [...document.querySelectorAll('.big.prov, .prov-grade')];
  const prov = shown.find((e) => e.checkVisibility());
  const top = (e) => e.getBoundingClientRect().top + window.scrollY;
  return [fold ? top(fold) : end, end, prov ? top(prov) : -1];
}"""


def measure(base: str, codes: list[str]) -> None:
    print(
        f"{'page':<22} {'HTML KB':>8} {'height px':>10} {'screens':>8} {'to fold':>8} "
        f"{'provisional at px':>18}"
    )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = chromium.new_context(viewport={"width": WIDTH, "height": SCREEN})
        page = context.new_page()
        for code in codes:
            url = f"{base}/players/{code}/"
            with urllib.request.urlopen(url) as response:
                size = len(response.read())
            page.goto(url)
            fold, height, provisional = page.evaluate(FOLD_TOP)
            print(
                f"/players/{code}/ {size / 1024:8.1f} {height:10.0f} "
                f"{height / SCREEN:8.1f} {fold / SCREEN:8.1f} "
                f"{f'{provisional:.0f}' if provisional >= 0 else '-':>18}"
            )
        chromium.close()


if __name__ == "__main__":
    measure(sys.argv[1].rstrip("/"), sys.argv[2:])
