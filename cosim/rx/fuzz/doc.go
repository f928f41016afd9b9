// Package fuzz is the differential mutation fuzzer of the receiver: it mutates
// the frames of the committed conformance vectors into hostile and broken
// streams, runs each through rtl/mpa_rx.v beside the functional model
// (cosim/rx) and keeps every failing stream as a regression case in
// testdata/ (docs/robustness.md).
package fuzz
