// Package fastpath is the functional model of mpa_rx, the flow-through
// receiver in rtl/: which frames the hardware handles by itself, what it
// places and reports, and which it hands to software with what reason.
// System runs it with the software slow path (docs/design.md sections 2
// and 7.2).
package fastpath
