package rx

import (
	"flag"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/internal/axi"
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
// every cycle, the AXI4-Lite read channel included, while a second master
// reads the registers beside the traffic and the driver's writes, and
// halfway through each vector the driver reads every counter and clears
// them. Over a
// width's runs that reader reads every word of the register map (the
// counters, the unmapped words answering SLVERR), some right after the
// one before, some during a configuration write, and counters that moved.
func TestTopVectors(t *testing.T) {
	names := strings.Split(*topVectors, ",")
	for _, width := range Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			var st ReadStats
			runs := 0
			for _, sl := range topSlaves {
				t.Run(sl.name, func(t *testing.T) {
					for _, name := range names {
						v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
						require.NoError(t, err)
						t.Run(name, func(t *testing.T) {
							// halfway: every counter read through the driver, then cleared
							rep, ls, err := RunTopLockstep(v, width, sl.s, Hooks{Before: func(i int, e Engines) error {
								if i != len(v.Frames)/2 {
									return nil
								}
								if _, err := e.RTL.Driver().Counters(); err != nil {
									return err
								}
								return e.RTL.Driver().ClearCounters()
							}})
							require.NoError(t, err)
							require.Equal(t, len(v.Frames), rep.Frames)
							require.Positive(t, ls.Cycles, "cycles compared")
							require.Positive(t, ls.Reads.Reads, "register reads beside the traffic")
							st.add(ls.Reads)
							runs++
							t.Logf("%d frames, %d cycles compared with the cycle model, %d register reads", rep.Frames, ls.Cycles, ls.Reads.Reads)
						})
					}
				})
			}
			if runs < len(topSlaves)*len(names) {
				return // a subset ran (-run): the coverage below is over all runs
			}
			for _, a := range TopReadAddrs() {
				require.Positive(t, st.Addrs[a], "register %#x never read", a)
			}
			require.Positive(t, st.BackToBack, "reads back to back")
			require.Positive(t, st.DuringWrite, "reads during a configuration write")
			require.Positive(t, st.SlvErr, "reads answered SLVERR")
			require.Positive(t, st.CounterNZ, "counter reads of a non-zero word")
			t.Logf("%d register reads: %d back to back, %d during a write, %d SLVERR, %d non-zero counter words",
				st.Reads, st.BackToBack, st.DuringWrite, st.SlvErr, st.CounterNZ)
		})
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
				rep, ls, err := RunTopLockstep(v, width, tc.s, Hooks{
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
				require.Positive(t, ls.Reads.Reads, "register reads beside the traffic")
				require.True(t, before)
				require.Equal(t, resp, got)
				require.False(t, after)
			})
		}
	}
}

// axiTrace records a digest of both sides of the AXI4 write channels in
// every cycle.
type axiTrace struct {
	from   uint64 // the first cycle recorded
	digest []uint64
}

func (a *axiTrace) record(cy uint64, c axi.WriteCycle) {
	if len(a.digest) == 0 {
		a.from = cy
	}
	h := fnv.New64a()
	q, r := c.Req, c.Resp
	fmt.Fprintf(h, "%v %d %#x %d %d %d %v %d %d|%v %x %#x %v|%v|%v %v %v %d %d",
		q.AWValid, q.AWID, q.AWAddr, q.AWLen, q.AWSize, q.AWBurst, q.AWLock, q.AWCache, q.AWProt,
		q.WValid, q.WData, q.WStrb, q.WLast, q.BReady, r.AWReady, r.WReady, r.BValid, r.BID, r.BResp)
	a.digest = append(a.digest, h.Sum64())
}

// The C++ AXI4 slave of the harness, run inside the model's batches, and
// the Go model of cosim/internal/axi, a cycle at a time, with the same
// settings drive the same signals in every cycle of the same workload:
// with stalls on all three channels, responses out of order across IDs,
// and SLVERR and DECERR. Every cycle of both runs (the AXI4 write channels
// both ways) is the same, and so are the octets in host memory and the
// slaves' counts.
func TestSlaveModelsAgree(t *testing.T) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "mixed-traffic"))
	require.NoError(t, err)
	for _, width := range []int{64, 512} {
		for _, sl := range []Slave{
			{Latency: 20, Jitter: 60, AWStall: 0.3, WStall: 0.3, BStall: 0.3, Reorder: true, Seed: 9},
			{Latency: 5, Jitter: 9, WStall: 0.2, Reorder: true, SlvErr: 0.01, DecErr: 0.01, Seed: 4},
		} {
			t.Run(fmt.Sprintf("w%d/seed%d", width, sl.Seed), func(t *testing.T) {
				type run struct {
					trace axiTrace
					rep   Report
					mem   map[uint64]byte
					stats [4]int
				}
				var runs [2]run
				for i, goModel := range []bool{true, false} {
					s := sl
					s.GoModel = goModel
					x := &runs[i]
					x.mem = map[uint64]byte{}
					var rtl *RTL
					rep, err := RunTop(v, width, s, Hooks{
						Before: func(i int, e Engines) error {
							if rtl == nil {
								rtl = e.RTL
								rtl.TraceAXI(x.trace.record)
							}
							return nil
						},
						After: func(i int, _ fastpath.Result, _ Output) {
							if i < len(v.Frames)-1 {
								return
							}
							// the last frame is out: the slaves' counts and memory
							if goModel {
								st := rtl.top.mem.Stats()
								x.stats = [4]int{st.Bursts, st.Beats, st.Responses, st.SlvErrs + st.DecErrs}
								rtl.top.mem.Written(func(a uint64, c byte) { x.mem[a] = c })
							} else {
								st := rtl.SlaveStats()
								x.stats = [4]int{st.Bursts, st.Beats, st.Responses, st.SlvErrs + st.DecErrs}
								rtl.top.host.Written(func(a uint64, c byte) { x.mem[a] = c })
							}
						},
					})
					require.NoError(t, err, "GoModel %v", goModel)
					x.rep = rep
				}
				g, c := runs[0], runs[1]
				require.Equal(t, g.trace.from, c.trace.from)
				require.Equal(t, len(g.trace.digest), len(c.trace.digest), "cycles traced")
				for k := range g.trace.digest {
					require.Equal(t, g.trace.digest[k], c.trace.digest[k], "AXI4 signals of cycle %d", g.trace.from+uint64(k))
				}
				require.Equal(t, g.rep.Cycles, c.rep.Cycles)
				require.Equal(t, g.stats, c.stats)
				require.NotZero(t, g.stats[0])
				require.Equal(t, g.mem, c.mem)
				t.Logf("%d cycles, %d bursts, %d beats, %d error responses, %d host octets", c.rep.Cycles,
					c.stats[0], c.stats[1], c.stats[3], len(c.mem))
			})
		}
	}
}

// The cost of an idle cycle of the receiver's models, mpa_rx alone and
// the IP core, at 64 and 512 bits, stepped in batches of 64 with no
// partner (ns/cycle): the IP core's tests are bound by it, not by the
// cgo calls or the Go checks.
func BenchmarkIdleCycle(b *testing.B) {
	for _, width := range []int{64, 512} {
		for _, variant := range []string{fmt.Sprintf("mpa_rx_w%d", width), TopVariant(width)} {
			b.Run(variant, func(b *testing.B) {
				s, err := cosim.Open(variant)
				require.NoError(b, err)
				defer s.Close()
				s.Reset(4)
				in, out := s.NewIn(64), s.NewOut(64)
				b.ResetTimer()
				for i := 0; i < b.N; i += 64 {
					s.Step(64, in, out)
				}
			})
		}
	}
}
