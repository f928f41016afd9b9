package rx

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
)

// The FPDUPTR of a marker inside an FPDU that begins with a marker: the
// receiver takes the RFC 5044 value and the draft-01 value (4 more), counts
// which it saw per FPDU, and reports code 3 for anything else, also when
// the FPDU mixes the two forms. FPDUs without a leading marker have one
// value only.
func TestFPDUPTRForms(t *testing.T) {
	tests := []struct {
		name      string
		form      mpa.PtrForm
		damage    func(c *testConn) (lseq uint32) // 0: no error
		rfc, drft int                             // counted FPDUs (-1: every FPDU that starts on the grid)
		ulpdus    int
		sz        int // ULPDU octets; 0: 1010 (every FPDU 1024 octets on the wire, on the grid)
	}{
		{name: "RFC 5044 sender", form: mpa.PtrRFC5044, rfc: -1, ulpdus: 6},
		{name: "draft-01 sender", form: mpa.PtrDraft01, drft: -1, ulpdus: 6},
		{name: "first FPDU 4 less than RFC 5044", form: mpa.PtrRFC5044, ulpdus: 0, damage: func(c *testConn) uint32 {
			return setPtr(c, 0, 512, 504)
		}},
		{name: "mixed forms in one FPDU", form: mpa.PtrRFC5044, ulpdus: 0, sz: 1100, damage: func(c *testConn) uint32 {
			return setPtr(c, 0, 1024, 1024)
		}},
		{name: "draft value without a leading marker", form: mpa.PtrRFC5044, ulpdus: 1, rfc: 1, sz: 1100, damage: func(c *testConn) uint32 {
			f := c.i2r.FPDUs[1]
			m := int(c.i2r.Half.NextMarker(f.Seq) - c.i2r.Half.SeqStart)
			return setPtr(c, 1, m, uint16(m-f.Off+4))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := stdConn(true, true)
			c.i2r.Form = tt.form
			if tt.sz == 0 {
				tt.sz = 1010
			}
			fill(c, 6, tt.sz)
			// FPDUs that begin with a marker and hold another, from the
			// definition: on the grid and longer than a marker, length
			// and CRC.
			lead := 0
			for _, f := range c.i2r.FPDUs {
				if (f.Seq-c.i2r.Half.SeqStart)%512 == 0 && f.Len > 516 {
					lead++
				}
			}
			require.GreaterOrEqual(t, lead, 1)
			if tt.rfc < 0 {
				tt.rfc = lead
			}
			if tt.drft < 0 {
				tt.drft = lead
			}
			var bad uint32
			if tt.damage != nil {
				bad = tt.damage(c)
			}
			r := New(Config{})
			r.AddConn(c.spec())
			for _, f := range append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.Aligned(1460))...) {
				r.Frame(f)
			}
			errs := errorsOf(r.Events())
			if bad == 0 {
				assert.Empty(t, errs)
			} else {
				require.Len(t, errs, 1)
				assert.Equal(t, CodeMarker, errs[0].Code)
				assert.Equal(t, bad, errs[0].Seq)
			}
			h := r.Halves()[0]
			assert.Equal(t, tt.ulpdus, h.ULPDUs)
			assert.Equal(t, tt.rfc, h.PtrRFC5044, "RFC 5044 form")
			assert.Equal(t, tt.drft, h.PtrDraft01, "draft-01 form")
		})
	}
}

// setPtr writes FPDUPTR ptr into the marker at stream offset moff inside
// FPDU i of the Initiator's stream, recomputes that FPDU's CRC, and returns
// the FPDU's ULPDU_Length sequence number.
func setPtr(c *testConn, i, moff int, ptr uint16) uint32 {
	f := c.i2r.FPDUs[i]
	d := c.i2r.Data
	binary.BigEndian.PutUint16(d[moff+2:], ptr)
	end := f.Off + f.Len
	binary.LittleEndian.PutUint32(d[end-4:], mpa.CRC32C(d[f.Off:end-4]))
	return f.LengthSeq
}

// An in-order FPDU whose damaged ULPDU_Length makes it
// run over a marker the receiver already holds, where that marker names
// another FPDU, is code 3 as soon as its header is read: the receiver does
// not wait for the rest of the FPDU or its CRC. Also when the FPDU only
// reaches into the FPDU that a held marker names (it ends before that
// marker).
func TestMarkerErrorAtHeader(t *testing.T) {
	for _, tt := range []struct {
		name  string
		ulen  uint16 // damaged ULPDU_Length of FPDU 1
		early bool   // reported when the header arrives
	}{
		{"runs over the held marker", 4000, true},
		{"runs into the FPDU the held marker names", 700, true},
		{"ends where it should", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := stdConn(true, true)
			fill(c, 8, 600)
			segs := c.i2r.OnePerSegment()
			f1 := c.i2r.FPDUs[1]
			if tt.ulen != 0 {
				hdr := f1.Off + int(f1.LengthSeq-f1.Seq)
				binary.BigEndian.PutUint16(c.i2r.Data[hdr:], tt.ulen)
			}
			frames := c.startupFrames(t)
			// FPDU 0, then FPDU 2 and 3 out of order (FPDU 2 holds a
			// marker naming its start), then the first 8 octets of FPDU 1
			// (its header), then the rest of FPDU 1.
			frames = append(frames, segFrames(t, c.tu, segs[0:1])...)
			frames = append(frames, segFrames(t, c.tu, segs[2:4])...)
			head := mpa.Segment{Seq: segs[1].Seq, Data: segs[1].Data[:8]}
			tail := mpa.Segment{Seq: segs[1].Seq + 8, Data: segs[1].Data[8:]}
			frames = append(frames, segFrames(t, c.tu, []mpa.Segment{head})...)
			headFrame := len(frames) - 1
			frames = append(frames, segFrames(t, c.tu, []mpa.Segment{tail})...)
			evs := run(t, c, mpa.StartupPolicy{}, frames)
			errs := errorsOf(evs)
			if !tt.early {
				assert.Empty(t, errs)
				return
			}
			require.Len(t, errs, 1)
			assert.Equal(t, CodeMarker, errs[0].Code)
			assert.Equal(t, f1.LengthSeq, errs[0].Seq)
			assert.Equal(t, headFrame, errs[0].Frame, "reported when the header arrived: %v", errs[0].Err)
		})
	}
}

// A bare marker after an in-order FPDU (one that starts no FPDU validated
// out of order) belongs to a later FPDU and is checked with it: a wrong
// FPDUPTR in FPDU 2 that names a start inside FPDU 1 is code 3 at FPDU 2,
// whether FPDU 2 arrives in order or is held out of order when FPDU 1's
// header is read. (Before, a receiver holding it out of order blamed FPDU
// 1, one holding it in order did not: the fuzzed case
// duplicates-w512-ea60124639959581 of cosim/rx/fuzz.)
func TestMarkerAfterFPDUCheckedWithItsOwnFPDU(t *testing.T) {
	for _, order := range []struct {
		name string
		idx  []int // FPDU 1 comes as two segments: 1 its header, -1 the rest
	}{
		{"in order", []int{0, 1, -1, 2, 3}},
		{"FPDUs 2 and 3 held when FPDU 1's header is read", []int{0, 2, 3, 1, -1}},
	} {
		t.Run(order.name, func(t *testing.T) {
			c := stdConn(true, true)
			fill(c, 8, 600)
			segs := c.i2r.OnePerSegment()
			f1, f2 := c.i2r.FPDUs[1], c.i2r.FPDUs[2]
			h := c.i2r.Half
			m := h.NextMarker(f2.Seq)
			require.True(t, tcpseq.Num(m).Before(tcpseq.Num(f2.Seq).Add(f2.Len)), "FPDU 2 holds a marker")
			// Name an octet inside FPDU 1 (RFC 5044 form: the marker's
			// distance from the ULPDU_Length field of the FPDU named).
			inside := f1.LengthSeq + 16
			binary.BigEndian.PutUint16(c.i2r.Data[f2.Off+int(m-f2.Seq)+2:], uint16(m-inside))
			segs = c.i2r.OnePerSegment()
			frames := c.startupFrames(t)
			head := mpa.Segment{Seq: segs[1].Seq, Data: segs[1].Data[:8]}
			tail := mpa.Segment{Seq: segs[1].Seq + 8, Data: segs[1].Data[8:]}
			for _, i := range order.idx {
				var s []mpa.Segment
				switch i {
				case 1:
					s = []mpa.Segment{head}
				case -1:
					s = []mpa.Segment{tail}
				default:
					s = segs[i : i+1]
				}
				frames = append(frames, segFrames(t, c.tu, s)...)
			}
			evs := run(t, c, mpa.StartupPolicy{}, frames)
			errs := errorsOf(evs)
			require.Len(t, errs, 1)
			assert.Equal(t, CodeMarker, errs[0].Code)
			assert.Equal(t, f2.LengthSeq, errs[0].Seq, "%v", errs[0].Err)
			var passed []uint32
			for _, e := range evs {
				if e.Kind == ULPDU {
					passed = append(passed, e.Seq)
				}
			}
			assert.Contains(t, passed, f1.LengthSeq, "FPDU 1 passes")
			assert.NotContains(t, passed, f2.LengthSeq)
		})
	}
}
