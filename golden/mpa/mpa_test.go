package mpa

import (
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err)
	return b
}

// RFC 3720 B.4 vectors: value and wire octets.
func TestCRC32CRFC3720(t *testing.T) {
	inc := make([]byte, 32)
	dec := make([]byte, 32)
	ones := make([]byte, 32)
	for i := range inc {
		inc[i] = byte(i)
		dec[i] = byte(31 - i)
		ones[i] = 0xff
	}
	tests := []struct {
		name string
		in   []byte
		want uint32
		wire string
	}{
		{"32 zeros", make([]byte, 32), 0x8A9136AA, "aa36918a"},
		{"32 ones", ones, 0x62A8AB43, "43aba862"},
		{"incrementing", inc, 0x46DD794E, "4e79dd46"},
		{"decrementing", dec, 0x113FDB5C, "5cdb3f11"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CRC32C(tt.in)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.wire, hex.EncodeToString(AppendCRC(nil, got)))
			assert.Equal(t, got, UpdateCRC32C(CRC32C(tt.in[:7]), tt.in[7:]))
		})
	}
}

// sendQ0 is the ULPDU of the spec figures: untagged Send with L set, DDP
// control 0x40 0x03, QN 0, the given MSN, MO 0, and 24 octets of zeros.
func sendQ0(msn byte) []byte {
	u := []byte{0x40, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, msn, 0, 0, 0, 0}
	return append(u, make([]byte, 24)...)
}

// Figure 5 of draft-ietf-rddp-mpa-01: the first FPDU of a stream with
// markers, byte for byte.
func TestFigure5(t *testing.T) {
	want := unhex(t, "00000000 002a 4003 00000000 00000000 00000001 00000000"+
		strings.Repeat("00", 24)+"4c86b384")
	h := Half{Markers: true, CRC: true, SeqStart: 0x1000}
	got := h.AppendFPDU(nil, 0x1000, sendQ0(1))
	assert.Equal(t, want, got)
	assert.Equal(t, len(want), h.WireLen(0x1000, FPDULen(42)))
}

// Figure 6: the second FPDU, at offset 0x1ec after a 492-octet first FPDU,
// with a marker 0x0014 at offset 0x200.
func TestFigure6(t *testing.T) {
	want := unhex(t, "002a 4003 00000000 00000000 00000002 00000000 00000014"+
		strings.Repeat("00", 24)+"a19cd103")
	for _, base := range []uint32{0, 0xfffffe00, 0xffffff00} {
		h := Half{Markers: true, CRC: true, SeqStart: base}
		got := h.AppendFPDU(nil, base+0x1ec, sendQ0(2))
		assert.Equal(t, want, got, "SeqStart %#x", base)
	}
	// The same stream built FPDU by FPDU: a 492-octet first FPDU (with its
	// leading marker) puts the second at 0x1ec.
	s := NewStream(Half{Markers: true, CRC: true, SeqStart: 7})
	first := s.Add(make([]byte, 482)) // marker 4 + length 2 + 482 + CRC 4
	require.Equal(t, 492, first.Len)
	second := s.Add(sendQ0(2))
	assert.Equal(t, 0x1ec, second.Off)
	assert.Equal(t, want, s.Data[second.Off:])
}

func TestPadAndLengths(t *testing.T) {
	for n := 0; n < 64; n++ {
		assert.Zero(t, FPDULen(n)%4, "n=%d", n)
		assert.Less(t, PadLen(n), 4)
	}
	tests := []struct {
		emss    int
		markers bool
		want    int
	}{
		{1460, false, 1460 - 6},
		{1460, true, 1460 - (6 + 4*3)},
		{8960, true, 8960 - (6 + 4*18)},
		{1000, false, 1000 - 6},
		{1001, false, 1001 - 7},
		{512, true, 512 - 10},
		{513, true, 513 - (6 + 8 + 1)},
	}
	for _, tt := range tests {
		got := MULPDU(tt.emss, tt.markers)
		assert.Equal(t, tt.want, got, "emss %d markers %v", tt.emss, tt.markers)
		// The FPDU of a MULPDU-sized ULPDU fits in emss wherever it starts
		// on the 4-octet grid.
		h := Half{Markers: tt.markers}
		for off := uint32(0); off < 512; off += 4 {
			assert.LessOrEqual(t, h.WireLen(off, FPDULen(got)), tt.emss)
		}
	}
}

// Every marker in a framed stream sits on the grid and holds the RFC 5044
// FPDUPTR of the FPDU that holds it: the octets from that FPDU's
// ULPDU_Length field (after its leading marker, if it has one) to the
// marker, 0 for a leading marker; the CRC covers markers.
func TestMarkersPointAtFPDUStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, base := range []uint32{0, 0xffffffff - 1000, 0xfffffffc} {
		h := Half{Markers: true, CRC: true, SeqStart: base}
		s := NewStream(h)
		for i := 0; i < 200; i++ {
			s.Add(make([]byte, rng.IntN(3000)))
		}
		for _, f := range s.FPDUs {
			end := f.Off + f.Len
			for off := f.Off; off < end; off += 4 {
				seq := s.Seq(off)
				if !h.IsMarker(seq) {
					continue
				}
				m := s.Data[off : off+4]
				assert.Equal(t, []byte{0, 0}, m[:2])
				// From the definition, not from the framing code: the
				// ULPDU_Length field follows a marker at the FPDU's start.
				lengthSeq := f.Seq
				if (f.Seq-base)%512 == 0 {
					lengthSeq += 4
				}
				want := int(seq - lengthSeq)
				if seq == f.Seq {
					want = 0
				}
				assert.Equal(t, want, int(m[2])<<8|int(m[3]))
				assert.Equal(t, lengthSeq, f.LengthSeq)
			}
			assert.Zero(t, f.Len%4)
			assert.Equal(t, f.Len, h.WireLen(f.Seq, FPDULen(f.ULPDULen)))
			body := s.Data[f.Off : end-4]
			assert.Equal(t, CRC32C(body), WireCRC(s.Data[end-4:end]))
		}
		// Markers are exactly every 512 octets of the stream.
		assert.Equal(t, (len(s.Data)+511)/512, countMarkers(s))
	}
}

func countMarkers(s *Stream) int {
	n := 0
	for off := 0; off < len(s.Data); off += 4 {
		if s.Half.IsMarker(s.Seq(off)) {
			n++
		}
	}
	return n
}

func TestCRCOffFieldIsZero(t *testing.T) {
	h := Half{Markers: false, CRC: false}
	b := h.AppendFPDU(nil, 0, []byte("hello"))
	assert.Equal(t, unhex(t, "0005 68656c6c6f 00 00000000"), b)
}

func TestSegmentationPolicies(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	h := Half{Markers: true, CRC: true, SeqStart: 0xfffff000}
	s := NewStream(h)
	mul := MULPDU(1460, true)
	for i := 0; i < 100; i++ {
		s.Add(make([]byte, 1+rng.IntN(mul)))
	}
	join := func(segs []Segment) []byte {
		var b []byte
		next := s.Seq(0)
		for _, g := range segs {
			require.Equal(t, next, g.Seq)
			require.NotEmpty(t, g.Data)
			b = append(b, g.Data...)
			next = g.End()
		}
		return b
	}
	starts := map[uint32]bool{}
	for _, f := range s.FPDUs {
		starts[f.Seq] = true
	}
	aligned := s.Aligned(1460)
	for _, g := range aligned {
		assert.LessOrEqual(t, len(g.Data), 1460)
		assert.True(t, starts[g.Seq], "aligned segment starts at an FPDU")
	}
	assert.Equal(t, s.Data, join(aligned))
	one := s.OnePerSegment()
	assert.Len(t, one, len(s.FPDUs))
	assert.Equal(t, s.Data, join(one))
	assert.Equal(t, s.Data, join(s.Random(rng, 1, 1)))
	assert.Equal(t, s.Data, join(s.Random(rng, 1, 2000)))
	assert.Equal(t, s.Data, join(s.CutAt([]int{5, 5, 3, -1, 1 << 30})))
}

func TestStartupRoundTrip(t *testing.T) {
	pds := []int{0, 1, 255, 256, 257, 512}
	for _, n := range pds {
		for _, reply := range []bool{false, true} {
			pd := make([]byte, n)
			for i := range pd {
				pd[i] = byte(i * 7)
			}
			f := NewStartup(reply, true, n%2 == 0, pd)
			f.Res = 0x1f // reserved bits are ignored on receipt
			b := f.Append(nil)
			assert.Equal(t, f.Len(), len(b))
			got, used, err := ParseStartup(b, reply, StartupPolicy{})
			require.NoError(t, err)
			assert.Equal(t, len(b), used)
			assert.Equal(t, f, got)
			for cut := 0; cut < len(b); cut++ {
				_, _, err := ParseStartup(b[:cut], reply, StartupPolicy{})
				assert.ErrorIs(t, err, ErrShortStartup, "cut %d", cut)
			}
		}
	}
}

func TestStartupErrors(t *testing.T) {
	good := NewStartup(false, true, true, []byte("pd"))
	withRev := func(r uint8) Startup { f := good; f.Rev = r; return f }
	tests := []struct {
		name   string
		frame  []byte
		reply  bool
		policy StartupPolicy
		err    error
	}{
		{"reply key where request expected", NewStartup(true, false, false, nil).Append(nil), false, StartupPolicy{}, ErrBadKey},
		{"request key where reply expected", good.Append(nil), true, StartupPolicy{}, ErrBadKey},
		{"key wrong in first octet", append([]byte{'N'}, good.Append(nil)[1:]...), false, StartupPolicy{}, ErrBadKey},
		{"key wrong detected early", []byte("MPA ID Rez"), false, StartupPolicy{}, ErrBadKey},
		{"rev 3", withRev(3).Append(nil), false, StartupPolicy{}, ErrBadRev},
		{"rev 2 (RFC 6581)", withRev(2).Append(nil), false, StartupPolicy{}, nil},
		{"rev 0 strict", withRev(0).Append(nil), false, StartupPolicy{}, ErrBadRev},
		{"rev 0 permissive", withRev(0).Append(nil), false, StartupPolicy{Permissive: true}, nil},
		{"rev 3 permissive", withRev(3).Append(nil), false, StartupPolicy{Permissive: true}, ErrBadRev},
		{"pd 513", Startup{M: true, Rev: 1, PDLength: 513}.Append(nil), false, StartupPolicy{}, ErrPDTooLong},
		{"reply rejected", Startup{Reply: true, R: true, Rev: 1}.Append(nil), true, StartupPolicy{}, ErrRejected},
		{"R ignored in request", Startup{R: true, Rev: 1}.Append(nil), false, StartupPolicy{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseStartup(tt.frame, tt.reply, tt.policy)
			if tt.err == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tt.err)
			}
		})
	}
}

func TestNegotiate(t *testing.T) {
	tests := []struct {
		reqM, reqC, repM, repC bool
		reqRev, repRev         uint8
		want                   Negotiated
	}{
		{false, false, false, false, 1, 1, Negotiated{DDPVersion: 1, Rev: 1}},
		{true, false, false, false, 1, 1, Negotiated{ResponderMarkers: true, DDPVersion: 1, Rev: 1}},
		{false, false, true, false, 1, 1, Negotiated{InitiatorMarkers: true, DDPVersion: 1, Rev: 1}},
		{false, true, false, false, 1, 1, Negotiated{CRC: true, DDPVersion: 1, Rev: 1}},
		{false, false, false, true, 1, 1, Negotiated{CRC: true, DDPVersion: 1, Rev: 1}},
		{true, true, true, true, 1, 1, Negotiated{InitiatorMarkers: true, ResponderMarkers: true, CRC: true, DDPVersion: 1, Rev: 1}},
		// Appendix C Figure 16: RDMAC initiator (Rev 0, M=1, C=1) with a
		// permissive IETF responder replying M=1: V=0, M=1/1.
		{true, true, true, false, 0, 1, Negotiated{InitiatorMarkers: true, ResponderMarkers: true, CRC: true, DDPVersion: 0, Rev: 0}},
		// Permissive IETF initiator with M=0 and an RDMAC responder.
		{false, false, true, true, 1, 0, Negotiated{InitiatorMarkers: true, ResponderMarkers: true, CRC: true, DDPVersion: 0, Rev: 0}},
		// Rev 2 frames without the enhanced header, and the fallback: a
		// Rev 2 Request answered with Rev 1 runs Rev 1.
		{false, true, false, true, 2, 2, Negotiated{CRC: true, DDPVersion: 1, Rev: 2}},
		{false, true, false, true, 2, 1, Negotiated{CRC: true, DDPVersion: 1, Rev: 1}},
	}
	for _, tt := range tests {
		req := Startup{M: tt.reqM, C: tt.reqC, Rev: tt.reqRev}
		rep := Startup{Reply: true, M: tt.repM, C: tt.repC, Rev: tt.repRev}
		got, err := Negotiate(req, rep)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
}
