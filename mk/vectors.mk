# Conformance vectors (vecgen). `make vectors` regenerates vectors/ and
# vectors/COVERAGE.md from the generator; a test (vecgen TestCommittedVectors)
# fails when the committed files differ from a fresh generation.
# `make gen-vecs` is the same target. Soak sets: `make soak-vecs SCALE=64`
# writes a larger set to $(SOAK_DIR) (not committed).
SCALE     ?= 16
SOAK_DIR  ?= build/soak-vectors

.PHONY: vectors gen-vecs soak-vecs bench-vecgen

vectors:
	$(GO) run ./cmd/vecgen gen -o vectors --prune
	$(GO) run ./cmd/vecgen coverage -o vectors/COVERAGE.md

gen-vecs: vectors

soak-vecs:
	$(GO) run ./cmd/vecgen gen -o $(SOAK_DIR) --scale $(SCALE)

# Generation speed of the aligned scenario in MB of pcap per second.
bench-vecgen:
	$(GO) test -run '^$$' -bench 'BenchmarkGenerate' -benchtime 2s ./vecgen/
