# Tianhei: `make run` serves the demo site, `make test` runs the whole suite.
# Both bootstrap a fresh machine: create .venv, install the locked dependencies (every
# file checked against its hash in requirements-dev.txt), then the project, migrate.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# The lock files: hashes of every distribution (`make lock` regenerates both from
# pyproject.toml); the Dockerfile installs requirements.txt, make and CI requirements-dev.txt.
LOCK := requirements-dev.txt
PIP_COMPILE := $(VENV)/bin/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# `make run` without a broker runs tasks in threads of the web process (a draw's request
# returns at once and its page shows the progress); with CELERY_BROKER_URL, in the worker.
RUN_TASKS_IN ?= $(if $(CELERY_BROKER_URL),,thread)
# DEBUG is off unless set (config/settings.py); the targets here are for development.
# An exported DEBUG=0 wins (then SECRET_KEY is required).
DEBUG ?= 1
export DEBUG

.PHONY: bootstrap migrate run test lint format bench lock audit clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(LOCK) pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

bootstrap: $(STAMP)

migrate: bootstrap
	$(PY) manage.py migrate --noinput

run: migrate
	$(PY) manage.py seed_demo --if-empty
	TASKS_RUN_IN=$(RUN_TASKS_IN) $(PY) manage.py runserver $(HOST):$(PORT)

test: bootstrap
	$(PY) manage.py compilemessages --ignore=.venv -v0
	$(PY) -m pytest $(PYTEST_ARGS)

lint: bootstrap
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy engine
	$(VENV)/bin/mypy config league games results
	$(VENV)/bin/lint-imports

format: bootstrap
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: bootstrap
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) bench/validate.py
	$(PY) bench/ratings.py --quick
	$(PY) bench/seating.py

# After a change of pyproject.toml's dependencies: pin and hash them again.
lock: bootstrap
	$(PIP_COMPILE) -o requirements.txt pyproject.toml
	$(PIP_COMPILE) --extra dev -o requirements-dev.txt pyproject.toml

# Known vulnerabilities in the locked dependencies (needs the network; .ci/run skips it
# with a notice when there is none).
audit: bootstrap
	$(VENV)/bin/pip-audit --progress-spinner off --disable-pip --require-hashes \
		-r requirements.txt -r requirements-dev.txt

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .mypy_cache .ruff_cache .pytest_cache
