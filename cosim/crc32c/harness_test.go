package crc32c

import (
	"encoding/binary"
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
)

var (
	// After -args: `go test -trace` is Go's execution tracer.
	traceDir = flag.String("trace", "", "write an FST waveform of every simulation into this directory (default: $MPARX_TRACE)")
	seedFlag = flag.Uint64("seed", 20260101, "seed of the random stimulus")
	msgs64   = flag.Int("msgs64", 100000, "random messages at DATA_WIDTH 64")
	msgsWide = flag.Int("msgs", 10000, "random messages at DATA_WIDTH 128, 256 and 512")
)

// batchCycles is the number of cycles per lockstep batch (one cgo call).
const batchCycles = 8192

// harness drives one crc32c variant in lockstep with Model: beats go through
// a cosim source, m_axis_tready comes from the input records (random
// backpressure), and every CRC the RTL hands over is also checked against an
// expected value computed without the RTL or the model.
type harness struct {
	t      testing.TB
	width  int
	lanes  int
	sim    *cosim.Sim
	ls     *cosim.Lockstep
	src    *cosim.Source
	in     []uint64
	rec    []uint64
	mready cosim.Port
	mvalid cosim.Port
	mdata  cosim.Port
	rng    *rand.Rand
	seed   uint64

	gapProb   float64 // probability of idle cycles before a beat
	stallProb float64 // probability of m_axis_tready low in a cycle
	rstProb   float64 // probability of a 1-3 cycle reset pulse starting in a cycle
	rst       cosim.Port

	want []uint32 // expected CRCs not yet seen, in order
	seen int
}

func newHarness(t testing.TB, width int, seed uint64) *harness {
	t.Helper()
	sim, err := cosim.Open(Variant(width), cosim.Name(t.Name()), cosim.TraceDir(*traceDir))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sim.Close()) })
	sim.Reset(4)
	ls, err := cosim.NewLockstep(sim, NewModel(&sim.Layout, width), cosim.CompareWhen("m_axis_tdata", "m_axis_tvalid"))
	require.NoError(t, err)
	src, err := sim.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast")
	require.NoError(t, err)
	return &harness{
		t:      t,
		width:  width,
		lanes:  width / 8,
		sim:    sim,
		ls:     ls,
		src:    src,
		in:     sim.NewIn(batchCycles),
		rec:    make([]uint64, src.PayloadWords()),
		mready: sim.Port("m_axis_tready"),
		mvalid: sim.Port("m_axis_tvalid"),
		mdata:  sim.Port("m_axis_tdata"),
		rst:    sim.Port("rst"),
		rng:    rand.New(rand.NewPCG(seed, uint64(width))),
		seed:   seed,
	}
}

// push queues msg starting on byte lane start of its first beat, with random
// bytes in the null lanes, and expects crc from the RTL.
func (h *harness) push(msg []byte, start int, crc uint32) {
	dw := h.lanes / 8
	data := h.rec[:dw]
	lane := start
	for pos := 0; pos < len(msg); {
		n := min(h.lanes-lane, len(msg)-pos)
		for i := range data {
			data[i] = h.rng.Uint64()
		}
		for k := 0; k < n; k++ {
			w, sh := (lane+k)/8, 8*((lane+k)%8)
			data[w] = data[w]&^(0xff<<sh) | uint64(msg[pos+k])<<sh
		}
		var keep uint64
		if n == 64 {
			keep = ^uint64(0)
		} else {
			keep = (1<<n - 1) << lane
		}
		h.rec[dw] = keep
		pos += n
		h.rec[dw+1] = 0
		if pos == len(msg) {
			h.rec[dw+1] = 1
		}
		gap := 0
		if h.gapProb > 0 && h.rng.Float64() < h.gapProb {
			gap = 1 + h.rng.IntN(4)
		}
		h.src.Push(gap, h.rec)
		lane = 0
	}
	h.want = append(h.want, crc)
}

// step runs one lockstep batch and checks the CRCs handed over in it.
func (h *harness) step() {
	h.t.Helper()
	iw := h.sim.InWords()
	clear(h.in)
	for c := 0; c < batchCycles; c++ {
		h.mready.SetBool(h.in[c*iw:], h.stallProb == 0 || h.rng.Float64() >= h.stallProb)
		if h.rstProb > 0 && h.rng.Float64() < h.rstProb {
			for k := c; k < min(c+1+h.rng.IntN(3), batchCycles); k++ {
				h.rst.Set(h.in[k*iw:], 1)
			}
		}
	}
	if err := h.ls.Step(batchCycles, h.in); err != nil {
		h.t.Fatalf("seed %d: %v", h.seed, err)
	}
	if h.rstProb > 0 {
		// Messages cut by a reset have no CRC: only the lockstep checks.
		return
	}
	in, out := h.ls.Inputs(), h.ls.Outputs()
	ow := h.sim.OutWords()
	for c := 0; c < batchCycles; c++ {
		o := out[c*ow : (c+1)*ow]
		if !h.mvalid.Bit(o) || !h.mready.Bit(in[c*iw:(c+1)*iw]) {
			continue
		}
		if h.seen >= len(h.want) {
			h.t.Fatalf("seed %d: cycle %d: unexpected CRC %#08x after %d messages", h.seed, h.sim.Cycle()-uint64(batchCycles-c), h.mdata.Get(o), h.seen)
		}
		got := uint32(h.mdata.Get(o))
		if got != h.want[h.seen] {
			h.t.Fatalf("seed %d: message %d: CRC %#08x, want %#08x", h.seed, h.seen, got, h.want[h.seen])
		}
		h.seen++
	}
	// Keep the queue of expected values short.
	if h.seen > 4096 {
		h.want = append(h.want[:0], h.want[h.seen:]...)
		h.seen = 0
	}
}

// flowIfFull runs batches while more than a batch worth of beats is queued.
func (h *harness) flowIfFull() {
	for h.src.Pending() > batchCycles {
		h.step()
	}
}

// drain runs until every queued beat is taken and every expected CRC seen.
func (h *harness) drain() {
	h.t.Helper()
	if h.rstProb > 0 {
		h.want, h.seen = nil, 0
	}
	for i := 0; h.src.Pending() > 0 || h.seen < len(h.want); i++ {
		if i > 1000 {
			h.t.Fatalf("seed %d: %d beats pending, %d CRCs missing", h.seed, h.src.Pending(), len(h.want)-h.seen)
		}
		h.step()
	}
}

// wire returns the CRC value whose four wire octets (least significant
// first, as NOTES.md and RFC 3720 give them) are b.
func wire(b ...byte) uint32 { return binary.LittleEndian.Uint32(b) }
