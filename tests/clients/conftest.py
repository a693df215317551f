"""The compatibility suite's one server: the tiny demo, built by the CLI into a SQLite home
of its own and served over real HTTP by ``ecfgrading serve`` (tests/web/live.py), shared
by every module of the package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.live import Site, build, serving


@pytest.fixture(scope="package")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    home = tmp_path_factory.mktemp("clients-demo")
    build(home)
    with serving(home) as running:
        yield running
