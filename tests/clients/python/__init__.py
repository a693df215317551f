"""Replicas of the Python clients' request and parsing code (see each module's header)."""
