# Two commands do all the set-up on a fresh machine: `make build` and `make test`.
# The venv is reinstalled only when pyproject.toml, setup.py or a compiled engine's source
# (engine/dotd/game.py and the Grave Feast modules below; see setup.py TWINS) changes; a stamp records it.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GF_ENGINE := $(addprefix engine/gf/,constants.py board.py rare_moves.py moves.py windows.py turn.py \
	rares.py effects.py narration.py observation.py summary.py state.py game.py)

.PHONY: build test lint bench clean

$(STAMP): pyproject.toml setup.py engine/dotd/game.py $(GF_ENGINE)
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
