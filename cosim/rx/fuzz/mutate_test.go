package fuzz

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/vector"
)

func loadAligned(t *testing.T) (*vector.Vector, []FrameInfo) {
	v, err := vector.Load(filepath.Join(vectorsDir, "aligned"))
	require.NoError(t, err)
	fi, err := Analyze(v, rx.Slots)
	require.NoError(t, err)
	return v, fi
}

// Analyze finds the markers and ULPDU_Length fields where the vector's
// connection parameters put them: every marker offset is on the marker grid
// and its FPDUPTR points back at an FPDU start (RFC 5044 section 4.3), and
// on a segment that starts an FPDU the first length field is at offset 0
// or right after a leading marker.
func TestAnalyze(t *testing.T) {
	v, infos := loadAligned(t)
	markers, lens := 0, 0
	for i, fi := range infos {
		if len(fi.Markers) == 0 {
			continue
		}
		require.True(t, fi.TCP)
		f, err := wire.Parse(v.Frames[i].Data)
		require.NoError(t, err)
		for _, off := range fi.Markers {
			require.True(t, fi.Ctx.Params.IsMarker(fi.Seq+uint32(off)))
			ptr := int(binary.BigEndian.Uint16(f.Payload[off+2:]))
			start := off - ptr
			if start >= 0 {
				require.Contains(t, append([]int{0, 4}, fi.LenFields...), start+boolInt(fi.Ctx.Params.IsMarker(fi.Seq+uint32(start)))*4,
					"frame %d marker at %d points to %d", i, off, start)
			}
			markers++
		}
		require.NotEmpty(t, fi.LenFields)
		lens += len(fi.LenFields)
	}
	require.Positive(t, markers)
	require.Positive(t, lens)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func hamming(a, b []byte) int {
	n := 0
	for i := range a {
		n += bits.OnesCount8(a[i] ^ b[i])
	}
	return n
}

// Each class changes what it says it changes, and the classes that fix the
// checksums leave frames that golden/wire accepts or rejects only for the
// field the class changed.
func TestMutateClasses(t *testing.T) {
	v, infos := loadAligned(t)
	// a full-operation data frame with markers
	k := -1
	for i, fi := range infos {
		if len(fi.Markers) > 0 && len(fi.LenFields) > 0 {
			k = i
			break
		}
	}
	require.GreaterOrEqual(t, k, 0)
	b, fi := v.Frames[k].Data, infos[k]
	orig, err := wire.Parse(b)
	require.NoError(t, err)
	tcp := fi.IPOff + fi.IHL
	parses := func(t *testing.T, d []byte) wire.Frame {
		f, err := wire.Parse(d)
		require.NoError(t, err)
		return f
	}
	tests := []struct {
		c     Class
		check func(t *testing.T, d []byte)
	}{
		{BitFlip, func(t *testing.T, d []byte) {
			require.Len(t, d, len(b))
			require.LessOrEqual(t, hamming(b, d), 8)
		}},
		{HeaderFlip, func(t *testing.T, d []byte) {
			// (a flipped IHL or data offset moves where FixChecksums
			// writes the TCP checksum, so only the length is fixed)
			require.Len(t, d, len(b))
		}},
		{PayloadFlip, func(t *testing.T, d []byte) {
			f := parses(t, d)
			require.Equal(t, b[:fi.IPOff+10], d[:fi.IPOff+10])
			h := hamming(orig.Payload, f.Payload)
			require.True(t, h >= 0 && h <= 4)
		}},
		{Truncate, func(t *testing.T, d []byte) {
			require.Less(t, len(d), len(b))
			require.True(t, bytes.Equal(b[:len(d)], d))
		}},
		{TruncFixed, func(t *testing.T, d []byte) {
			f := parses(t, d)
			require.Less(t, len(f.Payload), len(orig.Payload))
			require.True(t, bytes.Equal(orig.Payload[:len(f.Payload)], f.Payload))
		}},
		{TailCut, func(t *testing.T, d []byte) {
			require.GreaterOrEqual(t, len(d), len(b)-7)
			require.Less(t, len(d), len(b))
		}},
		{ULPDULen, func(t *testing.T, d []byte) {
			f := parses(t, d)
			diff := 0
			for _, off := range fi.LenFields {
				if !bytes.Equal(orig.Payload[off:off+2], f.Payload[off:off+2]) {
					diff++
				}
			}
			require.Equal(t, 1, diff)
		}},
		{FPDUPtr, func(t *testing.T, d []byte) {
			f := parses(t, d)
			diff := 0
			for _, off := range fi.Markers {
				if !bytes.Equal(orig.Payload[off+2:off+4], f.Payload[off+2:off+4]) {
					diff++
				}
			}
			require.Equal(t, 1, diff)
		}},
		{IHL, func(t *testing.T, d []byte) { require.NotEqual(t, b[fi.IPOff]&15, d[fi.IPOff]&15) }},
		{DataOffset, func(t *testing.T, d []byte) { require.NotEqual(t, b[tcp+12]>>4, d[tcp+12]>>4) }},
		{IPLen, func(t *testing.T, d []byte) { require.NotEqual(t, b[fi.IPOff+2:fi.IPOff+4], d[fi.IPOff+2:fi.IPOff+4]) }},
		{Padding, func(t *testing.T, d []byte) {
			require.Greater(t, len(d), len(b))
			require.True(t, bytes.Equal(orig.Payload, parses(t, d).Payload))
		}},
		{RandomFrame, func(t *testing.T, d []byte) {
			require.True(t, len(d) >= 1 && len(d) <= MaxFrame)
		}},
		{Jumbo, func(t *testing.T, d []byte) {
			require.LessOrEqual(t, len(d), MaxFrame)
			f := parses(t, d)
			require.True(t, bytes.Equal(orig.Payload, f.Payload[:len(orig.Payload)]))
		}},
		{SeqFar, func(t *testing.T, d []byte) { require.NotEqual(t, orig.Seq, parses(t, d).Seq) }},
		{TCPFlags, func(t *testing.T, d []byte) { require.NotEqual(t, orig.Flags, parses(t, d).Flags) }},
	}
	for _, tc := range tests {
		t.Run(string(tc.c), func(t *testing.T) {
			m := NewMutator(7, 8)
			for n := 0; n < 200; n++ {
				out := m.Mutate(tc.c, b, fi)
				require.Len(t, out, 1)
				tc.check(t, out[0])
			}
		})
	}
	t.Run(string(UnknownConn), func(t *testing.T) {
		m := NewMutator(7, 8)
		for n := 0; n < 50; n++ {
			out := m.Mutate(UnknownConn, b, fi)
			require.True(t, len(out) >= 2 && len(out) <= 16)
			for _, d := range out {
				f := parses(t, d)
				require.NotEqual(t, orig.FourTuple(), f.FourTuple())
				require.True(t, bytes.Equal(orig.Payload, f.Payload))
			}
		}
	})
	require.Equal(t, len(Classes), len(tests)+3) // + UnknownConn, Duplicate, Reorder (in Stream)
	require.Equal(t, len(v.Frames[k].Data), len(b), "Mutate must not modify its input")
}

// Streams are a function of the seed; every vector frame is sent exactly
// once as itself (Intact or held back by Reorder), and the counts add up.
func TestStream(t *testing.T) {
	v, infos := loadAligned(t)
	for _, live := range []bool{false, true} {
		mk := func(seed uint64) []Frame {
			m := NewMutator(seed, 16)
			m.Live = live
			return m.Stream(v.Frames, infos)
		}
		a, b, c := mk(3), mk(3), mk(4)
		require.Equal(t, a, b)
		require.NotEqual(t, a, c)
		sent := make([]int, len(v.Frames))
		counts := Counts{}
		counts.Add(a)
		for _, f := range a {
			if f.Class == Intact || f.Class == Reorder {
				sent[f.Orig]++
				assert.True(t, bytes.Equal(v.Frames[f.Orig].Data, f.Data))
			}
			if f.Class == Duplicate {
				assert.True(t, bytes.Equal(v.Frames[f.Orig].Data, f.Data))
			}
		}
		for i, n := range sent {
			require.Equal(t, 1, n, "frame %d", i)
		}
		require.Equal(t, len(a), counts.Mutated()+counts[Intact])
		require.Greater(t, counts.Mutated(), len(v.Frames)/2)
		if live {
			n := 0
			for _, f := range a {
				if fatal[f.Class] {
					n++
				}
			}
			require.LessOrEqual(t, n, 1)
		}
	}
}

// FixChecksums makes golden/wire accept a frame whose checksum fields were
// zeroed.
func TestFixChecksums(t *testing.T) {
	v, infos := loadAligned(t)
	for i, f := range v.Frames {
		if !infos[i].TCP {
			continue
		}
		d := append([]byte(nil), f.Data...)
		ipo := infos[i].IPOff
		d[ipo+10], d[ipo+11] = 0, 0
		d[ipo+infos[i].IHL+16] ^= 0xff
		require.True(t, FixChecksums(d))
		require.True(t, bytes.Equal(f.Data, d), "frame %d", i)
	}
}
