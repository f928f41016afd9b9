package rx

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// ddpSeg builds a DDP segment with an RDMAP control octet (RFC 5041 section
// 4, RFC 5040 section 4), independently of the golden DDP parser.
func ddpSeg(tagged bool, op byte, qn, msn uint32, payload []byte) []byte {
	ctl := byte(0x40 | 1) // L, DV 1
	if tagged {
		ctl |= 0x80
	}
	b := []byte{ctl, 0x40 | op}
	if tagged {
		b = binary.BigEndian.AppendUint32(b, 0x100)
		b = binary.BigEndian.AppendUint64(b, 0)
	} else {
		b = binary.BigEndian.AppendUint32(b, 0)
		b = binary.BigEndian.AppendUint32(b, qn)
		b = binary.BigEndian.AppendUint32(b, msn)
		b = binary.BigEndian.AppendUint32(b, 0)
	}
	return append(b, payload...)
}

// The RTR messages of RFC 6581 and an ordinary Send.
var (
	rtrSend  = ddpSeg(false, 3, 0, 1, nil)
	rtrWrite = ddpSeg(true, 0, 0, 0, nil)
	rtrRead  = ddpSeg(false, 1, 1, 1, make([]byte, 28))
	plainMsg = ddpSeg(false, 3, 0, 1, []byte("hello"))
)

func enhanced(p2p bool, rtrs ...mpa.RTR) mpa.EnhancedHeader {
	e := mpa.EnhancedHeader{IRD: 4, ORD: 2, P2P: p2p}
	for _, r := range rtrs {
		e = e.WithRTR(r)
	}
	return e
}

// p2pRun runs a connection with the given startup frames; then the steps
// send ULPDUs on i2r (initiator true) or r2i, each in its own frame, in
// order. It returns the receiver.
type step struct {
	initiator bool
	ulpdu     []byte
}

func p2pRun(t *testing.T, req, rep mpa.Startup, steps []step) (*Receiver, *testConn) {
	t.Helper()
	c := newTestConn(0, req, rep, 1000, 90000)
	r := New(Config{Digests: true})
	r.AddConn(c.spec())
	for _, f := range c.startupFrames(t) {
		r.Frame(f)
	}
	for _, s := range steps {
		st, tu := c.r2i, c.tu.Reverse()
		if s.initiator {
			st, tu = c.i2r, c.tu
		}
		f := st.Add(s.ulpdu)
		r.Frame(frame(t, tu, f.Seq, 0, st.Data[f.Off:f.Off+f.Len]))
	}
	return r, c
}

func TestPeerToPeerRTR(t *testing.T) {
	req := func(rtrs ...mpa.RTR) mpa.Startup {
		return mpa.NewEnhancedStartup(false, false, true, enhanced(true, rtrs...), []byte("ulp"))
	}
	rep := func(rtr mpa.RTR) mpa.Startup {
		return mpa.NewEnhancedStartup(true, false, true, enhanced(true, rtr), nil)
	}
	ini, res := true, false
	tests := []struct {
		name     string
		req, rep mpa.Startup
		steps    []step
		code     ErrorCode // 0: no error
		onI2R    bool      // the error is on the Initiator's half
		ulpdus   int       // ULPDUs passed
		errSeqAt string    // "reply", "first-i2r", "first-r2i"
	}{
		{"Send RTR then both ways", req(mpa.RTRSend), rep(mpa.RTRSend), []step{{ini, rtrSend}, {res, plainMsg}, {ini, plainMsg}}, 0, false, 3, ""},
		{"Write RTR", req(mpa.RTRWrite, mpa.RTRRead), rep(mpa.RTRWrite), []step{{ini, rtrWrite}, {res, plainMsg}}, 0, false, 2, ""},
		{"Read RTR", req(mpa.RTRWrite, mpa.RTRRead), rep(mpa.RTRRead), []step{{ini, rtrRead}, {res, rtrWrite}}, 0, false, 2, ""},
		{"Responder sends before the RTR: code 4", req(mpa.RTRWrite), rep(mpa.RTRWrite), []step{{res, plainMsg}, {ini, rtrWrite}}, CodeStartup, false, 0, "first-r2i"},
		{"first FPDU is not the agreed RTR: code 7", req(mpa.RTRWrite), rep(mpa.RTRWrite), []step{{ini, plainMsg}, {res, plainMsg}}, CodeNoMatchingRTR, true, 0, "first-i2r"},
		{"Read Request where Write agreed: code 7", req(mpa.RTRWrite, mpa.RTRRead), rep(mpa.RTRWrite), []step{{ini, rtrRead}}, CodeNoMatchingRTR, true, 0, "first-i2r"},
		{"Reply picks an RTR not offered: code 7", req(mpa.RTRWrite), rep(mpa.RTRSend), []step{{ini, rtrWrite}}, CodeNoMatchingRTR, false, 0, "reply"},
		{"Reply with two RTR types: code 4", req(mpa.RTRWrite, mpa.RTRRead),
			mpa.NewEnhancedStartup(true, false, true, enhanced(true, mpa.RTRWrite, mpa.RTRRead), nil), []step{{ini, rtrWrite}}, CodeStartup, false, 0, "reply"},
		{"fallback to Rev 1: no RTR rule", req(mpa.RTRWrite), mpa.NewStartup(true, false, true, nil), []step{{res, plainMsg}, {ini, plainMsg}}, 0, false, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, c := p2pRun(t, tt.req, tt.rep, tt.steps)
			errs := errorsOf(r.Events())
			assert.Len(t, ulpdus(r.Events()), tt.ulpdus)
			if tt.code == 0 {
				assert.Empty(t, errs)
				return
			}
			require.Len(t, errs, 1)
			e := errs[0]
			assert.Equal(t, tt.code, e.Code, "%v", e.Err)
			half := c.tu.Reverse()
			if tt.onI2R {
				half = c.tu
			}
			assert.Equal(t, half, e.Half)
			want := map[string]uint32{
				"reply":     c.rseq,
				"first-i2r": c.i2r.Half.SeqStart + 0, // ULPDU_Length of the first FPDU (no markers)
				"first-r2i": c.r2i.Half.SeqStart,
			}[tt.errSeqAt]
			assert.Equal(t, want, e.Seq)
			// A failed connection setup closes both halves.
			assert.True(t, r.Closed(c.tu))
			assert.True(t, r.Closed(c.tu.Reverse()))
		})
	}
}

// The RTR phase belongs to software: neither half is Idle (handed to a
// hardware fast path) before the RTR has been validated.
func TestPeerToPeerNotIdleBeforeRTR(t *testing.T) {
	req := mpa.NewEnhancedStartup(false, false, true, enhanced(true, mpa.RTRWrite), nil)
	rep := mpa.NewEnhancedStartup(true, false, true, enhanced(true, mpa.RTRWrite), nil)
	r, c := p2pRun(t, req, rep, nil)
	for _, h := range []wire.FourTuple{c.tu, c.tu.Reverse()} {
		_, _, idle := r.Idle(h)
		assert.False(t, idle, "%v idle before the RTR", h)
	}
	f := c.i2r.Add(rtrWrite)
	r.Frame(frame(t, c.tu, f.Seq, 0, c.i2r.Data[f.Off:f.Off+f.Len]))
	for _, h := range []wire.FourTuple{c.tu, c.tu.Reverse()} {
		_, _, idle := r.Idle(h)
		assert.True(t, idle, "%v idle after the RTR", h)
	}
	hs := r.Halves()
	require.Len(t, hs, 2)
	for _, h := range hs {
		assert.Equal(t, uint8(2), h.Startup.Rev)
		assert.Equal(t, mpa.RTRWrite, h.Startup.RTR)
		assert.Equal(t, uint16(4), h.Startup.Initiator.IRD)
	}
}

// Out-of-order data is not passed before the RTR: a Responder segment
// beyond a gap, before the RTR, is already a violation.
func TestPeerToPeerResponderOutOfOrderEarly(t *testing.T) {
	req := mpa.NewEnhancedStartup(false, false, true, enhanced(true, mpa.RTRWrite), nil)
	rep := mpa.NewEnhancedStartup(true, false, true, enhanced(true, mpa.RTRWrite), nil)
	r, c := p2pRun(t, req, rep, nil)
	c.r2i.Add(plainMsg)
	f := c.r2i.Add(plainMsg)
	r.Frame(frame(t, c.tu.Reverse(), f.Seq, 0, c.r2i.Data[f.Off:f.Off+f.Len]))
	errs := errorsOf(r.Events())
	require.Len(t, errs, 1)
	assert.Equal(t, CodeStartup, errs[0].Code)
	assert.Equal(t, f.Seq, errs[0].Seq)
	assert.Empty(t, ulpdus(r.Events()))
}
