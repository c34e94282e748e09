# The two commands of the README: `make play` and `make test`.
# Each creates the virtual environment it needs (Python >= 3.11).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test lint clean bwrap

# The install compiles the engine's hot modules with mypyc (setup.py): it is
# redone when they change.
COMPILED_SOURCES := setup.py src/tajmahal/_engine.py \
	$(shell sed -n '/^COMPILED: Final = (/,/^)/s/^ *"\(.*\)",*$$/src\/tajmahal\/\1.py/p' src/tajmahal/_engine.py | tr . / | sed 's,/py$$,.py,')

$(BIN)/.installed: pyproject.toml $(COMPILED_SOURCES)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# The example bots in three languages and the built-in greedy bot (node is optional:
# without it the built-in random bot takes the Node.js bot's seat).
NODE_BOT := $(if $(shell command -v node 2>/dev/null),bots/random_bot.js,random)

play: $(BIN)/.installed
	@test "$(NODE_BOT)" != random || echo "node not found: the built-in random bot plays seat 2"
	$(BIN)/tajmahal match bots/random_bot.py bots/greedy_bot.py $(NODE_BOT) greedy \
		--seed 1 --record runs/play.jsonl

# The sandbox runs each bot under bubblewrap (docs/cli.md, Trust model): installed
# with apt-get where it is missing (sudo when not root); without it the sandbox's
# tests are skipped.
bwrap:
	@command -v bwrap >/dev/null || ! command -v apt-get >/dev/null || { \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq bubblewrap; } \
		|| echo "bubblewrap could not be installed: bots will not be sandboxed"

# The suite runs on the compiled engine, then again on the pure-Python one.
test: $(BIN)/.installed bwrap
	$(BIN)/python -m pytest
	TAJMAHAL_PURE=1 $(BIN)/python -m pytest -m "not differential"
	$(BIN)/ruff check src tests bots protocol benchmarks examples setup.py
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info src/*__mypyc*.so src/tajmahal/_compiled.json
	find src -name '*.so' -delete .pytest_cache .mypy_cache .ruff_cache .hypothesis
