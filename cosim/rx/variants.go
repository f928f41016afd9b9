package rx

import (
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/vecgen/replay"
)

// Table sizes of the co-simulation variants (mk/sim.mk): CONN_COUNT,
// STAG_COUNT, and RQ_DEPTH, the receive buffers per queue software gives
// them.
const (
	Slots     = 1024
	STagSlots = 256
	RQDepth   = 32
)

// Widths are the DATA_WIDTHs with an mpa_rx co-simulation variant.
var Widths = []int{64, 128, 256, 512}

// MaxFrame is MAX_FRAME of the co-simulation variants: the jumbo
// configuration.
const MaxFrame = cycle.JumboFrame

// Hardware returns the hardware of the co-simulation variant of the given
// width as golden/fastpath models it frame by frame: the table sizes, the
// parser (cycle.ParsesIPv6) and the longest frame it stores
// (cycle.FrameCapacity; none for width 0, where golden/cycle decides
// oversize frames with the FIFO's fill).
func Hardware(width int) replay.Hardware {
	hw := replay.Hardware{Slots: Slots, STagSlots: STagSlots, RQDepth: RQDepth, IPv4Only: !cycle.ParsesIPv6}
	if width > 0 {
		hw.FrameLimit = cycle.FrameCapacity(width, MaxFrame)
	}
	return hw
}
