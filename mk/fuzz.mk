# Differential mutation fuzzing of the receiver RTL against the functional
# model (cosim/rx/fuzz, docs/robustness.md). Included by the top Makefile.
#
#   make fuzz DURATION=10m               run each DATA_WIDTH (64, 128, 256, 512) for DURATION (in parallel),
#                                        then the IP core (TestFuzzTop) at every width as long
#   make fuzz DURATION=10m FUZZ_SEED=n   the same campaign again
#
# The seed is random unless given, and printed first. Failing streams are
# shrunk and written to cosim/rx/fuzz/testdata/<vector>-w<width>-<seed>.pcap
# (+ .json), where `go test ./cosim/rx/fuzz` replays them.

DURATION ?= 10m
FUZZ_FAILURES ?= 10
ifndef FUZZ_SEED
FUZZ_SEED := $(shell od -An -N8 -tu8 /dev/urandom | tr -d ' ')
endif

.PHONY: fuzz
fuzz: $(SIM_LIBS)
	@echo "fuzz: seed $(FUZZ_SEED), $(DURATION) per DATA_WIDTH; reproduce with: make fuzz DURATION=$(DURATION) FUZZ_SEED=$(FUZZ_SEED)"
	$(GO) test -count=1 -timeout 0 -run '^TestFuzz(Top)?$$' -v ./cosim/rx/fuzz \
		-args -frames 0 -duration $(DURATION) -seed $(FUZZ_SEED) -failures $(FUZZ_FAILURES)
