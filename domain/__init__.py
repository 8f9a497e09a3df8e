"""Pure rules of cardroom's games: cards, the auditable shuffle, and one decider per game.

Nothing here touches Redis, Flask, the clock or any randomness but the recorded seed.
"""
