"""The demo federation: six seasons of a realistic federation, generated and graded.

Its lists cross both changes of the federation's method (G31): ecf-2009 to 2011-07,
half-year lists under ecf-2012 from 2012-01 and under ecf-2015 from 2015-01.

``generate`` draws it (pure: files and a starting list, no database); ``build_demo``
loads it into the database and computes and publishes its lists in date order.
``build_demo`` and ``DemoSummary`` are imported on first use, because they need Django
set up and the generator does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ecfgrading.demo.generator import DemoFile, Federation, FederationStats, generate
from ecfgrading.demo.sizes import SIZES, DemoSize

if TYPE_CHECKING:
    from ecfgrading.demo.build import DemoError, build_demo
    from ecfgrading.demo.summary import DemoSummary

__all__ = [
    "SIZES",
    "DemoError",
    "DemoFile",
    "DemoSize",
    "DemoSummary",
    "Federation",
    "FederationStats",
    "build_demo",
    "generate",
]


def __getattr__(name: str) -> Any:
    if name in ("build_demo", "DemoError"):
        from ecfgrading.demo import build

        return getattr(build, name)
    if name == "DemoSummary":
        from ecfgrading.demo.summary import DemoSummary

        return DemoSummary
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
