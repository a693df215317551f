"""Database backends: Django's own, where the registry's hot paths need them changed."""
