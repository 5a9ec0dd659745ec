# The two commands of the README: `make run` and `make test`. Both install what is missing,
# build incrementally and then run. Other targets: build, bench, fuzz, strength, python, clean.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD := build
BUILD_ASAN := build-asan
CMAKE_FLAGS ?=

.PHONY: run test deps build build-asan bench fuzz strength python clean format

deps:
	@scripts/install-deps core

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

$(BUILD_ASAN)/build.ninja: | deps
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTOGUZ_SANITIZE=ON -DTOGUZ_BENCH=OFF $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS)

build-asan: deps $(BUILD_ASAN)/build.ninja
	ninja -C $(BUILD_ASAN) -j $(JOBS) toguz toguz_tests

# Until the web app exists, `make run` starts a terminal game against the computer.
run: build
	$(BUILD)/toguz play --vs engine

# Every test on the Release build, then the unit tests again under ASan + UBSan.
test: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS) -L unit

bench: build
	$(BUILD)/toguz bench
	$(BUILD)/toguz perft 9
	$(BUILD)/bench/toguz_bench

fuzz:
	@scripts/install-deps fuzz
	scripts/fuzz

strength: build
	scripts/strength $(BUILD)/toguz

# The Python module, importable from $(BUILD)/python (docs/python.md).
python: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS) python

format:
	clang-format -i $$(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'fuzz/*.cpp' 'fuzz/*.h')

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) build-fuzz
