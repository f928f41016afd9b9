package rx

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// frame builds an Ethernet/IPv4/TCP frame with gopacket (an implementation
// independent of golden/wire) with ACK and the given flags set (tcpFrame).
func frame(t testing.TB, tu wire.FourTuple, seq uint32, flags uint8, payload []byte) []byte {
	t.Helper()
	return tcpFrame(t, tu, seq, flags|wire.FlagACK, payload)
}

// testConn is an MPA connection built with golden/mpa: startup frames and
// one framed stream per direction.
type testConn struct {
	tu         wire.FourTuple
	iseq, rseq uint32
	req, rep   mpa.Startup
	i2r, r2i   *mpa.Stream
}

func newTestConn(k int, req, rep mpa.Startup, iseq, rseq uint32) *testConn {
	tu := wire.FourTuple{SrcIP: [4]byte{10, 0, 0, 1}, DstIP: [4]byte{10, 0, 0, 2}, SrcPort: uint16(40000 + k), DstPort: 4791}
	n, _ := mpa.Negotiate(req, rep)
	c := &testConn{tu: tu, iseq: iseq, rseq: rseq, req: req, rep: rep}
	c.i2r = mpa.NewStream(mpa.Half{Markers: n.InitiatorMarkers, CRC: n.CRC, SeqStart: iseq + uint32(req.Len())})
	c.r2i = mpa.NewStream(mpa.Half{Markers: n.ResponderMarkers, CRC: n.CRC, SeqStart: rseq + uint32(rep.Len())})
	return c
}

func (c *testConn) spec() ConnSpec {
	return ConnSpec{Tuple: c.tu, InitiatorSeq: c.iseq, ResponderSeq: c.rseq}
}

// startupFrames returns the Request and Reply, each in one segment.
func (c *testConn) startupFrames(t testing.TB) [][]byte {
	return [][]byte{
		frame(t, c.tu, c.iseq, wire.FlagPSH, c.req.Append(nil)),
		frame(t, c.tu.Reverse(), c.rseq, wire.FlagPSH, c.rep.Append(nil)),
	}
}

func segFrames(t testing.TB, tu wire.FourTuple, segs []mpa.Segment) [][]byte {
	var out [][]byte
	for _, g := range segs {
		out = append(out, frame(t, tu, g.Seq, 0, g.Data))
	}
	return out
}

type ulpduKey struct {
	half string
	seq  uint32
	sum  [32]byte
}

func ulpdus(evs []Event) []ulpduKey {
	var out []ulpduKey
	for _, e := range evs {
		if e.Kind == ULPDU {
			out = append(out, ulpduKey{e.Half.String(), e.Seq, e.SHA256})
		}
	}
	return sortKeys(out)
}

func sortKeys(out []ulpduKey) []ulpduKey {
	sort.Slice(out, func(i, j int) bool {
		if out[i].half != out[j].half {
			return out[i].half < out[j].half
		}
		return out[i].seq < out[j].seq
	})
	return out
}

func expected(tu wire.FourTuple, s *mpa.Stream, payloads [][]byte) []ulpduKey {
	var out []ulpduKey
	for i, f := range s.FPDUs {
		out = append(out, ulpduKey{tu.String(), f.LengthSeq, digest(payloads[i])})
	}
	return sortKeys(out)
}

func errorsOf(evs []Event) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == MPAError {
			out = append(out, e)
		}
	}
	return out
}

// Random ULPDUs, framed, segmented at random, reordered and duplicated,
// come out of the receiver exactly once each, for every combination of
// markers and CRC and near sequence wrap.
func TestRoundTripProperty(t *testing.T) {
	type cfg struct {
		m, c  bool
		seq   uint32
		order string
	}
	var cases []cfg
	for _, m := range []bool{false, true} {
		for _, c := range []bool{false, true} {
			for _, seq := range []uint32{1000, 0xffffffff - 3000, 0xfffffff0} {
				for _, order := range []string{"inorder", "shuffle", "reverse"} {
					cases = append(cases, cfg{m, c, seq, order})
				}
			}
		}
	}
	for i, tc := range cases {
		t.Run(fmt.Sprintf("m=%v/c=%v/seq=%#x/%s", tc.m, tc.c, tc.seq, tc.order), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			req := mpa.NewStartup(false, tc.m, tc.c, []byte("req"))
			rep := mpa.NewStartup(true, tc.m, false, nil)
			c := newTestConn(i, req, rep, tc.seq, tc.seq^0x5555)
			var pl [][]byte
			for n := 0; n < 60; n++ {
				u := make([]byte, 1+rng.IntN(2500))
				for j := range u {
					u[j] = byte(rng.Uint32())
				}
				pl = append(pl, u)
				c.i2r.Add(u)
			}
			var segs []mpa.Segment
			switch rng.IntN(3) {
			case 0:
				segs = c.i2r.Aligned(1460)
			case 1:
				segs = c.i2r.Random(rng, 1, 3000)
			default:
				segs = c.i2r.OnePerSegment()
			}
			// Duplicate a fifth of the segments, re-cut some on other
			// boundaries (a retransmission), and reorder.
			var all []mpa.Segment
			for _, g := range segs {
				all = append(all, g)
				if rng.IntN(5) == 0 {
					all = append(all, g)
				}
				if rng.IntN(7) == 0 && len(g.Data) > 2 {
					k := 1 + rng.IntN(len(g.Data)-1)
					all = append(all, mpa.Segment{Seq: g.Seq, Data: g.Data[:k]}, mpa.Segment{Seq: g.Seq + uint32(k), Data: g.Data[k:]})
				}
			}
			switch tc.order {
			case "shuffle":
				rng.Shuffle(len(all), func(a, b int) { all[a], all[b] = all[b], all[a] })
			case "reverse":
				for a, b := 0, len(all)-1; a < b; a, b = a+1, b-1 {
					all[a], all[b] = all[b], all[a]
				}
			}
			r := New(Config{Digests: true})
			r.AddConn(c.spec())
			frames := c.startupFrames(t)
			frames = append(frames, segFrames(t, c.tu, all)...)
			for _, f := range frames {
				r.Frame(f)
			}
			assert.Equal(t, expected(c.tu, c.i2r, pl), ulpdus(r.Events()))
			assert.Empty(t, errorsOf(r.Events()))
		})
	}
}
