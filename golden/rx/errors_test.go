package rx

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
	"github.com/mparx/mparx/golden/wire"
)

// run feeds frames to a receiver that follows c and returns its events.
func run(t *testing.T, c *testConn, policy mpa.StartupPolicy, frames [][]byte) []Event {
	t.Helper()
	r := New(Config{})
	spec := c.spec()
	spec.Policy = policy
	r.AddConn(spec)
	for _, f := range frames {
		r.Frame(f)
	}
	return r.Events()
}

func countKind(evs []Event, k Kind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// fill adds n ULPDUs of size sz to the Initiator's stream, each a DDP
// untagged Send header (L set) and a body.
func fill(c *testConn, n, sz int) [][]byte {
	var out [][]byte
	for i := 0; i < n; i++ {
		u := make([]byte, sz)
		u[0] = 0x41                                     // untagged, L, DDP version 1
		u[1] = 0x43                                     // RDMAP RV 1, Send
		binary.BigEndian.PutUint32(u[6:], 0)            // QN
		binary.BigEndian.PutUint32(u[10:], uint32(i+1)) // MSN
		for j := 18; j < sz; j++ {
			u[j] = byte(i + j)
		}
		out = append(out, u)
		c.i2r.Add(u)
	}
	return out
}

func stdConn(markers, crc bool) *testConn {
	return newTestConn(0, mpa.NewStartup(false, markers, crc, nil), mpa.NewStartup(true, markers, crc, nil), 5000, 9000)
}

func TestCRCErrorStopsTheHalf(t *testing.T) {
	for _, markers := range []bool{false, true} {
		c := stdConn(markers, true)
		fill(c, 10, 300)
		bad := append([]byte(nil), c.i2r.Data...)
		f := c.i2r.FPDUs[4]
		bad[f.Off+f.Len-1] ^= 0x01 // last CRC octet
		c.i2r.Data = bad
		frames := append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.OnePerSegment())...)
		evs := run(t, c, mpa.StartupPolicy{}, frames)
		errs := errorsOf(evs)
		require.Len(t, errs, 1)
		assert.Equal(t, CodeCRC, errs[0].Code)
		assert.Equal(t, f.LengthSeq, errs[0].Seq)
		assert.Equal(t, c.tu, errs[0].Half)
		assert.Equal(t, 4, countKind(evs, ULPDU), "the four FPDUs before it, none after")
		assert.Equal(t, 4, countKind(evs, Delivered))
	}
}

func TestCRCOffIgnoresCRCField(t *testing.T) {
	c := stdConn(true, false)
	fill(c, 5, 100)
	f := c.i2r.FPDUs[2]
	c.i2r.Data[f.Off+f.Len-2] ^= 0xff
	frames := append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.Aligned(1460))...)
	evs := run(t, c, mpa.StartupPolicy{}, frames)
	assert.Empty(t, errorsOf(evs))
	assert.Equal(t, 5, countKind(evs, ULPDU))
}

// A marker whose FPDUPTR disagrees with the FPDU start is code 3 when the
// CRC is valid (the sender computed the CRC over the bad marker).
func TestMarkerDisagrees(t *testing.T) {
	for _, crc := range []bool{false, true} {
		c := stdConn(true, crc)
		fill(c, 6, 700) // FPDUs longer than 512: every one holds a marker
		f := c.i2r.FPDUs[3]
		var moff int
		for off := f.Off + 4; off < f.Off+f.Len; off += 4 {
			if c.i2r.Half.IsMarker(c.i2r.Seq(off)) {
				moff = off
				break
			}
		}
		require.NotZero(t, moff)
		d := c.i2r.Data
		binary.BigEndian.PutUint16(d[moff+2:], binary.BigEndian.Uint16(d[moff+2:])+4)
		if crc {
			end := f.Off + f.Len
			binary.LittleEndian.PutUint32(d[end-4:], mpa.CRC32C(d[f.Off:end-4]))
		}
		frames := append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.Aligned(1460))...)
		evs := run(t, c, mpa.StartupPolicy{}, frames)
		errs := errorsOf(evs)
		require.Len(t, errs, 1, "crc=%v", crc)
		assert.Equal(t, CodeMarker, errs[0].Code)
		assert.Equal(t, f.LengthSeq, errs[0].Seq)
		assert.Equal(t, 3, countKind(evs, ULPDU))
	}
}

// The two low bits of FPDUPTR are ignored by the receiver.
func TestMarkerLowBitsIgnored(t *testing.T) {
	c := stdConn(true, false)
	fill(c, 4, 900)
	for off := 4; off < len(c.i2r.Data); off += 4 {
		if c.i2r.Half.IsMarker(c.i2r.Seq(off)) {
			c.i2r.Data[off+3] |= 3
		}
	}
	frames := append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.Aligned(1460))...)
	evs := run(t, c, mpa.StartupPolicy{}, frames)
	assert.Empty(t, errorsOf(evs))
	assert.Equal(t, 4, countKind(evs, ULPDU))
}

func TestFINAndRST(t *testing.T) {
	c := stdConn(true, true)
	fill(c, 4, 200)
	segs := c.i2r.OnePerSegment()
	// FIN in the middle: on the third segment.
	frames := c.startupFrames(t)
	for i, g := range segs[:3] {
		var fl uint8
		if i == 2 {
			fl = wire.FlagFIN
		}
		frames = append(frames, frame(t, c.tu, g.Seq, fl, g.Data))
	}
	frames = append(frames, frame(t, c.tu, segs[3].Seq, 0, segs[3].Data))
	evs := run(t, c, mpa.StartupPolicy{}, frames)
	errs := errorsOf(evs)
	require.Len(t, errs, 1)
	assert.Equal(t, CodeClosed, errs[0].Code)
	assert.Equal(t, segs[2].End(), errs[0].Seq)
	assert.Equal(t, 3, countKind(evs, ULPDU))

	// A FIN that arrives before the gap before it is filled takes effect
	// when the in-order point reaches it.
	frames = c.startupFrames(t)
	frames = append(frames, frame(t, c.tu, segs[1].Seq, wire.FlagFIN, segs[1].Data), frame(t, c.tu, segs[0].Seq, 0, segs[0].Data))
	evs = run(t, c, mpa.StartupPolicy{}, frames)
	require.Len(t, errorsOf(evs), 1)
	assert.Equal(t, 2, countKind(evs, ULPDU))

	// RST: code 1 on the half that carried it, and both halves stop.
	frames = c.startupFrames(t)
	frames = append(frames, frame(t, c.tu, segs[0].Seq, 0, segs[0].Data), frame(t, c.tu.Reverse(), c.r2i.Half.SeqStart, wire.FlagRST, nil),
		frame(t, c.tu, segs[1].Seq, 0, segs[1].Data))
	evs = run(t, c, mpa.StartupPolicy{}, frames)
	errs = errorsOf(evs)
	require.Len(t, errs, 1)
	assert.Equal(t, c.tu.Reverse(), errs[0].Half)
	assert.Equal(t, 1, countKind(evs, ULPDU))
}

func TestBadChecksumDropped(t *testing.T) {
	c := stdConn(false, true)
	fill(c, 3, 100)
	frames := append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.OnePerSegment())...)
	frames[3][len(frames[3])-1] ^= 0x40 // payload octet: TCP checksum fails
	frames[4][14+10] ^= 0x01            // IPv4 header checksum field
	evs := run(t, c, mpa.StartupPolicy{}, frames)
	assert.Equal(t, 2, countKind(evs, Dropped))
	assert.Equal(t, 1, countKind(evs, ULPDU), "only the FPDU before the dropped frames")
	assert.Empty(t, errorsOf(evs))
}

func TestStartupRules(t *testing.T) {
	good := func(reply bool) mpa.Startup { return mpa.NewStartup(reply, true, true, []byte("private")) }
	withRev := func(s mpa.Startup, r uint8) mpa.Startup { s.Rev = r; return s }
	type tc struct {
		name     string
		req, rep []byte // wire octets of the two frames
		policy   mpa.StartupPolicy
		split    int // cut the Request into segments of this size
		fin      bool
		errHalf  int // 0 none, 1 initiator half, 2 responder half
		wantFull bool
	}
	reqB := func(s mpa.Startup) []byte { return s.Append(nil) }
	cases := []tc{
		{name: "valid", req: reqB(good(false)), rep: reqB(good(true)), wantFull: true},
		{name: "split over one-octet segments", req: reqB(good(false)), rep: reqB(good(true)), split: 1, wantFull: true},
		{name: "wrong key in request", req: append([]byte("MPA ID Req Frane"), reqB(good(false))[16:]...), rep: reqB(good(true)), errHalf: 1},
		{name: "request where reply expected", req: reqB(good(false)), rep: reqB(good(false)), errHalf: 2},
		{name: "rev 3", req: reqB(withRev(good(false), 3)), rep: reqB(good(true)), errHalf: 1},
		{name: "rev 2 request, rev 1 reply (RFC 6581 fallback)", req: reqB(withRev(good(false), 2)), rep: reqB(good(true)), wantFull: true},
		{name: "rev 2 reply to a rev 1 request", req: reqB(good(false)), rep: reqB(withRev(good(true), 2)), errHalf: 2},
		{name: "enhanced header cut short", req: reqB(mpa.Startup{Rev: 2, Res: mpa.FlagEnhanced, PDLength: 2, PrivateData: []byte{0, 1}}), rep: reqB(good(true)), errHalf: 1},
		{name: "enhanced both ends", req: reqB(mpa.NewEnhancedStartup(false, false, true, mpa.EnhancedHeader{IRD: 1, ORD: 1}, nil)),
			rep: reqB(mpa.NewEnhancedStartup(true, false, true, mpa.EnhancedHeader{IRD: 1, ORD: 1}, []byte("pd"))), wantFull: true},
		{name: "rev 0 strict", req: reqB(withRev(good(false), 0)), rep: reqB(good(true)), errHalf: 1},
		{name: "rev 0 permissive", req: reqB(withRev(good(false), 0)), rep: reqB(good(true)), policy: mpa.StartupPolicy{Permissive: true}, wantFull: true},
		{name: "PD_Length 513", req: reqB(mpa.Startup{Rev: 1, PDLength: 513, PrivateData: make([]byte, 513)}), rep: reqB(good(true)), errHalf: 1},
		{name: "PD_Length 512", req: reqB(mpa.NewStartup(false, false, false, make([]byte, 512))), rep: reqB(good(true)), wantFull: true},
		{name: "PD_Length short of the private data", req: reqB(mpa.Startup{Rev: 1, PDLength: 3, PrivateData: []byte("12345")}), rep: reqB(good(true)), errHalf: 1},
		{name: "truncated by FIN", req: reqB(good(false))[:25], rep: reqB(good(true)), fin: true, errHalf: 1},
		{name: "reply rejected", req: reqB(good(false)), rep: reqB(mpa.Startup{Reply: true, R: true, Rev: 1}), errHalf: 2},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			tu := wire.FourTuple{SrcIP: [4]byte{10, 0, 0, 1}, DstIP: [4]byte{10, 0, 0, 2}, SrcPort: 40000, DstPort: 4791}
			var frames [][]byte
			step := len(tt.req)
			if tt.split > 0 {
				step = tt.split
			}
			for off := 0; off < len(tt.req); off += step {
				end := min(off+step, len(tt.req))
				var fl uint8
				if tt.fin && end == len(tt.req) {
					fl = wire.FlagFIN
				}
				frames = append(frames, frame(t, tu, 100+uint32(off), fl, tt.req[off:end]))
			}
			frames = append(frames, frame(t, tu.Reverse(), 700, 0, tt.rep))
			r := New(Config{})
			r.AddConn(ConnSpec{Tuple: tu, InitiatorSeq: 100, ResponderSeq: 700, Policy: tt.policy})
			for _, f := range frames {
				r.Frame(f)
			}
			errs := errorsOf(r.Events())
			if tt.errHalf == 0 {
				assert.Empty(t, errs)
			} else {
				require.Len(t, errs, 1)
				assert.Equal(t, CodeStartup, errs[0].Code)
				want := tu
				if tt.errHalf == 2 {
					want = tu.Reverse()
				}
				assert.Equal(t, want, errs[0].Half)
			}
			assert.Equal(t, tt.wantFull, countKind(r.Events(), Established) == 2)
		})
	}
}

// Permissive ends that meet a revision 0 peer run markers both ways.
func TestPermissiveRev0Markers(t *testing.T) {
	req := mpa.NewStartup(false, false, true, nil)
	req.Rev = 0
	rep := mpa.NewStartup(true, false, false, nil)
	r := New(Config{})
	tu := wire.FourTuple{SrcIP: [4]byte{10, 0, 0, 1}, DstIP: [4]byte{10, 0, 0, 2}, SrcPort: 1, DstPort: 2}
	r.AddConn(ConnSpec{Tuple: tu, InitiatorSeq: 1, ResponderSeq: 2, Policy: mpa.StartupPolicy{Permissive: true}})
	r.Frame(frame(t, tu, 1, 0, req.Append(nil)))
	r.Frame(frame(t, tu.Reverse(), 2, 0, rep.Append(nil)))
	for _, h := range r.Halves() {
		assert.True(t, h.Params.Markers)
		assert.True(t, h.Params.CRC)
		assert.Equal(t, uint8(0), h.DDPVersion)
		assert.Equal(t, StateFull, h.State)
	}
}

// Out-of-order FPDUs are passed as soon as they can be validated: by
// markers, or without markers when they exactly fill their segment.
func TestOutOfOrderPassing(t *testing.T) {
	for _, markers := range []bool{false, true} {
		c := stdConn(markers, true)
		fill(c, 40, 600)
		segs := c.i2r.OnePerSegment()
		frames := c.startupFrames(t)
		for _, g := range segs[1:] {
			frames = append(frames, frame(t, c.tu, g.Seq, 0, g.Data))
		}
		r := New(Config{})
		r.AddConn(c.spec())
		for _, f := range frames {
			r.Frame(f)
		}
		assert.Equal(t, 39, countKind(r.Events(), ULPDU), "markers=%v: all but the first passed out of order", markers)
		assert.Zero(t, countKind(r.Events(), Delivered), "nothing delivered before the gap fills")
		r.Frame(frame(t, c.tu, segs[0].Seq, 0, segs[0].Data))
		assert.Equal(t, 40, countKind(r.Events(), ULPDU), "each exactly once")
		assert.Equal(t, 40, countKind(r.Events(), Delivered))
		// Deliveries are in sequence order.
		var last uint32
		for _, e := range r.Events() {
			if e.Kind == Delivered {
				assert.True(t, last == 0 || tcpseq.Num(last).Before(tcpseq.Num(e.Seq)))
				last = e.Seq
			}
		}
	}
	// Without markers, segments cut inside FPDUs cannot be passed out of
	// order.
	c := stdConn(false, true)
	fill(c, 10, 600)
	segs := c.i2r.CutAt([]int{100, 700, 1300, 1900, 2500})
	r := New(Config{})
	r.AddConn(c.spec())
	for _, f := range append(c.startupFrames(t), segFrames(t, c.tu, segs[1:])...) {
		r.Frame(f)
	}
	assert.Zero(t, countKind(r.Events(), ULPDU))
}
