package rx

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen"
	"github.com/mparx/mparx/vecgen/vector"
)

// On aligned traffic with no backpressure, the receiver takes full-size
// frames at one beat per cycle (s_axis_tready stays high) at every width;
// short frames are bounded by the egress's per-frame events (VERDICT,
// ADVANCED, a lookup and PLACED per FPDU). `make bench-rtl` prints the
// table.
func TestThroughput(t *testing.T) {
	t.Logf("%-6s %-9s %-7s %-7s %-8s %-6s %-8s", "width", "frame", "frames", "beats", "cycles", "util", "latency")
	for _, mtu := range []int{72, 498, 1500} {
		v := alignedStream(mtu, 300)
		for _, width := range Widths {
			t.Run(fmt.Sprintf("mtu%d/w%d", mtu, width), func(t *testing.T) {
				m, err := MeasureThroughput(v, width)
				require.NoError(t, err)
				t.Logf("%-6d %-9d %-7d %-7d %-8d %-6.3f %-8d", width, m.FrameLen, m.Frames, m.Beats, m.Cycles, m.Util, m.Latency)
				assert.Equal(t, 1.0, m.Util, "tready stays high on back-to-back aligned frames")
			})
		}
	}
}

// The integration top on the same traffic, with host memory an
// always-ready AXI4 slave and one whose B responses come 64 cycles after a
// burst's last beat: the input still takes one beat per cycle (enough
// bursts outstanding to hide the latency), with the bursts' mean length in
// beats beside it (one burst per frame's payload at most: each frame's end
// closes its burst).
func TestThroughputTop(t *testing.T) {
	t.Logf("%-10s %-6s %-9s %-7s %-7s %-8s %-6s %-8s %-7s %-6s %-9s", "top", "width", "frame", "frames", "beats", "cycles",
		"util", "latency", "bursts", "beats", "avgburst")
	for _, mtu := range []int{72, 498, 1500} {
		v := alignedStream(mtu, 300)
		for _, sl := range []struct {
			name string
			s    Slave
		}{{"ready", Slave{}}, {"b64", Slave{Latency: 64}}} {
			for _, width := range Widths {
				t.Run(fmt.Sprintf("mtu%d/%s/w%d", mtu, sl.name, width), func(t *testing.T) {
					m, err := MeasureThroughputTop(v, width, sl.s)
					require.NoError(t, err)
					t.Logf("%-10s %-6d %-9d %-7d %-7d %-8d %-6.3f %-8d %-7d %-6d %-9.2f", "top-"+sl.name, width, m.FrameLen,
						m.Frames, m.Beats, m.Cycles, m.Util, m.Latency, m.Bursts, m.AXIBeats, m.AvgBurst)
					assert.Equal(t, 1.0, m.Util, "tready stays high on back-to-back aligned frames")
					assert.Positive(t, m.Bursts)
				})
			}
		}
	}
}

// alignedStream builds the traffic of a Throughput measurement: the
// connection's startup frames and then about the given number of data
// frames of mtu-octet IP packets, each one FPDU as large as fits (MULPDU),
// of RDMA Writes to one STag.
func alignedStream(mtu, frames int) *vector.Vector {
	s := &vecgen.Scenario{Name: fmt.Sprintf("throughput-mtu%d", mtu), Build: func(g *vecgen.Gen) {
		c := g.FullConn(true, true, true, vecgen.Link{MTU: mtu})
		h := c.I2R()
		n := h.MULPDU - 14 // the DDP payload of one full FPDU
		stag := h.RegisterSTag(uint64(n * frames))
		h.Reserve(n*frames + 4096)
		for i := 0; i < frames; i++ {
			h.Write(stag, uint64(i*n), g.Bytes(n), n)
		}
		h.Flush()
	}}
	return vecgen.Build(s, vecgen.Options{Seed: 1, Scale: 1, NoIntended: true}).Vector
}
