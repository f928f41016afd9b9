package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/mparx/mparx/cosim/cyclemodel"
	"github.com/mparx/mparx/cosim/rxlock"
	"github.com/mparx/mparx/cosim/rxtop"
	"github.com/mparx/mparx/vecgen/vector"
)

const runUsage = `usage: mparx run [--engine golden|rtl] [--width 64|128] [DIR]   (DIR defaults to vectors)`

// runVectors replays every vector under a directory through the engine and
// compares the results with the vector's expected results: the project's
// main job. It returns 0 when every vector passes, 1 when one fails, and 2
// on bad usage or unreadable vectors.
func runVectors(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engine := fs.String("engine", "rtl", "golden: the golden receiver against expected.jsonl; rtl: also the RTL (Verilator) beside the hardware model and the software slow path")
	width := fs.Int("width", 64, "DATA_WIDTH of the RTL (64 or 128)")
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
	if *engine != "golden" && *engine != "rtl" {
		fmt.Fprintf(stderr, "mparx: unknown engine %q\n", *engine)
		return 2
	}
	if *engine == "rtl" && !slices.Contains(rxtop.Widths, *width) {
		fmt.Fprintf(stderr, "mparx: no RTL variant of width %d (have %v)\n", *width, rxtop.Widths)
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
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "VECTOR\tFRAMES\tFPDUS\tERRORS\tHW FRAMES\tTO SW\tHOST WRITES\tCYCLES\tUTIL\tTIME\tRESULT\n")
	failed := 0
	for _, d := range dirs {
		v, err := vector.Load(d)
		if err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
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
		err = v.Check()
		if err == nil && *engine == "rtl" {
			var rep rxtop.Report
			rep, err = rxtop.Run(v, *width)
			hw, sw, writes = fmt.Sprint(rep.Placed), fmt.Sprint(rep.Exceptions), fmt.Sprint(rep.Writes)
		}
		if err == nil && *engine == "rtl" {
			var rep cyclemodel.Report
			rep, err = rxlock.Run(v, rxlock.Options{Width: *width, Pattern: cyclemodel.NoStall, Seed: 1})
			cycles = fmt.Sprint(rep.Cycles)
			if rep.Cycles > 0 {
				util = fmt.Sprintf("%.3f", float64(rep.Beats)/float64(rep.Cycles))
			}
		}
		if err != nil {
			result = "FAIL: " + err.Error()
			failed++
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.Setup.Name, len(v.Frames), fpdus, errs, hw, sw, writes,
			cycles, util, time.Since(start).Round(time.Millisecond), result)
	}
	tw.Flush()
	if *engine == "rtl" {
		fmt.Fprintf(stdout, "\nengine rtl: mpa_rx at DATA_WIDTH %d (Verilator). A vector passes when the golden receiver reproduces\n"+
			"expected.jsonl; when the RTL, one frame at a time beside golden/fastpath and the software slow path,\n"+
			"decides, reports and places every frame as the model does (HW FRAMES: frames the hardware takes,\n"+
			"TO SW: frames it hands to software, HOST WRITES: its writes to host memory, every octet checked)\n"+
			"and hardware and software together report what the golden receiver does; and when the RTL and the\n"+
			"cycle model (cosim/cyclemodel, docs/design.md section 5) agree on every output in every cycle with the\n"+
			"frames back to back and random idle cycles (CYCLES; UTIL = input beats accepted per cycle). A\n"+
			"lockstep mismatch names the cycle and signal and leaves an FST waveform.\n", *width)
	}
	fmt.Fprintf(stdout, "\n%d passed, %d failed\n", len(dirs)-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
