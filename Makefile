# The two commands a newcomer needs: `make build` (or `go run ./cmd/build`)
# and `make check`.
GO ?= go

.PHONY: build test check vet fmt determinism bench synth screenshots

build:
	$(GO) run ./cmd/build

test:
	$(GO) test ./...

vet:
	$(GO) vet ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# Two builds under different GOMAXPROCS, TZ, LANG, umask and working
# directory must give identical bytes.
determinism:
	bash .ci/determinism

check: vet fmt test determinism

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Regenerate the committed synthetic demonstration runs.
synth:
	$(GO) run ./cmd/synth -o runs

# Full-page PNGs of the main pages at 1280 and 375 px wide, light and
# dark, into screenshots/ (not committed), from a fresh build of the
# committed inputs. Needs Debian's chromium.
screenshots:
	$(GO) run ./internal/browsertest/cmd/screenshots -o screenshots
