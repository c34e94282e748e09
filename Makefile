# The two commands of the README: `make play` and `make test`.
# Each creates the virtual environment it needs (Python >= 3.11): `make play` with
# what playing needs (the package, its few dependencies and the browser game's
# server) on the pure-Python engine, in a minute or two; `make test` compiles the
# engine (minutes) and adds the test tools and every extra's libraries.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play compiled test test-fast docs-check docs-update lint clean bwrap postgresql

# The engine's hot modules, which `make compiled` compiles with mypyc (setup.py):
# redone when they change.
COMPILED_SOURCES := setup.py src/tajmahal/_engine.py \
	$(shell sed -n '/^COMPILED: Final = (/,/^)/s/^ *"\(.*\)",*$$/src\/tajmahal\/\1.py/p' src/tajmahal/_engine.py | tr . / | sed 's,/py$$,.py,')

# The package (editable, the pure-Python engine), its dependencies and the `web`
# extra (the browser game): what `make play` needs.
$(BIN)/.core: pyproject.toml setup.py
	@echo "make: creating $(VENV) with $$($(PYTHON) --version 2>&1)"
	$(PYTHON) -m venv $(VENV)
	@echo "make: installing tajmahal, its dependencies and the browser game's server" \
		"(the pure-Python engine; make compiled builds the faster one)"
	TAJMAHAL_PURE=1 $(BIN)/python -m pip install --quiet -e '.[web]'
	touch $@

# The engine compiled with mypyc (setup.py): about twice as fast as the pure-Python
# one, for the search bots and tournaments (docs/performance.md).  It takes minutes, silent ones: a
# line every 30 s says it is still at work.
$(BIN)/.compiled: $(BIN)/.core $(COMPILED_SOURCES)
	@echo "make: compiling the engine with mypyc (several minutes on two cores)"
	@$(BIN)/python -m pip install --quiet -e '.[web]' & build=$$!; start=$$(date +%s); \
		while kill -0 $$build 2>/dev/null; do sleep 5; \
			elapsed=$$(( $$(date +%s) - start )); \
			[ $$(( elapsed % 30 )) -lt 5 ] && echo "make: still compiling ($${elapsed} s)"; \
		done; wait $$build
	@$(BIN)/tajmahal --version | tail -1
	touch $@

compiled: $(BIN)/.compiled

# Then the `test` extra's requirements alone (the package is not built again).
$(BIN)/.installed: $(BIN)/.compiled pyproject.toml
	@echo "make: installing the test tools and every extra's libraries (about 1 GB)"
	$(BIN)/python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["test"]))' \
		| $(BIN)/python -m pip install --quiet -r /dev/stdin
	touch $@

# The example bots in three languages and the built-in greedy bot (node is optional:
# without it the built-in random bot takes the Node.js bot's seat).
NODE_BOT := $(if $(shell command -v node 2>/dev/null),bots/random_bot.js,random)

play: $(BIN)/.core
	@test "$(NODE_BOT)" != random || echo "node not found: the built-in random bot plays seat 2"
	@echo "make: a game of Taj Mahal between bots in Python and Node.js and the built-in greedy"
	$(BIN)/tajmahal match bots/random_bot.py bots/greedy_bot.py $(NODE_BOT) greedy \
		--seed 1 --record runs/play.jsonl
	@echo ""
	@echo "Next:"
	@echo "  $(BIN)/tajmahal replay runs/play.jsonl                        the game, visit by visit"
	@echo "  $(BIN)/tajmahal replay runs/play.jsonl --html runs/play.html  to watch it in your browser"
	@echo "  $(BIN)/tajmahal play human greedy mcts      play against two bots in your browser"
	@echo "  $(BIN)/tajmahal --help                      the other commands; tajmahal docs: the docs"
	@echo "  make compiled    the compiled engine (minutes): about twice as fast, for search and tournaments"

# The sandbox runs each bot under bubblewrap (docs/cli.md, Trust model): installed
# with apt-get where it is missing (sudo when not root); without it the sandbox's
# tests are skipped.
bwrap:
	@command -v bwrap >/dev/null || ! command -v apt-get >/dev/null || { \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq bubblewrap; } \
		|| echo "bubblewrap could not be installed: bots will not be sandboxed"

# The ladder's tests start a throwaway PostgreSQL cluster (tests/ladder_support.py)
# with Debian's programs: installed with apt-get where they are missing; without
# them those tests are skipped (outside CI).
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! command -v apt-get >/dev/null || { \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql; } \
		|| echo "PostgreSQL could not be installed: the ladder's tests run on SQLite only"

# The suite runs on the compiled engine, then again on the pure-Python one (tests
# marked `once` run in the first pass only); then the linters.
# A line per test file (not just dots) and the slowest tests at the end.
PYTEST := $(BIN)/python -m pytest -o addopts= --durations=10

test: $(BIN)/.installed bwrap postgresql
	@echo "make test: pass 1 of 2, the compiled engine"
	$(PYTEST)
	@echo "make test: pass 2 of 2, the pure-Python engine"
	TAJMAHAL_PURE=1 $(PYTEST) -m "not differential and not once"
	$(MAKE) lint

# One pass, on the compiled engine, without the slowest tests (marked `slow`).
test-fast: $(BIN)/.installed bwrap postgresql
	$(PYTEST) -m "not slow"
	$(MAKE) lint

lint: $(BIN)/.installed
	$(BIN)/ruff check src tests bots protocol benchmarks examples docs setup.py
	$(BIN)/mypy

# Every figure of the docs against the command that prints it (docs/check.py).
docs-check: $(BIN)/.installed
	$(BIN)/python docs/check.py

# Write what the commands print into the figures that drifted (review the diff).
docs-update: $(BIN)/.installed
	$(BIN)/python docs/check.py --update

clean:
	rm -rf $(VENV) build *.egg-info src/tajmahal/_compiled.json
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find src -name '*.so' -delete
