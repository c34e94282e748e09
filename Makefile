# The two commands of the README: `make play` and `make test`.
# Each creates the virtual environment it needs (Python >= 3.11).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: play test lint clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

play: $(BIN)/.installed
	$(BIN)/tajmahal play --players 4 --seed 1

test: $(BIN)/.installed
	$(BIN)/python -m pytest
	$(BIN)/ruff check src tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
