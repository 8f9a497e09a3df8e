"""Replay files: write, read, verify (audit) and render any step."""
