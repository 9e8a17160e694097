# Every target bootstraps .venv (python3 -m venv) and installs the project into it when missing
# or when pyproject.toml changed (with the test and lint tools); make run and make sync use
# .venv-run instead, the bot with its runtime dependencies only. Nothing else has to be installed.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# make run / make sync: the bot installed with its runtime dependencies only (pip install .)
RUN_VENV  := .venv-run
RUN_STAMP := $(RUN_VENV)/.installed
SOURCES   := $(shell find bot engines render -type f \( -name '*.py' -o -name '*.sql' -o -name '*.ttf' \) 2>/dev/null)
SEED   ?= 1
OUT    ?= demo-out
# what ruff checks and formats; mypy's paths and strictness are set in pyproject.toml
LINT_PATHS := engines render bot benchmarks tests

.PHONY: demo test test-slow lint run sync bench profile playthroughs clean help

help:
	@echo "make demo   play offline games with AI seats, writing board images to $(OUT)/"
	@echo "make test   run the test suite (engines, properties, render, store, end-to-end)"
	@echo "make test-slow  the long runs left out of make test (the 10,000-interaction fuzz, longest recaps)"
	@echo "make lint   ruff check, ruff format --check and mypy --strict on $(LINT_PATHS)"
	@echo "make run    start the Discord bot (needs DISCORD_TOKEN in .env; see README)"
	@echo "make sync   register the slash commands with Discord"
	@echo "make bench  print every speed, size, start-up and load figure in one table (ARGS=--quick: under a minute)"
	@echo "make playthroughs  write the golden playthroughs anew (tests/golden/playthroughs), after a meant change of rules"
	@echo "make profile GAME=ra [PLAYERS=3] [SECONDS=5]  the engine's hot spots in random playouts (cProfile)"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,lint]'
	@touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/bazaar demo all --seed $(SEED) --out $(OUT)

test: $(STAMP)
	$(PY) -m pytest -n auto

test-slow: $(STAMP)
	$(PY) -m pytest -n auto -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINT_PATHS)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)
	$(VENV)/bin/mypy

$(RUN_STAMP): pyproject.toml $(SOURCES)
	$(PYTHON) -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/pip install --quiet --disable-pip-version-check .
	@touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(RUN_VENV)/bin/bazaar run

sync: $(RUN_STAMP)
	$(RUN_VENV)/bin/bazaar sync

bench: $(STAMP)
	$(PY) -m benchmarks $(ARGS)

playthroughs: $(STAMP)
	$(PY) -m bot.offline.playthrough --write tests/golden/playthroughs

GAME    ?=
PLAYERS ?= 0
SECONDS ?= 5
profile: $(STAMP)
	@test -n "$(GAME)" || { echo "make profile: name the game, e.g. make profile GAME=ra"; exit 2; }
	$(PY) -m benchmarks.profile $(GAME) --players $(PLAYERS) --seconds $(SECONDS)

clean:
	rm -rf $(VENV) $(RUN_VENV) $(OUT) build *.egg-info .pytest_cache .hypothesis .mypy_cache .ruff_cache
