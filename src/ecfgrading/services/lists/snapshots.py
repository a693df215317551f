"""Freezing what a published version's files show (G26; issue 24, case 14).

Called by every publication (a computed version, a list file loaded) inside its
transaction, once the version is published: names, clubs and the versions Grade1 and the
august grades come from are kept as they are at that moment, so that the version's files
(``lookups.exports``) are the same bytes however the registry changes afterwards.

What is kept, and how it is read back, is ``lookups.exports``' (``frozen_rows``, the
versions Grade1 and the august grades come from): one definition for the files and their
snapshot. Set-based: a national list's 30,000 players are frozen in a fraction of a second.
"""

from __future__ import annotations

from ecfgrading.engine.types import Rate
from ecfgrading.lookups.exports import august_version, frozen_rows, previous_version
from ecfgrading.lookups.guide import era
from ecfgrading.registry.models import ListVersion, PublishedSnapshot
from ecfgrading.services.errors import Conflict


def freeze_published(version: ListVersion) -> PublishedSnapshot:
    """Keep the published version's snapshot; Conflict for a draft or one already frozen."""
    if not version.is_published:
        raise Conflict(f"expected a published list version to freeze, got {version}")
    if PublishedSnapshot.objects.filter(version=version).exists():
        raise Conflict(f"list version {version} is already frozen: it never changes")
    target, rate = version.grading_list.list, Rate(version.grading_list.rate)
    rule_set = era(version.rules_name)  # G31: its name and words, as the guide says now
    return PublishedSnapshot.objects.create(
        version=version,
        players=frozen_rows(version, target.season()),
        previous=previous_version(target, rate),  # G4: Grade1's
        august=august_version(target, rate, version),  # G27
        rule_set=rule_set.name,
        rule_words=rule_set.words,
    )
