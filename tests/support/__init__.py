"""Shared test helpers: a Redis for tests, unique namespaces, a tiny fake game."""
