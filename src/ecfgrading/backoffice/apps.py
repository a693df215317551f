from django.apps import AppConfig


class BackofficeConfig(AppConfig):
    name = "ecfgrading.backoffice"
    label = "backoffice"
    verbose_name = "Back office"
