package learn

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/rx"
)

// run replays frames through a golden receiver with a setup learned
// beforehand (two passes) or as it goes, and returns its events with the
// Placed addresses and the final state (addresses differ between the two).
func run(t *testing.T, frames [][]byte, live bool) ([]rx.Event, []uint64, string) {
	pl := ddp.NewPlacer(ddp.NewMemory())
	pl.Memory().SetDiscard(true)
	var evs []rx.Event
	var addrs []uint64
	cfg := rx.Config{Auto: true, Checksums: rx.ChecksumsAuto, Placer: pl, Digests: true, OnEvent: func(e *rx.Event) {
		ev := *e
		if ev.Kind == rx.Placed {
			addrs = append(addrs, ev.Addr)
			ev.Addr = 0
		}
		evs = append(evs, ev)
	}}
	r := rx.New(cfg)
	if live {
		l := NewLive(pl, r.Half)
		for i, f := range frames {
			l.SetFrame(i)
			r.Frame(f)
		}
		return evs, addrs, l.Summary()
	}
	s := Learn(frames, rx.Config{Auto: true, Checksums: rx.ChecksumsAuto})
	for i, f := range frames {
		require.NoError(t, s.Apply(i, pl, r.Stream))
		r.Frame(f)
	}
	return evs, addrs, s.Summary()
}

// Learned as it goes, a setup gives the events a setup learned beforehand
// gives, but for the addresses of placements: on the synthetic traffic
// and on the shared capture.
func TestLiveMatchesTwoPass(t *testing.T) {
	_, _, synthetic := traffic(t)
	for _, tc := range []struct {
		name   string
		frames [][]byte
	}{
		{"synthetic", synthetic},
		{"shared-capture", readPcap(t, capture)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantAddrs, _ := run(t, tc.frames, false)
			got, gotAddrs, summary := run(t, tc.frames, true)
			require.Equal(t, want, got)
			require.Len(t, gotAddrs, len(wantAddrs))
			assert.NotEmpty(t, gotAddrs, "something was placed")
			assert.Contains(t, summary, "learned as the capture went")
		})
	}
}

// A learner read as a stream learns what Learn learns from the frames held.
func TestLearnerStreams(t *testing.T) {
	frames := readPcap(t, capture)
	cfg := rx.Config{Auto: true, Checksums: rx.ChecksumsAuto}
	l := NewLearner(cfg)
	for _, f := range frames {
		l.Frame(f)
	}
	assert.NotEmpty(t, l.Setup().Buffers)
	assert.Equal(t, Learn(frames, cfg).Buffers, l.Setup().Buffers)
}
