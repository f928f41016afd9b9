// Package walkstore checks rtl/mpa_rx_walk_store.v, the walker's record
// store, in co-simulation against a cycle model written from its header
// contract and mpa_rx_fifo's (Model): random records leaving random
// numbers of slots, frames, and rec_ready at random, so that banks fill
// and records are dropped frame by frame.
package walkstore

import (
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/walkref"
)

var (
	seedFlag = flag.Uint64("seed", 20261106, "seed of the random stimulus")
	cycles   = flag.Int("cycles", 60000, "cycles per test and width")
)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 256, 512}

// MaxFPDUs is the variants' MAX_FPDUS (the RTL's default).
const MaxFPDUs = 512

// rec is one record as the store keeps it.
type rec struct {
	lseq        uint16
	word        uint32
	hdr         [4]uint32
	first, last bool
}

// fifo is mpa_rx_fifo as its header states it: a RAM of depth entries
// and an output register; full while the RAM holds depth entries; an entry
// written in cycle t is out from t + 2.
type fifo struct {
	ram   []rec
	out   rec
	outOK bool
	depth int
}

// Model is the store's cycle model: the slot pointer, the bank order, the
// frame's overflow state, the banks and the read pointer.
type Model struct {
	g        walkref.Geom
	banks    []fifo
	wslot    int // bank of the next record to store
	pptr     int // record slot of the next record to leave
	ovf      bool
	ovfIn    bool // !(the next beat's first) && ovf, as the RTL registers it
	rd       int
	nok      int
	ovfOut   bool
	capacity int
	dropped  int // records dropped
}

// NewModel returns the model of the store at geometry g.
func NewModel(g walkref.Geom) *Model {
	per := (MaxFPDUs + g.NREC - 1) / g.NREC
	d := 1
	for d < per {
		d <<= 1
	}
	m := &Model{g: g, banks: make([]fifo, g.NREC), capacity: g.NREC * (d + 1)}
	for i := range m.banks {
		m.banks[i].depth = d
	}
	return m
}

// beat is one cycle's input.
type beat struct {
	saFirst bool
	valid   bool
	npush   int
	slots   []rec // per record slot (its last flag is sl_lastf)
	ready   bool
}

// Step computes a cycle's outputs, then takes the clock edge.
func (m *Model) Step(in beat) (recValid bool, head rec, nok int, ovf bool) {
	recValid, head = m.banks[m.rd].outOK, m.banks[m.rd].out
	nok, ovf = m.nok, m.ovfOut
	// the records that leave, to consecutive banks from wslot
	var wr []int
	bovf := m.ovfIn
	for i := 0; i < in.npush; i++ {
		bk := (m.wslot + i) % m.g.NREC
		if bovf || len(m.banks[bk].ram) == m.banks[bk].depth {
			bovf = true
			continue
		}
		wr = append(wr, i)
	}
	m.nok, m.ovfOut = len(wr), bovf
	m.dropped += in.npush - len(wr)
	pop := recValid && in.ready
	for b := range m.banks {
		f := &m.banks[b]
		load := len(f.ram) > 0 && (!f.outOK || (pop && b == m.rd))
		if pop && b == m.rd {
			f.outOK = false
		}
		if load {
			f.out, f.outOK = f.ram[0], true
			f.ram = f.ram[1:]
		}
	}
	for _, i := range wr {
		bk := (m.wslot + i) % m.g.NREC
		m.banks[bk].ram = append(m.banks[bk].ram, in.slots[(m.pptr+i)%m.g.NREC])
	}
	if pop {
		m.rd = (m.rd + 1) % m.g.NREC
	}
	st := m.ovf
	if in.valid {
		m.wslot = (m.wslot + len(wr)) % m.g.NREC
		m.pptr = (m.pptr + in.npush) % m.g.NREC
		m.ovf = bovf
		st = bovf
	}
	m.ovfIn = !in.saFirst && st
	return
}

type bench struct {
	*walkref.Bench
	g       walkref.Geom
	gen     *walkref.Gen
	p       map[string]walkref.Port
	m       *Model
	ins     []beat
	stored  int
	dropped int
	read    int
}

func newBench(t *testing.T, width int, seed uint64) *bench {
	g := walkref.NewGeom(width)
	b := &bench{Bench: walkref.NewBench(t, fmt.Sprintf("mpa_rx_walk_store_w%d", width)), g: g, gen: walkref.NewGen(seed, g), m: NewModel(g)}
	b.p = b.Ports("sa_first", "sl_valid", "sl_npush", "sl_lastf", "rs_lseq", "rs_word", "rs_hdr", "rs_first",
		"st_nok", "st_ovf", "rec_valid", "rec_ready", "rec_lseq_w", "rec_ulen", "rec_ctrl", "rec_ulp", "rec_hdr",
		"rec_first", "rec_last")
	b.Check = b.check
	return b
}

// run drives n cycles: beats with probability beatProb, of up to NREC
// records (more often few), frames of 1 to 8 beats, rec_ready high with
// probability readyProb.
func (b *bench) run(n int, beatProb, readyProb float64) {
	g, rng, p := b.g, b.gen.Rng, b.p
	left := 0 // beats left in the frame
	nextFirst := true
	for c := 0; c < n; c++ {
		in := beat{ready: rng.Float64() < readyProb, slots: make([]rec, g.NREC)}
		for s := range in.slots {
			x := &in.slots[s]
			x.lseq, x.word = uint16(rng.Uint32()), rng.Uint32()
			for k := range x.hdr {
				x.hdr[k] = rng.Uint32()
			}
			x.first, x.last = rng.IntN(2) == 0, rng.IntN(2) == 0
		}
		if rng.Float64() < beatProb {
			in.valid = true
			if left == 0 {
				left = 1 + rng.IntN(8)
			}
			left--
			in.npush = rng.IntN(g.NREC + 1)
			if rng.IntN(2) == 0 {
				in.npush = rng.IntN(2)
			}
		}
		b.ins = append(b.ins, in)
		// sa_first: the first flag of the next beat, a cycle ahead
		if in.valid {
			nextFirst = left == 0
		}
		in.saFirst = nextFirst
		b.ins[len(b.ins)-1].saFirst = nextFirst
		r := b.Next()
		p["sa_first"].PutBool(r, 0, in.saFirst)
		p["sl_valid"].PutBool(r, 0, in.valid)
		p["sl_npush"].Put(r, 0, 3, uint64(in.npush))
		p["rec_ready"].PutBool(r, 0, in.ready)
		for s, x := range in.slots {
			p["rs_lseq"].Put(r, 16*s, 16, uint64(x.lseq))
			p["rs_word"].Put(r, 32*s, 32, uint64(x.word))
			for k, h := range x.hdr {
				p["rs_hdr"].Put(r, 128*s+96-32*k, 32, uint64(h))
			}
			p["rs_first"].PutBool(r, s, x.first)
			p["sl_lastf"].PutBool(r, s, x.last)
		}
	}
}

func (b *bench) check(cycle uint64, _, out []uint64) {
	in := b.ins[0]
	b.ins = b.ins[1:]
	o := func(name string, lo, n int) uint64 { return b.p[name].Get(out, lo, n) }
	valid, head, nok, ovf := b.m.Step(in)
	if got := o("rec_valid", 0, 1) != 0; got != valid {
		b.Fail(cycle, "rec_valid %v, want %v", got, valid)
	}
	if nok != int(o("st_nok", 0, 3)) || ovf != (o("st_ovf", 0, 1) != 0) {
		b.Fail(cycle, "st_nok %d st_ovf %d, want %d %v", o("st_nok", 0, 3), o("st_ovf", 0, 1), nok, ovf)
	}
	b.stored += nok
	if valid {
		got := rec{
			lseq:  uint16(o("rec_lseq_w", 0, 16)),
			word:  uint32(o("rec_ulen", 8, 8) | o("rec_ulen", 0, 8)<<8 | o("rec_ctrl", 0, 8)<<16 | o("rec_ulp", 0, 8)<<24),
			first: o("rec_first", 0, 1) != 0,
			last:  o("rec_last", 0, 1) != 0,
		}
		for k := range got.hdr {
			got.hdr[k] = uint32(o("rec_hdr", 96-32*k, 32))
		}
		if got != head {
			b.Fail(cycle, "record\n got  %+v\n want %+v", got, head)
		}
		if in.ready {
			b.read++
		}
	}
}

func (b *bench) finish(t *testing.T) {
	b.Run()
	require.Empty(t, b.ins)
	t.Logf("%s: %d records stored, %d dropped, %d read", b.Variant, b.stored, b.m.dropped, b.read)
}

// TestFlow runs beats with rec_ready mostly high: the banks stay short.
func TestFlow(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+uint64(w))
		b.run(*cycles, 0.3, 0.95)
		b.finish(t)
		require.Zero(t, b.m.dropped)
	})
}

// TestOverflow fills the store with rec_ready low, lets it drain, and does
// it again: frames whose records do not fit keep their first ones.
func TestOverflow(t *testing.T) {
	walkref.EachWidth(t, Widths, func(t *testing.T, w int) {
		b := newBench(t, w, *seedFlag+100+uint64(w))
		for i := 0; i < 4; i++ {
			b.run(*cycles/8, 0.8, 0.02)
			b.run(*cycles/8, 0.05, 0.9)
		}
		b.finish(t)
		require.Greater(t, b.stored, b.m.capacity)
		require.NotZero(t, b.m.dropped)
	})
}
