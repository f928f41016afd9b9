// Command synthreport prints the table of `make synth` and `make
// synth-fast` (docs/synth.md): per block and data width the xc7 cell
// counts and LUT levels (from lutdepth's results), the HX8K post-route
// fmax of the 64-bit blocks (from nextpnr-ice40's logs), the line rate
// each implies, and the figures of the timing anchors as quoted facts.
//
// Usage:
//
//	synthreport -dir DIR -blocks "mpa_rx_parse ..." -widths "64 128 256 512"
//
// DIR holds, per block B and width W: B_wW.depth.json (lutdepth -json),
// B_wW.yosys.log (the Yosys log: CPU time and peak memory), B_wW.wall
// (wall seconds), optionally B_wW.pnr.txt (a nextpnr-ice40 log) and
// B_wW.fail (why the synthesis did not finish). Missing results print "-".
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	dir := flag.String("dir", "", "directory of the results")
	blocks := flag.String("blocks", "mpa_rx_parse mpa_rx_walk mpa_rx_ddp mpa_rx_place crc32c mpa_rx", "blocks, in table order")
	widths := flag.String("widths", "64 128 256 512", "data widths")
	flag.Parse()
	if *dir == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: synthreport -dir DIR [-blocks LIST] [-widths LIST]")
		os.Exit(2)
	}
	var ws []int
	for _, f := range strings.Fields(*widths) {
		w, err := strconv.Atoi(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "synthreport: bad width", f)
			os.Exit(2)
		}
		ws = append(ws, w)
	}
	rows := collect(*dir, strings.Fields(*blocks), ws)
	if err := write(os.Stdout, rows); err != nil {
		fmt.Fprintln(os.Stderr, "synthreport:", err)
		os.Exit(1)
	}
}

// depthResult is the part of lutdepth's JSON result the table uses.
type depthResult struct {
	Counts struct {
		LUT, FF, Carry, MuxF, LUTRAM, SRL, BRAM, DSP int
		ByType                                       map[string]int `json:"by_type"`
	} `json:"counts"`
	Levels int `json:"levels"`
	Path   struct {
		Class struct{ From, To string } `json:"class"`
		Carry int                       `json:"carry"`
		Start string                    `json:"start"`
		End   string                    `json:"end"`
		Nets  []string                  `json:"nets"`
	} `json:"path"`
	ByClass map[string]int `json:"by_class"`
}

type row struct {
	block string
	width int
	depth *depthResult
	fail  string  // why there is no result
	fmax  float64 // HX8K post-route MHz, 0 when not run
	nofit string  // nextpnr did not place or route
	cpu   float64 // Yosys CPU seconds
	wall  float64
	memMB float64
}

func collect(dir string, blocks []string, widths []int) []row {
	var rows []row
	for _, b := range blocks {
		for _, w := range widths {
			base := filepath.Join(dir, fmt.Sprintf("%s_w%d", b, w))
			r := row{block: b, width: w}
			if data, err := os.ReadFile(base + ".depth.json"); err == nil {
				var d depthResult
				if err := json.Unmarshal(data, &d); err != nil {
					r.fail = "bad " + base + ".depth.json: " + err.Error()
				} else {
					r.depth = &d
				}
			}
			if data, err := os.ReadFile(base + ".fail"); err == nil {
				r.fail = strings.TrimSpace(string(data))
			}
			if r.depth == nil && r.fail == "" {
				continue // not part of this run (a block with no width parameter)
			}
			r.cpu, r.memMB = yosysLog(base + ".yosys.log")
			if data, err := os.ReadFile(base + ".wall"); err == nil {
				r.wall, _ = strconv.ParseFloat(strings.TrimSpace(string(data)), 64)
			}
			r.fmax, r.nofit = pnrLog(base + ".pnr.txt")
			rows = append(rows, r)
		}
	}
	return rows
}

var (
	reYosysEnd = regexp.MustCompile(`CPU: user ([0-9.]+)s system ([0-9.]+)s, MEM: ([0-9.]+) MB peak`)
	reFmax     = regexp.MustCompile(`Max frequency for clock [^:]*: ([0-9.]+) MHz`)
)

// yosysLog reads the CPU seconds and peak memory from the end of a Yosys log.
func yosysLog(path string) (cpu, mem float64) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	// the summary is near the end: read the last 64 KiB
	if st, err := f.Stat(); err == nil && st.Size() > 1<<16 {
		f.Seek(st.Size()-1<<16, io.SeekStart)
	}
	data, _ := io.ReadAll(f)
	m := reYosysEnd.FindAllSubmatch(data, -1)
	if len(m) == 0 {
		return 0, 0
	}
	last := m[len(m)-1]
	u, _ := strconv.ParseFloat(string(last[1]), 64)
	s, _ := strconv.ParseFloat(string(last[2]), 64)
	mem, _ = strconv.ParseFloat(string(last[3]), 64)
	return u + s, mem
}

// pnrLog reads the post-route fmax (the last "Max frequency" line) of a
// nextpnr-ice40 log, or why it failed.
func pnrLog(path string) (fmax float64, nofit string) {
	f, err := os.Open(path)
	if err != nil {
		return 0, ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	failed := false
	var firstErr string
	for sc.Scan() {
		line := sc.Text()
		if m := reFmax.FindStringSubmatch(line); m != nil {
			fmax, _ = strconv.ParseFloat(m[1], 64)
		}
		if strings.HasPrefix(line, "ERROR") && firstErr == "" {
			firstErr = line
		}
		if strings.Contains(line, "nextpnr_failed") {
			failed = true
		}
	}
	if failed {
		if firstErr == "" {
			firstErr = "nextpnr failed"
		}
		return 0, firstErr
	}
	return fmax, ""
}

// Per-level delay on a 7-series part, LUT and routing (TOOLING.md).
const nsPerLevelLo, nsPerLevelHi = 0.4, 0.6

// At this many levels or fewer the estimate is marked: the registers and
// the clock network, which it leaves out, dominate.
const fewLevels = 3

func write(w io.Writer, rows []row) error {
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	p("| block | width | LUT | FF | BRAM18 | LUTRAM+SRL | LUT levels | path class | carry on path | HX8K MHz | HX8K Gb/s | 7-series est. MHz | 7-series est. Gb/s | Yosys wall / CPU s (MB) |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		ys := "-"
		if r.cpu > 0 || r.wall > 0 {
			ys = fmt.Sprintf("%.0f / %.0f (%.0f)", r.wall, r.cpu, r.memMB)
		}
		if r.depth == nil {
			p("| %s | %d | %s | | | | | | | | | | | %s |\n", r.block, r.width, "not run: "+r.fail, ys)
			continue
		}
		d := r.depth
		c := d.Counts
		bram := c.ByType["RAMB18E1"] + 2*c.ByType["RAMB36E1"]
		hx, hxg := "-", "-"
		switch {
		case r.nofit != "":
			hx = "does not fit"
		case r.fmax > 0:
			hx = fmt.Sprintf("%.1f", r.fmax)
			hxg = fmt.Sprintf("%.1f", r.fmax*float64(r.width)/1000)
		}
		est, estg := "-", "-"
		if d.Levels > 0 {
			lo, hi := 1000/(nsPerLevelHi*float64(d.Levels)), 1000/(nsPerLevelLo*float64(d.Levels))
			est = fmt.Sprintf("%.0f-%.0f", lo, hi)
			estg = fmt.Sprintf("%.1f-%.1f", lo*float64(r.width)/1000, hi*float64(r.width)/1000)
			if d.Levels <= fewLevels {
				est += " *"
				estg += " *"
			}
		}
		p("| %s | %d | %d | %d | %d | %d | **%d** | %s->%s | %d | %s | %s | %s | %s | %s |\n",
			r.block, r.width, c.LUT, c.FF, bram, c.LUTRAM+c.SRL, d.Levels, d.Path.Class.From, d.Path.Class.To,
			d.Path.Carry, hx, hxg, est, estg, ys)
	}
	p("\n")
	p("Longest paths (end <- start: named nets on the way):\n\n")
	for _, r := range rows {
		if r.depth == nil {
			continue
		}
		d := r.depth
		p("- %s %d: %d levels, %s <- %s: %s\n", r.block, r.width, d.Levels, d.Path.End, d.Path.Start, strings.Join(d.Path.Nets, " "))
	}
	p("\n")
	p("LUT levels: lutdepth on the synth_xilinx -flatten netlist (LUT, INV, LUT RAM/SRL read 1; CARRY4, MUXF7/8 0 but\n")
	p("pass; FF, block RAM, DSP cut); the largest over register and port paths of the block alone. HX8K: nextpnr-ice40\n")
	p("--hx8k --seed 1, post-route, the block in its pin shell. Line rate = MHz x width. The 7-series figures are an\n")
	p("ESTIMATE from LUT levels at %.1f-%.1f ns per level (TOOLING.md), without clock-to-out, setup or carry chains:\n", nsPerLevelLo, nsPerLevelHi)
	p("an upper bound (the anchors close 6 levels at 156-250 MHz, the formula says 278-417). * %d levels or fewer: the\n", fewLevels)
	p("registers and the clock network dominate, the figure is not reachable.\n")
	p("\n")
	p("Quoted facts (TOOLING.md, measured with the same method and tools; not recomputed here):\n")
	p("- verilog-ethernet, 64 bits, 156.25 MHz (10G) in silicon: axis_xgmii_rx_64 6 levels, HX8K 66.5 MHz;\n")
	p("  axis_baser_rx_64 5, 74.3; eth_mac_10g 6, 63.5; ip_eth_rx_64 6, 75.9; udp_ip_rx_64 5, 112.2; eth_axis_rx 2, 148.1.\n")
	p("- corundum at 512 bits, 250 MHz on UltraScale+ (100G): rx_checksum 3 levels, rx_hash 3; HX8K 76.5-93.3 MHz (64-bit builds).\n")
	p("- goals: at most 6 LUT levels on every block and width (4 at 512 bits beyond that); HX8K >= 66 MHz for\n")
	p("  every 64-bit block (aim 100). 10G needs 156.25 MHz at 64 bits, 100G 250 MHz at 512 bits (about 128 Gb/s raw).\n")
	return bw.Flush()
}
