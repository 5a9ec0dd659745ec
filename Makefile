# The two commands of the README: `make run` and `make test`. Both install what is missing,
# build incrementally and then run. Other targets: build, bench, fuzz, strength, python, net
# (the evaluation network from nothing), clean.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD := build
BUILD_ASAN := build-asan
CMAKE_FLAGS ?=

.PHONY: run test format-check deps build build-release-tests build-asan bench fuzz strength python clean format web web-e2e web-deps net deb

deps:
	@scripts/install-deps core

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

$(BUILD_ASAN)/build.ninja: | deps
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTOGUZ_SANITIZE=ON -DTOGUZ_BENCH=OFF $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS)

# make test's Release programs (CMakeLists.txt: release_test_programs).
build-release-tests: deps $(BUILD)/build.ninja
	ninja -C $(BUILD) -j $(JOBS) release_test_programs

build-asan: deps $(BUILD_ASAN)/build.ninja
	ninja -C $(BUILD_ASAN) -j $(JOBS) toguz toguz_tests toguz_store_tests swiss_sim

# The web front end (web/, docs/web-protocol.md) with the machine's own Node >= 20: `npm ci` only
# when package-lock.json changed (stamp file), then `npm run build` only when a source changed.
WEB_STAMP := web/node_modules/.npm-ci.stamp
WEB_SRCS := $(shell find web/src -type f 2>/dev/null) web/index.html web/vite.config.ts web/tsconfig.json web/package.json

web-deps:
	@scripts/install-deps web

$(WEB_STAMP): web/package-lock.json | web-deps
	cd web && npm ci --no-audit --no-fund
	touch $@

web/dist/index.html: $(WEB_STAMP) $(WEB_SRCS)
	cd web && npm run build

web: web-deps web/dist/index.html

# The browser tests' build (web/dist-e2e): the same front end with the test hooks switched on
# (vite.config.ts); web/dist, which users get, has none.
web/dist-e2e/index.html: $(WEB_STAMP) $(WEB_SRCS)
	cd web && npm run build:e2e

web-e2e: web-deps web/dist-e2e/index.html

# The server and the front end, then `toguz serve` (it prints the URL to open).
run: build web
	mkdir -p data
	$(BUILD)/toguz serve --db data/toguz.db --static web/dist

# The Debian package (docs/operations.md): $(BUILD)/deb/toguz_<version>_<arch>.deb.
deb: build web
	scripts/make-deb $(BUILD)/toguz web/dist $(BUILD)/deb

# On the Release build every test but the unit tests (the browser tests web.e2e.1 and .2, the
# CLI, the cluster, the `release` label) and, at the same time, the unit tests under ASan (+ UBSan
# on the game's libraries): scripts/run-tests.
test: build-release-tests build-asan web web-e2e
	scripts/run-tests $(BUILD) $(BUILD_ASAN) $(JOBS)

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

# The C++ files that `make format` rewrites and `make format-check` (run by .ci/run) checks.
FORMAT_FILES = $$(git ls-files 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' 'bench/*.cpp' 'bench/*.h' 'fuzz/*.cpp' 'fuzz/*.h' 'python/src/*.cpp' 'python/src/*.h')

format:
	clang-format -i $(FORMAT_FILES)

format-check: deps
	clang-format --dry-run -Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) build-fuzz

# The evaluation network from nothing (docs/nnue.md): self-play with the hand-made evaluation,
# then the trainer (Debian's python3-torch), written to the file the build embeds. NET_GAMES,
# NET_NODES, NET_SEED and NET_EPOCHS size it; `make net` then `make build` ships it. NET_EVAL
# (classic: from nothing) = nnue trains the next net on the shipped one's games. The defaults
# are the shipped net's: `make net` makes src/search/nets/toguz.nnue again bit for bit.
NET_DIR := $(BUILD)/net
NET_EVAL ?= classic
NET_GAMES ?= 3592
NET_NODES ?= 5000
NET_SEED ?= 2026
NET_EPOCHS ?= 10

net: build
	mkdir -p $(NET_DIR)
	$(BUILD)/toguz selfplay --games $(NET_GAMES) --nodes $(NET_NODES) --seed $(NET_SEED) \
	  --eval $(NET_EVAL) --concurrency $(JOBS) --out $(NET_DIR)/selfplay.bin --resume
	/usr/bin/python3 train/nnue.py --data $(NET_DIR)/selfplay.bin --epochs $(NET_EPOCHS) \
	  --seed 1 --out src/search/nets/toguz.nnue --report $(NET_DIR)/train.json
	/usr/bin/python3 train/wdl.py --data $(NET_DIR)/selfplay.bin --report $(NET_DIR)/wdl.json
