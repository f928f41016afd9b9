package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

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
	fmt.Fprintf(tw, "VECTOR\tFRAMES\tFPDUS\tERRORS\tHW FRAMES\tTO SW\tCYCLES\tBEATS\tTIME\tRESULT\n")
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
		hw, sw, cycles, beats := "-", "-", "-", "-"
		err = v.Check()
		if err == nil && *engine == "rtl" {
			var rep rxtop.Report
			rep, err = rxtop.Run(v, *width)
			hw, sw = fmt.Sprint(rep.Placed), fmt.Sprint(rep.Exceptions)
			cycles, beats = fmt.Sprint(rep.Cycles), fmt.Sprint(rep.Beats)
		}
		if err != nil {
			result = "FAIL: " + err.Error()
			failed++
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", v.Setup.Name, len(v.Frames), fpdus, errs, hw, sw, cycles, beats,
			time.Since(start).Round(time.Millisecond), result)
	}
	tw.Flush()
	if *engine == "rtl" {
		fmt.Fprintf(stdout, "\nengine rtl: mpa_rx at DATA_WIDTH %d (Verilator), one frame at a time, beside golden/fastpath and the\n"+
			"software slow path; HW FRAMES are frames the hardware takes, TO SW frames it hands to software.\n"+
			"Each vector passes when the golden receiver reproduces expected.jsonl, the RTL decides every frame as\n"+
			"the model does, and hardware and software together report what the golden receiver does.\n", *width)
	}
	fmt.Fprintf(stdout, "\n%d passed, %d failed\n", len(dirs)-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
