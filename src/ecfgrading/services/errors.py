"""The error contract as the services' callers see it: see ``ecfgrading.errors``.

Defined beneath the registry so that the registry's own refusals (codes used up, a
published version changed) are ``ServiceError``s too, with no translation in each
service that may meet them.
"""

from ecfgrading.errors import Conflict, ErrorKind, NotFound, ServiceError, user_input

__all__ = ["Conflict", "ErrorKind", "NotFound", "ServiceError", "user_input"]
