package rx

import (
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/walk"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/vecgen/vector"
)

// cycle.Records (the model's count of walker records, one E1 cycle
// each) agrees with walk.Expect, the walker's reference that its
// co-simulation checks, on every frame of every vector, at every width,
// with markers on (at the frame's own sequence number and off the grid)
// and off.
func TestRecordsMatchWalker(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	n, nrec := 0, 0
	for _, d := range dirs {
		v, err := vector.Load(d)
		require.NoError(t, err)
		for _, f := range v.Frames {
			fl := cycle.ParseFields(f.Data)
			if !fl.Defined || fl.PayLen == 0 {
				continue
			}
			for _, width := range []int{64, 128, 256, 512} {
				lanes := width / 8
				beats := (len(f.Data) + lanes - 1) / lanes
				raw := make([]byte, beats*lanes)
				copy(raw, f.Data)
				for _, p := range []cycle.WalkParams{{}, {Markers: true, SeqStart: fl.Seq - 1024}, {Markers: true, SeqStart: fl.Seq - 7}} {
					// The word view: word k holds frame octets 4k-2 .. 4k+1.
					words := make([]uint32, (len(raw)+2)/4)
					for k := range words {
						var w [4]byte
						for i := 0; i < 4; i++ {
							if o := 4*k - 2 + i; o >= 0 && o < len(raw) {
								w[i] = raw[o]
							}
						}
						words[k] = binary.LittleEndian.Uint32(w[:])
					}
					p0 := (fl.PayOff + 2) / 4
					npay := min((fl.PayLen+3)/4, (len(raw)-fl.PayOff)/4)
					recs, _ := walk.Expect(walk.Frame{Words: words, P0: p0, NPay: npay, SegSeq: fl.Seq,
						SeqStart: p.SeqStart, Markers: p.Markers})
					got := cycle.Records(raw, fl, p, beats, lanes)
					require.Equal(t, len(recs), got, "%s width %d params %+v", v.Setup.Name, width, p)
					n++
					nrec += got
				}
			}
		}
	}
	t.Logf("%d frame walks, %d records", n, nrec)
}
