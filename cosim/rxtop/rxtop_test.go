// Package rxtop tests rtl/mpa_rx.v, the receiver top, against the
// functional model of the hardware (golden/fastpath) on every vector.
package rxtop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/vector"
)

// Slots is CONN_COUNT of the test variants.
const Slots = 1024

// event is a decoded m_evt beat.
type event struct {
	kind     int
	idx      int
	seq, end uint32
	plen     int
	verdict  int
	reason   int
}

func decode(w []uint64) event {
	hi := w[1]
	lo := w[0]
	return event{
		kind:    int(hi >> 60),
		idx:     int(hi >> 48 & 0xfff),
		seq:     uint32(hi >> 16),
		end:     uint32((hi&0xffff)<<16 | lo>>48),
		plen:    int(lo >> 32 & 0xffff),
		verdict: int(lo >> 28 & 3),
		reason:  int(lo >> 24 & 0xf),
	}
}

// rtl drives one mpa_rx instance a cycle at a time.
type rtl struct {
	t    *testing.T
	sim  *cosim.Sim
	in   []uint64
	out  []uint64
	p    map[string]cosim.Port
	lane int

	events []event
	exc    []byte   // exception octets of the frame being output
	excs   [][]byte // completed exception frames
	reason []int
}

func newRTL(t *testing.T, width int) *rtl {
	sim, err := cosim.Open(fmt.Sprintf("mpa_rx_w%d", width))
	require.NoError(t, err)
	t.Cleanup(func() { sim.Close() })
	r := &rtl{t: t, sim: sim, in: sim.NewIn(1), out: sim.NewOut(1), p: map[string]cosim.Port{}, lane: width / 8}
	for _, p := range sim.Ports() {
		r.p[p.Name] = p
	}
	sim.Reset(4)
	r.p["m_evt_tready"].SetBool(r.in, true)
	r.p["m_exc_axis_tready"].SetBool(r.in, true)
	return r
}

// step runs one cycle and collects the outputs that fired.
func (r *rtl) step() {
	r.sim.Step(1, r.in, r.out)
	p := r.p
	if p["m_evt_tvalid"].Bit(r.out) && p["m_evt_tready"].Bit(r.in) {
		r.events = append(r.events, decode(p["m_evt_tdata"].Slice(r.out)))
	}
	if p["m_exc_axis_tvalid"].Bit(r.out) && p["m_exc_axis_tready"].Bit(r.in) {
		b := p["m_exc_axis_tdata"].AppendBytes(nil, r.out)
		k := p["m_exc_axis_tkeep"].Get(r.out)
		for i := 0; i < r.lane; i++ {
			if k>>i&1 != 0 || (r.lane == 64 && k == ^uint64(0)) {
				r.exc = append(r.exc, b[i])
			}
		}
		if p["m_exc_axis_tlast"].Bit(r.out) {
			r.excs = append(r.excs, r.exc)
			r.reason = append(r.reason, int(p["m_exc_axis_tuser"].Get(r.out)))
			r.exc = nil
		}
	}
}

// frame sends one frame, waiting on s_axis_tready.
func (r *rtl) frame(b []byte) {
	p := r.p
	for off := 0; off < len(b); {
		end := min(off+r.lane, len(b))
		p["s_axis_tdata"].SetBytes(r.in, b[off:end])
		if end-off == 64 {
			p["s_axis_tkeep"].Set(r.in, ^uint64(0))
		} else {
			p["s_axis_tkeep"].Set(r.in, 1<<(end-off)-1)
		}
		p["s_axis_tvalid"].SetBool(r.in, true)
		p["s_axis_tlast"].SetBool(r.in, end == len(b))
		for n := 0; ; n++ {
			require.Less(r.t, n, 100000, "s_axis_tready stuck low")
			r.step()
			if p["s_axis_tready"].Bit(r.out) {
				break
			}
		}
		off = end
	}
	p["s_axis_tvalid"].SetBool(r.in, false)
	p["s_axis_tlast"].SetBool(r.in, false)
}

// config writes a context through the configuration port.
func (r *rtl) config(t wire.FourTuple, c fastpath.Context) {
	p := r.p
	w := p["cfg_data"].Slice(r.in)
	clear(w)
	set := func(bit int, width int, v uint64) {
		for i := 0; i < width; i++ {
			if v>>i&1 != 0 {
				w[(bit+i)/64] |= 1 << ((bit + i) % 64)
			}
		}
	}
	b := func(v bool) uint64 {
		if v {
			return 1
		}
		return 0
	}
	set(0, 1, 1)
	set(1, 1, b(c.Full))
	set(2, 1, b(c.Err))
	set(3, 1, b(c.SWOwned))
	set(4, 1, b(c.Params.Markers))
	set(5, 1, b(c.Params.CRC))
	set(8, 12, uint64(c.Stream))
	set(32, 32, uint64(c.Params.SeqStart))
	set(64, 32, uint64(c.RcvNxt))
	set(96, 32, uint64(binary.BigEndian.Uint32(t.SrcIP[:])))
	set(128, 32, uint64(binary.BigEndian.Uint32(t.DstIP[:])))
	set(160, 16, uint64(t.SrcPort))
	set(176, 16, uint64(t.DstPort))
	for i, rg := range c.Ranges {
		set(6+i, 1, 1)
		set(192+64*i, 32, uint64(rg.Start))
		set(224+64*i, 32, uint64(rg.End))
	}
	p["cfg_index"].Set(r.in, uint64(fastpath.Index(t, Slots)))
	p["cfg_valid"].SetBool(r.in, true)
	for n := 0; ; n++ {
		require.Less(r.t, n, 1000, "cfg_ready stuck low")
		r.step()
		if p["cfg_ready"].Bit(r.out) {
			break
		}
	}
	p["cfg_valid"].SetBool(r.in, false)
}

var rtlVerdict = map[fastpath.Verdict]int{fastpath.Place: 0, fastpath.Exception: 1, fastpath.Drop: 2, fastpath.Ignore: 3}

func dropCode(err error) int {
	switch {
	case errors.Is(err, wire.ErrIPChecksum):
		return 2
	case errors.Is(err, wire.ErrTCPChecksum):
		return 3
	}
	return 1
}

// Frame by frame (each frame's outputs drained and software's context writes
// made before the next), the RTL decides every frame of every vector as the
// functional model does: verdict, reason, the context updates behind
// ADVANCED and CONSUMED, drop reasons, and exception frames octet for octet.
func TestVerdictsMatchModel(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	for _, width := range []int{64, 128} {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			for _, dir := range dirs {
				v, err := vector.Load(dir)
				require.NoError(t, err)
				t.Run(v.Setup.Name, func(t *testing.T) { runVector(t, width, v) })
			}
		})
	}
}

func runVector(t *testing.T, width int, v *vector.Vector) {
	sys := fastpath.NewSystem(ddp.NewMemory(), v.Setup.Receiver.Window)
	sys.HW.Slots = Slots
	sys.SetVersion(v.Setup.Receiver.DDPVersion)
	specs, err := v.Setup.ConnSpecs()
	require.NoError(t, err)
	for _, c := range specs {
		sys.AddConn(c)
	}
	type write struct {
		t wire.FourTuple
		c fastpath.Context
	}
	var writes []write
	sys.OnConfig = func(t wire.FourTuple, c fastpath.Context) { writes = append(writes, write{t, c}) }
	r := newRTL(t, width)
	for i, f := range v.Frames {
		writes = writes[:0]
		res := sys.Frame(f.Data)
		r.events, r.excs, r.reason = nil, nil, nil
		r.frame(f.Data)
		// Drain: the verdict, the second event, the exception frame.
		want := rtlVerdict[res.Verdict]
		for n := 0; ; n++ {
			require.Less(t, n, 200000, "frame %d: no verdict", i)
			r.step()
			if len(r.events) == 0 {
				continue
			}
			done := true
			switch r.events[0].verdict {
			case 0, 2:
				done = len(r.events) >= 2
			case 1:
				done = len(r.excs) == 1
			}
			if done {
				break
			}
		}
		for k := 0; k < 4; k++ {
			r.step()
		}
		ev := r.events[0]
		require.Equal(t, 7, ev.kind, "frame %d: first event", i)
		require.Equal(t, want, ev.verdict, "frame %d: verdict (model %v reason %d, rtl reason %d)", i, res.Verdict, res.Reason, ev.reason)
		if res.Verdict == fastpath.Exception {
			require.Equal(t, int(res.Reason), ev.reason, "frame %d: reason", i)
			require.Len(t, r.excs, 1, "frame %d: exception frame", i)
			require.True(t, bytes.Equal(f.Data, r.excs[0]), "frame %d: exception octets", i)
			require.Equal(t, int(res.Reason), r.reason[0], "frame %d: exception tuser", i)
		} else {
			require.Empty(t, r.excs, "frame %d: exception output for a %v frame", i, res.Verdict)
		}
		for _, e := range res.Events {
			switch e.Kind {
			case fastpath.Advanced:
				require.Len(t, r.events, 2, "frame %d", i)
				require.Equal(t, 5, r.events[1].kind, "frame %d: ADVANCED", i)
				require.Equal(t, e.End, r.events[1].end, "frame %d: ADVANCED to", i)
			case fastpath.Consumed:
				require.Len(t, r.events, 2, "frame %d", i)
				require.Equal(t, 6, r.events[1].kind, "frame %d: CONSUMED", i)
				require.Equal(t, [2]uint32{e.Seq, e.End}, [2]uint32{r.events[1].seq, r.events[1].end}, "frame %d: CONSUMED range", i)
			case fastpath.Dropped:
				require.Len(t, r.events, 2, "frame %d", i)
				require.Equal(t, 4, r.events[1].kind, "frame %d: DROP", i)
				require.Equal(t, dropCode(e.Err), r.events[1].verdict, "frame %d: drop code", i)
			}
		}
		for _, w := range writes {
			r.config(w.t, w.c)
		}
	}
}
