package cosim

import (
	"fmt"
	"strings"
)

// Model is a cycle-accurate Go model of a top module, using the same cycle
// records as the Sim of its variant.
type Model interface {
	// Step computes the outputs of one cycle from that cycle's inputs and
	// the model's state, writes them to out, then takes the rising clock
	// edge (updates the state). Outputs that depend on inputs in the same
	// cycle (such as a ready that follows the downstream ready) must be
	// computed from in, as the RTL samples them before the edge.
	Step(in, out []uint64)
}

type check struct {
	port Port
	when *Port
}

// batch holds the records of one Lockstep.Step call.
type batch struct {
	start uint64
	n     int
	in    []uint64
	rtl   []uint64
	model []uint64
	upto  int // model outputs are valid for cycles [0, upto)
}

// Lockstep runs a Sim and a Model with the same inputs and compares their
// outputs every cycle. The inputs include the output backpressure (ready
// inputs driven by the records) and whatever the sources applied, so both
// see the same handshakes.
type Lockstep struct {
	sim    *Sim
	model  Model
	checks []check
	before int
	after  int
	beats  int
	cur    batch
	prev   batch
	failed error
}

// LockstepOption configures NewLockstep.
type LockstepOption func(*lockstepConfig)

type lockstepConfig struct {
	when   map[string]string
	ignore map[string]bool
	before int
	after  int
	beats  int
}

// CompareWhen compares port only in cycles where the model drives the 1-bit
// output valid high (data outputs are don't-care while not valid). Other
// outputs are compared every cycle.
func CompareWhen(port, valid string) LockstepOption {
	return func(c *lockstepConfig) { c.when[port] = valid }
}

// Ignore leaves an output out of the comparison.
func Ignore(port string) LockstepOption {
	return func(c *lockstepConfig) { c.ignore[port] = true }
}

// ReportWindow sets how many cycles before and after a mismatch the report
// shows (default 6 and 2) and how many accepted beats per source it lists
// (default 4).
func ReportWindow(before, after, beats int) LockstepOption {
	return func(c *lockstepConfig) { c.before, c.after, c.beats = before, after, beats }
}

// NewLockstep pairs a Sim with a Model. By default every output is compared
// in every cycle.
func NewLockstep(sim *Sim, model Model, opts ...LockstepOption) (*Lockstep, error) {
	cfg := lockstepConfig{when: map[string]string{}, ignore: map[string]bool{}, before: 6, after: 2, beats: 4}
	for _, f := range opts {
		f(&cfg)
	}
	l := &Lockstep{sim: sim, model: model, before: cfg.before, after: cfg.after, beats: cfg.beats}
	for name := range cfg.ignore {
		if _, ok := sim.LookupPort(name); !ok {
			return nil, fmt.Errorf("cosim: Ignore(%q): no such port", name)
		}
	}
	var qualified []check
	for _, p := range sim.ports {
		if p.Dir != Out || cfg.ignore[p.Name] {
			continue
		}
		v, ok := cfg.when[p.Name]
		if !ok {
			l.checks = append(l.checks, check{port: p})
			continue
		}
		vp, ok := sim.LookupPort(v)
		if !ok || vp.Dir != Out || vp.Width != 1 {
			return nil, fmt.Errorf("cosim: CompareWhen(%q, %q): %q is not a 1-bit output", p.Name, v, v)
		}
		qualified = append(qualified, check{port: p, when: &vp})
	}
	for name := range cfg.when {
		if p, ok := sim.LookupPort(name); !ok || p.Dir != Out {
			return nil, fmt.Errorf("cosim: CompareWhen(%q): not an output", name)
		}
	}
	// Unqualified outputs (valids among them) first: a valid that differs
	// is reported as such rather than as a data mismatch.
	l.checks = append(l.checks, qualified...)
	return l, nil
}

// Sim returns the RTL instance.
func (l *Lockstep) Sim() *Sim { return l.sim }

// Step runs n cycles of both the RTL and the model from the input records in
// (n records; the sources overwrite their ports, as Sim.Step). It returns a
// *Mismatch at the first output that differs; the Lockstep is then spent.
func (l *Lockstep) Step(n int, in []uint64) error {
	if l.failed != nil {
		return l.failed
	}
	if n <= 0 {
		return nil
	}
	iw, ow := l.sim.inWords, l.sim.outWords
	l.prev, l.cur = l.cur, l.prev
	b := &l.cur
	b.start, b.n, b.upto = l.sim.Cycle(), n, 0
	b.in = grow(b.in, n*iw)
	b.rtl = grow(b.rtl, n*ow)
	b.model = grow(b.model, n*ow)
	l.sim.Step(n, in, b.rtl)
	copy(b.in, in[:n*iw])
	for c := 0; c < n; c++ {
		ic := b.in[c*iw : (c+1)*iw]
		rc := b.rtl[c*ow : (c+1)*ow]
		mc := b.model[c*ow : (c+1)*ow]
		l.model.Step(ic, mc)
		b.upto = c + 1
		for i := range l.checks {
			k := &l.checks[i]
			if k.when != nil && !k.when.Bit(mc) {
				continue
			}
			if !k.port.equal(rc, mc) {
				l.failed = l.mismatch(c, k)
				return l.failed
			}
		}
	}
	return nil
}

// Inputs returns the input records applied in the last Step.
func (l *Lockstep) Inputs() []uint64 { return l.cur.in[:l.cur.n*l.sim.inWords] }

// Outputs returns the RTL output records of the last Step.
func (l *Lockstep) Outputs() []uint64 { return l.cur.rtl[:l.cur.n*l.sim.outWords] }

func grow(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	return b[:n]
}

// Mismatch is the first difference between the RTL and the model.
type Mismatch struct {
	Variant  string
	Cycle    uint64 // cycle number since Open
	Port     string
	Expected string // the model's value, hexadecimal
	Actual   string // the RTL's value, hexadecimal
	Trace    string // waveform file, or "" when not tracing
	Context  string // inputs and outputs around the cycle, recent source beats
}

// Error formats the mismatch with its context, ready to print.
func (m *Mismatch) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "lockstep %s: cycle %d: output %s = %s, model expects %s\n", m.Variant, m.Cycle, m.Port, m.Actual, m.Expected)
	sb.WriteString(m.Context)
	if m.Trace != "" {
		fmt.Fprintf(&sb, "trace: %s (GTKWave; cycle c is at time 10*c)\n", m.Trace)
	} else {
		from := uint64(0)
		if m.Cycle > 1000 {
			from = m.Cycle - 1000
		}
		fmt.Fprintf(&sb, "trace: none (rerun with MPARX_TRACE=DIR MPARX_TRACE_FROM=%d, or go test ... -args -trace=DIR)\n", from)
	}
	return sb.String()
}

// record returns the records of an absolute cycle from the current or the
// previous batch; model is nil where the model has not run.
func (l *Lockstep) record(cycle uint64) (in, rtl, model []uint64, ok bool) {
	iw, ow := l.sim.inWords, l.sim.outWords
	for _, b := range []*batch{&l.cur, &l.prev} {
		if b.n == 0 || cycle < b.start || cycle >= b.start+uint64(b.n) {
			continue
		}
		c := int(cycle - b.start)
		in, rtl = b.in[c*iw:(c+1)*iw], b.rtl[c*ow:(c+1)*ow]
		if c < b.upto {
			model = b.model[c*ow : (c+1)*ow]
		}
		return in, rtl, model, true
	}
	return nil, nil, nil, false
}

func (l *Lockstep) mismatch(c int, k *check) *Mismatch {
	b := &l.cur
	cycle := b.start + uint64(c)
	ow := l.sim.outWords
	m := &Mismatch{
		Variant:  l.sim.variant,
		Cycle:    cycle,
		Port:     k.port.Name,
		Expected: "0x" + k.port.Format(b.model[c*ow:(c+1)*ow]),
		Actual:   "0x" + k.port.Format(b.rtl[c*ow:(c+1)*ow]),
		Trace:    l.sim.tracePath,
	}
	if m.Trace != "" {
		l.sim.Flush()
	}
	var sb strings.Builder
	from := cycle - min(uint64(l.before), cycle)
	fmt.Fprintf(&sb, "cycles %d..%d (inputs as applied; outputs rtl/model):\n", from, cycle+uint64(l.after))
	for cy := from; cy <= cycle+uint64(l.after); cy++ {
		in, rtl, model, ok := l.record(cy)
		if !ok {
			continue
		}
		mark := "  "
		if cy == cycle {
			mark = ">>"
		}
		fmt.Fprintf(&sb, "%s %d in: ", mark, cy)
		for _, p := range l.sim.ports {
			if p.Dir == In {
				fmt.Fprintf(&sb, " %s=%s", p.Name, p.Format(in))
			}
		}
		sb.WriteString("\n      out:")
		for _, p := range l.sim.ports {
			if p.Dir != Out {
				continue
			}
			mv := "?"
			if model != nil {
				mv = p.Format(model)
			}
			fmt.Fprintf(&sb, " %s=%s/%s", p.Name, p.Format(rtl), mv)
		}
		sb.WriteString("\n")
	}
	for si, src := range l.sim.sources {
		var lines []string
		start := uint64(0)
		if l.prev.n > 0 {
			start = l.prev.start
		} else if l.cur.n > 0 {
			start = l.cur.start
		}
		for cy := cycle + 1; cy > start && len(lines) < l.beats; cy-- {
			in, rtl, _, ok := l.record(cy - 1)
			if !ok || !src.fired(in, rtl) {
				continue
			}
			var bl strings.Builder
			fmt.Fprintf(&bl, "   cycle %d:", cy-1)
			for _, p := range src.payload {
				fmt.Fprintf(&bl, " %s=%s", p.Name, p.Format(in))
			}
			lines = append(lines, bl.String())
		}
		fmt.Fprintf(&sb, "last %d beats accepted on source %d (%s/%s), newest first:\n", len(lines), si, src.valid.Name, src.ready.Name)
		for _, s := range lines {
			sb.WriteString(s + "\n")
		}
	}
	m.Context = sb.String()
	return m
}
