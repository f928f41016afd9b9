package fuzz

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/rx"
)

// FrameStall against docs/design.md section 5 item 8's table, term by
// term: L_WALK (17, 18, 19, 21) + 12 + E1 + B + E2.
func TestFrameStall(t *testing.T) {
	for _, tc := range []struct {
		width, b, r int
		place       bool
		want        int
	}{
		{64, 10, 2, true, 17 + 12 + (1 + 4*2) + 10 + 2},
		{64, 10, 2, false, 17 + 12 + (1 + 2) + 10},
		{128, 2049, 0, false, 18 + 12 + 1 + 2049},
		{256, 7, 3, true, 19 + 12 + 2*3 + 7 + 2*3},
		{512, 7, 3, false, 21 + 12 + 3 + 7},
	} {
		require.Equal(t, tc.want, FrameStall(tc.width, tc.b, tc.r, tc.place), "%+v", tc)
	}
}

// The golden cycle model keeps the contract's bound on TestBurst's stream
// (the RTL is held to the same bound, and to the model's stall, by
// TestBurst), and the stream does stall the input.
func TestStallBoundModel(t *testing.T) {
	vs := loadVectors(t)
	for _, width := range rx.Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			frames, _ := burstStream(t, vs, width, 600)
			bound, stall, err := StallBound(width, frames)
			require.NoError(t, err)
			require.LessOrEqual(t, stall, bound)
			require.Positive(t, stall, "back to back, the stream stalls the input")
			t.Logf("the model's longest stall %d cycles, bound %d", stall, bound)
		})
	}
}
