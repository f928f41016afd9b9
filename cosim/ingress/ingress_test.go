// Package ingress tests rtl/mpa_rx_ingress.v against docs/design.md
// section 5.1: a beat is taken while fewer than MAX_INFLIGHT frames are in
// flight and the frame FIFO has room, or the frame has filled the whole
// FIFO (then the rest of it is taken unstored and the frame dropped); each
// frame's end reports the beats stored and whether it was dropped.
package ingress

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
)

const (
	variant     = "mpa_rx_ingress_d8"
	fifoDepth   = 8
	maxInflight = 5
)

// Frames of 1 to 20 beats offered with gaps, the frame FIFO's ready and
// the end of egress random: every handshake and every frame end as the
// contract says.
func TestRandom(t *testing.T) {
	d := onecycle.Open(t, variant)
	rng := rand.New(rand.NewPCG(11, 12))
	var (
		inflight    int
		stored      int  // beats of the current frame stored
		dropped     bool // a beat of the current frame was not stored
		left        = 0  // beats of the current frame still to offer
		fcsBad      bool
		frames      int
		over, short int
		full        int
	)
	for c := 0; c < 200000; c++ {
		if left == 0 {
			left = 1 + rng.IntN(20)
			fcsBad = rng.IntN(10) == 0
		}
		valid := rng.IntN(4) != 0
		last := left == 1
		fifoReady := rng.IntN(5) != 0
		if c/2000%2 == 1 {
			fifoReady = rng.IntN(4) == 0 // a slow egress: the FIFO fills
		}
		// the egress stalls now and then: MAX_INFLIGHT is reached
		done := inflight > 0 && rng.IntN(3) == 0 && (c/1000%3 != 0 || rng.IntN(40) == 0)
		d.SetBool("s_axis_tvalid", valid)
		d.SetBool("s_axis_tlast", last)
		d.SetBool("s_axis_tuser", last && fcsBad)
		d.SetBool("fifo_ready", fifoReady)
		d.SetBool("frame_done", done)
		d.Step()

		room := inflight < maxInflight
		ready := room && (fifoReady || dropped || stored >= fifoDepth)
		store := valid && room && fifoReady && !dropped
		require.Equal(t, ready, d.Bit("s_axis_tready"), "cycle %d: s_axis_tready (inflight %d, stored %d)", c, inflight, stored)
		require.Equal(t, store, d.Bit("store"), "cycle %d: store", c)
		require.Equal(t, uint64(stored), d.Get("cur_beats"), "cycle %d: cur_beats", c)
		accept := valid && ready
		require.Equal(t, accept && last, d.Bit("end_valid"), "cycle %d: end_valid", c)
		if !room {
			full++
		}
		if accept {
			if store {
				stored++
			} else {
				dropped = true
			}
			left--
			if last {
				require.Equal(t, uint64(stored), d.Get("end_beats"), "cycle %d: end_beats", c)
				require.Equal(t, dropped || fcsBad, d.Bit("end_over"), "cycle %d: end_over", c)
				if dropped {
					over++
				}
				if stored >= fifoDepth {
					short++
				}
				frames++
				inflight++
				stored, dropped = 0, false
			}
		}
		if done {
			inflight--
		}
	}
	require.Greater(t, frames, 5000)
	require.Greater(t, over, 100, "frames that outgrew the FIFO")
	require.Greater(t, full, 1000, "cycles at MAX_INFLIGHT")
	t.Logf("%d frames, %d outgrew the FIFO, %d filled it; %d cycles at MAX_INFLIGHT", frames, over, short, full)
}
