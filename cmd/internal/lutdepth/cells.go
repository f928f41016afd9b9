package lutdepth

import (
	"fmt"
	"regexp"
	"strings"
)

// cellKind groups the cell types for counting and for the path report.
type cellKind int

const (
	kindLUT    cellKind = iota // LUT1..LUT6, SB_LUT4: one level
	kindInv                    // INV: one level
	kindCarry                  // CARRY4, SB_CARRY: zero levels, passes the path
	kindMuxF                   // MUXF7, MUXF8: zero levels, passes the path
	kindBuf                    // I/O and clock buffers: zero levels
	kindConst                  // GND, VCC
	kindFF                     // flip-flops and latches: cut
	kindLUTRAM                 // distributed RAM: asynchronous read counts one, write is an end
	kindSRL                    // shift registers in LUTs: like LUT RAM
	kindBRAM                   // block RAM: cut
	kindDSP                    // DSP blocks: cut
	kindOther                  // other synchronous primitives: cut
)

var kindNames = [...]string{"LUT", "INV", "carry", "MUXF", "buffer", "constant", "FF",
	"LUT RAM", "SRL", "block RAM", "DSP", "other"}

func (k cellKind) String() string { return kindNames[k] }

// arcSpec says that every bit of the output pin Out depends on every bit of
// the input pins Ins.
type arcSpec struct {
	Out string
	Ins []string
}

// cellSpec models a primitive for the depth walk. Every pin a cell
// connects must be named in it.
type cellSpec struct {
	kind   cellKind
	weight int       // levels an arc adds
	arcs   []arcSpec // combinational input-to-output dependencies
	// floor: an arc output is the start of a path of one read (weight)
	// even when none of its inputs is on a path (the contents of a LUT RAM
	// or SRL are registers)
	floor  bool
	ends   []string // synchronous inputs: a path ends here
	starts []string // registered outputs: a path starts here at level 0
	clocks []string // clocks: on no path
	consts []string // outputs driving a constant
	// carry4: bit-level arcs of a CARRY4 (see carry4Arcs)
	carry4 bool
	// seqByDir: a synchronous primitive with many pins (block RAM, DSP):
	// every input named in the cell's port_directions ends a path, every
	// output starts one, except clocks (pin names containing "CLK")
	seqByDir bool
}

func pins(prefix string, n int) []string {
	p := make([]string, n)
	for i := range p {
		p[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return p
}

func cat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

var (
	reLUT      = regexp.MustCompile(`^LUT([1-6])$`)
	reFD       = regexp.MustCompile(`^(FD[RSCP]E|LD[CP]E)(_1)?$`)
	reRAMX1    = regexp.MustCompile(`^RAM(16|32|64|128|256)X1([SD])(_1)?$`)
	reRAMM     = regexp.MustCompile(`^RAM(32M|64M|32M16|64M8)$`)
	reSRL      = regexp.MustCompile(`^SRL(C?)(16|32)(E?)(_1)?$`)
	reBRAM     = regexp.MustCompile(`^(RAMB(18|36)E[12]|FIFO(18|36)E[12]|RAMB18|RAMB36)$`)
	reDSP      = regexp.MustCompile(`^DSP48E[12]?$`)
	reICEDFF   = regexp.MustCompile(`^SB_DFF[A-Z]*$`)
	reICERAM   = regexp.MustCompile(`^SB_(RAM40_4K[A-Z]*|SPRAM256KA|MAC16)$`)
	reOtherSeq = regexp.MustCompile(`^(URAM288(_BASE)?)$`)
)

// specFor returns the model of a cell type, or an error for a type the
// method does not know (a netlist that is not mapped or not flattened).
func specFor(typ string) (*cellSpec, error) {
	if m := reLUT.FindStringSubmatch(typ); m != nil {
		n := int(m[1][0] - '0')
		return &cellSpec{kind: kindLUT, weight: 1, arcs: []arcSpec{{"O", pins("I", n)}}}, nil
	}
	if m := reFD.FindStringSubmatch(typ); m != nil {
		return &cellSpec{kind: kindFF, starts: []string{"Q"}, clocks: []string{"C", "G"},
			ends: []string{"D", "CE", "R", "S", "CLR", "PRE", "GE"}}, nil
	}
	if m := reRAMX1.FindStringSubmatch(typ); m != nil {
		var n int
		fmt.Sscan(m[1], &n)
		a := 0
		for 1<<a < n {
			a++
		}
		addr := cat(pins("A", a), []string{"A"}) // A0..An-1 or a vector A
		s := &cellSpec{kind: kindLUTRAM, weight: 1, floor: true, clocks: []string{"WCLK"},
			ends: cat([]string{"D", "WE"}, addr)}
		if m[2] == "S" {
			s.arcs = []arcSpec{{"O", addr}}
		} else {
			s.arcs = []arcSpec{{"SPO", addr}, {"DPO", cat(pins("DPRA", a), []string{"DPRA"})}}
		}
		return s, nil
	}
	if m := reRAMM.FindStringSubmatch(typ); m != nil {
		ports := "ABCD"
		if m[1] == "32M16" || m[1] == "64M8" {
			ports = "ABCDEFGH"
		}
		s := &cellSpec{kind: kindLUTRAM, weight: 1, floor: true, clocks: []string{"WCLK"}}
		for _, p := range ports {
			s.arcs = append(s.arcs, arcSpec{"DO" + string(p), []string{"ADDR" + string(p)}})
			s.ends = append(s.ends, "DI"+string(p))
		}
		// the last port's address is the write address
		s.ends = append(s.ends, "WE", "ADDR"+ports[len(ports)-1:])
		return s, nil
	}
	if m := reSRL.FindStringSubmatch(typ); m != nil {
		s := &cellSpec{kind: kindSRL, weight: 1, floor: true, clocks: []string{"CLK"}, ends: []string{"D", "CE"}}
		addr := cat(pins("A", 4), []string{"A"})
		if m[2] == "32" {
			addr = []string{"A"}
		}
		s.arcs = []arcSpec{{"Q", addr}}
		if m[1] == "C" { // the cascade output is the last stage's flip-flop
			s.starts = []string{"Q15", "Q31"}
		}
		return s, nil
	}
	if reBRAM.MatchString(typ) {
		return &cellSpec{kind: kindBRAM, seqByDir: true}, nil
	}
	if reDSP.MatchString(typ) {
		return &cellSpec{kind: kindDSP, seqByDir: true}, nil
	}
	if reOtherSeq.MatchString(typ) {
		return &cellSpec{kind: kindOther, seqByDir: true}, nil
	}
	switch typ {
	case "INV":
		return &cellSpec{kind: kindInv, weight: 1, arcs: []arcSpec{{"O", []string{"I"}}}}, nil
	case "CARRY4":
		return &cellSpec{kind: kindCarry, carry4: true}, nil
	case "MUXF7", "MUXF8":
		return &cellSpec{kind: kindMuxF, arcs: []arcSpec{{"O", []string{"I0", "I1", "S"}}}}, nil
	case "IBUF", "OBUF", "BUFG", "IBUFG", "BUF":
		return &cellSpec{kind: kindBuf, arcs: []arcSpec{{"O", []string{"I"}}}}, nil
	case "OBUFT":
		return &cellSpec{kind: kindBuf, arcs: []arcSpec{{"O", []string{"I", "T"}}}}, nil
	case "GND":
		return &cellSpec{kind: kindConst, consts: []string{"G"}}, nil
	case "VCC":
		return &cellSpec{kind: kindConst, consts: []string{"P"}}, nil
	// iCE40, for cross-checks against nextpnr-ice40
	case "SB_LUT4":
		return &cellSpec{kind: kindLUT, weight: 1, arcs: []arcSpec{{"O", pins("I", 4)}}}, nil
	case "SB_CARRY":
		return &cellSpec{kind: kindCarry, arcs: []arcSpec{{"CO", []string{"I0", "I1", "CI"}}}}, nil
	case "SB_GB":
		return &cellSpec{kind: kindBuf, arcs: []arcSpec{{"GLOBAL_BUFFER_OUTPUT", []string{"USER_SIGNAL_TO_GLOBAL_BUFFER"}}}}, nil
	}
	if reICEDFF.MatchString(typ) {
		return &cellSpec{kind: kindFF, starts: []string{"Q"}, clocks: []string{"C"},
			ends: []string{"D", "E", "R", "S"}}, nil
	}
	if reICERAM.MatchString(typ) {
		return &cellSpec{kind: kindBRAM, seqByDir: true}, nil
	}
	return nil, fmt.Errorf("cell type %s is not a primitive the method knows (map and flatten the design first)", typ)
}

// isClockPin names the clock pins of block RAMs and DSPs.
func isClockPin(pin string) bool { return strings.Contains(pin, "CLK") }

// ltpSpec models a cell for the emulation of Yosys `ltp -noff` restricted
// to cell types matching one of the patterns: a selected cell is one node
// (every input reaches every output, one level each), any other cell cuts.
func ltpSpec(typ string, c *Cell, patterns []string) *cellSpec {
	sel := false
	for _, p := range patterns {
		if strings.HasSuffix(p, "*") && strings.HasPrefix(typ, strings.TrimSuffix(p, "*")) || p == typ {
			sel = true
		}
	}
	s := &cellSpec{kind: kindOther, seqByDir: true}
	if !sel {
		return s
	}
	s = &cellSpec{kind: kindLUT, weight: 1}
	var ins []string
	for p, d := range c.PortDirections {
		if d == "input" {
			ins = append(ins, p)
		}
	}
	for p, d := range c.PortDirections {
		if d == "output" {
			s.arcs = append(s.arcs, arcSpec{p, ins})
		}
	}
	return s
}
