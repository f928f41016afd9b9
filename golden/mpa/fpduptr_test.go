package mpa

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An outside check of the FPDUPTR value, from the wording of RFC 5044
// section 4.3 ("the number of octets in the TCP stream from the beginning
// of the ULPDU_Length field to the first octet of the entire marker"),
// applied to the wire octets by position only: the first FPDU of a
// marker-enabled stream (a leading marker 00000000 at SeqStart, its
// ULPDU_Length at octet 4) that is long enough to hold the next marker
// (octet 512) carries 512 - 4 = 508 there, and the draft-01 reading ("from
// the beginning of the FPDU") 512. Figure 6 of draft-01 (TestFigure6) is
// the fixed point for an FPDU without a leading marker: 0x200 - 0x1ec =
// 0x14 in both readings.
func TestFPDUPTRDefinition(t *testing.T) {
	for _, base := range []uint32{0, 0x1000, 0xfffffe00, 0xffffff00} {
		for _, n := range []int{506, 507, 600, 1100, 4000} {
			h := Half{Markers: true, CRC: true, SeqStart: base}
			b := h.AppendFPDU(nil, base, make([]byte, n))
			require.Equal(t, []byte{0, 0, 0, 0}, b[:4], "leading marker")
			require.Equal(t, uint16(n), binary.BigEndian.Uint16(b[4:6]), "ULPDU_Length after the leading marker")
			const lengthField = 4
			for m := 512; m+4 <= len(b)-4; m += 512 {
				require.Equal(t, []byte{0, 0}, b[m:m+2], "marker reserved bits at %d", m)
				assert.Equal(t, m-lengthField, int(binary.BigEndian.Uint16(b[m+2:])), "base %#x n %d marker at %d", base, n, m)
			}
			d := h.AppendFPDUForm(nil, base, make([]byte, n), PtrDraft01)
			for m := 512; m+4 <= len(d)-4; m += 512 {
				assert.Equal(t, m, int(binary.BigEndian.Uint16(d[m+2:])), "draft-01 form, marker at %d", m)
			}
		}
	}
	// An example: SeqStart S, ULPDU_Length at S+4, next marker at
	// S+512: FPDUPTR 508. A ULPDU of 506 octets is the shortest that
	// makes the first FPDU hold it (marker 4 + length 2 + 506 = 512: the
	// marker sits before the CRC field); with 502 the FPDU ends at S+512
	// and the marker there belongs to the next FPDU.
	h := Half{Markers: true, CRC: true, SeqStart: 77}
	b := h.AppendFPDU(nil, 77, make([]byte, 502))
	assert.Equal(t, 512, len(b))
	b = h.AppendFPDU(nil, 77, make([]byte, 506))
	assert.Equal(t, 512+4+4, len(b))
	assert.Equal(t, []byte{0, 0, 0x01, 0xfc}, b[512:516])
	// An FPDU that starts on a marker boundary mid-stream: the same.
	b = h.AppendFPDU(nil, 77+3*512, make([]byte, 1200))
	assert.Equal(t, []byte{0, 0, 0x01, 0xfc}, b[512:516])
	assert.Equal(t, []byte{0, 0, 0x03, 0xfc}, b[1024:1028])
	// An FPDU without a leading marker: one value.
	b = h.AppendFPDU(nil, 77+0x1ec, make([]byte, 42))
	assert.Equal(t, []byte{0, 0, 0, 0x14}, b[0x14:0x18])
}

func TestCheckMarker(t *testing.T) {
	h := Half{Markers: true, SeqStart: 1000}
	tests := []struct {
		name   string
		seq, m uint32
		ptr    uint16
		form   PtrForm
		ok     bool
	}{
		{"leading marker holds 0", 1000, 1000, 0, PtrPlain, true},
		{"leading marker not 0", 1000, 1000, 4, PtrPlain, false},
		{"leading marker low bits", 1000, 1000, 3, PtrPlain, true},
		{"after leading marker: RFC 5044", 1000, 1512, 508, PtrRFC5044, true},
		{"after leading marker: draft-01", 1000, 1512, 512, PtrDraft01, true},
		{"after leading marker: low bits ignored", 1000, 1512, 511, PtrRFC5044, true},
		{"after leading marker: wrong", 1000, 1512, 504, PtrPlain, false},
		{"after leading marker: 0", 1000, 1512, 0, PtrPlain, false},
		{"third marker: RFC 5044", 1000, 2024, 1020, PtrRFC5044, true},
		{"third marker: draft-01", 1000, 2024, 1024, PtrDraft01, true},
		{"no leading marker: one value", 1020, 1512, 492, PtrPlain, true},
		{"no leading marker: 4 less is wrong", 1020, 1512, 488, PtrPlain, false},
		{"no leading marker: 4 more is wrong", 1020, 1512, 496, PtrPlain, false},
		{"65536 after a leading marker: RFC 5044 fits", 1000, 1000 + 65536, 65532, PtrRFC5044, true},
		{"65536 after a leading marker: draft-01 does not fit", 1000, 1000 + 65536, 0, PtrPlain, false},
		{"66048 after a leading marker: neither fits", 1000, 1000 + 66048, 66044 - 65536, PtrPlain, false},
		{"across the sequence wrap", 0xfffffff0, 0x1f0, 508, PtrRFC5044, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hh := h
			if tt.seq > 0xffff0000 {
				hh.SeqStart = tt.seq
			}
			form, ok := hh.CheckMarker(tt.seq, tt.m, tt.ptr)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.form, form)
		})
	}
}

// PointsAt names the FPDU start a marker points at, in either form.
func TestPointsAt(t *testing.T) {
	h := Half{Markers: true, SeqStart: 0}
	assert.Equal(t, uint32(1024), h.PointsAt(1024, 0))   // leading marker
	assert.Equal(t, uint32(1024), h.PointsAt(1536, 508)) // RFC 5044, leading marker at 1024
	assert.Equal(t, uint32(1024), h.PointsAt(1536, 512)) // draft-01
	assert.Equal(t, uint32(1300), h.PointsAt(1536, 236)) // no leading marker
	assert.Equal(t, uint32(1300), h.PointsAt(1536, 239)) // low bits dropped: 236
	assert.Equal(t, uint32(0xfffffe00), Half{Markers: true, SeqStart: 0xfffffe00}.PointsAt(0, 508))
}

// DeframeForm tells the forms apart, passes both, and takes an FPDU whose
// markers mix the forms, or hold any other value, as a marker error; the
// markers are checked before the CRC.
func TestDeframeForms(t *testing.T) {
	h := Half{Markers: true, CRC: true, SeqStart: 0}
	u := make([]byte, 1500)
	for i := range u {
		u[i] = byte(i)
	}
	var scratch []byte
	for _, tt := range []struct {
		seq  uint32
		form PtrForm
		want PtrForm
	}{
		{0, PtrRFC5044, PtrRFC5044},
		{0, PtrDraft01, PtrDraft01},
		{2048, PtrPlain, PtrRFC5044},
		{2048, PtrDraft01, PtrDraft01},
		{20, PtrRFC5044, PtrPlain}, // no leading marker
		{20, PtrDraft01, PtrPlain}, // both forms write the same values
	} {
		b := h.AppendFPDUForm(nil, tt.seq, u, tt.form)
		got, form, err := h.DeframeForm(tt.seq, b, &scratch)
		require.NoError(t, err, "seq %d form %v", tt.seq, tt.form)
		assert.Equal(t, u, got)
		assert.Equal(t, tt.want, form, "seq %d form %v", tt.seq, tt.form)
	}
	// Mixed: the first later marker in the RFC 5044 form, the second in
	// the draft-01 form (CRC recomputed): a marker error.
	b := h.AppendFPDU(nil, 0, u)
	binary.BigEndian.PutUint16(b[1024+2:], 1024)
	binary.LittleEndian.PutUint32(b[len(b)-4:], CRC32C(b[:len(b)-4]))
	_, _, err := h.DeframeForm(0, b, &scratch)
	assert.True(t, errors.Is(err, ErrMarker), "%v", err)
	// A wrong FPDUPTR and a wrong CRC: the marker error is reported.
	b = h.AppendFPDU(nil, 0, u)
	binary.BigEndian.PutUint16(b[512+2:], 500)
	_, _, err = h.DeframeForm(0, b, &scratch)
	assert.True(t, errors.Is(err, ErrMarker), "%v", err)
}

// TestMaybeFPDU guesses whole FPDUs, with markers anywhere in them but
// inside the ULPDU_Length field (seq 511, a miss it may make), or none,
// and not their pieces or two of them together.
func TestMaybeFPDU(t *testing.T) {
	for _, markers := range []bool{false, true} {
		for _, n := range []int{0, 1, 100, 507, 508, 1000, 1400, 4000} {
			for _, seq := range []uint32{0, 4, 100, 508, 510} {
				h := Half{Markers: markers, CRC: true, SeqStart: 0}
				u := make([]byte, n)
				for i := range u {
					u[i] = byte(i*7 + 1)
				}
				f := h.AppendFPDU(nil, seq, u)
				assert.True(t, MaybeFPDU(f), "markers %v, ULPDU %d, seq %d", markers, n, seq)
				if len(f) > 12 {
					assert.False(t, MaybeFPDU(f[:len(f)-5]), "cut")
				}
				two := h.AppendFPDU(f, seq+uint32(len(f)), u)
				assert.False(t, MaybeFPDU(two), "two FPDUs, markers %v, ULPDU %d, seq %d", markers, n, seq)
			}
		}
	}
	assert.False(t, MaybeFPDU([]byte{0, 1, 2}))
}
