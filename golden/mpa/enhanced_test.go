package mpa

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The header's bits as RFC 6581 draws them (A, B at the top of the IRD
// word; C, D at the top of the ORD word), written out as wire octets.
func TestEnhancedHeaderWire(t *testing.T) {
	tests := []struct {
		name string
		e    EnhancedHeader
		wire string
	}{
		{"IRD 16 ORD 32", EnhancedHeader{IRD: 16, ORD: 32}, "00100020"},
		{"max depths", EnhancedHeader{IRD: 0x3fff, ORD: 0x3fff}, "3fff3fff"},
		{"A", EnhancedHeader{P2P: true}, "80000000"},
		{"B", EnhancedHeader{SendRTR: true}, "40000000"},
		{"C", EnhancedHeader{WriteRTR: true}, "00008000"},
		{"D", EnhancedHeader{ReadRTR: true}, "00004000"},
		{"A C D IRD 1 ORD 2", EnhancedHeader{IRD: 1, ORD: 2, P2P: true, WriteRTR: true, ReadRTR: true}, "8001c002"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.e.Append(nil)
			assert.Equal(t, unhex(t, tt.wire), b)
			assert.Equal(t, tt.e, ParseEnhanced(b))
		})
	}
	// IRD and ORD are 14 bits: larger values do not spill into the flags.
	assert.Equal(t, unhex(t, "3fff0000"), EnhancedHeader{IRD: 0xffff}.Append(nil))
}

func TestEnhancedStartupRoundTrip(t *testing.T) {
	e := EnhancedHeader{IRD: 8, ORD: 4, P2P: true, WriteRTR: true, ReadRTR: true}
	f := NewEnhancedStartup(false, false, true, e, []byte("ulp"))
	b := f.Append(nil)
	assert.Equal(t, byte(0x40|0x10), b[16], "C and the enhanced flag")
	assert.Equal(t, byte(2), b[17])
	assert.Equal(t, uint16(7), binary.BigEndian.Uint16(b[18:]), "PD_Length counts the header")
	got, n, err := ParseStartup(b, false, StartupPolicy{})
	require.NoError(t, err)
	assert.Equal(t, len(b), n)
	assert.True(t, got.HasEnhanced())
	h, ok := got.Enhanced()
	require.True(t, ok)
	assert.Equal(t, e, h)
	assert.Equal(t, []byte("ulp"), got.ULPData())
	assert.Equal(t, []RTR{RTRWrite, RTRRead}, h.RTRs())
}

func TestStartupEnhancedErrors(t *testing.T) {
	withPD := func(reply bool, res uint8, rev uint8, pd []byte) []byte {
		return Startup{Reply: reply, Res: res, Rev: rev, PDLength: uint16(len(pd)), PrivateData: pd}.Append(nil)
	}
	tests := []struct {
		name  string
		frame []byte
		reply bool
		err   error
	}{
		{"enhanced flag, PD_Length 0", withPD(false, FlagEnhanced, 2, nil), false, ErrEnhanced},
		{"enhanced flag, PD_Length 3", withPD(false, FlagEnhanced, 2, []byte{0, 1, 0}), false, ErrEnhanced},
		{"enhanced flag, PD_Length 3 in a Reply", withPD(true, FlagEnhanced, 2, []byte{0, 1, 0}), true, ErrEnhanced},
		{"enhanced flag, PD_Length 4", withPD(false, FlagEnhanced, 2, []byte{0, 1, 0, 1}), false, nil},
		{"Rev 2 without the flag, no private data", withPD(false, 0, 2, nil), false, nil},
		{"0x10 in a Rev 1 frame is Res: ignored", withPD(false, FlagEnhanced, 1, nil), false, nil},
		{"rejecting Rev 2 Reply without the header", Startup{Reply: true, R: true, Res: FlagEnhanced, Rev: 2}.Append(nil), true, ErrRejected},
		{"Rev 3", withPD(false, FlagEnhanced, 3, []byte{0, 1, 0, 1}), false, ErrBadRev},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseStartup(tt.frame, tt.reply, StartupPolicy{})
			if tt.err == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tt.err)
			}
		})
	}
	// The fault shows in the header: no need to wait for private data.
	_, _, err := ParseStartup(withPD(false, FlagEnhanced, 2, []byte{0, 1})[:StartupHeaderLen], false, StartupPolicy{})
	assert.ErrorIs(t, err, ErrEnhanced)
}

// RFC 6581 negotiation, one rule per row.
func TestNegotiateEnhanced(t *testing.T) {
	ini := EnhancedHeader{IRD: 16, ORD: 8}
	res := EnhancedHeader{IRD: 8, ORD: 16}
	p2p := func(e EnhancedHeader, rtrs ...RTR) EnhancedHeader {
		e.P2P = true
		for _, r := range rtrs {
			e = e.WithRTR(r)
		}
		return e
	}
	req := func(e EnhancedHeader) Startup { return NewEnhancedStartup(false, false, true, e, nil) }
	rep := func(e EnhancedHeader) Startup { return NewEnhancedStartup(true, false, true, e, []byte("x")) }
	rev := func(r uint8, reply bool) Startup { s := NewStartup(reply, false, true, nil); s.Rev = r; return s }
	tests := []struct {
		name     string
		req, rep Startup
		err      error
		rev      uint8
		enhanced bool
		rtr      RTR
	}{
		{"client-server, both enhanced", req(ini), rep(res), nil, 2, true, RTRNone},
		{"RTR flags without A mean nothing", req(ini.WithRTR(RTRRead)), rep(res), nil, 2, true, RTRNone},
		{"peer-to-peer, Write offered and picked", req(p2p(ini, RTRWrite)), rep(p2p(res, RTRWrite)), nil, 2, true, RTRWrite},
		{"peer-to-peer, Read picked of Write and Read", req(p2p(ini, RTRWrite, RTRRead)), rep(p2p(res, RTRRead)), nil, 2, true, RTRRead},
		{"peer-to-peer, Send", req(p2p(ini, RTRSend)), rep(p2p(res, RTRSend)), nil, 2, true, RTRSend},
		{"peer-to-peer, none offered: the Reply picks", req(p2p(ini)), rep(p2p(res, RTRWrite)), nil, 2, true, RTRWrite},
		{"fallback: Rev 1 Reply to an enhanced Request", req(p2p(ini, RTRWrite)), rev(1, true), nil, 1, false, RTRNone},
		{"Rev 2 Reply to a Rev 1 Request", rev(1, false), rep(res), ErrEnhanced, 0, false, RTRNone},
		{"Rev 2 plain Reply to a Rev 1 Request", rev(1, false), rev(2, true), ErrEnhanced, 0, false, RTRNone},
		{"enhanced Reply to a plain Rev 2 Request", rev(2, false), rep(res), ErrEnhanced, 0, false, RTRNone},
		{"plain Rev 2 Reply to an enhanced Request", req(ini), rev(2, true), ErrEnhanced, 0, false, RTRNone},
		{"Reply sets A, Request does not", req(ini), rep(p2p(res, RTRWrite)), ErrEnhanced, 0, false, RTRNone},
		{"A in the Request, not echoed (RFC 6581 9.2)", req(p2p(ini, RTRWrite)), rep(res), ErrNoMatchingRTR, 0, false, RTRNone},
		{"peer-to-peer Reply with no RTR flag", req(p2p(ini, RTRWrite)), rep(p2p(res)), ErrEnhanced, 0, false, RTRNone},
		{"peer-to-peer Reply with two RTR flags", req(p2p(ini, RTRWrite, RTRRead)), rep(p2p(res, RTRWrite, RTRRead)), ErrEnhanced, 0, false, RTRNone},
		{"Reply picks an RTR not offered", req(p2p(ini, RTRWrite)), rep(p2p(res, RTRSend)), ErrNoMatchingRTR, 0, false, RTRNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Negotiate(tt.req, tt.rep)
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.rev, n.Rev)
			assert.Equal(t, tt.enhanced, n.Enhanced)
			assert.Equal(t, tt.rtr, n.RTR)
			assert.Equal(t, uint8(1), n.DDPVersion)
			assert.True(t, n.CRC)
			if n.Enhanced {
				assert.Equal(t, uint16(16), n.Initiator.IRD)
				assert.Equal(t, uint16(16), n.Responder.ORD)
			}
		})
	}
}

// rtrULPDU builds DDP/RDMAP segments by hand (RFC 5041 section 4, RFC 5040
// section 4) for the RTR checks.
func rtrULPDU(tagged bool, op byte, qn, mo uint32, payload []byte) []byte {
	ctl := byte(0x40 | 1) // L, DV 1
	if tagged {
		ctl |= 0x80
	}
	b := []byte{ctl, 0x40 | op}
	if tagged {
		b = binary.BigEndian.AppendUint32(b, 0x1234) // STag
		b = binary.BigEndian.AppendUint64(b, 0)      // TO
	} else {
		b = binary.BigEndian.AppendUint32(b, 0)
		b = binary.BigEndian.AppendUint32(b, qn)
		b = binary.BigEndian.AppendUint32(b, 1) // MSN
		b = binary.BigEndian.AppendUint32(b, mo)
	}
	return append(b, payload...)
}

func readReq(size uint32) []byte {
	p := make([]byte, 28)
	binary.BigEndian.PutUint32(p[12:], size)
	return p
}

func TestCheckRTR(t *testing.T) {
	notLast := rtrULPDU(true, 0, 0, 0, nil)
	notLast[0] &^= 0x40
	tests := []struct {
		name  string
		rtr   RTR
		ulpdu []byte
		ok    bool
	}{
		{"zero-length Send", RTRSend, rtrULPDU(false, 3, 0, 0, nil), true},
		{"Send with payload", RTRSend, rtrULPDU(false, 3, 0, 0, []byte{1}), false},
		{"Send on QN 1", RTRSend, rtrULPDU(false, 3, 1, 0, nil), false},
		{"Send with MO 4", RTRSend, rtrULPDU(false, 3, 0, 4, nil), false},
		{"Write where Send agreed", RTRSend, rtrULPDU(true, 0, 0, 0, nil), false},
		{"zero-length Write", RTRWrite, rtrULPDU(true, 0, 0, 0, nil), true},
		{"Write with payload", RTRWrite, rtrULPDU(true, 0, 0, 0, []byte{1, 2}), false},
		{"Write without L", RTRWrite, notLast, false},
		{"Read Response where Write agreed", RTRWrite, rtrULPDU(true, 2, 0, 0, nil), false},
		{"Send where Write agreed", RTRWrite, rtrULPDU(false, 3, 0, 0, nil), false},
		{"zero-length Read Request", RTRRead, rtrULPDU(false, 1, 1, 0, readReq(0)), true},
		{"Read Request of 64 octets", RTRRead, rtrULPDU(false, 1, 1, 0, readReq(64)), false},
		{"Read Request on QN 0", RTRRead, rtrULPDU(false, 1, 0, 0, readReq(0)), false},
		{"Read Request cut short", RTRRead, rtrULPDU(false, 1, 1, 0, readReq(0)[:20]), false},
		{"no RTR agreed", RTRNone, rtrULPDU(true, 0, 0, 0, nil), false},
		{"one octet", RTRWrite, []byte{0xc1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRTR(tt.rtr, tt.ulpdu)
			if tt.ok {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, ErrNoMatchingRTR)
			}
		})
	}
}
