// Package cosim runs the Verilator models of the RTL under rtl/ from Go,
// through cgo: an instance of a variant (Open), stepped over records of its
// ports (Step), fed by stream sources (AddSource), compared every cycle with
// a Go model (Lockstep). docs/cosim.md describes the build and the tracing.
package cosim
