# The two commands a newcomer needs: `make build` (or `go run ./cmd/build`)
# and `make check`.
GO ?= go

.PHONY: build test check vet fmt workflows determinism race fuzz bench scale synth screenshots

build:
	$(GO) run ./cmd/build

# -v for the browser tests: they take minutes and print a line per page.
test:
	$(GO) test -timeout 20m $$($(GO) list ./... | grep -v /internal/browsertest)
	$(GO) test -v -timeout 30m ./internal/browsertest

# The race detector on the packages that run goroutines (loading runs,
# scoring and rendering in parallel, the write lock); -short skips the
# whole-site builds, which the plain test run covers. An explicit timeout:
# Go's default of 10 minutes a package was reached on a busy machine.
RACE_PKGS = ./internal/run ./internal/board ./internal/site ./internal/flock ./cmd/build
race:
	$(GO) test -race -short -timeout 30m $(RACE_PKGS)

vet:
	$(GO) vet ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The GitHub workflows, checked by actionlint: built from its module
# through the Go proxy at this version, so a fresh machine needs nothing
# else (it also runs shellcheck on the scripts when that is installed).
ACTIONLINT = github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
workflows:
	$(GO) run $(ACTIONLINT) $(wildcard .github/workflows/*.yml)

# Two builds under different GOMAXPROCS, TZ, LANG, umask and working
# directory must give identical bytes.
determinism:
	bash .ci/determinism

check: vet fmt workflows test race determinism

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

# The scale figures of BENCHMARKS.md: synthetic runs (cmd/synth -n),
# clean, verify and cached builds, and hugo side by side (Debian's hugo).
# Minutes on two cores; run it on a quiet machine.
SCALE ?= 25,50,100,200,400,1000
TRIES ?= 3,3,3,2,1,1
scale:
	$(GO) run ./cmd/scale -n $(SCALE) -tries $(TRIES) -hugo

# Regenerate the committed synthetic demonstration runs.
synth:
	$(GO) run ./cmd/synth -o runs

# Full-page PNGs of the main pages at 1280 and 375 px wide, light and
# dark, into screenshots/ (not committed), from a fresh build of the
# committed inputs, and the README's small WebP pictures into
# .github/screenshots/ (committed). Needs Debian's chromium.
screenshots:
	$(GO) run ./internal/browsertest/cmd/screenshots -o screenshots -readme .github/screenshots
