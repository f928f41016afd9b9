# mparx top-level Makefile. `make run` replays the built-in vectors, `make test`
# runs every test (after `make deps`). RTL and co-simulation rules are in mk/.
GO     ?= go
SHELL  := /bin/bash
export CGO_ENABLED := 1

.PHONY: all deps test lint lint-go run bench bench-rtl fuzz-short clean

all: test

deps:
	@sh scripts/deps.sh

include mk/rtl.mk
include mk/vectors.mk
include mk/fuzz.mk

test: deps $(SIM_LIBS) lint-rtl
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 25m ./...
	GO=$(GO) FUZZTIME=$(FUZZTIME) sh scripts/fuzz-short.sh

# Bounded mutation runs of every Go fuzz target (make test runs them briefly).
FUZZTIME ?= 5s
fuzz-short:
	GO=$(GO) FUZZTIME=$(FUZZTIME) sh scripts/fuzz-short.sh

lint: lint-go lint-rtl

lint-go: $(SIM_LIBS)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null; find . -name '*.go' -newer go.mod 2>/dev/null) | sort -u); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean: clean-rtl

# Go benchmarks of the golden model, each reported against its baseline.
bench:
	$(GO) test -run '^$$' -bench 'ReceiverAligned' -benchtime 3s ./golden/rx

# The receiver RTL on aligned traffic: input utilisation (beats accepted per
# cycle, frames back to back) and latency at three frame sizes and both
# co-simulated widths.
bench-rtl: deps $(SIM_LIBS)
	$(GO) test -count=1 -run 'TestThroughput' -v ./cosim/rxtop | grep -E '^\s+throughput_test.go:[0-9]+: (width|[0-9])' | sed 's/^.*throughput_test.go:[0-9]*: //'

# The main job: replay every built-in conformance vector and print the report.
run: deps $(SIM_LIBS)
	$(GO) run ./cmd/mparx run --engine rtl vectors
