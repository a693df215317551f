"""The registry's one lock, held by whatever changes who is on record.

It lies here, beneath the services, so that the registry's own admin may take it when
staff edit a player or a club in place (registry.admin): the notes those edits leave
(``IdentityChange``, ``ClubChange``) must be committed in the order of their ids, as
every other identity writer's are (services.changes, services.locks).
"""

from __future__ import annotations

from django.db import connection

# pg_advisory_xact_lock key: "ECFG" in ASCII, the registry's one lock.
REGISTRY_LOCK_KEY = 0x45434647


def take_registry_lock() -> None:
    """Hold the registry lock until the surrounding transaction ends."""
    if not connection.in_atomic_block:
        raise RuntimeError("the registry lock is held by a transaction: call it in atomic()")
    if connection.vendor != "postgresql":
        return  # SQLite: BEGIN IMMEDIATE took the database's single write lock
    with connection.cursor() as cursor:
        # The wait is bounded by lock_timeout, which settings give every connection.
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [REGISTRY_LOCK_KEY])
