# Two commands for a fresh machine: `make main` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
NLIC_DATA_DIR ?= $(abspath ../shared/data)
export NLIC_DATA_DIR

.PHONY: install install-cuda main test lint nbtest pytest gpu-check reproduce verify datasets finetune bench profile docs lab lock clean
PROFILE ?= cpu

install: $(VENV)/.installed

# uv installs the locked environment, compiling bytecode, in 46 s where pip took 196 s (2-core AMD EPYC, warm caches).
# requirements/excludes.txt names what it leaves out, and why (a 0.7 CPU-s import in every process that reads a notebook).
# It does not read pip's configuration, so pip's find-links (where a CPU build of torch may lie) are passed on.
FIND_LINKS ?= $(PIP_FIND_LINKS)
UV := $(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python $(if $(FIND_LINKS),--find-links $(FIND_LINKS)) -c requirements/cpu.txt \
      --excludes requirements/excludes.txt

$(VENV)/.installed: settings.ini setup.py requirements/cpu.txt requirements/excludes.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -c requirements/cpu.txt uv
	$(UV) torch==2.13.0 -e ".[dev]"
	$(BIN)/uv pip check --python $(BIN)/python
	touch $@

# papermill's `nlic` engine (nbs/00b_progress.ipynb): the cell bar on a terminal, a line per finished cell (with its time)
# in a log, and the kernel's stderr (the study's unit, encoder and training bars) passed through.
main: install
	mkdir -p runs
	$(BIN)/papermill --engine nlic --stderr-file /dev/stderr nbs/05_curriculum.ipynb runs/05_curriculum_ronli.ipynb -p dataset ronli

# The notebooks' kernels fork from one process that has imported torch, transformers, datasets and the library
# (tests/warm_kernel.py; about 4 CPU-s less per kernel, some 30 kernels; tests/test_warm_kernel.py checks them).
# The caches the tests fill (stand-ins, shared seed units) go to a fresh folder, removed after: a run never reads what an
# earlier one or the user's studies left in ~/.cache/nlicompendium, and never writes there (tests/conftest.py).
# The notebook tests and pytest run side by side (make -j2, each target's output printed whole when it ends): one after
# the other, 15-30% of the two cores sat idle (kernel start-ups, subprocess waits, the last tests' tail); side by side
# about 1% (/proc/stat sampled every 2 s), and a fresh-clone CI run on a 2-core Xeon took 12 min 42 s against 13 min 42 s.
test: install
	$(MAKE) lint
	cache=$$(mktemp -d -t nlic-test-cache-XXXXXX); \
	NLIC_TEST_CACHE_DIR=$$cache $(BIN)/python tests/warm_kernel.py run -- $(MAKE) -j2 --output-sync=target nbtest pytest; \
	rc=$$?; \
	rm -rf $$cache; exit $$rc

# ruff's settings are in pyproject.toml (pyflakes and pycodestyle, 150 columns, the nbdev house style allowed)
lint:
	$(BIN)/ruff check nlicompendium

# One thread per notebook worker: two workers with two torch threads each oversubscribe a 2-core machine,
# and the training notebooks then ran 7-10x slower than alone.
# The paper notebooks (05, 10, 12-15) execute once, under papermill, in tests/test_papermill.py, which checks what
# they write; nbdev_test runs every other notebook. `nbdev_test` alone still runs them all.
# nbdev_test hands notebooks out in name order, so the CLI's (90_cli, ~16 s, most of it kernels and locks waiting) came last
# and ran alone at the end; it runs from the start instead, in its own nbdev_test beside the other two workers.
NBTEST_SKIP := ^([_.]|05_|1[02-5]_)
NBTEST_FIRST := 90_cli.ipynb
NBTEST_WORKERS ?= 2
nbtest:
	cache=$${NLIC_TEST_CACHE_DIR:-$$(mktemp -d -t nlic-test-cache-XXXXXX)}; export NLIC_CACHE_DIR=$$cache; \
	OMP_NUM_THREADS=1 $(BIN)/nbdev_test --n_workers 1 --timing --path nbs/$(NBTEST_FIRST) & first=$$!; \
	OMP_NUM_THREADS=1 $(BIN)/nbdev_test --n_workers $(NBTEST_WORKERS) --timing --skip_file_re '$(NBTEST_SKIP)|^$(NBTEST_FIRST)$$'; \
	rest=$$?; wait $$first; first=$$?; test -n "$$NLIC_TEST_CACHE_DIR" || rm -rf $$cache; test $$rest -eq 0 -a $$first -eq 0

# Two pytest workers, one per core; the tests that share a paper-notebook run or a Dask cluster stay on one worker
# (one module or class each, `--dist loadscope`), so each paper notebook still executes once. The 25 slowest tests
# are listed after the run: where the suite's time goes.
pytest:
	$(BIN)/pytest -q -n 2 --dist loadscope --no-loadscope-reorder --durations=25

# Everything a lent GPU should be asked, as one command and one table (benchmarks/gpu_check.py, about 8 min on one H100).
# Without CUDA it exits 2 and names what is missing (torch's CUDA build, the driver, a device): it never passes on a CPU.
# Its CPU form (`GPU_CHECK_ARGS=--smoke`: smoke sizes, the two notebook steps left out) is what `make test` runs, inside
# pytest (tests/test_gpu_check.py). Run `make install` (or `make install-cuda`) first, as its own step.
gpu-check: install
	$(BIN)/python benchmarks/gpu_check.py $(GPU_CHECK_ARGS)

# The CUDA build of the locked torch in place of the CPU one, on a machine with an NVIDIA driver (docs/howto/gpu.md).
# PyPI's torch 2.13.0 Linux wheel is the CUDA 13.0 build (driver 580 or newer). For an older driver, name PyTorch's index
# of a CUDA it supports (nvidia-smi's "CUDA Version"): make install-cuda TORCH_INDEX=https://download.pytorch.org/whl/cu128
TORCH_INDEX ?= https://pypi.org/simple
install-cuda: install
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python --index-url https://pypi.org/simple \
	    --extra-index-url $(TORCH_INDEX) --reinstall-package torch -c requirements/cpu.txt torch==2.13.0
	$(BIN)/python -c "import torch; print('torch', torch.__version__, 'CUDA', torch.version.cuda, \
	    'available', torch.cuda.is_available()); assert torch.version.cuda, 'still a CPU build of torch'"

# Every paper notebook for a profile, into runs/<profile>/, collected into tables/ and figures/ (finished jobs are skipped).
reproduce: install
	$(BIN)/nlic_reproduce --profile $(PROFILE)

# Rerun the RoNLI study into runs/verify/ and compare with the committed tables: exit 1 if any claim's verdict changes.
verify: install
	$(BIN)/nlic_reproduce --profile $(PROFILE) --verify --jobs curriculum-ronli

datasets: install
	$(BIN)/nlic_reproduce --profile $(PROFILE) --jobs datasets

finetune: install
	mkdir -p runs
	$(BIN)/papermill nbs/11_finetune.ipynb runs/11_finetune_ronli.ipynb -p dataset ronli-distant

# Rows print as they finish; about 4 minutes on a 2-core Xeon (AMX) in fp32, under 10 on a 2-core AVX2 machine (benchmarks/README.md).
bench: install
	$(BIN)/python benchmarks/train_throughput.py
	$(BIN)/python benchmarks/frozen_encoding.py --sentences 768

# Where an fp32 training step's time goes (torch.profiler), for benchmarks/README.md.
profile: install
	$(BIN)/python benchmarks/profile_step.py

docs: install
	$(BIN)/python docs/build.py

lab: install
	$(BIN)/jupyter lab nbs

lock:
	$(BIN)/pip freeze --exclude-editable | sed 's/^torch==\(.*\)+cpu$$/torch==\1/' > requirements/cpu.txt

clean:
	rm -rf $(VENV) runs docs/_build docs/_gen _proc
