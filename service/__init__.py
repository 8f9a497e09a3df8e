"""Flask app, schemas, Redis event store, auth."""
