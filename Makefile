# Two commands do all the set-up on a fresh machine: `make build` and `make test`.
# The venv is reinstalled only when pyproject.toml, setup.py or a compiled engine's source
# (engine/dotd/game.py, interpreter.py, choices.py, turns.py, codes.py, engine/gf/game.py and state.py; see
# setup.py) changes; a stamp records it.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test lint bench clean

$(STAMP): pyproject.toml setup.py engine/dotd/game.py engine/dotd/interpreter.py engine/dotd/choices.py \
		engine/dotd/turns.py engine/dotd/codes.py engine/gf/game.py engine/gf/state.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/boneyard build

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/bench_dotd.py
	$(BIN)/python bench/bench_gf.py
	$(BIN)/python bench/bench_render.py
	$(BIN)/python bench/bench_scale.py speed

clean:
	rm -rf $(VENV) output/*/ .pytest_cache
