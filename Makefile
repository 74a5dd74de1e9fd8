# The two commands a newcomer needs: `make build` (or `go run ./cmd/build`)
# and `bash .ci/run` (every test; make check on a machine set up for it).
GO ?= go

# The steps of `make check` (and the three parts of `make test`) run side
# by side: each step's lines come prefixed with its name, and each ends
# with a line giving its status, wall and CPU time (.ci/phase). Make goes
# on past a failing step, so one run shows every failure, and exits
# non-zero if any step failed.
MAKEFLAGS += --jobs=6 --keep-going
PHASE = bash .ci/phase

.PHONY: build test test-steps test-pkgs test-import test-browser check check-steps vet fmt workflows \
	determinism reproduce race setup-python setup-npm fuzz bench scale synth screenshots

# The first build compiles the generator, its modules and the parts of
# the standard library it uses: minutes on a cold cache, in which `go run`
# says nothing. .ci/compiling says what Go compiles as it goes, then the
# build runs (its own progress lines follow).
build:
	@bash .ci/compiling ./cmd/build
	$(GO) run ./cmd/build

# make check and make test end with every test counted once, in the
# line "N passed, N failed, N skipped", then each group of skipped tests,
# why, and the command that runs it (internal/gotest, from the results of
# go test -json that the test steps keep in RESULTS). .ci/run gives
# RESULTS and writes the summary itself, as its last lines; in a folder of
# RESULTS every step exits 0 (.ci/phase, PHASE_KEEP_GOING) and the summary
# has the status.
GOTEST = $(GO) run ./internal/gotest/cmd/gotest
ifneq ($(filter check test,$(MAKECMDGOALS)),)
ifndef RESULTS
RESULTS := $(shell mktemp -d)
endif
endif
ifdef RESULTS
export PHASES_FILE := $(RESULTS)/steps
export PHASE_KEEP_GOING := 1
endif
# $(call gotest,STEP): go test -json's runner for a step (-v: every line).
gotest = $(GOTEST) run -step $(1) $(if $(RESULTS),-o $(RESULTS)/$(1).jsonl)
SUMMARY = $(GO) build -o $(RESULTS)/gotest ./internal/gotest/cmd/gotest && $(RESULTS)/gotest report -steps $(RESULTS)/steps $(RESULTS); \
	s=$$?; rm -rf $(RESULTS); exit $$s

# Every package's tests, in three parts run side by side: the harness
# tests of cmd/import (they run Python, in the venvs of .ci/python.sh), the
# browser tests (-v: they take minutes and print a line per page), and all
# the other packages, the costliest first (TEST_FIRST: go test starts
# packages in the order given, two at a time, so these do not start last
# and run on alone after the rest).
test: test-steps
	@$(SUMMARY)
test-steps: test-pkgs test-import test-browser
TEST_FIRST = ./internal/site ./cmd/build ./internal/score ./internal/stats
test-pkgs:
	@$(PHASE) test $(call gotest,test) $(GO) test -json $(TESTVET) -timeout 20m $$($(GO) list $(TEST_FIRST) ./... | grep -v -e '/internal/browsertest$$' -e '/cmd/import$$')
test-import:
	@$(PHASE) import $(call gotest,import) -v $(GO) test -json $(TESTVET) -timeout 20m ./cmd/import
test-browser:
	@$(PHASE) browser $(call gotest,browser) -v $(GO) test -json $(TESTVET) -timeout 30m ./internal/browsertest

# The race detector on the packages whose code starts goroutines and
# whose tests run it: internal/run (loading runs in parallel),
# internal/flock (the write lock, taken by goroutines in its tests) and
# internal/site, whose builds run every other goroutine of the
# generator: the runs streamed through workers and their pages stored
# in the cache (internal/site), rendering in parallel
# (internal/site/render), the pairs' standard errors (internal/score)
# and the rank sets (internal/stats), each run by the fixture site's
# build (go test -coverpkg shows every goroutine's body run by
# TestDocListsPhases and TestCachedRebuildLinksPages). internal/board and
# cmd/build start none: their tests run the same code of internal/stats
# and internal/site on the same kind of input, so racing them too only
# compiled and ran it again with -race (the step's tests took 47 CPU-s
# with them, 21 without, compiled packages cached, load 12). -short skips the whole-site builds, which the plain test
# run covers: internal/site builds its fixture site once, with an empty
# cache, and its tests share it (two cached rebuilds of it test the
# write). There four of the fixture's six runs keep three questions
# (raceQuestions in internal/site): the same runs, kinds of page and
# concurrent code on half the pages. Tests that run none of the code's
# goroutines skip there (the plain run has them): those that only read
# that site, and the checks of the Go source itself (-skip: house rules,
# HTML in Go, package docs). An explicit timeout: Go's default of 10
# minutes a package was reached on a busy machine.
# -vet=off: `make vet` runs every analyzer on these packages already.
# -N -l (RACE_GCFLAGS): the race build shares no compiled package with
# the other steps (every package, the standard library's too, is
# compiled again with -race), and most of the step is that compiling;
# without the compiler's optimisations and inlining it compiles in less
# CPU than the tests then lose by running unoptimised. The detector
# still sees every memory access (more of them: no value is kept in a
# register), so it finds the same races.
RACE_PKGS = ./internal/run ./internal/site ./internal/flock
RACE_SKIP = ^(TestHouseRules|TestHTMLInTemplates|TestPackageDocs)$$
RACE_GCFLAGS = all=-N -l -dwarf=false
race:
	@$(PHASE) race $(call gotest,race) $(GO) test -json -race -gcflags='$(RACE_GCFLAGS)' -short -vet=off -skip '$(RACE_SKIP)' -timeout 30m $(RACE_PKGS)

vet:
	@$(PHASE) vet $(GO) vet ./...

fmt:
	@$(PHASE) fmt bash -c 'out=$$(gofmt -l $$(git ls-files "*.go")); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi'

# The GitHub workflows, checked by actionlint 1.7.12: a tool of its own
# module, .ci/actionlint, whose go.mod pins it and every module it is
# built from and whose go.sum holds their hashes (go refuses a download
# that does not match), apart from the generator's go.mod. go run builds
# it (that module's tool) through the Go proxy once and keeps it in Go's
# build cache, so a fresh machine needs nothing else; without the
# compiler's optimisations (ACTIONLINT_GCFLAGS: it reads a few workflow
# files, in milliseconds) and without DWARF, which go tool would not
# leave out. Run in that folder, it checks every
# workflow of the repository (it also runs shellcheck on the scripts when
# that is installed). To move to another version:
#   cd .ci/actionlint && go get -tool github.com/rhysd/actionlint/cmd/actionlint@vX.Y.Z && go mod tidy
ACTIONLINT_GCFLAGS = all=-N -l -dwarf=false
workflows:
	@$(PHASE) workflows $(GO) run -C .ci/actionlint -gcflags='$(ACTIONLINT_GCFLAGS)' -ldflags=-w github.com/rhysd/actionlint/cmd/actionlint

# Two builds under different GOMAXPROCS, TZ, LANG, umask and working
# directory must give identical bytes.
# In make check (RESULTS set) the determinism step keeps its first build
# in RESULTS, and the reproduce step checks that site instead of building
# one of its own: one link of cmd/build and one build of the committed
# site fewer (reproduce 9.6 -> 4.7 CPU-s, determinism 8.4 either way:
# /usr/bin/time, cmd/build's packages compiled, load 10).
ifdef RESULTS
CI_SITE = $(RESULTS)/determinism-site
reproduce: | determinism
endif
determinism:
	@$(PHASE) determinism bash .ci/determinism $(CI_SITE)

# The committed site's numbers recomputed outside Go: its own
# reproduce.py (static/reproduce.py, Python's standard library only) on a
# fresh build of the committed inputs must agree with every number it
# checks (.ci/reproduce).
reproduce:
	@$(PHASE) reproduce bash .ci/reproduce $(CI_SITE)

# Listed in the order they start. The race detector compiles every
# package again (with -race), so it starts at once; the tests and the
# determinism check start when vet has compiled the packages, which run
# beside it they would each compile again. Then the summary.
check: check-steps
	@$(SUMMARY)
check-steps: vet race fmt workflows test-pkgs test-import test-browser determinism reproduce
# And in make check, go test's own vet (a subset of vet's analyzers) is
# off: the vet step has run every analyzer on every package.
ifneq ($(filter check check-steps,$(MAKECMDGOALS)),)
test-pkgs test-import test-browser determinism reproduce: | vet
TESTVET = -vet=off
endif

# The set-up of a fresh machine (bash .ci/run: make check-steps SETUP=1): the
# Python venvs of the harness tests and the npm packages of the browser
# tests, each made beside the steps that do not need it.
ifdef SETUP
test-import: setup-python
test-browser: setup-npm
endif
setup-python:
	@$(PHASE) python bash .ci/python.sh
# Exact versions from .ci/package-lock.json. --ignore-scripts: vnu-jar's
# postinstall would download a Java runtime; the machine's java is used.
setup-npm:
	@$(PHASE) npm npm ci --prefix .ci --ignore-scripts --no-audit --no-fund

# Each fuzz target for FUZZTIME, then the executions of each (.ci/fuzz).
# A target is PACKAGE:FUNC at the parser level (no whole build); add
# yours to FUZZ_TARGETS. FUZZMINIMIZE bounds the minimizing of each new
# input (Go's default of 60 s each left the targets at 0 executions a
# second). Crashers land in the package's testdata/fuzz/ and, committed,
# run as regression tests with every go test.
FUZZTIME ?= 60s
FUZZMINIMIZE ?= 1000x
FUZZ_TARGETS = ./internal/run:FuzzScoredRow ./internal/run:FuzzManifest \
	./internal/content:FuzzBenchmark ./internal/content:FuzzSiteYAML ./internal/content:FuzzMarkdown \
	./internal/importer/lmeval:FuzzLMEvalLine ./internal/importer/lmeval:FuzzLMEvalSamplesFile \
	./internal/importer/inspect:FuzzInspectSample ./internal/importer/inspect:FuzzInspectJSONLog
fuzz:
	GO=$(GO) bash .ci/fuzz $(FUZZTIME) $(FUZZMINIMIZE) $(FUZZ_TARGETS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The scale figures of PERFORMANCE.md: synthetic runs (cmd/synth -n),
# clean, verify and cached builds, and hugo side by side (Debian's hugo;
# up to 400 runs, -hugo-max: it needs more than 24 GB at 1,000).
# Minutes on two cores; run it on a quiet machine.
SCALE ?= 25,50,100,200,400,1000
TRIES ?= 3,3,3,2,1,1
scale:
	$(GO) run ./cmd/scale -n $(SCALE) -tries $(TRIES) -hugo

# Regenerate the committed synthetic demonstration runs.
synth:
	$(GO) run ./cmd/synth -o runs -force

# Full-page PNGs of the main pages at 1280 and 375 px wide, light and
# dark, into screenshots/ (not committed), from a fresh build of the
# committed inputs, and the README's small WebP pictures into
# .github/screenshots/ (committed). Needs Debian's chromium.
screenshots:
	$(GO) run ./internal/browsertest/cmd/screenshots -o screenshots -readme .github/screenshots
