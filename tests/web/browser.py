"""Debian's Chromium driven by Playwright (never a downloaded browser), with axe-core."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HEIGHT = 900


@dataclass
class Browser:
    chromium: Any
    axe_runner: Axe

    def page(self, width: int) -> Page:
        context = self.chromium.new_context(viewport={"width": width, "height": HEIGHT})
        return context.new_page()

    def axe(self, url: str, width: int) -> list[dict[str, Any]]:
        """axe-core's violations on the page at this width."""
        page = self.page(width)
        try:
            page.goto(url)
            return list(self.axe_runner.run(page).response["violations"])
        finally:
            page.context.close()

    def screenshot(self, page: Page, folder: Path, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


@contextmanager
def open_browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield Browser(chromium, Axe())
        finally:
            chromium.close()
