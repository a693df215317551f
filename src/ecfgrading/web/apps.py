from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "ecfgrading.web"
    label = "web"
    verbose_name = "Public site"
