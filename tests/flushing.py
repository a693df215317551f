"""Emptying the test database after a module's demo, as tests that build one need."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.core.management import call_command

from ecfgrading.lookups.roles import Role


def flush_database() -> None:
    """Every table emptied, then the role groups the migrations made put back: a flush
    takes them too, and later tests (the back office's) read them."""
    call_command("flush", interactive=False, verbosity=0)
    for role in Role:
        Group.objects.get_or_create(name=role.value)
