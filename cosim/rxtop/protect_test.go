package rxtop

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/vecgen/vector"
)

// Buffer protection in the RTL. A tagged write naming an STag that belongs
// to another connection, one never registered, one invalidated (in every
// engine, through the configuration port for the RTL, in the middle of the
// aligned vector's 44,659-octet RDMA Write to STag 347), or a range past
// its buffer's end places nothing and gives a DDP_ERROR event of that
// kind, on the hardware path: in a frame the RTL decides PLACE, beside
// the model (rxtop's frame-by-frame check fails on any host strobe outside
// the model's placed ranges). Each such FPDU is counted here, and a frame
// whose FPDUs all fail makes no host write at all.
func TestProtection(t *testing.T) {
	tests := []struct {
		vector     string
		kind       ddp.Kind
		invalidate uint32 // STag invalidated before frame at
		at         int
	}{
		{vector: "ddp-error-foreign-stag", kind: ddp.KindSTagNotAssociated},
		{vector: "ddp-error-unknown-stag", kind: ddp.KindInvalidSTag},
		{vector: "ddp-error-out-of-bounds", kind: ddp.KindBaseBounds},
		{vector: "aligned", kind: ddp.KindInvalidSTag, invalidate: 347, at: 20},
	}
	for _, tt := range tests {
		v, err := vector.Load(filepath.Join("..", "..", "vectors", tt.vector))
		require.NoError(t, err)
		var stag vector.STag
		for _, s := range v.Setup.STags {
			if s.STag == tt.invalidate {
				stag = s
			}
		}
		for _, width := range Widths {
			t.Run(fmt.Sprintf("%s/w%d", tt.vector, width), func(t *testing.T) {
				var errs, model, placed, later int
				var h Hooks
				if tt.invalidate != 0 {
					require.NotZero(t, stag.Len)
					h.Before = func(i int, e Engines) error {
						if i == tt.at {
							e.Sys.InvalidateSTag(tt.invalidate)
							e.Golden.Placer.InvalidateSTag(tt.invalidate)
						}
						return nil
					}
				}
				h.After = func(i int, res fastpath.Result, out Output) {
					n := 0
					for _, ev := range out.Events {
						switch ev.Kind {
						case EvDDPError:
							if ev.DDPKind == int(tt.kind) {
								n++
							}
						case EvPlaced:
							placed++
						}
					}
					for _, ev := range res.Events {
						if ev.Kind == fastpath.DDPError && ddpKind(ev.Err) == tt.kind {
							model++
						}
					}
					if n > 0 {
						assert.Equal(t, EvVerdict, out.Events[0].Kind)
						assert.Equal(t, 0, out.Events[0].Verdict, "frame %d: DDP errors in a frame that is not PLACE", i)
					}
					if n > 0 && countKind(res.Events, fastpath.Placed) == 0 {
						assert.Empty(t, out.Writes, "frame %d: every FPDU failed DDP, yet host writes", i)
					}
					errs += n
					if tt.invalidate != 0 && i >= tt.at {
						for _, w := range out.Writes {
							for k := range w.Data {
								if w.Strb>>k&1 != 0 {
									a := w.Addr + uint64(k)
									assert.False(t, a-stag.Addr < stag.Len, "frame %d: host write at %#x in the buffer of invalidated STag %d", i, a, stag.STag)
								}
							}
						}
						later += countKind(res.Events, fastpath.Placed)
					}
				}
				rep, err := RunWith(v, width, h)
				require.NoError(t, err)
				require.Positive(t, errs, "no DDP_ERROR of kind %v from the RTL", tt.kind)
				require.Equal(t, model, errs)
				if tt.invalidate != 0 {
					require.Positive(t, later, "nothing placed after the invalidation")
				}
				t.Logf("%d DDP_ERROR events of kind %d (%v) from the RTL in PLACE frames; %d FPDUs placed, %d frames, %d host writes",
					errs, tt.kind, tt.kind, placed, rep.Frames, rep.Writes)
			})
		}
	}
}

func ddpKind(err error) ddp.Kind {
	var de *ddp.Error
	if errors.As(err, &de) {
		return de.Kind
	}
	return 0
}

// countKind counts the model's events of the given kinds.
func countKind(evs []fastpath.Event, kinds ...fastpath.EventKind) int {
	n := 0
	for _, e := range evs {
		for _, k := range kinds {
			if e.Kind == k {
				n++
			}
		}
	}
	return n
}
