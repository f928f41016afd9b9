package rx

// Table sizes of the co-simulation variants (mk/rtl.mk): CONN_COUNT,
// STAG_COUNT, and RQ_DEPTH, the receive buffers per queue software gives
// them.
const (
	Slots     = 1024
	STagSlots = 256
	RQDepth   = 32
)

// Widths are the DATA_WIDTHs with an mpa_rx co-simulation variant.
var Widths = []int{64, 128, 256, 512}
