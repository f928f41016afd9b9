package learn

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// conns returns n connection tuples.
func conns(n int) []wire.FourTuple {
	var out []wire.FourTuple
	for i := range n {
		out = append(out, wire.FourTuple{
			SrcIP:   wire.AddrFrom4([4]byte{10, 2, byte(i), 1}),
			DstIP:   wire.AddrFrom4([4]byte{10, 2, byte(i), 2}),
			SrcPort: uint16(40000 + i), DstPort: 4791,
		})
	}
	return out
}

// interleave merges the frame lists, each kept in its order, as pick
// chooses the list to take the next frame from.
func interleave(lists [][][]byte, pick func(live []int) int) [][]byte {
	var out [][]byte
	next := make([]int, len(lists))
	for {
		var live []int
		for i, l := range lists {
			if next[i] < len(l) {
				live = append(live, i)
			}
		}
		if len(live) == 0 {
			return out
		}
		i := live[pick(live)]
		out = append(out, lists[i][next[i]])
		next[i]++
	}
}

// TestShardedSetup learns captures of several connections that use the
// same STags, interleaved in different orders, with 1 to 4 learners, and
// expects the setup one learner taking every frame learns.
func TestShardedSetup(t *testing.T) {
	tus := conns(6) // each with the same STags and queues (trafficOn)
	var lists [][][]byte
	for _, tu := range tus {
		_, fs := trafficOn(t, tu)
		lists = append(lists, fs)
	}
	rng := rand.New(rand.NewSource(1))
	orders := map[string][][]byte{
		"round-robin": interleave(lists, func(live []int) int { return 0 }),
		"last-first":  interleave(lists, func(live []int) int { return len(live) - 1 }),
		"random":      interleave(lists, func(live []int) int { return rng.Intn(len(live)) }),
	}
	owners := map[wire.FourTuple]bool{}
	cfg := rx.Config{Auto: true}
	for name, frames := range orders {
		want := Learn(frames, cfg)
		for _, b := range want.Buffers {
			if b.Tagged && b.STag == 0x1100 {
				owners[b.Half] = true
			}
		}
		for n := 1; n <= 4; n++ {
			s := NewSharded(cfg, n)
			used := map[int]bool{}
			for i, f := range frames {
				p := cfg.Parse(f)
				k := s.Shard(p.Frame.FourTuple())
				assert.Equal(t, k, s.Shard(p.Frame.FourTuple().Reverse()), "both directions of a connection")
				used[k] = true
				s.Learner(k).FrameParsedAt(i, p)
			}
			assert.GreaterOrEqual(t, len(used), min(n, 2), "%s: the connections are spread", name)
			require.Equal(t, want.Buffers, s.Setup().Buffers, "%s, %d learners", name, n)
		}
	}
	assert.Greater(t, len(owners), 1, "the orders give STag 0x1100 different owners")
}
