# mparx top-level Makefile. `make run` replays the built-in vectors, `make test`
# runs every test (after `make deps`). The RTL, co-simulation, synthesis and
# vector rules are in mk/.
GO     ?= go
SHELL  := /bin/bash
export CGO_ENABLED := 1

.PHONY: all deps test test-go test-checks test-checks-niced check-make check-pure lint lint-go run bench bench-rtl bench-replay fuzz-short clean

all: test

deps:
	@sh scripts/deps.sh

include mk/common.mk
include mk/sim.mk
include mk/lint.mk
include mk/synth.mk
include mk/levels.mk
include mk/vectors.mk
include mk/fuzz.mk
include mk/formal.mk

# Jobs for the model builds: every core (the variants build side by side).
SIM_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# The variants the main job links: the integration top and the receiver
# (for the lockstep) at RUN_WIDTH.
RUN_WIDTH ?= 64
RUN_VARIANTS := mpa_rx_axi_top_w$(RUN_WIDTH) mpa_rx_w$(RUN_WIDTH)

# make test: the tools first, then, side by side, the formal proofs of
# mk/formal.mk (they need no model) and test-checks: every model in
# parallel, the checks of the makefiles, pure-Go build, RTL lint, then the
# Go tests. test-checks runs at nice TEST_NICE: the proofs take the cores
# first, so that make formal ends as soon as it would on the machine alone,
# and the model build and the tests take whatever the proofs leave idle (a
# core from the moment one proof is left), to the end of the run. The first
# step is a sub-make so that nothing of the next is read or run before the
# tools are installed.
TEST_NICE ?= 19

test: deps
	@$(MAKE) --no-print-directory -j$(SIM_JOBS) formal test-checks-niced

test-checks-niced:
	@nice -n $(TEST_NICE) $(MAKE) --no-print-directory test-checks

# Everything of make test after the tools, one step after another.
test-go: formal test-checks

test-checks: sim-libs
	@$(MAKE) --no-print-directory check-make check-pure lint-rtl example-lint
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags rtl ./cmd/mparx
	$(GO) test -count=1 -timeout 25m -tags rtl $(GO_TEST_FIRST) ./...
	GO=$(GO) FUZZTIME=$(FUZZTIME) sh scripts/fuzz-short.sh

# The longest test packages, started first by `go test` (it runs as many
# packages at a time as there are cores, in the order given) so that the
# short ones fill the other core instead of one long package running alone
# at the end.
GO_TEST_FIRST := ./cosim/rx ./cosim/rx/fuzz ./cmd/mparx ./cosim/guards

# A fresh machine reads the makefiles before `make deps` has installed the
# tools: no rule may take a tool's answer at that time. With verilator absent
# when the makefiles are read, no compile line may come out with an empty
# include path.
check-make:
	@out=$$($(MAKE) --no-print-directory -n -k -B sim-libs VERILATOR=/nonexistent/verilator 2>&1); \
	 n=$$(echo "$$out" | grep -c -E -- '-I/include( |/|$$)'); \
	 c=$$(echo "$$out" | grep -c -- '/include/vltstd'); \
	 if [ "$$c" = 0 ]; then echo "check-make: no compile line in 'make -n -k -B sim-libs' to check"; exit 1; fi; \
	 if [ "$$n" != 0 ]; then echo "check-make: $$n of $$c compile lines of 'make -n -B sim-libs' expand a tool-dependent value when the makefiles are read (empty include path)"; exit 1; fi; \
	 echo "check-make: $$c compile lines, none expands a tool-dependent value when the makefiles are read"

# What a user runs without Verilator builds with CGO_ENABLED=0: mparx (golden
# engine) and vecgen, and the pure-Go replay gives every vector's expected
# results byte for byte.
check-pure:
	CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/...
	CGO_ENABLED=0 $(GO) test -count=1 ./cmd/...

# Bounded mutation runs of every Go fuzz target (make test runs them briefly).
FUZZTIME ?= 5s
fuzz-short:
	GO=$(GO) FUZZTIME=$(FUZZTIME) sh scripts/fuzz-short.sh

lint: lint-go lint-rtl

lint-go: $(SIM_LIBS)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null; find . -name '*.go' -newer go.mod 2>/dev/null) | sort -u); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags rtl ./cmd/mparx

clean: clean-rtl

# Go benchmarks of the golden model, each reported against its baseline.
bench:
	$(GO) test -run '^$$' -bench 'ReceiverAligned' -benchtime 3s ./golden/rx

# The receiver RTL on aligned traffic: input utilisation (beats accepted per
# cycle, frames back to back) and latency at three frame sizes and all
# co-simulated widths.
bench-rtl: deps
	@$(MAKE) --no-print-directory -j$(SIM_JOBS) sim-libs
	$(GO) test -count=1 -run 'TestThroughput' -v ./cosim/rx | grep -E '^\s+throughput_test.go:[0-9]+: (width|top|[0-9])' | sed 's/^.*throughput_test.go:[0-9]*: //'

# The main job: replay every built-in conformance vector and print the report.
# It builds only the receiver variant it runs (the library then holds just
# that one; make test and make sim-libs link all of them again).
run: deps
	@$(MAKE) --no-print-directory -j$(SIM_JOBS) sim-libs SIM_LIB_VARIANTS="$(RUN_VARIANTS)"
	$(GO) run -tags rtl ./cmd/mparx run --engine rtl --width $(RUN_WIDTH) vectors

# mparx replay against tshark on a 1 GB capture generated by vecgen, and
# mparx alone on a 4 GB one: wall time, GB/s, CPU time, peak RSS, in one run
# (scripts/bench-replay.sh; the captures are made once under sim/build/bench).
bench-replay:
	GO=$(GO) sh scripts/bench-replay.sh
