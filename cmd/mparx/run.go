package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

const runUsage = `usage: mparx run [--engine golden|rtl] [--width 64|128|256|512] [DIR]   (DIR defaults to vectors)`

// rtlResult is what the RTL engine reports of one vector.
type rtlResult struct {
	hw, sw, writes int    // frames the hardware took, frames it handed to software, host writes
	cycles, beats  uint64 // the cycle lockstep: cycles run, input beats accepted
}

// runVectors replays every vector under a directory through the engine and
// compares the results with the vector's expected results: the project's
// main job. Each vector's row is printed as soon as it is done. It returns
// 0 when every vector passes, 1 when one fails, and 2 on bad usage or
// unreadable vectors.
func runVectors(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	defEngine := "golden"
	if rtlWidths != nil {
		defEngine = "rtl"
	}
	engine := fs.String("engine", defEngine, "golden: the golden receiver against expected.jsonl; rtl: also the RTL (Verilator) beside the hardware model and the software slow path")
	width := fs.Int("width", 64, "DATA_WIDTH of the RTL")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir := "vectors"
	switch fs.NArg() {
	case 0:
	case 1:
		dir = fs.Arg(0)
	default:
		fmt.Fprintln(stderr, runUsage)
		return 2
	}
	switch {
	case *engine != "golden" && *engine != "rtl":
		fmt.Fprintf(stderr, "mparx: unknown engine %q\n", *engine)
		return 2
	case *engine == "rtl" && !rtlUsable(*width, stderr):
		return 2
	}
	dirs, err := vector.Dirs(dir)
	if err != nil {
		fmt.Fprintf(stderr, "mparx: %v\n", err)
		return 2
	}
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "mparx: no vectors under %s\n", dir)
		return 2
	}
	vecs := make([]*vector.Vector, len(dirs))
	nameW := len("VECTOR")
	for i, d := range dirs {
		if vecs[i], err = vector.Load(d); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		nameW = max(nameW, len(vecs[i].Setup.Name))
	}
	// Fixed columns rather than a tabwriter, so that each row can be
	// printed as its vector finishes.
	row := func(cols ...any) {
		fmt.Fprintf(stdout, "%-*s  %6v  %5v  %6v  %9v  %5v  %11v  %9v  %5v  %7v  %v\n", append([]any{nameW}, cols...)...)
	}
	row("VECTOR", "FRAMES", "FPDUS", "ERRORS", "HW FRAMES", "TO SW", "HOST WRITES", "CYCLES", "UTIL", "TIME", "RESULT")
	failed, needIPv6 := 0, 0
	for _, v := range vecs {
		fpdus, errs := 0, 0
		for _, r := range v.Expected {
			switch r.Type {
			case "ulpdu":
				fpdus++
			case "error":
				errs++
			}
		}
		start := time.Now()
		result := "pass"
		hw, sw, writes, cycles, util := "-", "-", "-", "-", "-"
		err = replay.Check(v)
		if err == nil && *engine == "rtl" {
			var res rtlResult
			res, err = checkRTL(v, *width)
			hw, sw, writes = fmt.Sprint(res.hw), fmt.Sprint(res.sw), fmt.Sprint(res.writes)
			if res.cycles > 0 {
				cycles = fmt.Sprint(res.cycles)
				util = fmt.Sprintf("%.3f", float64(res.beats)/float64(res.cycles))
			}
		}
		switch {
		case err != nil:
			result = "FAIL: " + err.Error()
			failed++
		case *engine == "rtl" && v.Setup.IPv6() && !rtlIPv6:
			// The RTL took every IPv6 frame as not TCP and software did
			// the rest: it passed, but did not run IPv6 in hardware.
			result = "needs IPv6 RTL"
			needIPv6++
		}
		row(v.Setup.Name, len(v.Frames), fpdus, errs, hw, sw, writes, cycles, util,
			time.Since(start).Round(time.Millisecond), result)
	}
	if *engine == "rtl" {
		fmt.Fprintf(stdout, "\nengine rtl: DATA_WIDTH %d (Verilator). A vector passes when the golden receiver reproduces\n"+
			"expected.jsonl; when the IP core mpa_rx_axi_top (programmed through the driver over AXI4-Lite,\n"+
			"host memory an AXI4 slave model that answers late and out of order), one frame at a time beside\n"+
			"golden/fastpath and the software slow path, decides, reports and places every frame as the model\n"+
			"does (HW FRAMES: frames the hardware takes, TO SW: frames it hands to software, HOST WRITES: its\n"+
			"writes to host memory, every octet checked) and hardware and software together report what the\n"+
			"golden receiver does; and when mpa_rx and the cycle model (golden/cycle, docs/design.md section 5)\n"+
			"agree on every output in every cycle with the frames back to back and random idle cycles (CYCLES;\n"+
			"UTIL = input beats accepted per cycle). A lockstep mismatch names the cycle and signal and leaves\n"+
			"an FST waveform when the model has waveform code (mpa_rx_w64 by default; SIM_TRACE in mk/sim.mk).\n", *width)
	} else {
		fmt.Fprintf(stdout, "\nengine golden: a vector passes when the golden receiver reproduces its expected.jsonl.\n")
	}
	if needIPv6 > 0 {
		fmt.Fprintf(stdout, "\nneeds IPv6 RTL: the vector has IPv6 connections and mpa_rx_parse takes IPv4 only; the golden\n"+
			"receiver reproduces expected.jsonl, and the RTL, taking every IPv6 frame as not TCP (reason 1, to\n"+
			"software), passes the checks above with the models of that receiver; the hardware places none\n"+
			"of their frames.\n")
	}
	fmt.Fprintf(stdout, "\n%d passed, %d need IPv6 RTL, %d failed\n", len(dirs)-failed-needIPv6, needIPv6, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// rtlUsable reports whether the RTL engine runs at width; when it does not,
// it says why on stderr.
func rtlUsable(width int, stderr io.Writer) bool {
	switch {
	case rtlWidths == nil:
		fmt.Fprintln(stderr, errNoRTL)
	case !slices.Contains(rtlWidths, width):
		fmt.Fprintf(stderr, "mparx: no RTL variant of width %d (have %v)\n", width, rtlWidths)
	default:
		return true
	}
	return false
}
