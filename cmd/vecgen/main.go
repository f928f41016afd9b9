// Command vecgen generates the mparx MPA/DDP conformance vectors.
//
//	vecgen list
//	vecgen gen [--scenario NAME[,NAME...]] [--seed N] [--scale N] [-o DIR] [--prune]
//	vecgen pcap [--scenario NAME] [--seed N] [--scale N] --size SIZE -o FILE
//	vecgen coverage [-o FILE]
//
// list prints every scenario with a one-line summary. gen writes one
// directory per scenario under DIR (default "vectors"): frames.pcap,
// setup.json, expected.jsonl and buffers.bin (see vectors/README.md); the
// expected results come from the golden receiver. The same seed and scale
// give byte-identical files. --scale N multiplies the traffic of the
// scenarios that have bulk traffic (for soak sets that are not committed).
// --prune removes vector directories of scenarios that no longer exist.
// pcap writes one capture of at least SIZE octets (1G, 512M, or a number)
// of a scenario's traffic, round after round with new connections, as it
// is generated: no expected results, and memory bounded by one round (a
// capture to replay or to measure with; `make bench-replay`).
// coverage writes the RFC 5044 coverage map (vectors/COVERAGE.md).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mparx/mparx/vecgen"
)

const usage = `usage:
  vecgen list
  vecgen gen [--scenario NAME[,NAME...]] [--seed N] [--scale N] [-o DIR] [--prune]
  vecgen pcap [--scenario NAME] [--seed N] [--scale N] --size SIZE -o FILE
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
	case "pcap":
		return pcap(args[1:], stderr)
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

func pcap(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("pcap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("scenario", "aligned", "the scenario whose traffic is repeated")
	seed := fs.Uint64("seed", vecgen.DefaultSeed, "random seed of the first round")
	scale := fs.Int("scale", 64, "traffic multiplier of each round")
	size := fs.String("size", "", "octets to write at least: a number, or with a K, M or G suffix (powers of 1000)")
	out := fs.String("o", "", "output file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	n, err := parseSize(*size)
	if fs.NArg() != 0 || *scale < 1 || *out == "" || err != nil {
		if err != nil {
			fmt.Fprintln(stderr, "vecgen:", err)
		}
		fmt.Fprint(stderr, usage)
		return 2
	}
	s, ok := vecgen.Lookup(*name)
	if !ok {
		fmt.Fprintf(stderr, "vecgen: no scenario %q (see `vecgen list`)\n", *name)
		return 2
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(stderr, "vecgen:", err)
		return 1
	}
	start := time.Now()
	frames, octets, err := vecgen.WritePcapSize(f, s, vecgen.Options{Seed: *seed, Scale: *scale}, n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(stderr, "vecgen:", err)
		return 1
	}
	fmt.Fprintf(stderr, "wrote %s: %d frames, %d octets of %s traffic in %v\n", *out, frames, octets, s.Name, time.Since(start).Round(time.Millisecond))
	return 0
}

// parseSize parses "1G", "512M", "64K" (powers of 1000) or a number.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1e9, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1e6, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1e3, strings.TrimSuffix(s, "K")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("size %q: want a positive number with an optional K, M or G", s)
	}
	return n * mult, nil
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
