package rx

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/vecgen/vector"
)

var topVectors = flag.String("top-vectors", "aligned,out-of-order,packed,jumbo,ddp-multisegment,ddp-error-unknown-stag,mixed-traffic,rev2-p2p-write",
	"TestTopVectors: the vectors run through the integration top (comma-separated)")

// topSlaves are the host memories the integration top runs against.
var topSlaves = []struct {
	name string
	s    Slave
}{
	{"ready", Slave{}},
	{"b64", Slave{Latency: 64}},
	{"stalls", Slave{Latency: 20, Jitter: 60, AWStall: 0.3, WStall: 0.3, BStall: 0.3, Reorder: true, Seed: 7}},
}

// The integration top, frame by frame, decides every frame as the
// functional model does (RunSystem's checks: events, exception frames,
// the octets of the W beats at their bursts' addresses), with the
// configuration only through the driver over AXI4-Lite and host memory
// the AXI4 slave model; every PLACED leaves only once the bursts holding
// its octets are answered and its octets are in memory; the AXI4 and
// AXI4-Lite checkers see every cycle. The top's cycle model runs in
// lockstep (RunTopLockstep): every output the contract defines is equal
// every cycle.
func TestTopVectors(t *testing.T) {
	for _, width := range Widths {
		for _, sl := range topSlaves {
			t.Run(fmt.Sprintf("w%d/%s", width, sl.name), func(t *testing.T) {
				for _, name := range strings.Split(*topVectors, ",") {
					v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
					require.NoError(t, err)
					t.Run(name, func(t *testing.T) {
						rep, n, err := RunTopLockstep(v, width, sl.s, Hooks{})
						require.NoError(t, err)
						require.Equal(t, len(v.Frames), rep.Frames)
						require.Positive(t, n, "cycles compared")
						t.Logf("%d frames, %d cycles compared with the cycle model", rep.Frames, n)
					})
				}
			})
		}
	}
}

// Host write errors: with bursts answered SLVERR or DECERR, every frame is
// still decided as the model decides it, and the completion gate reports
// the fault as RunSystem's checks require (the first DDP_ERROR of kind 13
// is the PLACED of an FPDU in the first failed burst, every PLACED and
// DELIVERED after it is one, nothing before it); the driver reads the
// fault with the slave's first error response and clears it; the top's
// cycle model runs in lockstep.
func TestTopHostErrors(t *testing.T) {
	for _, width := range Widths {
		for _, tc := range []struct {
			name string
			s    Slave
		}{
			{"slverr", Slave{Latency: 10, SlvErr: 0.02, Seed: 3}},
			{"decerr", Slave{Latency: 30, Jitter: 30, Reorder: true, DecErr: 0.02, Seed: 5}},
		} {
			t.Run(fmt.Sprintf("w%d/%s", width, tc.name), func(t *testing.T) {
				v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
				require.NoError(t, err)
				var rtl *RTL
				var faulted, before, after bool
				var resp, got uint8
				var ferr error
				rep, _, err := RunTopLockstep(v, width, tc.s, Hooks{
					Before: func(i int, e Engines) error {
						rtl = e.RTL
						return nil
					},
					After: func(i int, _ fastpath.Result, _ Output) {
						if i != len(v.Frames)-1 {
							return
						}
						// the last frame is out: read and clear the fault
						faulted, resp = rtl.HostFault()
						d := rtl.Driver()
						if before, got, ferr = d.HostFault(); ferr != nil {
							return
						}
						if ferr = d.ClearHostFault(); ferr != nil {
							return
						}
						after, _, ferr = d.HostFault()
					}})
				require.NoError(t, err)
				require.Equal(t, len(v.Frames), rep.Frames)
				require.True(t, faulted, "no event turned into a host write error in %d frames", rep.Frames)
				require.NoError(t, ferr)
				require.True(t, before)
				require.Equal(t, resp, got)
				require.False(t, after)
			})
		}
	}
}
