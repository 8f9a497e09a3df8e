"""The contract every game passes unchanged (STYLE house rule 5)."""
