# Two commands do all the set-up on a fresh machine: `make build` and `make test`.
# The venv is reinstalled only when pyproject.toml, setup.py or a compiled engine's source (the
# list [tool.boneyard] compiled in pyproject.toml; see setup.py) changes; a stamp records it.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
COMPILED := $(shell $(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['tool']['boneyard']['compiled'])")

.PHONY: build test lint typecheck bench clean

$(STAMP): pyproject.toml setup.py $(COMPILED)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

build: $(STAMP)
	$(BIN)/boneyard build

# The suite on up to 2 processes (CI has 2 cores; each process builds the session's baselines once,
# so more would repeat them); `.venv/bin/python -m pytest` alone runs it in one.
test: lint typecheck
	$(BIN)/python -m pytest -n logical --maxprocesses 2

lint: $(STAMP)
	$(BIN)/ruff check .

# mypy names modules after their folders: check the symlink tree where engine/ is boneyard/engine
typecheck: $(STAMP)
	$(BIN)/python -c "import setup; setup.link_tree()"
	cd build/mypyc && ../../$(BIN)/mypy --config-file ../../pyproject.toml --cache-dir ../mypy-cache -p boneyard

bench: $(STAMP)
	$(BIN)/python bench/bench_dotd.py
	$(BIN)/python bench/bench_gf.py
	$(BIN)/python bench/bench_render.py
	$(BIN)/python bench/bench_scale.py speed

clean:
	rm -rf $(VENV) output/*/ .pytest_cache
