// Command lutdepth reads a Yosys JSON netlist (write_json after
// `synth_xilinx -flatten`) and prints its longest register-to-register (or
// port) path in LUT levels, the carry cells on it and the path itself, by
// the method of docs/synth.md: a LUT, INV or asynchronous LUT RAM / SRL
// read counts one level, CARRY4 and MUXF7/MUXF8 count zero but pass the
// path, flip-flops, block RAMs and DSPs cut it.
//
// Usage:
//
//	lutdepth [-top NAME] [-worst N] [-json OUT.json] [-ltp 'LUT* CARRY4'] NETLIST.json
//
// -json also writes the result (counts, levels by class, the path and the
// worst endpoints) for scripts; -ltp replaces the method by an emulation of
// Yosys `ltp -noff` over the named cell types, to cross-check the walk.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/mparx/mparx/cmd/internal/lutdepth"
)

func main() {
	top := flag.String("top", "", "module to analyse (default: the netlist's top)")
	worst := flag.Int("worst", 8, "worst endpoint groups to list")
	jsonOut := flag.String("json", "", "also write the result as JSON to this file")
	ltp := flag.String("ltp", "", "emulate Yosys `ltp -noff` over these cell type patterns (space separated) instead")
	quiet := flag.Bool("q", false, "print only the one-line summary")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: lutdepth [flags] NETLIST.json")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *top, *worst, *jsonOut, strings.Fields(*ltp), *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "lutdepth:", err)
		os.Exit(1)
	}
}

func run(path, top string, worst int, jsonOut string, ltp []string, quiet bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := lutdepth.Read(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return err
	}
	res, err := lutdepth.Analyze(n, lutdepth.Options{Top: top, Worst: worst, LTP: ltp})
	if err != nil {
		return err
	}
	if jsonOut != "" {
		b, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if quiet {
		fmt.Printf("%s: %d LUT levels (%s), %d carry, %d MUXF on the path; %d LUT, %d FF\n",
			res.Top, res.Levels, res.Path.Class, res.Path.Carry, res.Path.MuxF, res.Counts.LUT, res.Counts.FF)
		return nil
	}
	return lutdepth.WriteText(os.Stdout, res)
}
