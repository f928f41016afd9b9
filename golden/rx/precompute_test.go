package rx

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
)

// TestPrecomputedCRC runs traffic, one FPDU per segment and FPDUs packed
// several to a segment, with a bad CRC in the middle, through a receiver
// that computes every CRC itself (Frame) and one given the frames parsed
// with PrecomputeCRC, and expects the same events. A precomputed value is
// used for an FPDU that is its segment's whole payload, and only there.
func TestPrecomputedCRC(t *testing.T) {
	for _, markers := range []bool{false, true} {
		for _, cut := range []string{"one-per-segment", "packed"} {
			c := stdConn(markers, true)
			fill(c, 12, 300)
			f := c.i2r.FPDUs[7]
			c.i2r.Data[f.Off+f.Len-1] ^= 0x01 // last CRC octet
			segs := c.i2r.OnePerSegment()
			if cut == "packed" {
				segs = c.i2r.Aligned(1460)
			}
			frames := append(c.startupFrames(t), segFrames(t, c.tu, segs)...)
			want := run(t, c, mpa.StartupPolicy{}, frames)
			require.Len(t, errorsOf(want), 1)

			cfg := Config{}
			r := New(cfg)
			r.AddConn(c.spec())
			known := 0
			for _, b := range frames {
				p := cfg.Parse(b)
				p.PrecomputeCRC()
				if p.crcKnown {
					known++
				}
				r.FrameParsed(p)
			}
			assert.Equal(t, want, r.Events(), "markers %v, %s", markers, cut)
			if cut == "one-per-segment" {
				assert.GreaterOrEqual(t, known, 12, "every data segment is one FPDU")
			}
		}
	}

	// A wrong value is believed for the FPDU it was computed for (so the
	// value is used there), and ignored for a segment of several FPDUs.
	for _, tc := range []struct {
		cut    string
		errors int
	}{{"one-per-segment", 1}, {"packed", 0}} {
		c := stdConn(true, true)
		fill(c, 12, 300)
		segs := c.i2r.OnePerSegment()
		if tc.cut == "packed" {
			segs = c.i2r.Aligned(1460)
		}
		frames := append(c.startupFrames(t), segFrames(t, c.tu, segs)...)
		cfg := Config{}
		r := New(cfg)
		r.AddConn(c.spec())
		for i, b := range frames {
			p := cfg.Parse(b)
			if i == 5 {
				p.crc, p.crcKnown = 0xdeadbeef, true
			}
			r.FrameParsed(p)
		}
		assert.Len(t, errorsOf(r.Events()), tc.errors, tc.cut)
	}
}

// TestSkipTo numbers frames from the one SkipTo names: the events of a
// receiver that skipped ten frames are those of one that did not, ten
// frames later; skipping back changes nothing.
func TestSkipTo(t *testing.T) {
	c := stdConn(true, true)
	fill(c, 4, 300)
	frames := append(c.startupFrames(t), segFrames(t, c.tu, c.i2r.OnePerSegment())...)
	want := run(t, c, mpa.StartupPolicy{}, frames)
	require.NotEmpty(t, want)
	r := New(Config{})
	r.AddConn(c.spec())
	r.SkipTo(10)
	for _, f := range frames {
		r.SkipTo(5)
		r.Frame(f)
	}
	got := r.Events()
	require.Len(t, got, len(want))
	for i := range want {
		want[i].Frame += 10
	}
	assert.Equal(t, want, got)
	assert.Equal(t, 10+len(frames), r.Stats().Frames)
}
