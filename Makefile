# tspipe — two entry points, each works alone on a fresh machine:
#
#   make demo   compile examples/*.mlir to PTX (+ cubin, metadata) in out/,
#               print a summary, run and check them where a GPU is usable
#   make test   lit tests (test/) and pytest (test/python)
#
# Both create .venv (python3 -m venv) if missing, install the pinned packages
# of requirements-dev.txt, then build and install the project with
# `pip install --no-build-isolation`. Stamp files keep later runs incremental:
# the packages are reinstalled only when requirements-dev.txt changes, the
# project only when a source file changes (and then scikit-build-core reuses
# its build folder, so only what changed is recompiled).

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON    ?= python3
VENV      ?= .venv
PY        := $(VENV)/bin/python
PIP       := $(PY) -m pip
# Parallel compile jobs (the build peaks well under 1 GB per job).
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
# scikit-build-core's build folder; lit runs in its test/ folder, so the
# project is configured and compiled once for both the package and lit.
BUILD_DIR ?= build/skbuild
DEMO_OUT  ?= out
DEMO_ARGS ?=
PYTEST_ARGS ?= -q
LIT_ARGS  ?= -sv

STAMPS        := $(VENV)/.tspipe-stamps
DEPS_STAMP    := $(STAMPS)/requirements
INSTALL_STAMP := $(BUILD_DIR)/.tspipe-installed

# Everything the compiled package is made from.
PROJECT_SOURCES := $(shell find CMakeLists.txt pyproject.toml cmake include lib \
    tools python test/integration/capi docs/CMakeLists.txt test/CMakeLists.txt test/lit.cfg.py \
    test/lit.site.cfg.py.in -type f -not -path '*/__pycache__/*' \
    -not -name '*.pyc' 2>/dev/null)

# tspipe-opt as installed with the package (falls back to the build tree's).
TSPIPE_OPT ?= $(firstword $(wildcard $(VENV)/bin/tspipe-opt) \
                          $(BUILD_DIR)/bin/tspipe-opt)

# Crosscheck against real TS (nvidia-cutlass-dsl, never a dependency of the
# product): its own venv, pinned in crosscheck/requirements-ts.txt.
TS_VENV   ?= .venv-ts
TS_PY     := $(TS_VENV)/bin/python
TS_STAMP  := $(TS_VENV)/.tspipe-requirements-ts
CROSSCHECK_CONFIGS ?= 2000
CROSSCHECK_KERNELS ?= 400
CROSSCHECK_SEED    ?= 1
CROSSCHECK_ARGS    ?=

.PHONY: help demo test lit pytest install deps clean distclean crosscheck crosscheck-record \
    check-tspipe sanitize

help:
	@echo "make demo    compile examples to PTX in $(DEMO_OUT)/, summarize, run on a GPU if present"
	@echo "make test    lit + pytest"
	@echo "make install (re)build and install the package into $(VENV)"
	@echo "make crosscheck  compare verdicts and PTX with real TS (own venv $(TS_VENV)); writes docs/crosscheck*.md"
	@echo "make sanitize  ASan+UBSan build in $(SAN_BUILD_DIR)/, then lit and pytest on it"
	@echo "make clean   remove $(DEMO_OUT)/ and $(BUILD_DIR)/;  make distclean  also $(VENV)/"

$(PY):
	$(PYTHON) -m venv $(VENV)

$(DEPS_STAMP): requirements-dev.txt | $(PY)
	$(PIP) install --disable-pip-version-check -r requirements-dev.txt
	@mkdir -p $(STAMPS)
	@touch $@

deps: $(DEPS_STAMP)

$(INSTALL_STAMP): $(DEPS_STAMP) $(PROJECT_SOURCES)
	@test -f pyproject.toml || { echo "pyproject.toml is missing"; exit 1; }
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PIP) install \
	    --disable-pip-version-check --no-build-isolation --no-deps \
	    --config-settings=build-dir=$(BUILD_DIR) .
	@test -f $(BUILD_DIR)/test/lit.site.cfg.py || { \
	    echo "$(BUILD_DIR)/test/lit.site.cfg.py was not generated"; exit 1; }
	@touch $@

install: $(INSTALL_STAMP)

demo: $(INSTALL_STAMP)
	$(PY) -m tspipe.demo --examples examples --out $(DEMO_OUT) \
	    --tspipe-opt $(TSPIPE_OPT) $(DEMO_ARGS)

lit: $(INSTALL_STAMP)
	$(VENV)/bin/lit $(LIT_ARGS) $(BUILD_DIR)/test

pytest: $(INSTALL_STAMP)
	TSPIPE_OPT=$(TSPIPE_OPT) $(PY) -m pytest $(PYTEST_ARGS) test/python \
	    test/integration

test: lit pytest

# The same lit tests through the build system's own target.
check-tspipe: $(INSTALL_STAMP)
	$(VENV)/bin/cmake --build $(BUILD_DIR) --target check-tspipe

# AddressSanitizer + UndefinedBehaviorSanitizer (docs/integration.md): tspipe
# built with -DTSPIPE_ENABLE_SANITIZERS=ON in a build folder of its own, then
# lit on it and pytest on its Python package (the uninstrumented interpreter
# loads the instrumented extension with libasan preloaded). UBSan stops at
# the first report (-fno-sanitize-recover). -O1: half the compile time of
# -O3, and the reports keep their stack frames. allow_user_poisoning=0: LLVM's
# BumpPtrAllocator poisons its slabs from inline header code, which is
# instrumented in tspipe's objects, while the prebuilt, uninstrumented LLVM
# code that hands the same memory out never unpoisons it (every test then
# fails with a use-after-poison inside MLIRContext's constructor). Leak checking stays on for lit;
# Python keeps its interned objects and MLIR's global registries to the end,
# so pytest runs with detect_leaks=0.
SAN_BUILD_DIR ?= build/sanitize
SAN_CXX       ?= $(shell command -v g++ || command -v c++)
SAN_LIBASAN    = $(shell $(SAN_CXX) -print-file-name=libasan.so)
# Preloaded after libasan: the interpreter does not link libstdc++, so without
# it ASan finds no real __cxa_throw to forward to and aborts ("CHECK failed:
# asan_interceptors.cpp ... real___cxa_throw") at the first C++ exception the
# extension throws into Python (nanobind turns MLIR errors into exceptions).
SAN_LIBSTDCXX  = $(shell $(SAN_CXX) -print-file-name=libstdc++.so)
SITE_PACKAGES  = $(shell $(PY) -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
sanitize: $(INSTALL_STAMP)
	$(VENV)/bin/cmake -G Ninja -S . -B $(SAN_BUILD_DIR) \
	    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
	    -DCMAKE_C_FLAGS_RELEASE=-O1 -DTSPIPE_ENABLE_SANITIZERS=ON \
	    -DCMAKE_PREFIX_PATH=$(SITE_PACKAGES) \
	    -DPython3_EXECUTABLE=$(abspath $(PY)) \
	    -DTSPIPE_TEST_INSTALL_PREFIX=$(SITE_PACKAGES)
	$(VENV)/bin/cmake --build $(SAN_BUILD_DIR) -j $(JOBS) \
	    --target tspipe-test-depends TSPipePythonModules
	ASAN_OPTIONS=allow_user_poisoning=0 UBSAN_OPTIONS=print_stacktrace=1 \
	    $(VENV)/bin/lit $(LIT_ARGS) $(SAN_BUILD_DIR)/test
	LD_PRELOAD="$(SAN_LIBASAN) $(SAN_LIBSTDCXX)" ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 \
	    UBSAN_OPTIONS=print_stacktrace=1 \
	    PYTHONPATH=$(abspath $(SAN_BUILD_DIR))/python_packages \
	    TSPIPE_OPT=$(abspath $(SAN_BUILD_DIR))/bin/tspipe-opt \
	    TSPIPE_LSP_SERVER=$(abspath $(SAN_BUILD_DIR))/bin/tspipe-lsp-server \
	    $(PY) -m pytest $(PYTEST_ARGS) test/python test/integration

$(TS_PY):
	$(PYTHON) -m venv $(TS_VENV)

$(TS_STAMP): crosscheck/requirements-ts.txt | $(TS_PY)
	$(TS_PY) -m pip install --disable-pip-version-check -r crosscheck/requirements-ts.txt
	@touch $@

# Random configs and kernels through TS and tspipe (docs/crosscheck.md), then
# the per-bracket PTX comparison (docs/crosscheck-ptx.md).
crosscheck: $(INSTALL_STAMP) $(TS_STAMP)
	$(PY) crosscheck/run.py --ts-python $(TS_PY) \
	    --configs $(CROSSCHECK_CONFIGS) --kernels $(CROSSCHECK_KERNELS) \
	    --seed $(CROSSCHECK_SEED) --report docs/crosscheck.md $(CROSSCHECK_ARGS)
	$(PY) crosscheck/ptx_compare.py --ts-python $(TS_PY) --out docs/crosscheck-ptx.md

# The recorded run: 10k configs and 2k kernels (docs/crosscheck-record.md).
crosscheck-record: $(INSTALL_STAMP) $(TS_STAMP)
	nice -n 10 $(PY) crosscheck/run.py --ts-python $(TS_PY) \
	    --configs 10000 --kernels 2000 --seed $(CROSSCHECK_SEED) \
	    --report docs/crosscheck.md --record docs/crosscheck-record.md

clean:
	rm -rf $(DEMO_OUT) $(BUILD_DIR)

distclean: clean
	rm -rf $(VENV)
