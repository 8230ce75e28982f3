# Sheetkeeper: `make run` serves the app on http://127.0.0.1:8000 (and runs its task worker),
# `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# DEBUG is off unless the environment turns it on (docs/configuration.md); the development
# commands turn it on for themselves, unless the environment already says.
export DEBUG ?= on

.PHONY: install run test lint typecheck pytest e2e screenshots bench faults demo migrate clean

install: $(STAMP)

# Reinstall only when the dependency list or the pins change.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo --url http://$(HOST):$(PORT)

# The server and, beside it, the task worker that sends the reset emails and prunes old rows
# (docs/configuration.md, "Tasks"). Ctrl-C reaches both (one process group): the shell then
# waits for the worker to finish the task in hand. The server ending otherwise stops the worker.
run: demo
	$(BIN)/python manage.py db_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT; \
	trap 'wait $$worker; exit 130' INT; \
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .

typecheck: install
	$(BIN)/mypy

# Both cores (pytest-xdist; each worker has its own test database, Redis database and browser:
# docs/testing.md). PYTEST_WORKERS=0 runs in one process; PYTEST_ARGS narrows a run, e.g.
# PYTEST_ARGS="tests/rulesets" or "-m backends" (what the PostgreSQL pass of .ci/run runs).
# At most four workers on a larger machine: each takes a Redis database of its own (tests/environment.py).
PYTEST_WORKERS ?= auto
XDIST := -n $(PYTEST_WORKERS) --maxprocesses 4 --dist worksteal
pytest: install
	$(BIN)/python -m pytest $(XDIST) --ignore=tests/e2e $(PYTEST_ARGS)

# In a real browser: Debian's chromium (apt-get install chromium), never a downloaded one.
e2e: install
	$(BIN)/python -m pytest $(XDIST) tests/e2e $(PYTEST_ARGS)

# Refresh the README's screenshots (the journeys and tests/e2e/test_the_look.py take them).
screenshots: install
	SCREENSHOTS_DIR=docs/screenshots $(BIN)/python -m pytest tests/e2e -k "journey or look"

test: lint typecheck pytest

# Benchmarks measure; they never fail the build (see docs/performance.md).
# benchmarks.http needs wrk, PostgreSQL and Redis; it DROPS and recreates BENCH_DATABASE_URL's
# database. benchmarks.tables (live tables on one machine, about 15 minutes) DROPS and recreates
# its own, sheetkeeper_tables, and uses Redis database 13; with --instances 2 (two uvicorn
# instances behind an nginx and a redis-server of its own, docs/deploy.md "Several hosts") it
# needs nginx (never the system's: its configuration lives in a temporary directory).
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/sheetkeeper_bench
bench: install
	@command -v wrk >/dev/null || { echo "make bench needs wrk: sudo apt-get install wrk (Debian, Ubuntu) or brew install wrk (macOS)" >&2; exit 1; }
	$(BIN)/python -m benchmarks.odds
	$(BIN)/python -m benchmarks.markdown
	$(BIN)/python -m benchmarks.live --clients 20 --rolls 100
	$(BIN)/python -m benchmarks.live --clients 20 --rolls 100 --redis
	$(BIN)/python -m benchmarks.http --database-url $(BENCH_DATABASE_URL)
	$(BIN)/python -m benchmarks.tables --tables 10,25,50,100,150,200,300 --duration 60 --restart 100
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { echo "the two-host run needs nginx: sudo apt-get install nginx" >&2; exit 1; }
	$(BIN)/python -m benchmarks.tables --instances 2 --tables 20,50 --duration 60

# Faults at the table (docs/reliability.md): 50 tables' streams idle 5 minutes, then play while
# Redis stops for 30 s and PostgreSQL restarts; about 10 minutes. It starts a PostgreSQL cluster
# and a redis-server of its own on free loopback ports (never the system's), and fails when a
# roll is lost or a 5xx comes outside an outage. FAULTS_ARGS adds options, e.g.
# FAULTS_ARGS="--tables 5 --idle 20 --play 60 --redis-outage 10" for a quick look.
faults: install
	$(BIN)/python -m benchmarks.faults $(FAULTS_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache build
