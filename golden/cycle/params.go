package cycle

import (
	"math/bits"
)

// Documented parameters.
const (
	// MaxInflight is the number of frames between their last beat and the
	// end of their egress at which s_axis_tready goes low (mpa_rx's
	// MAX_INFLIGHT) up to 256 bits; InflightLimit gives it per width.
	MaxInflight = 14
	// MaxInflight512 is MAX_INFLIGHT at 512 bits, where a frame of two
	// beats is about 32 cycles in flight, 16 frames at one every two
	// cycles.
	MaxInflight512 = 24
	// MaxFrame is mpa_rx's default MAX_FRAME: the longest frame in octets
	// (Ethernet header to the end of the TCP payload, no FCS) of a
	// 1500-octet MTU with an 802.1Q tag.
	MaxFrame = 1518
	// JumboFrame is MAX_FRAME in the jumbo configuration (9000-octet MTU),
	// the one the co-simulation variants build.
	JumboFrame = 9018
)

// ParsesIPv6 reports whether the receiver modelled parses IPv6. It does:
// mpa_rx_parse takes IPv6 frames without extension headers (one with
// them is NOT_TCP, reason IPv6Ext) and a context is keyed on 128-bit
// addresses. The models of mpa_rx set golden/fastpath's Engine.IPv4Only
// to !ParsesIPv6.
const ParsesIPv6 = true

// FrameCapacity returns the longest frame in octets mpa_rx stores whole
// when it finds its frame FIFO empty (fastpath.Engine.FrameLimit of a
// frame-by-frame run): FIFO_DEPTH + 1 beats (the FIFO's RAM and its output
// register) of DATA_WIDTH/8 octets, with the default FIFO_DEPTH for
// maxFrame (MAX_FRAME).
func FrameCapacity(dataWidth, maxFrame int) int {
	return (DefaultFIFODepth(dataWidth, maxFrame) + 1) * dataWidth / 8
}

// DefaultFIFODepth returns mpa_rx's default FIFO_DEPTH in beats at a data
// width and MAX_FRAME: two frames of maxFrame octets rounded up to a power
// of two (docs/design.md section 6).
func DefaultFIFODepth(dataWidth, maxFrame int) int {
	lanes := dataWidth / 8
	beats := 2 * ((maxFrame + lanes - 1) / lanes)
	d := 1
	for d < beats {
		d <<= 1
	}
	return d
}

// InflightLimit returns mpa_rx's MAX_INFLIGHT at a data width: 14, 24 at
// 512 bits (docs/design.md section 5.1).
func InflightLimit(dataWidth int) int {
	if dataWidth >= 512 {
		return MaxInflight512
	}
	return MaxInflight
}

// LWalk returns L_WALK, the walker's latency, at a data width: 17, 18, 19,
// 21 at 64, 128, 256, 512 bits (nine walker stages, a tenth at 512 bits
// where a beat can hold more than two FPDUs' ULPDU_Length words and the
// walk of the beat takes two stages, then the crc32c engine's
// 5 + log2(DATA_WIDTH/8) cycles).
func LWalk(dataWidth int) int {
	l := 9 + 5 + bits.TrailingZeros(uint(dataWidth/8))
	if (dataWidth/32+4)/5 > 2 {
		l++
	}
	return l
}

// LParse returns L_PARSE, the cycles from a frame's last beat to the
// parser's frame class (mpa_rx_parse's f_valid), at a data width: 8 plus
// the levels of its checksum adder tree over 2*DataWidth/32+1 units, 11,
// 12, 13, 14 at 64, 128, 256, 512 bits. The verdict does not wait for it:
// the class is queued by cycle a + L_PARSE + 2, before the walker's summary
// in cycle a + 4 + L_WALK (section 5.2).
func LParse(dataWidth int) int { return 8 + bits.Len(uint(2*dataWidth/32)) }

// MaxEvtLanes is the largest EVT_LANES (128-bit event lanes on m_evt).
const MaxEvtLanes = 2

// EvtLanes returns mpa_rx's EVT_LANES at a data width: 1 at 64 and 128
// bits, 2 at 256 and 512 (docs/design.md sections 4 and 5.3).
func EvtLanes(dataWidth int) int {
	if dataWidth >= 256 {
		return 2
	}
	return 1
}

// Config holds the parameters of the modelled receiver.
type Config struct {
	DataWidth  int    // 64, 128, 256 or 512
	ConnCount  int    // CONN_COUNT
	MaxFrame   int    // MAX_FRAME in octets (0: MaxFrame)
	FIFODepth  int    // FIFO_DEPTH in beats (0: DefaultFIFODepth(DataWidth, MaxFrame))
	Window     uint32 // receive window (0: rx.DefaultWindow)
	DDPVersion uint8  // the DDP version the placer accepts
	// RQDepth is RQ_DEPTH; when not zero, a post further than RQ_DEPTH
	// beyond a queue's current MSN (which section 4 rules out) is reported
	// in Model.Err.
	RQDepth int
	// LWalk overrides L_WALK when not zero (tests of the lockstep itself:
	// a model that is wrong on purpose).
	LWalk int
}
