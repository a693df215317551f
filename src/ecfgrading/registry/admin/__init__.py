"""The registry in Django's admin: staff only, read-mostly.

Computed and received data (games, submissions, list entries, stored points, the audit
log) cannot be changed here; published list versions are read-only (G26).
"""

from ecfgrading.registry.admin import audit, events, feedback, lists, office, people

__all__ = ["audit", "events", "feedback", "lists", "office", "people"]
