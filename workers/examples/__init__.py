"""Example user bots (see docs/bots.md)."""
