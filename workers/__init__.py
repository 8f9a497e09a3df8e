"""RQ jobs (bot turns, replay export) and bot strategies."""
