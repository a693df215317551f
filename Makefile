# Task runner: every target works from a fresh clone.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install lint typecheck pytest pytest-postgres test bench demo docs clean

# The PostgreSQL pass of the suite runs on the server at this URL when one answers, else
# on a throwaway server made from the installed PostgreSQL programs and removed after.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
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
	$(BIN)/pytest $(PYTEST_ARGS)

# Database tests again on PostgreSQL (pure engine, format and matching tests, and the throwaway
# server's own, need no second pass).
pytest-postgres: $(STAMP)
	$(BIN)/python scripts/throwaway_postgres.py $(TEST_DATABASE_URL) -- \
		$(BIN)/pytest --ignore=tests/engine --ignore=tests/formats --ignore=tests/matching \
		--ignore=tests/test_throwaway_postgres.py $(PYTEST_ARGS)

test: lint typecheck pytest pytest-postgres

bench: $(STAMP)
	$(BIN)/python bench/engine.py

docs: $(STAMP)
	$(BIN)/python scripts/cli_reference.py docs/cli.md

# The demo federation on SQLite under var/demo/, rebuilt from scratch each time.
DEMO_HOME ?= var/demo
demo: $(STAMP)
	ECFGRADING_HOME=$(DEMO_HOME) $(BIN)/ecfgrading demo --fresh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
