from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "ecfgrading.registry"
    label = "registry"
    verbose_name = "Registry"
    default_auto_field = "django.db.models.BigAutoField"
