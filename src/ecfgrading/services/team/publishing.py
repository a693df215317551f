"""Computing and publishing a list version from the back office (G26, G27). What the
pages show (the next version by default, a draft's reports, what changed since the
version before it) is ``lookups.drafts``.

The work is the grading run's (services.grading.compute), which audits it; a national
list takes a few seconds to compute, which a request can wait for at demo size.
"""

from __future__ import annotations

from typing import Any

from ecfgrading.engine import Rate
from ecfgrading.registry.models import ListVersion
from ecfgrading.services.grading.compute import GradingRun, compute_version, publish_version


def compute(list_id: str, rate: Rate, version: str, *, user: Any) -> GradingRun:
    return compute_version(list_id, rate, version or None, user=user, actor="backoffice")


def publish(list_id: str, rate: Rate, version: str, *, user: Any) -> ListVersion:
    """Publish the draft (G26); it carries the amendments noted since the last
    (services.amendments.carry_pending, called by the publication)."""
    return publish_version(list_id, rate, version, user=user, actor="backoffice")
