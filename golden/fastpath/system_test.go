package fastpath_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// tables are the hardware's table sizes: contexts, STags, receive buffers
// per queue (0: unlimited).
type tables struct{ slots, stags, rq int }

// newSystem loads a vector's setup into a hardware+software system.
func newSystem(t *testing.T, v *vector.Vector, tb ...tables) (*fastpath.System, *ddp.Memory) {
	t.Helper()
	var n tables
	if len(tb) > 0 {
		n = tb[0]
	}
	s, err := replay.NewSystem(&v.Setup, n.slots, n.stags, n.rq)
	require.NoError(t, err)
	return s, s.HWPlacer.Memory()
}

// outcome is what a run reports, in forms that do not depend on which
// engine (hardware or software) reported it or when.
type outcome struct {
	ULPDUs     []string // half, seq, len, digest: sorted
	Placed     []string // half, seq, addr: sorted
	Errors     []string // MPA errors: half, code, seq: sorted
	DDPErrors  []string // half, seq, kind: sorted
	Drops      []string // seq: sorted
	Deliveries map[string][]uint32
}

func summarize(evs []rx.Event) outcome {
	o := outcome{Deliveries: map[string][]uint32{}}
	for _, e := range evs {
		h := e.Half.String()
		switch e.Kind {
		case rx.ULPDU:
			o.ULPDUs = append(o.ULPDUs, fmt.Sprintf("%s %d %d %x", h, e.Seq, e.Len, e.SHA256[:8]))
		case rx.Placed:
			o.Placed = append(o.Placed, fmt.Sprintf("%s %d %#x", h, e.Seq, e.Addr))
		case rx.MPAError:
			o.Errors = append(o.Errors, fmt.Sprintf("%s code %d at %d", h, e.Code, e.Seq))
		case rx.DDPError:
			o.DDPErrors = append(o.DDPErrors, fmt.Sprintf("%s %d %s", h, e.Seq, replay.DDPErrorName(e.Err)))
		case rx.Dropped:
			o.Drops = append(o.Drops, fmt.Sprintf("%d %s", e.Seq, replay.DropName(e.Err)))
		case rx.Delivered:
			o.Deliveries[h] = append(o.Deliveries[h], e.Seq)
		}
	}
	for _, l := range [][]string{o.ULPDUs, o.Placed, o.Errors, o.DDPErrors, o.Drops} {
		sort.Strings(l)
	}
	return o
}

// On every vector, what the hardware placed together with what software
// placed from the frames handed to it equals the golden receiver's result
// over all frames: the same ULPDUs, placements, errors, deliveries (in
// order) and final buffer contents; also with a 16-entry context table in
// which half connections collide, and with the co-simulated RTL's table
// sizes (256 STags, 32 receive buffers per queue) and smaller ones (4
// buffers per queue: software refills the hardware's queues as messages
// are delivered).
func TestUnionEqualsGolden(t *testing.T) {
	for _, tb := range []tables{{0, 0, 0}, {16, 0, 0}, {1024, 256, 32}, {1024, 256, 4}} {
		t.Run(fmt.Sprintf("slots=%d,stags=%d,rq=%d", tb.slots, tb.stags, tb.rq), func(t *testing.T) { testUnion(t, tb) })
	}
}

func testUnion(t *testing.T, slots tables) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	total := map[fastpath.Verdict]int{}
	for _, dir := range dirs {
		v, err := vector.Load(dir)
		require.NoError(t, err)
		t.Run(v.Setup.Name, func(t *testing.T) {
			var golden []rx.Event
			g, err := replay.NewGolden(&v.Setup, rx.Config{Digests: true, OnEvent: func(e *rx.Event) { golden = append(golden, *e) }})
			require.NoError(t, err)
			s, mem := newSystem(t, v, slots)
			for _, f := range v.Frames {
				g.Receiver.Frame(f.Data)
				s.Frame(f.Data)
			}
			require.NoError(t, s.Err)
			assert.Equal(t, summarize(golden), summarize(s.Events))
			for _, b := range v.Setup.Buffers() {
				assert.Equal(t, g.Placer.Memory().Read(b.Addr, int(b.Len)), mem.Read(b.Addr, int(b.Len)), "buffer %#x", b.Addr)
			}
			for k, n := range s.Verdicts {
				total[k] += n
			}
			t.Logf("verdicts %v reasons %v", s.Verdicts, s.Reasons)
		})
	}
	t.Logf("all vectors: %v", total)
}

// The hardware takes the cases it is built for and hands over the rest with
// the right reason.
func TestVerdictsByScenario(t *testing.T) {
	tests := []struct {
		vector  string
		verdict fastpath.Verdict
		reason  fastpath.Reason // 0: only check the verdict occurs
		noExc   []fastpath.Reason
	}{
		{"aligned", fastpath.Place, 0, []fastpath.Reason{fastpath.Unaligned, fastpath.OutOfOrder, fastpath.MPACheck, fastpath.SWOwned}},
		{"packed", fastpath.Place, 0, []fastpath.Reason{fastpath.Unaligned, fastpath.MPACheck}},
		{"jumbo", fastpath.Place, 0, []fastpath.Reason{fastpath.Unaligned, fastpath.MPACheck}},
		{"link-headers", fastpath.Place, 0, []fastpath.Reason{fastpath.Unaligned, fastpath.MPACheck}},
		{"crc-corrupt", fastpath.Exception, fastpath.MPACheck, nil},
		{"marker-fpduptr-bad", fastpath.Exception, fastpath.MPACheck, nil},
		{"fin-mid-message", fastpath.Exception, fastpath.Flags, nil},
		{"rst-mid-message", fastpath.Exception, fastpath.Flags, nil},
		{"resegment-octet", fastpath.Exception, fastpath.Unaligned, nil},
		{"out-of-order-no-markers", fastpath.Exception, fastpath.OutOfOrder, nil},
		{"out-of-order", fastpath.Place, 0, nil},
		{"bad-checksums", fastpath.Drop, 0, nil},
		{"mixed-traffic", fastpath.Exception, fastpath.NotTCP, nil},
		{"startup-bad-key", fastpath.Exception, fastpath.NoConn, nil},
		// Rev 2 peer-to-peer: software keeps both halves until the RTR is
		// validated, then the hardware places the rest.
		{"rev2-p2p-write", fastpath.Place, 0, nil},
		{"rev2-p2p-read", fastpath.Place, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.vector, func(t *testing.T) {
			v, err := vector.Load(filepath.Join("..", "..", "vectors", tt.vector))
			require.NoError(t, err)
			s, _ := newSystem(t, v)
			for _, f := range v.Frames {
				s.Frame(f.Data)
			}
			require.NoError(t, s.Err)
			assert.Positive(t, s.Verdicts[tt.verdict], "verdicts %v", s.Verdicts)
			if tt.reason != 0 {
				assert.Positive(t, s.Reasons[tt.reason], "reasons %v", s.Reasons)
			}
			for _, r := range tt.noExc {
				assert.Zero(t, s.Reasons[r], "reason %d in %v", r, s.Reasons)
			}
		})
	}
}

// Out of order with markers, the hardware places segments at once and
// records them; the in-order point jumps over them when the gap fills.
func TestOutOfOrderRanges(t *testing.T) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "out-of-order"))
	require.NoError(t, err)
	s, _ := newSystem(t, v)
	consumed, jumps := 0, 0
	for _, f := range v.Frames {
		res := s.Frame(f.Data)
		for _, ev := range res.Events {
			switch ev.Kind {
			case fastpath.Consumed:
				consumed++
			case fastpath.Advanced:
				if ev.End-ev.Seq > uint32(len(f.Data)) {
					jumps++
				}
			}
		}
	}
	require.NoError(t, s.Err)
	assert.Positive(t, consumed, "segments placed out of order")
	assert.Positive(t, jumps, "in-order point jumped over recorded ranges")
}
