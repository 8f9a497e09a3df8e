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

# mutation testing over pyproject's [tool.mutmut] scope: one process, each mutant against the
# tests that execute it (about 1,500 mutants, half an hour here); then the survivors are listed
mutate: $(STAMP)
	rm -rf mutants
	$(BIN)/mutmut run --max-children 1
	$(BIN)/mutmut results

clean:
	rm -rf $(VENV) build *.egg-info mutants
