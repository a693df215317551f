"""Freezing what a published version's files show (G26; issue 24, case 14).

Called by every publication (a computed version, a list file loaded) inside its
transaction, once the version is published: names, clubs and the versions Grade1 and the
august grades come from are kept as they are at that moment, so that the version's files
(``lookups.exports``) are the same bytes however the registry changes afterwards.
"""

from __future__ import annotations

from ecfgrading.lookups.exports import frozen_details
from ecfgrading.registry.models import ListVersion, PublishedSnapshot
from ecfgrading.services.errors import Conflict


def freeze_published(version: ListVersion) -> PublishedSnapshot:
    """Keep the published version's snapshot; Conflict for a draft or one already frozen."""
    if not version.is_published:
        raise Conflict(f"expected a published list version to freeze, got {version}")
    if PublishedSnapshot.objects.filter(version=version).exists():
        raise Conflict(f"list version {version} is already frozen: it never changes")
    details = frozen_details(version)
    return PublishedSnapshot.objects.create(
        version=version,
        players=details.players,
        previous=details.previous,
        august=details.august,
        rule_set=details.rule_set,
        rule_words=details.rule_words,
    )
