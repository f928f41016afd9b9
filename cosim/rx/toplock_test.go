package rx

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

var topLockVectors = flag.String("toplock-vectors", "aligned,out-of-order,packed,jumbo,ddp-multisegment,ddp-error-unknown-stag,mixed-traffic,rev2-p2p-write",
	"TestTopLockstep: the vectors run through the integration top in lockstep with its cycle model (comma-separated)")

// The integration top in lockstep with its cycle model (golden/cycle
// Top): at every width, with an always-ready slave, B 64 cycles late,
// random stalls with jittered latency and responses out of order, and
// SLVERR / DECERR responses, every output the contract defines is equal
// every cycle (s_axis_tready, m_exc_axis, the gated m_evt, the AXI4 write
// channels, the AXI4-Lite write channels), besides RunTop's frame-by-frame
// checks.
func TestTopLockstep(t *testing.T) {
	slaves := append(topSlaves[:len(topSlaves):len(topSlaves)], []struct {
		name string
		s    Slave
	}{
		{"slverr", Slave{Latency: 10, SlvErr: 0.02, Seed: 3}},
		{"decerr", Slave{Latency: 30, Jitter: 30, Reorder: true, DecErr: 0.02, Seed: 5}},
	}...)
	for _, width := range Widths {
		for _, sl := range slaves {
			t.Run(fmt.Sprintf("w%d/%s", width, sl.name), func(t *testing.T) {
				var cycles uint64
				names := strings.Split(*topLockVectors, ",")
				if strings.HasSuffix(sl.name, "err") {
					names = []string{"aligned"}
				}
				for _, name := range names {
					v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
					require.NoError(t, err)
					rep, n, err := RunTopLockstep(v, width, sl.s, Hooks{})
					require.NoError(t, err, name)
					require.Equal(t, len(v.Frames), rep.Frames, name)
					require.Positive(t, n)
					cycles += n
				}
				t.Logf("%d vectors, %d cycles compared", len(names), cycles)
			})
		}
	}
}
