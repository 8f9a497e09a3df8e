"""Golden replay files: seeded bot games that must verify forever (docs/replay-format.md)."""
