package fastpath_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// protectCase is a vector whose tagged writes break buffer protection, and
// the DDP error kind they must give.
type protectCase struct {
	vector string
	kind   ddp.Kind
	// invalidate, when not zero, is an STag invalidated in every engine
	// before frame at (the vector setup has no field for invalidation).
	invalidate uint32
	at         int
}

var protectCases = []protectCase{
	{vector: "ddp-error-foreign-stag", kind: ddp.KindSTagNotAssociated},
	{vector: "ddp-error-unknown-stag", kind: ddp.KindInvalidSTag},
	{vector: "ddp-error-out-of-bounds", kind: ddp.KindBaseBounds},
	// aligned: STag 347 takes frames 5 to about 35 (RDMA Write of 44,659
	// octets); invalidated before frame 20
	{vector: "aligned", kind: ddp.KindInvalidSTag, invalidate: 347, at: 20},
}

func ddpKind(err error) ddp.Kind {
	var de *ddp.Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return 0
}

// Protection in the golden models. A tagged write naming an STag of another
// connection, an STag that was never registered or was invalidated, or a
// range past its buffer's end places nothing and reports the DDP error of
// its kind, in the hardware's functional model (fastpath.Engine, at the
// co-simulated RTL's table sizes) and in the golden receiver that runs
// every frame in software (golden/rx on golden/ddp): every DDP error the
// golden receiver reports is reported by the hardware model for the same
// FPDU, and no octet either engine writes lies outside a buffer of the
// writing stream that was valid when it was written.
func TestProtection(t *testing.T) {
	for _, tc := range protectCases {
		t.Run(tc.vector, func(t *testing.T) {
			v, err := vector.Load(filepath.Join("..", "..", "vectors", tc.vector))
			require.NoError(t, err)
			var golden []rx.Event
			g, err := replay.NewGolden(&v.Setup, rx.Config{Digests: true, OnEvent: func(e *rx.Event) { golden = append(golden, *e) }})
			require.NoError(t, err)
			s, mem := newSystem(t, v, tables{1024, 256, 8})
			gmem := g.Placer.Memory()

			// the buffers each stream may write: registered STags and posted
			// receive buffers, as [base, base+len) per stream
			type span struct {
				stream    ddp.StreamID
				base, len uint64
				stag      uint32
			}
			var allowed []span
			for _, r := range s.HWPlacer.Image() {
				allowed = append(allowed, span{r.Stream, r.Base, r.Length, r.STag})
			}
			inside := func(w ddp.Write, dead map[uint32]bool) bool {
				for _, a := range allowed {
					if a.stream == w.Stream && !dead[a.stag] && w.Addr-a.base <= a.len && uint64(len(w.Data)) <= a.len-(w.Addr-a.base) {
						return true
					}
				}
				return false
			}

			hwErrs := map[string]int{} // the hardware model's DDP errors of tc.kind: half, seq
			hwPlaced, hwDDP := 0, 0
			dead := map[uint32]bool{}
			for i, f := range v.Frames {
				if tc.invalidate != 0 && i == tc.at {
					s.InvalidateSTag(tc.invalidate)
					g.Placer.InvalidateSTag(tc.invalidate)
					dead[tc.invalidate] = true
					// the hardware's table gets the invalidation as a
					// configuration write (valid 0)
					ops := s.TakeOps()
					require.Equal(t, []fastpath.Op{{Kind: fastpath.OpSTag, STag: tc.invalidate}}, ops)
				}
				n, gn := len(mem.Log()), len(gmem.Log())
				g.Receiver.Frame(f.Data)
				res := s.Frame(f.Data)
				s.TakeOps()
				placed := 0
				for _, e := range res.Events {
					switch e.Kind {
					case fastpath.Placed:
						hwPlaced++
						if e.Len > e.DDP.Len() {
							placed++
						}
					case fastpath.DDPError:
						hwDDP++
						if ddpKind(e.Err) == tc.kind {
							hwErrs[fmt.Sprintf("%v %d", e.Half, e.Seq)]++
						}
					}
				}
				if res.Verdict == fastpath.Place {
					// the hardware wrote exactly its placed FPDUs' payloads
					assert.Equal(t, placed, len(mem.Log())-n, "frame %d: hardware writes", i)
				}
				for _, w := range mem.Log()[n:] {
					assert.True(t, inside(w, dead), "frame %d: fast path wrote %d octets at %#x for stream %d", i, len(w.Data), w.Addr, w.Stream)
				}
				for _, w := range gmem.Log()[gn:] {
					assert.True(t, inside(w, dead), "frame %d: golden receiver wrote %d octets at %#x for stream %d", i, len(w.Data), w.Addr, w.Stream)
				}
			}
			require.NoError(t, s.Err)

			// every DDP error of the kind the golden receiver reports, the
			// hardware model reported for the same FPDU
			var want int
			for _, e := range golden {
				if e.Kind == rx.DDPError && ddpKind(e.Err) == tc.kind {
					want++
					assert.Equal(t, 1, hwErrs[fmt.Sprintf("%v %d", e.Half, e.Seq)], "golden DDP error at %d (%v) not reported by the hardware model", e.Seq, e.Err)
				}
			}
			require.Positive(t, want, "no DDP error of kind %v", tc.kind)
			assert.Len(t, hwErrs, want)
			// and the union of hardware and software is the golden result
			assert.Equal(t, summarize(golden), summarize(s.Events))
			for _, b := range v.Setup.Buffers() {
				assert.Equal(t, gmem.Read(b.Addr, int(b.Len)), mem.Read(b.Addr, int(b.Len)), "buffer %#x", b.Addr)
			}
			t.Logf("%d %v errors (all by the hardware model); hardware: %d FPDUs placed, %d DDP errors; verdicts %v",
				want, tc.kind, hwPlaced, hwDDP, s.Verdicts)
		})
	}
}
