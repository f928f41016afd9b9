// Command vecgen generates the mparx MPA/DDP conformance vectors.
//
//	vecgen list
//	vecgen gen [--scenario NAME[,NAME...]] [--seed N] [--scale N] [-o DIR] [--prune]
//	vecgen coverage [-o FILE]
//
// list prints every scenario with a one-line summary. gen writes one
// directory per scenario under DIR (default "vectors"): frames.pcap,
// setup.json, expected.jsonl and buffers.bin (see vectors/README.md); the
// expected results come from the golden receiver. The same seed and scale
// give byte-identical files. --scale N multiplies the traffic of the
// scenarios that have bulk traffic (for soak sets that are not committed).
// --prune removes vector directories of scenarios that no longer exist.
// coverage writes the RFC 5044 coverage map (vectors/COVERAGE.md).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mparx/mparx/vecgen"
)

const usage = `usage:
  vecgen list
  vecgen gen [--scenario NAME[,NAME...]] [--seed N] [--scale N] [-o DIR] [--prune]
  vecgen coverage [-o FILE]
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "list":
		return list(stdout)
	case "gen":
		return gen(args[1:], stderr)
	case "coverage":
		return coverage(args[1:], stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "vecgen: unknown command %q\n%s", args[0], usage)
	return 2
}

func list(w io.Writer) int {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range vecgen.Scenarios() {
		fmt.Fprintf(tw, "%s\t%s\n", s.Name, s.Summary)
	}
	tw.Flush()
	return 0
}

func gen(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	names := fs.String("scenario", "all", "comma-separated scenario names, or all")
	seed := fs.Uint64("seed", vecgen.DefaultSeed, "random seed")
	scale := fs.Int("scale", 1, "traffic multiplier for bulk scenarios (1 for the committed set)")
	out := fs.String("o", "vectors", "output directory (one subdirectory per vector)")
	prune := fs.Bool("prune", false, "remove vector directories of scenarios that no longer exist")
	quiet := fs.Bool("q", false, "no progress output")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 || *scale < 1 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	scs, err := vecgen.Select(*names)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }
	if *quiet {
		logf = nil
	}
	o := vecgen.Options{Seed: *seed, Scale: *scale}
	if logf != nil {
		o.Progress = func(n int) { fmt.Fprintf(stderr, "  ... %d frames\n", n) }
	}
	start := time.Now()
	if err := vecgen.WriteAll(*out, scs, o, logf); err != nil {
		fmt.Fprintln(stderr, "vecgen:", err)
		return 1
	}
	if *prune {
		gone, err := vecgen.RemoveStale(*out)
		if err != nil {
			fmt.Fprintln(stderr, "vecgen:", err)
			return 1
		}
		if len(gone) > 0 && logf != nil {
			logf("removed stale vectors: %s", strings.Join(gone, ", "))
		}
	}
	if logf != nil {
		logf("wrote %d vectors to %s in %v", len(scs), *out, time.Since(start).Round(time.Millisecond))
	}
	return 0
}

func coverage(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("coverage", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", filepath.Join("vectors", vecgen.CoverageFile), "output file")
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		return 2
	}
	md, err := vecgen.CoverageMarkdown()
	if err != nil {
		fmt.Fprintln(stderr, "vecgen:", err)
		return 1
	}
	if err := os.WriteFile(*out, md, 0o644); err != nil {
		fmt.Fprintln(stderr, "vecgen:", err)
		return 1
	}
	return 0
}
