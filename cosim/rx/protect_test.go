package rx

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	goldenrx "github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Buffer protection in the RTL (the integration top). A tagged write naming
// an STag that belongs to another connection, one never registered, one
// invalidated (in every engine, through the driver for the RTL, in the middle of the
// aligned vector's 44,659-octet RDMA Write to STag 347), or a range past
// its buffer's end places nothing and gives a DDP_ERROR event of that
// kind, on the hardware path: in a frame the RTL decides PLACE, beside
// the model (the frame-by-frame check of Run fails on any host strobe outside
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
						case cycle.EvDDPError:
							if ev.DDPKind == int(tt.kind) {
								n++
							}
						case cycle.EvPlaced:
							placed++
						}
					}
					for _, ev := range res.Events {
						if ev.Kind == fastpath.DDPError && ddpKind(ev.Err) == tt.kind {
							model++
						}
					}
					if n > 0 {
						assert.Equal(t, cycle.EvVerdict, out.Events[0].Kind)
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
				rep, err := RunTop(v, width, DefaultSlave, h)
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

// A configuration write takes effect only on its handshake (docs/design.md
// section 5.6). On the aligned vector, while frame 12 (an in-order PLACE
// frame, which writes its context) passes, the host offers an invalidation
// of STag 347 for one cycle only, the verdict cycle in which cfg_ready is
// low, and withdraws it: no handshake, so STag 347 stays valid and the
// later frames of the RDMA Write to it are placed, as the model (which never
// sees the write) places them. The cycle is found by a dry run of another
// instance on the same inputs (run first and closed: two instances open
// at once in one goroutine hang in Close). Before E1's configuration input
// was gated with cfg_ready, this offer invalidated the STag.
func TestConfigOnlyOnHandshake(t *testing.T) {
	const k, stag = 12, 347
	v := loadVector(t, "aligned")
	for _, width := range Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			// run drives frames 0..k-1 frame by frame, checked against the
			// model, then queues frame k; offer, when not negative, is the
			// cycle after frame k is queued in which the invalidation is
			// offered; run returns the first cycle with cfg_ready low
			run := func(offer int) int {
				sys, err := replay.NewSystem(&v.Setup, Hardware(0))
				require.NoError(t, err)
				r, err := Open(width)
				require.NoError(t, err)
				defer r.Close()
				require.NoError(t, r.Ops(sys))
				mem := sys.HWPlacer.Memory()
				low := -1
				for i, f := range v.Frames {
					res := sys.Frame(f.Data)
					r.Frame(f.Data)
					if i == k {
						rec := r.in[:r.sim.InWords()]
						for c := 0; c < 5000 && (low < 0 || c <= offer); c++ {
							if c == offer {
								d := r.p["cfg_data"].Slice(rec)
								clear(d)
								d[0] = uint64(stag) << 32 // [63:32] the STag, [0] valid 0
								r.p["cfg_op"].Set(rec, 1)
								r.p["cfg_index"].Set(rec, uint64(stag>>8)%STagSlots)
								r.p["cfg_valid"].SetBool(rec, true)
							}
							r.run(1)
							r.p["cfg_valid"].SetBool(rec, false)
							if c == offer {
								require.False(t, r.p["cfg_ready"].Bit(r.out), "cfg_ready high in the offer's cycle: that was a handshake")
							}
							if low < 0 && !r.p["cfg_ready"].Bit(r.out) {
								low = c
							}
						}
						require.GreaterOrEqual(t, low, 0, "cfg_ready never low")
						if offer < 0 {
							return low
						}
					}
					out, err := r.Drain()
					require.NoError(t, err, "frame %d", i)
					require.NoError(t, compare(res, f.Data, out, mem), "frame %d", i)
					require.NoError(t, r.Ops(sys))
				}
				require.NoError(t, sys.Err)
				placed := 0
				for _, e := range sys.Events {
					if e.Kind == goldenrx.Placed && e.DDP.Tagged && e.DDP.STag == stag && e.Frame > k {
						placed++
					}
				}
				require.Positive(t, placed, "no write to STag %d after frame %d", stag, k)
				t.Logf("offer withdrawn in cycle %d of frame %d, cfg_ready low; %d later FPDUs to STag %d placed as the model", offer, k, placed, stag)
				return low
			}
			low := run(-1)
			require.Equal(t, low, run(low))
		})
	}
}
