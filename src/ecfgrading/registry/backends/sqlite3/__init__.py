"""Django's SQLite backend, its placeholders converted once per statement text (base)."""
