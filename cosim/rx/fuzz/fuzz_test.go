package fuzz

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/vecgen/vector"
)

var (
	fuzzFrames   = flag.Int("frames", -1, "TestFuzz: mutated frames per DATA_WIDTH (-1: CIFrames of the width)")
	fuzzDuration = flag.Duration("duration", 0, "TestFuzz: run this long per DATA_WIDTH instead of -frames")
	fuzzSeed     = flag.Uint64("seed", 1, "TestFuzz: campaign seed (0: random, printed)")
	fuzzOut      = flag.String("out", "testdata", "TestFuzz: directory for failing streams")
	fuzzFailures = flag.Int("failures", 1, "TestFuzz: stop a width after this many failing streams")
)

const vectorsDir = "../../../vectors"

func loadVectors(t testing.TB) []*vector.Vector {
	vs, err := vector.LoadAll(vectorsDir)
	require.NoError(t, err)
	require.NotEmpty(t, vs)
	return vs
}

// CIFrames are the mutated frames per DATA_WIDTH that `go test` (and so
// `make test`) runs, with the fixed seed of -seed, so the same streams every
// run (a regression check; `make fuzz` is the campaign, every width for a
// duration with a new seed): 5,000 at every width, about 90 to 100 streams,
// that is a stream of every vector with every mutation class throughout,
// then about a third of the vectors again with the connections in full
// operation until one fatal mutation (Mutator.Live). Each class comes up
// at each width, most more than a hundred times (FPDUPTR about 70 at 64
// bits; IPv6 extension headers, on IPv6 frames only, 15 or more), with the
// outcomes each class can have (docs/robustness.md).
var CIFrames = map[int]int{64: 5000, 128: 5000, 256: 5000, 512: 5000}

// The differential fuzzer at every width, in parallel: -frames mutated
// frames per width (CI: CIFrames), or -duration per width; a random seed
// with -seed 0. Any disagreement between the RTL and the model, or any
// stuck handshake, fails the test and leaves the shrunk stream in
// testdata (replayed by TestReplay from then on).
func TestFuzz(t *testing.T) {
	vs := loadVectors(t)
	seed := *fuzzSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	t.Logf("seed %d (reproduce: go test ./cosim/rx/fuzz -run '^TestFuzz$' -args -seed %d -frames %d -duration %v)",
		seed, seed, *fuzzFrames, *fuzzDuration)
	for _, width := range rx.Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			t.Parallel()
			frames := *fuzzFrames
			if frames < 0 {
				frames = CIFrames[width]
			}
			res, err := Fuzz(Config{Width: width, Seed: seed, Vectors: vs, Frames: frames,
				Duration: *fuzzDuration, OutDir: *fuzzOut, Log: t.Logf, MaxStream: 400, MaxFailures: *fuzzFailures})
			require.NoError(t, err)
			t.Logf("w%d: %d streams, %d frames (%d mutated), %d cycles, %v; withheld for known bugs: %v",
				width, res.Streams, res.Frames, res.Counts.Mutated(), res.Cycles, res.Elapsed.Round(time.Millisecond), res.Withheld)
			t.Logf("  %-13s %7s  outcomes (model = RTL)", "class", "frames")
			for _, c := range res.Counts.Sorted() {
				var os []string
				for o, n := range res.Outcomes[c] {
					os = append(os, fmt.Sprintf("%s %d", o, n))
				}
				sort.Strings(os)
				t.Logf("  %-13s %7d  %s", c, res.Counts[c], strings.Join(os, ", "))
			}
			require.Empty(t, res.Failures)
		})
	}
}

// TopSlaves are the host memories behind the IP core in TestFuzzTop, one
// per stream in turn: long latencies with stalls on every channel and
// responses out of order, and one that also answers a burst in a hundred
// or so with SLVERR or DECERR.
var TopSlaves = []rx.Slave{
	{Latency: 16, Jitter: 48, AWStall: 0.1, WStall: 0.1, BStall: 0.1, Reorder: true},
	{Latency: 64, Jitter: 32, AWStall: 0.3, WStall: 0.3, BStall: 0.3, Reorder: true},
	{Latency: 4, Jitter: 24, WStall: 0.2, BStall: 0.2, Reorder: true, SlvErr: 0.005, DecErr: 0.005},
}

// CITopFrames are the mutated frames per DATA_WIDTH that `go test` runs
// through the IP core (TestFuzzTop).
var CITopFrames = map[int]int{64: 2500, 128: 2000, 256: 1500, 512: 1300}

// The differential fuzzer on the IP core (mpa_rx_axi_top: the C++ AXI4
// slave of the harness behind its master, TopSlaves in turn, the
// configuration through the driver over AXI4-Lite) at 64, 128, 256 and
// 512 bits in parallel: -frames mutated frames per width (CI: CITopFrames), or
// -duration per width. Besides the checks of TestFuzz, every cycle of the
// AXI4 and AXI4-Lite channels is checked, every PLACED event against the
// bursts not yet answered and the octets in host memory, and every host
// write error against the responses the slave gave.
func TestFuzzTop(t *testing.T) {
	vs := loadVectors(t)
	seed := *fuzzSeed
	if seed == 0 {
		seed = rand.Uint64()
	}
	t.Logf("seed %d (reproduce: go test ./cosim/rx/fuzz -run '^TestFuzzTop$' -args -seed %d -frames %d -duration %v)",
		seed, seed, *fuzzFrames, *fuzzDuration)
	for _, width := range rx.Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			t.Parallel()
			frames := *fuzzFrames
			if frames < 0 {
				frames = CITopFrames[width]
			}
			res, err := Fuzz(Config{Width: width, Seed: seed, Vectors: vs, Frames: frames, Slaves: TopSlaves,
				Duration: *fuzzDuration, OutDir: *fuzzOut, Log: t.Logf, MaxStream: 400, MaxFailures: *fuzzFailures})
			require.NoError(t, err)
			t.Logf("w%d: %d streams, %d frames (%d mutated), %d cycles, %v; withheld for known bugs: %v",
				width, res.Streams, res.Frames, res.Counts.Mutated(), res.Cycles, res.Elapsed.Round(time.Millisecond), res.Withheld)
			require.Empty(t, res.Failures)
		})
	}
}

var burstFrames = flag.Int("burst-frames", 3000, "TestBurst: frames per burst")

// Back to back, with no contexts: hostile frames of every class from every
// vector (up to 16,000 octets, so that the frame FIFO fills) go in with no
// idle cycle. With the outputs always ready s_axis_tready never stays low
// longer than StallBound of the burst's frames, and its longest stall is
// the golden cycle model's on the same frames; with random backpressure on
// m_evt and m_exc_axis nothing is lost. Every frame's outcome is the
// model's.
func TestBurst(t *testing.T) {
	vs := loadVectors(t)
	for _, width := range rx.Widths {
		for _, bp := range []bool{false, true} {
			t.Run(fmt.Sprintf("w%d/backpressure=%v", width, bp), func(t *testing.T) {
				frames, counts := burstStream(t, vs, width, *burstFrames)
				rep, err := Burst(width, frames, bp, 1)
				require.NoError(t, err)
				bound := "no bound with backpressure"
				if !bp {
					bound = fmt.Sprintf("bound %d, the cycle model's %d", rep.Bound, rep.ModelStall)
				}
				t.Logf("%d frames (%d mutated), %d beats in %d cycles; tready low %d cycles, longest %d (%s); outcomes %v",
					rep.Frames, counts.Mutated(), rep.Beats, rep.Cycles, rep.Stalls, rep.MaxStall, bound, rep.Outcomes)
				if !bp {
					// the model, cycle-true to the RTL, stalls the same
					require.Equal(t, rep.ModelStall, rep.MaxStall, "the RTL's longest stall against the cycle model's")
				}
			})
		}
	}
}

// burstStream is TestBurst's stream at a width: n hostile frames of every
// class, from the vectors in turn, with no contexts.
func burstStream(t testing.TB, vs []*vector.Vector, width, n int) ([][]byte, Counts) {
	m := NewMutator(uint64(width), width/8)
	// Frames near the FIFO's size back to back are kept or dropped by the
	// FIFO's fill, which a frame at a time does not model (the lockstep
	// does).
	m.Early, m.Rate, m.FrameLimit = 1, 1, 0
	var frames [][]byte
	counts := Counts{}
	for k := 0; len(frames) < n; k++ {
		v := vs[k%len(vs)]
		infos, err := Analyze(v, rx.Slots)
		require.NoError(t, err)
		for _, f := range withhold(m.Stream(v.Frames, infos), map[string]int{}) {
			if len(frames) < n {
				frames = append(frames, f.Data)
				counts[f.Class]++
			}
		}
	}
	return frames, counts
}
