// Package rx runs rtl/mpa_rx.v, the whole receiver, in co-simulation: frame
// by frame beside the hardware model with the software slow path (Run,
// RunSystem), and cycle by cycle in lockstep with the cycle model
// (RunLockstep). It is the RTL engine of cmd/mparx; docs/cosim.md says what
// each run checks.
package rx
