package lutdepth

import (
	"fmt"
	"sort"
	"strings"
)

// Options control Analyze.
type Options struct {
	// Top is the module to analyse; empty: the netlist's top module.
	Top string
	// Worst is how many of the worst endpoint groups (registers, ports and
	// memories, one line per bus) to report besides the longest path.
	Worst int
	// LTP, when not empty, replaces the method by an emulation of Yosys
	// `ltp -noff` over the cell types matching these patterns ("LUT*",
	// "CARRY4", "MUXF*"): each selected cell counts one level with every
	// input reaching every output, any other cell cuts the path. It exists
	// to cross-check the walk against Yosys on real netlists.
	LTP []string
}

// Class is where a path starts and ends: "reg" (a flip-flop, memory or DSP)
// or "port" (a port of the top module).
type Class struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (c Class) String() string { return c.From + "->" + c.To }

// Step is one cell on a path, from the start to the end.
type Step struct {
	Cell  string `json:"cell"`            // cell name, or the port for a port start/end
	Type  string `json:"type"`            // cell type, "port" for a port
	In    string `json:"in,omitempty"`    // the input pin the path enters by
	Out   string `json:"out,omitempty"`   // the output pin it leaves by
	Net   string `json:"net,omitempty"`   // the net bit it drives (or, at the end, reaches)
	Level int    `json:"level"`           // LUT levels up to and including this cell
	Src   string `json:"src,omitempty"`   // the cell's source location, when Yosys kept one
	Delta int    `json:"delta,omitempty"` // levels this cell adds
}

// Path is one longest path to an endpoint.
type Path struct {
	Class  Class  `json:"class"`
	Levels int    `json:"levels"`
	Carry  int    `json:"carry"` // carry cells (CARRY4, SB_CARRY) on the path
	MuxF   int    `json:"muxf"`  // MUXF7/MUXF8 on the path
	Start  string `json:"start"` // the start point's name (register output net or port)
	End    string `json:"end"`   // the endpoint's name
	Steps  []Step `json:"steps"`
	// Nets are the named (not generated) nets the path drives, and Srcs
	// the RTL source locations of its cells, in path order without
	// repeats: where the path goes, since LUTs keep no source location.
	Nets []string `json:"nets,omitempty"`
	Srcs []string `json:"srcs,omitempty"`
}

// Counts are the cells of the netlist by kind.
type Counts struct {
	LUT    int            `json:"lut"`    // LUT1..LUT6, SB_LUT4
	FF     int            `json:"ff"`     // flip-flops and latches
	Carry  int            `json:"carry"`  // CARRY4, SB_CARRY
	MuxF   int            `json:"muxf"`   // MUXF7, MUXF8
	LUTRAM int            `json:"lutram"` // distributed RAM cells
	SRL    int            `json:"srl"`    // shift-register LUTs
	BRAM   int            `json:"bram"`   // block RAM primitives (RAMB18E1 + RAMB36E1, SB_RAM40_4K)
	DSP    int            `json:"dsp"`
	ByType map[string]int `json:"by_type"`
}

// Result is the analysis of one netlist.
type Result struct {
	Top    string `json:"top"`
	Method string `json:"method"` // "levels" or the ltp emulation's patterns
	Counts Counts `json:"counts"`
	// Levels is the longest path over all classes; Path is that path.
	Levels int  `json:"levels"`
	Path   Path `json:"path"`
	// ByClass is the longest path of each class that has one.
	ByClass map[string]int `json:"by_class"`
	// Worst are the worst endpoint groups, longest first.
	Worst []Path `json:"worst,omitempty"`
	// Undriven counts the net bits read on a path but driven by nothing.
	Undriven int `json:"undriven"`
}

// score orders paths: more levels first, then more pass cells (carry,
// MUXF), which are real delay the level count leaves out.
type score struct{ lv, pass int32 }

func (a score) less(b score) bool { return a.lv < b.lv || a.lv == b.lv && a.pass < b.pass }

var none = score{-1, -1}

const (
	clReg = iota
	clPort
	nClass
)

var classNames = [nClass]string{"reg", "port"}

type pinBit struct {
	pin string
	idx int
	bit Bit
}

type arc struct {
	cell   int
	out    pinBit
	ins    []pinBit
	weight int32
	pass   int32
	floor  bool
}

type endpoint struct {
	bit  Bit
	cell int // -1 for a port
	pin  string
	idx  int
	port string
}

type analyzer struct {
	mod    *Module
	names  []string // cell names, sorted
	cells  []*Cell
	specs  []*cellSpec
	nbits  int
	driver []int32 // arc driving a bit, or -1
	start  []int32 // for a bit no arc drives: 1+cell index of the register, -(1+port index) for an input port, 0 none
	arcs   []arc
	ends   []endpoint
	ports  []string
	arr    [nClass][]score
	pred   [nClass][]int32 // index into the arc's ins, -1 for a floor start
	state  []uint8
	stack  []Bit
	bitNam []string
	undriv map[Bit]bool
}

// Analyze computes the longest path of the netlist's top module.
func Analyze(n *Netlist, opt Options) (*Result, error) {
	top, err := n.Top(opt.Top)
	if err != nil {
		return nil, err
	}
	mod := n.Modules[top]
	a := &analyzer{mod: &mod, undriv: map[Bit]bool{}}
	res := &Result{Top: top, Method: "levels", ByClass: map[string]int{}}
	if len(opt.LTP) > 0 {
		res.Method = "ltp " + strings.Join(opt.LTP, " ")
	}
	res.Counts.ByType = map[string]int{}
	if err := a.build(n, opt, &res.Counts); err != nil {
		return nil, err
	}
	if err := a.evalAll(); err != nil {
		return nil, err
	}
	res.Undriven = len(a.undriv)

	// endpoints: the best of each class, and per group
	best := none
	bestEnd, bestCl := -1, 0
	type group struct {
		s   score
		end int
		cl  int
	}
	groups := map[string]*group{}
	var order []string
	for i, e := range a.ends {
		for cl := 0; cl < nClass; cl++ {
			s := a.arr[cl][e.bit]
			if s == none {
				continue
			}
			c := Class{classNames[cl], a.endClass(e)}.String()
			if v, ok := res.ByClass[c]; !ok || int(s.lv) > v {
				res.ByClass[c] = int(s.lv)
			}
			if best.less(s) {
				best, bestEnd, bestCl = s, i, cl
			}
			g := a.endGroup(e)
			if gg, ok := groups[g]; !ok {
				groups[g] = &group{s, i, cl}
				order = append(order, g)
			} else if gg.s.less(s) {
				*gg = group{s, i, cl}
			}
		}
	}
	if bestEnd < 0 {
		return res, nil // no path at all (no registers or ports)
	}
	res.Levels = int(best.lv)
	res.Path = a.trace(bestEnd, bestCl)
	sort.SliceStable(order, func(i, j int) bool { return groups[order[j]].s.less(groups[order[i]].s) })
	for i := 0; i < len(order) && i < opt.Worst; i++ {
		g := groups[order[i]]
		res.Worst = append(res.Worst, a.trace(g.end, g.cl))
	}
	return res, nil
}

func (a *analyzer) build(n *Netlist, opt Options, counts *Counts) error {
	mod := a.mod
	// net bits
	maxBit := Bit(-1)
	see := func(bits []Bit) {
		for _, b := range bits {
			if b > maxBit {
				maxBit = b
			}
		}
	}
	for _, p := range mod.Ports {
		see(p.Bits)
	}
	for _, c := range mod.Cells {
		for _, bits := range c.Connections {
			see(bits)
		}
	}
	for _, nn := range mod.NetNames {
		see(nn.Bits)
	}
	a.nbits = int(maxBit) + 1
	a.driver = make([]int32, a.nbits)
	a.start = make([]int32, a.nbits)
	for i := range a.driver {
		a.driver[i] = -1
	}
	a.nameBits()

	// ports: inputs start paths, outputs end them
	for p := range mod.Ports {
		a.ports = append(a.ports, p)
	}
	sort.Strings(a.ports)
	for pi, p := range a.ports {
		port := mod.Ports[p]
		for i, b := range port.Bits {
			if b.IsConst() {
				continue
			}
			switch port.Direction {
			case "input":
				a.start[b] = -int32(pi) - 1
			case "output":
				a.ends = append(a.ends, endpoint{bit: b, cell: -1, port: p, idx: i})
			case "inout":
				return fmt.Errorf("lutdepth: inout port %s is not supported", p)
			}
		}
	}

	for name := range mod.Cells {
		a.names = append(a.names, name)
	}
	sort.Strings(a.names)
	for ci, name := range a.names {
		c := mod.Cells[name]
		a.cells = append(a.cells, &c)
		if sub, ok := n.Modules[c.Type]; ok && !attrTrue(sub.Attributes, "blackbox") {
			return fmt.Errorf("lutdepth: cell %s is an instance of module %s: the netlist is not flattened", name, c.Type)
		}
		spec, err := specFor(c.Type)
		if len(opt.LTP) > 0 {
			if len(c.PortDirections) == 0 {
				return fmt.Errorf("lutdepth: cell %s (%s) has no port directions in the netlist", name, c.Type)
			}
			k := kindOther
			if err == nil {
				k = spec.kind
			}
			spec = ltpSpec(c.Type, &c, opt.LTP)
			count(counts, c.Type, k)
		} else {
			if err != nil {
				return fmt.Errorf("lutdepth: cell %s: %w", name, err)
			}
			count(counts, c.Type, spec.kind)
		}
		a.specs = append(a.specs, spec)
		if err := a.addCell(ci, spec); err != nil {
			return fmt.Errorf("lutdepth: cell %s (%s): %w", name, c.Type, err)
		}
	}
	for cl := 0; cl < nClass; cl++ {
		a.arr[cl] = make([]score, a.nbits)
		a.pred[cl] = make([]int32, a.nbits)
	}
	a.state = make([]uint8, a.nbits)
	return nil
}

func count(c *Counts, typ string, k cellKind) {
	c.ByType[typ]++
	switch k {
	case kindLUT:
		c.LUT++
	case kindFF:
		c.FF++
	case kindCarry:
		c.Carry++
	case kindMuxF:
		c.MuxF++
	case kindLUTRAM:
		c.LUTRAM++
	case kindSRL:
		c.SRL++
	case kindBRAM:
		c.BRAM++
	case kindDSP:
		c.DSP++
	}
}

// addCell records a cell's arcs, start points and endpoints.
func (a *analyzer) addCell(ci int, spec *cellSpec) error {
	c := a.cells[ci]
	known := map[string]bool{}
	ends := map[string]bool{}
	starts := map[string]bool{}
	mark := func(m map[string]bool, ps []string) {
		for _, p := range ps {
			m[p] = true
			known[p] = true
		}
	}
	mark(ends, spec.ends)
	mark(starts, spec.starts)
	mark(map[string]bool{}, spec.clocks)
	mark(map[string]bool{}, spec.consts)
	for _, ar := range spec.arcs {
		known[ar.Out] = true
		for _, p := range ar.Ins {
			known[p] = true
		}
	}
	if spec.seqByDir {
		for p := range c.Connections {
			d, ok := c.PortDirections[p]
			if !ok {
				return fmt.Errorf("no port direction for pin %s in the netlist", p)
			}
			known[p] = true
			if isClockPin(p) {
				continue
			}
			switch d {
			case "input":
				ends[p] = true
			case "output":
				starts[p] = true
			default:
				return fmt.Errorf("pin %s is %s", p, d)
			}
		}
	}
	if spec.carry4 {
		for _, p := range []string{"CI", "CYINIT", "DI", "S", "O", "CO"} {
			known[p] = true
		}
	}
	pinNames := make([]string, 0, len(c.Connections))
	for p := range c.Connections {
		if !known[p] {
			return fmt.Errorf("pin %s is not modelled", p)
		}
		pinNames = append(pinNames, p)
	}
	sort.Strings(pinNames)
	for _, p := range pinNames {
		for i, b := range c.Connections[p] {
			if b.IsConst() {
				continue
			}
			if ends[p] {
				a.ends = append(a.ends, endpoint{bit: b, cell: ci, pin: p, idx: i})
			}
			if starts[p] {
				if err := a.setStart(b, ci); err != nil {
					return err
				}
			}
		}
	}
	conn := func(p string) []pinBit {
		var out []pinBit
		for i, b := range c.Connections[p] {
			out = append(out, pinBit{p, i, b})
		}
		return out
	}
	pass := int32(0)
	if spec.kind == kindCarry || spec.kind == kindMuxF {
		pass = 1
	}
	add := func(out pinBit, ins []pinBit) error {
		if out.bit.IsConst() {
			return nil
		}
		if a.driver[out.bit] >= 0 || a.start[out.bit] != 0 {
			return fmt.Errorf("net %s has two drivers", a.bitName(out.bit))
		}
		a.driver[out.bit] = int32(len(a.arcs))
		a.arcs = append(a.arcs, arc{cell: ci, out: out, ins: ins, weight: int32(spec.weight), pass: pass, floor: spec.floor})
		return nil
	}
	if spec.carry4 {
		return a.carry4(ci, conn, add)
	}
	for _, ar := range spec.arcs {
		var ins []pinBit
		for _, p := range ar.Ins {
			ins = append(ins, conn(p)...)
		}
		for _, o := range conn(ar.Out) {
			if err := add(o, ins); err != nil {
				return err
			}
		}
	}
	return nil
}

// carry4 adds the bit-level arcs of a CARRY4: the carry into stage i is CI
// or CYINIT, then stages 0..i-1 (DI, S); CO[i] also depends on DI[i] and
// S[i], O[i] = S[i] xor the carry into stage i.
func (a *analyzer) carry4(ci int, conn func(string) []pinBit, add func(pinBit, []pinBit) error) error {
	carryIn := append(conn("CI"), conn("CYINIT")...)
	di, s, o, co := conn("DI"), conn("S"), conn("O"), conn("CO")
	for i := 0; i < 4; i++ {
		in := append([]pinBit{}, carryIn...)
		for j := 0; j < i; j++ {
			if j < len(di) {
				in = append(in, di[j])
			}
			if j < len(s) {
				in = append(in, s[j])
			}
		}
		if i < len(o) {
			oi := append(append([]pinBit{}, in...), pick(s, i)...)
			if err := add(o[i], oi); err != nil {
				return err
			}
		}
		if i < len(co) {
			ci := append(append(append([]pinBit{}, in...), pick(di, i)...), pick(s, i)...)
			if err := add(co[i], ci); err != nil {
				return err
			}
		}
	}
	return nil
}

func pick(p []pinBit, i int) []pinBit {
	if i < len(p) {
		return p[i : i+1]
	}
	return nil
}

func (a *analyzer) setStart(b Bit, ci int) error {
	if a.driver[b] >= 0 || a.start[b] != 0 {
		return fmt.Errorf("net %s has two drivers", a.bitName(b))
	}
	a.start[b] = int32(ci) + 1
	return nil
}

// evalAll computes the arrival of every bit read by an endpoint.
func (a *analyzer) evalAll() error {
	for _, e := range a.ends {
		if err := a.eval(e.bit); err != nil {
			return err
		}
	}
	return nil
}

// eval computes the arrival scores of bit b in both classes (depth-first,
// memoised; a bit met again while in progress is a combinational loop).
func (a *analyzer) eval(b Bit) error {
	switch a.state[b] {
	case 2:
		return nil
	case 1:
		return a.loopError(b)
	}
	a.state[b] = 1
	a.stack = append(a.stack, b)
	for cl := 0; cl < nClass; cl++ {
		a.arr[cl][b] = none
		a.pred[cl][b] = -1
	}
	switch d := a.driver[b]; {
	case d >= 0:
		ar := &a.arcs[d]
		for k, in := range ar.ins {
			if in.bit.IsConst() {
				continue
			}
			if err := a.eval(in.bit); err != nil {
				return err
			}
			for cl := 0; cl < nClass; cl++ {
				s := a.arr[cl][in.bit]
				if s == none {
					continue
				}
				s = score{s.lv + ar.weight, s.pass + ar.pass}
				if a.arr[cl][b].less(s) {
					a.arr[cl][b] = s
					a.pred[cl][b] = int32(k)
				}
			}
		}
		// the contents of a LUT RAM or SRL are registers: a read starts a
		// path (a tie goes to the address's path, which says more)
		if s := (score{ar.weight, ar.pass}); ar.floor && a.arr[clReg][b].less(s) {
			a.arr[clReg][b] = s
			a.pred[clReg][b] = -1
		}
	case a.start[b] > 0:
		a.arr[clReg][b] = score{}
	case a.start[b] < 0:
		a.arr[clPort][b] = score{}
	default:
		a.undriv[b] = true
	}
	a.stack = a.stack[:len(a.stack)-1]
	a.state[b] = 2
	return nil
}

func (a *analyzer) loopError(b Bit) error {
	i := len(a.stack) - 1
	for i > 0 && a.stack[i] != b {
		i--
	}
	var cells []string
	seen := map[string]bool{}
	for _, x := range a.stack[i:] {
		if d := a.driver[x]; d >= 0 {
			n := a.names[a.arcs[d].cell]
			if !seen[n] {
				seen[n] = true
				cells = append(cells, fmt.Sprintf("%s (%s)", n, a.cells[a.arcs[d].cell].Type))
			}
		}
	}
	if len(cells) > 8 {
		cells = append(cells[:8], fmt.Sprintf("... %d cells", len(cells)))
	}
	return fmt.Errorf("lutdepth: combinational loop through net %s: %s", a.bitName(b), strings.Join(cells, ", "))
}

func (a *analyzer) endClass(e endpoint) string {
	if e.cell < 0 {
		return "port"
	}
	return "reg"
}

// endGroup names an endpoint's group: a register by the net it drives
// (bus name without the bit index), a memory or DSP by its cell, a port by
// its name.
func (a *analyzer) endGroup(e endpoint) string {
	if e.cell < 0 {
		return "port " + e.port
	}
	spec := a.specs[e.cell]
	if spec.kind == kindFF {
		if q := a.cells[e.cell].Connections["Q"]; len(q) == 1 && !q[0].IsConst() {
			return "reg " + busName(a.bitName(q[0]))
		}
	}
	name := a.names[e.cell]
	if strings.HasPrefix(name, "$") { // a generated name: the net it drives or its RTL line says more
		c := a.cells[e.cell]
		if q := c.Connections["Q"]; len(q) == 1 && !q[0].IsConst() && !strings.HasPrefix(a.bitName(q[0]), "$") {
			name = a.bitName(q[0])
		} else if x := shortSrc(attrString(c.Attributes, "src")); x != "" {
			name = x
		}
	}
	return spec.kind.String() + " " + memName(busName(name))
}

// memName drops the numbers Yosys appends to the cells of one memory
// ("msn_ram.0.10" -> "msn_ram").
func memName(s string) string {
	for {
		i := strings.LastIndexByte(s, '.')
		if i <= 0 || strings.Trim(s[i+1:], "0123456789") != "" || i == len(s)-1 {
			return s
		}
		s = s[:i]
	}
}

func busName(s string) string {
	if i := strings.LastIndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		return s[:i]
	}
	return s
}

// trace follows the predecessors from an endpoint back to the path's start.
func (a *analyzer) trace(ei, cl int) Path {
	e := a.ends[ei]
	s := a.arr[cl][e.bit]
	p := Path{Class: Class{classNames[cl], a.endClass(e)}, Levels: int(s.lv)}
	var rev []Step
	b := e.bit
	for {
		d := a.driver[b]
		if d < 0 {
			break
		}
		ar := &a.arcs[d]
		c := a.cells[ar.cell]
		st := Step{Cell: a.names[ar.cell], Type: c.Type, Out: pinLabel(ar.out), Net: a.bitName(b),
			Level: int(a.arr[cl][b].lv), Src: attrString(c.Attributes, "src"), Delta: int(ar.weight)}
		switch a.specs[ar.cell].kind {
		case kindCarry:
			p.Carry++
		case kindMuxF:
			p.MuxF++
		}
		k := a.pred[cl][b]
		if k < 0 { // a memory read: the path starts at its contents
			st.In = "(contents)"
			rev = append(rev, st)
			p.Start = a.names[ar.cell]
			b = -1
			break
		}
		st.In = pinLabel(ar.ins[k])
		rev = append(rev, st)
		b = ar.ins[k].bit
	}
	if b >= 0 {
		var st Step
		switch x := a.start[b]; {
		case x > 0:
			c := a.cells[x-1]
			st = Step{Cell: a.names[x-1], Type: c.Type, Out: outPinOf(c, b), Net: a.bitName(b),
				Src: attrString(c.Attributes, "src")}
			p.Start = a.bitName(b)
		case x < 0:
			name := a.ports[-x-1]
			bits := a.mod.Ports[name].Bits
			for i, pb := range bits {
				if pb == b && len(bits) > 1 {
					name = fmt.Sprintf("%s[%d]", name, i)
				}
			}
			st = Step{Cell: a.ports[-x-1], Type: "port", Out: name, Net: a.bitName(b)}
			p.Start = "port " + name
		default:
			st = Step{Cell: "(undriven)", Net: a.bitName(b)}
			p.Start = "undriven " + a.bitName(b)
		}
		rev = append(rev, st)
	}
	for i := len(rev) - 1; i >= 0; i-- {
		p.Steps = append(p.Steps, rev[i])
	}
	var end Step
	if e.cell < 0 {
		end = Step{Cell: e.port, Type: "port", In: fmt.Sprintf("%s[%d]", e.port, e.idx), Net: a.bitName(e.bit), Level: p.Levels}
		p.End = "port " + e.port
	} else {
		c := a.cells[e.cell]
		end = Step{Cell: a.names[e.cell], Type: c.Type, In: pinLabel(pinBit{e.pin, e.idx, e.bit}),
			Net: a.bitName(e.bit), Level: p.Levels, Src: attrString(c.Attributes, "src")}
		p.End = strings.TrimPrefix(strings.TrimPrefix(a.endGroup(e), "reg "), "")
	}
	p.Steps = append(p.Steps, end)
	seenNet, seenSrc := map[string]bool{}, map[string]bool{}
	for _, st := range p.Steps {
		if n := busName(st.Net); n != "" && !strings.HasPrefix(n, "$") && !strings.HasPrefix(n, "net") && !seenNet[n] {
			seenNet[n] = true
			p.Nets = append(p.Nets, n)
		}
		if x := shortSrc(st.Src); x != "" && !seenSrc[x] {
			seenSrc[x] = true
			p.Srcs = append(p.Srcs, x)
		}
	}
	return p
}

func pinLabel(pb pinBit) string {
	if pb.idx == 0 && !strings.ContainsAny(pb.pin, "[") {
		return pb.pin
	}
	return fmt.Sprintf("%s[%d]", pb.pin, pb.idx)
}

func outPinOf(c *Cell, b Bit) string {
	for p, bits := range c.Connections {
		for i, x := range bits {
			if x == b {
				if len(bits) == 1 {
					return p
				}
				return fmt.Sprintf("%s[%d]", p, i)
			}
		}
	}
	return ""
}

// nameBits gives every net bit its most readable name: a public name
// (hide_name 0) before a generated one, then the shortest.
func (a *analyzer) nameBits() {
	a.bitNam = make([]string, a.nbits)
	rank := make([]int, a.nbits)
	names := make([]string, 0, len(a.mod.NetNames))
	for n := range a.mod.NetNames {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		nn := a.mod.NetNames[name]
		// synth_xilinx names a register that drives an output port after
		// the port, behind its I/O buffer
		n := strings.TrimPrefix(name, "$iopadmap$")
		r := len(n)
		if strings.HasPrefix(n, "$") {
			r += 1 << 20
		}
		for i, b := range nn.Bits {
			if b.IsConst() {
				continue
			}
			if a.bitNam[b] == "" || r < rank[b] {
				rank[b] = r
				switch {
				case len(nn.Bits) == 1:
					a.bitNam[b] = n
				case nn.Upto != 0:
					a.bitNam[b] = fmt.Sprintf("%s[%d]", n, nn.Offset+len(nn.Bits)-1-i)
				default:
					a.bitNam[b] = fmt.Sprintf("%s[%d]", n, nn.Offset+i)
				}
			}
		}
	}
}

func (a *analyzer) bitName(b Bit) string {
	if b >= 0 && int(b) < len(a.bitNam) && a.bitNam[b] != "" {
		return a.bitNam[b]
	}
	return fmt.Sprintf("net%d", b)
}
