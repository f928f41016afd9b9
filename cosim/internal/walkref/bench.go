package walkref

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
)

// TraceDir is the benches' -trace flag: write an FST waveform of every
// simulation into this directory (default: $MPARX_TRACE).
var TraceDir = flag.String("trace", "", "write an FST waveform of every simulation into this directory (default: $MPARX_TRACE)")

// batchCycles is the number of cycles per cgo call.
const batchCycles = 4096

// Bench drives one variant cycle by cycle from Go: the test fills each
// cycle's input record (Next), and Check sees every cycle's inputs and
// outputs once its batch has run.
type Bench struct {
	t       testing.TB
	Sim     *cosim.Sim
	Variant string
	Check   func(cycle uint64, in, out []uint64)
	in, out []uint64
	n       int
}

// NewBench opens a variant and resets it for 4 cycles.
func NewBench(t testing.TB, variant string) *Bench {
	t.Helper()
	sim, err := cosim.Open(variant, cosim.Name(t.Name()), cosim.TraceDir(*TraceDir))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sim.Close()) })
	sim.Reset(4)
	return &Bench{t: t, Sim: sim, Variant: variant, in: sim.NewIn(batchCycles), out: sim.NewOut(batchCycles)}
}

// Port returns a port of the variant.
func (b *Bench) Port(name string) Port {
	b.t.Helper()
	p, ok := b.Sim.LookupPort(name)
	require.True(b.t, ok, "%s: no port %s", b.Variant, name)
	return Port{p}
}

// Ports returns the ports of the variant whose names are given, by name.
func (b *Bench) Ports(names ...string) map[string]Port {
	b.t.Helper()
	m := make(map[string]Port, len(names))
	for _, n := range names {
		m[n] = b.Port(n)
	}
	return m
}

// T returns the test.
func (b *Bench) T() testing.TB { return b.t }

// Cycle returns the cycle number of the record the next Next returns.
func (b *Bench) Cycle() uint64 { return b.Sim.Cycle() + uint64(b.n) }

// Next returns the next cycle's input record, zeroed; a full batch runs
// first.
func (b *Bench) Next() []uint64 {
	if b.n == batchCycles {
		b.Run()
	}
	iw := b.Sim.InWords()
	r := b.in[b.n*iw : (b.n+1)*iw]
	clear(r)
	b.n++
	return r
}

// Idle adds n cycles of zero inputs.
func (b *Bench) Idle(n int) {
	for i := 0; i < n; i++ {
		b.Next()
	}
}

// Run runs the cycles filled so far and checks them.
func (b *Bench) Run() {
	b.t.Helper()
	start := b.Sim.Cycle()
	b.Sim.Step(b.n, b.in, b.out)
	iw, ow := b.Sim.InWords(), b.Sim.OutWords()
	for c := 0; c < b.n; c++ {
		if b.Check != nil {
			b.Check(start+uint64(c), b.in[c*iw:(c+1)*iw], b.out[c*ow:(c+1)*ow])
		}
	}
	b.n = 0
}

// Fail stops the test with the variant and cycle.
func (b *Bench) Fail(cycle uint64, format string, args ...any) {
	b.t.Helper()
	b.t.Fatalf("%s cycle %d: %s", b.Variant, cycle, fmt.Sprintf(format, args...))
}

// Port is a port of a variant with bit-field access to cycle records.
type Port struct{ cosim.Port }

// Get returns n <= 64 bits of the port from bit lo in a cycle record.
func (p Port) Get(rec []uint64, lo, n int) uint64 {
	w := p.Slice(rec)
	v := w[lo/64] >> (lo % 64)
	if lo%64+n > 64 {
		v |= w[lo/64+1] << (64 - lo%64)
	}
	if n < 64 {
		v &= 1<<n - 1
	}
	return v
}

// On reports whether bit i of the port is set in a cycle record.
func (p Port) On(rec []uint64, i int) bool { return p.Get(rec, i, 1) != 0 }

// Put writes n <= 64 bits of v into the port from bit lo in a cycle record
// (the other bits are kept).
func (p Port) Put(rec []uint64, lo, n int, v uint64) {
	w := p.Slice(rec)
	mask := ^uint64(0)
	if n < 64 {
		mask = 1<<n - 1
	}
	v &= mask
	w[lo/64] = w[lo/64]&^(mask<<(lo%64)) | v<<(lo%64)
	if lo%64+n > 64 {
		s := 64 - lo%64
		w[lo/64+1] = w[lo/64+1]&^(mask>>s) | v>>s
	}
}

// PutBool writes bit i of the port.
func (p Port) PutBool(rec []uint64, i int, v bool) { p.Put(rec, i, 1, B(v)) }

// PutWords writes 32-bit words into the port, word j at bit 32 j.
func (p Port) PutWords(rec []uint64, words []uint32) {
	for j, x := range words {
		p.Put(rec, 32*j, 32, uint64(x))
	}
}

// B returns 1 for true and 0 for false.
func B(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// Due is a queue of what a bench expects at given cycles, in cycle order.
type Due[T any] struct {
	cycles []uint64
	items  []T
}

// Add expects v at cycle (not before the last one added).
func (d *Due[T]) Add(cycle uint64, v T) {
	d.cycles = append(d.cycles, cycle)
	d.items = append(d.items, v)
}

// Take returns what is expected at cycle, if anything.
func (d *Due[T]) Take(cycle uint64) (T, bool) {
	var v T
	if len(d.cycles) == 0 || d.cycles[0] != cycle {
		return v, false
	}
	v = d.items[0]
	d.cycles, d.items = d.cycles[1:], d.items[1:]
	return v, true
}

// Len returns the number of expectations not yet taken.
func (d *Due[T]) Len() int { return len(d.cycles) }

// Field is one output field of a cycle and its expected value.
type Field struct {
	Name      string
	Got, Want uint64
}

// Compare fails the test at the first field that differs; what says which
// beat or record the fields are of.
func (b *Bench) Compare(cycle uint64, what string, fields []Field) {
	b.t.Helper()
	for _, f := range fields {
		if f.Got != f.Want {
			b.Fail(cycle, "%s: %s = %#x, want %#x", what, f.Name, f.Got, f.Want)
		}
	}
}

// SendFrames sends n random frames of gen with send, a few idle cycles
// before every second one.
func (b *Bench) SendFrames(gen *Gen, n int, send func(Frame)) {
	for i, f := range gen.Frames(n) {
		if i%2 == 0 {
			b.Idle(gen.Rng.IntN(4))
		}
		send(f)
	}
}

// PutBeat writes the beat fields of bt that a part takes at a stage, the
// ports named prefix + valid, last, data, pmask, B and Bn (those of p).
func PutBeat(r []uint64, p map[string]Port, prefix string, g Geom, bt Beat) {
	put := func(name string, lo, n int, v uint64) {
		if q, ok := p[prefix+name]; ok {
			q.Put(r, lo, n, v)
		}
	}
	put("valid", 0, 1, 1)
	put("last", 0, 1, B(bt.Last))
	put("pmask", 0, g.WPB, bt.PMask)
	put("B", 0, 16, uint64(bt.B))
	put("Bn", 0, 16-g.LW, uint64(bt.Bn))
	if q, ok := p[prefix+"data"]; ok {
		q.PutWords(r, bt.Data)
	}
}

// F returns a Field.
func F(name string, got, want uint64) Field { return Field{Name: name, Got: got, Want: want} }

// EachWidth runs f as a parallel subtest "wN" per data width.
func EachWidth(t *testing.T, widths []int, f func(t *testing.T, width int)) {
	for _, w := range widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			f(t, w)
		})
	}
}
