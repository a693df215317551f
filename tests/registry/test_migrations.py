"""The schema: migrations apply, unapply, and match the models."""

import pytest
from django.core.management import call_command
from django.db import connection


@pytest.mark.django_db
def test_the_models_need_no_new_migration() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_the_registry_migrates_down_to_nothing_and_back_up() -> None:
    call_command("migrate", "registry", "zero", verbosity=0)
    assert "registry_player" not in connection.introspection.table_names()

    call_command("migrate", verbosity=0)
    assert "registry_player" in connection.introspection.table_names()
