package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/mparx/mparx/vecgen/vector"
)

const runUsage = `usage: mparx run [--engine golden] [DIR]   (DIR defaults to vectors)`

// runVectors replays every vector under a directory through the engine and
// compares the results with the vector's expected results: the project's
// main job. It returns 0 when every vector passes, 1 when one fails, and 2
// on bad usage or unreadable vectors.
func runVectors(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engine := fs.String("engine", "golden", "receiver engine: golden")
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
	if *engine != "golden" {
		fmt.Fprintf(stderr, "mparx: engine %q is not available yet\n", *engine)
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
	fmt.Fprintf(tw, "VECTOR\tFRAMES\tFPDUS\tERRORS\tENGINE\tTIME\tRESULT\n")
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
		if err := v.Check(); err != nil {
			result = "FAIL: " + err.Error()
			failed++
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\t%s\n", v.Setup.Name, len(v.Frames), fpdus, errs, *engine,
			time.Since(start).Round(time.Millisecond), result)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\n%d passed, %d failed\n", len(dirs)-failed, failed)
	if failed > 0 {
		return 1
	}
	return 0
}
