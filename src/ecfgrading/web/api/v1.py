"""/api/v1: being built."""

from ninja import NinjaAPI

api = NinjaAPI(title="ecfgrading API", version="1", urls_namespace="api-v1")
