from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "ecfgrading.registry"
    label = "registry"
    verbose_name = "Registry"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every app's admin module is loaded by now: the admin's own ready() ran first
        # (settings.INSTALLED_APPS) and loaded them all.
        from django.contrib import admin

        from ecfgrading.registry.admin.base import atomic_everywhere

        atomic_everywhere(admin.site)
