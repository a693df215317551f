# Task runner: every target works from a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# What the demo needs to run, and no more: a newcomer's first page comes sooner (issue 25).
RUNTIME := $(VENV)/.runtime

.PHONY: install lint typecheck pytest pytest-postgres test bench demo docs clean

# The PostgreSQL pass of the suite runs on the server at this URL when one answers, else
# on a throwaway server made from the installed PostgreSQL programs and removed after.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
# ...and keeps its shared cache (cached pages, rate-limit counters) in Redis, as several
# app servers would; the SQLite pass keeps it in the database, as one machine does.
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15

$(RUNTIME): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME)

# The tools of the tests, lint and type checks on top of the runtime.
$(STAMP): $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts

typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict src/ecfgrading/engine src/ecfgrading/formats src/ecfgrading/matching

pytest: $(STAMP)
	REDIS_URL= $(BIN)/pytest $(PYTEST_ARGS)

# Database tests again on PostgreSQL (pure engine, format and matching tests, and the throwaway
# server's own, need no second pass).
pytest-postgres: $(STAMP)
	REDIS_URL=$(TEST_REDIS_URL) $(BIN)/python scripts/throwaway_postgres.py $(TEST_DATABASE_URL) -- \
		$(BIN)/pytest --ignore=tests/engine --ignore=tests/formats --ignore=tests/matching \
		--ignore=tests/test_throwaway_postgres.py $(PYTEST_ARGS)

test: lint typecheck pytest pytest-postgres

bench: $(STAMP)
	$(BIN)/python bench/engine.py

docs: $(STAMP)
	$(BIN)/python scripts/cli_reference.py docs/cli.md

# The demo federation on SQLite under var/demo/, rebuilt from scratch each time, then
# served at http://127.0.0.1:8000/ until Ctrl-C (`make demo DEMO_PORT=8001` elsewhere).
DEMO_HOME ?= var/demo
DEMO_HOST ?= 127.0.0.1
DEMO_PORT ?= 8000
demo: $(RUNTIME)
	ECFGRADING_HOME=$(DEMO_HOME) $(BIN)/ecfgrading demo --fresh
	ECFGRADING_HOME=$(DEMO_HOME) $(BIN)/ecfgrading serve --host $(DEMO_HOST) --port $(DEMO_PORT)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
