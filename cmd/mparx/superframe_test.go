package main

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// ulpdus runs the golden receiver over frames (index i of frames[k] is
// capture frame k) and returns its ULPDUs, deliveries and errors.
func ulpdus(frames [][][]byte) []string {
	var out []string
	cur := 0
	r := rx.New(rx.Config{Auto: true, Checksums: rx.ChecksumsAuto, Digests: true, OnEvent: func(e *rx.Event) {
		switch e.Kind {
		case rx.ULPDU, rx.Delivered, rx.MPAError, rx.Dropped:
			out = append(out, fmt.Sprintf("%d %v %v %d %d %x %d", cur, e.Kind, e.Half, e.Seq, e.Len, e.SHA256[:4], e.Code))
		}
	}})
	for k, fs := range frames {
		cur = k
		for _, f := range fs {
			r.Frame(f)
		}
	}
	return out
}

// The loopback capture's segments of up to 47,682 octets are cut to the
// MSS the peer announced in its SYN (65,495 on loopback), no frame longer
// than MAX_FRAME; without the SYNs, to the MTU. Each frame is one the
// wire can carry, with checksums that verify, and the receiver passes from
// them what it passes from the segments.
func TestSplitter(t *testing.T) {
	var orig [][][]byte
	for _, r := range readRecords(t, loCapture) {
		w, _, _ := rx.ChecksumsAuto.Wire(r.data)
		orig = append(orig, [][]byte{w})
	}
	want := ulpdus(orig)
	require.NotEmpty(t, want)
	for _, tc := range []struct {
		name     string
		noSYN    bool
		maxFrame int
		mtu      int
		biggest  int // the longest frame expected
		from     string
	}{
		{"syn-jumbo", false, 9018, 1500, 9018, "the SYN's MSS option"},
		{"syn-standard", false, 1518, 1500, 1518, "the SYN's MSS option"},
		{"mtu-1500", true, 9018, 1500, 1514, "--mtu 1500"},
		{"mtu-4000", true, 9018, 4000, 4014, "--mtu 4000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := wire.NewSegmenter(tc.mtu, tc.maxFrame)
			var cut [][][]byte
			longest := 0
			for _, fs := range orig {
				f, err := wire.Parse(fs[0])
				require.NoError(t, err)
				if tc.noSYN && f.Flags&wire.FlagSYN != 0 {
					continue
				}
				ps := s.Frames(fs[0])
				for _, p := range ps {
					g, err := wire.Parse(p)
					require.NoError(t, err)
					assert.LessOrEqual(t, len(p), tc.maxFrame)
					if len(ps) > 1 && tc.noSYN {
						assert.LessOrEqual(t, 20+g.TCPHeaderLen+len(g.Payload), tc.mtu, "within the MTU")
					}
					longest = max(longest, len(p))
				}
				cut = append(cut, ps)
			}
			if tc.noSYN {
				assert.Equal(t, len(want), len(ulpdus(cut)))
			} else {
				assert.Equal(t, want, ulpdus(cut))
			}
			assert.LessOrEqual(t, longest, tc.biggest)
			segs, _, _, _ := s.Cut()
			assert.Positive(t, segs)
			assert.Contains(t, segmentNote(s), fmt.Sprintf("rtl: %d TCP segments longer than the wire carries", segs))
			assert.Contains(t, segmentNote(s), tc.from)
		})
	}
}
