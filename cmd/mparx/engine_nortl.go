//go:build !rtl

package main

import (
	"fmt"
	"io"

	"github.com/mparx/mparx/vecgen/vector"
)

// This build of mparx is pure Go: the golden engine only. The RTL engine
// (engine_rtl.go) links the Verilator models through cgo and is built with
// the tag rtl once the models exist.

// rtlWidths are the DATA_WIDTHs of the RTL engine: none here.
var rtlWidths []int

// rtlIPv6 reports whether the RTL engine's receiver parses IPv6.
const rtlIPv6 = false

func checkRTL(*vector.Vector, int) (rtlResult, error) {
	return rtlResult{}, fmt.Errorf("%s", errNoRTL)
}

func replayRTL(_ string, _ bool, _ io.Reader, _ int, _ bool, _ captureOpts, _ *progress, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, errNoRTL)
	return 2
}
