# scorekeeper build infrastructure.
# `make test` / `make run` work on a fresh Debian 12 machine as root: they install the
# Debian packages they need (only when something is missing) and the venv.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

# System libraries WeasyPrint loads via cffi, plus fonts so PDFs have an embeddable font.
DEB_RUN := libglib2.0-0 libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 \
	libfontconfig1 fontconfig fonts-dejavu-core
# Extra for the test suite: Chromium for Playwright, pdftoppm for PDF -> PNG, a PostgreSQL server.
DEB_TEST := $(DEB_RUN) chromium poppler-utils postgresql

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# apt-get only runs when a package (or the chromium binary) is missing.
define apt_ensure
	@if ! dpkg -s $(1) >/dev/null 2>&1 $(2); then \
		echo "Installing Debian packages: $(1)"; \
		export DEBIAN_FRONTEND=noninteractive; \
		$(SUDO) apt-get update && \
		$(SUDO) apt-get install -y --no-install-recommends $(1); \
	fi
endef

.PHONY: all deps deps-run deps-test .venv run serve test lint clean

all: test

deps: deps-test

deps-run:
	$(call apt_ensure,$(DEB_RUN))

deps-test:
	$(call apt_ensure,$(DEB_TEST),|| ! command -v chromium >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1)

.venv: $(STAMP)

$(STAMP): pyproject.toml
	[ -x $(VENV)/bin/python ] || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --upgrade pip
	$(VENV)/bin/python -m pip install -e '.[test]'
	touch $@

run: deps-run .venv
	$(VENV)/bin/flask --app scorekeeper db upgrade
	$(VENV)/bin/flask --app scorekeeper address --port 5000
	$(VENV)/bin/flask --app scorekeeper run --host 0.0.0.0 --port 5000

# Production: several gunicorn workers; the schema is migrated once, before they start.
WORKERS ?= 4
serve: deps-run .venv
	$(VENV)/bin/flask --app scorekeeper db upgrade
	$(VENV)/bin/gunicorn --workers $(WORKERS) --bind 0.0.0.0:8000 --access-logfile - 'scorekeeper:create_app()'

test: deps-test .venv
	$(VENV)/bin/python -m pytest
	$(VENV)/bin/mypy scorekeeper/rules
	$(VENV)/bin/ruff check .
	scripts/with-postgres $(VENV)/bin/python -m pytest tests/web

lint: .venv
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
