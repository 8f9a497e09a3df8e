# The two commands of the README: `make run` and `make test`. Each sets itself up.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
RUN_STAMP := $(VENV)/.installed-run-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint types unit integration e2e bench mutate clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# `make run` installs only what running needs (the dev tools come with `make test`)
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	test -f $(STAMP) || $(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/cardroom serve --host $(HOST) --port $(PORT)

test: $(STAMP) lint types
	$(BIN)/pytest -n 2 --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check domain service workers replays tests benchmarks
	$(BIN)/lint-imports  # the layers and no import cycle (pyproject.toml, [tool.importlinter])

types: $(STAMP)
	$(BIN)/mypy

# the fast subset: no real Redis, no processes, nothing marked slow (`make test` runs them all)
unit: $(STAMP)
	$(BIN)/pytest -m "not slow and not integration and not e2e"

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run_all

# mutation testing (docs/decisions.md, "Mutation testing"): mutmut over pyproject's
# [tool.mutmut] scope, one module after another (`make mutate MUTATE=domain.lifecycle` runs one),
# one process, each mutant against the tests that execute it; then the survivors are listed.
# Needs a Redis for the store's tests (as make test finds one). Times measured here are in
# docs/decisions.md (about 15 minutes for domain.lifecycle's 961 mutants under load 10).
MUTATE ?= domain.lifecycle domain.clock replays.checks replays.verify replays.fair \
	service.tickets service.api.limits service.store.records service.store.redis
mutate: $(STAMP)
	rm -rf mutants
	for module in $(MUTATE); do $(BIN)/mutmut run --max-children 1 "$$module.*" || exit 1; done
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) build *.egg-info mutants
