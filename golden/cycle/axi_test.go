package cycle

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The queue has mpa_rx_fifo's timing: an entry written into an empty
// queue is at the head two cycles later; input ready falls when the RAM
// holds depth entries; depth + 1 entries fit.
func TestQueueTiming(t *testing.T) {
	q := newQueue[int](4)
	q.edge(true, 7, false)
	_, v := q.head()
	require.False(t, v, "one cycle after the write")
	q.edge(false, 0, false)
	h, v := q.head()
	require.True(t, v)
	require.Equal(t, 7, h)
	n := 1
	for q.ready() {
		q.edge(true, n, false)
		n++
	}
	require.Equal(t, 5, q.count(), "the RAM's depth and the output register")
	for i := 0; i < 5; i++ {
		h, v := q.head()
		require.True(t, v)
		require.Equal(t, []int{7, 1, 2, 3, 4}[i], h)
		q.edge(false, 0, true)
	}
	_, v = q.head()
	require.False(t, v)
}

// wrRun drives the master's model with descriptors, then their writes,
// against an always-ready slave that answers each burst in the cycle after
// its last beat (or late cycles after), and returns the bursts' AW
// (address, beats) and the cycles.
func wrRun(t *testing.T, width int, descs [][2]uint64, late int) (aws [][2]uint64, cycles int) {
	w := NewWr(WrConfig{DataWidth: width, IDWidth: 4, MaxBursts: 16, AWCache: 3, AWProt: 2})
	k := uint64(width / 8)
	type wr struct {
		addr uint64
		strb uint64
	}
	var writes []wr
	for _, d := range descs {
		for a := d[0] &^ (k - 1); a < d[0]+d[1]; a += k {
			var s uint64
			for i := uint64(0); i < k; i++ {
				if a+i >= d[0] && a+i < d[0]+d[1] {
					s |= 1 << i
				}
			}
			writes = append(writes, wr{a, s})
		}
	}
	di, wi, start := 0, 0, -1
	type bq struct {
		id  uint32
		due int
	}
	var bs []bq
	var wlastIDs []uint32
	total := uint16(len(descs))
	for c := 0; c < 100000; c++ {
		o := w.Drive()
		in := WrIn{AWReady: true, WReady: true}
		if di <= len(descs) {
			in.DescValid = true
			if di < len(descs) {
				in.DescAddr, in.DescLen = descs[di][0], int(descs[di][1])
			} else {
				in.DescFlush = true // a flush entry
			}
		}
		if di > len(descs) && start < 0 {
			start = c + 8 // the writes after the plan: its bursts are exactly the rule's
		}
		if wi < len(writes) && start >= 0 && c >= start {
			in.WrValid, in.WrData, in.WrStrb = true, make([]byte, k), writes[wi].strb
		}
		if len(bs) > 0 && bs[0].due <= c {
			in.BValid, in.BID = true, bs[0].id
		}
		if o.AWValid {
			aws = append(aws, [2]uint64{o.AWAddr, uint64(o.AWLen) + 1})
			wlastIDs = append(wlastIDs, o.AWID)
		}
		if o.WValid && o.WLast {
			bs = append(bs, bq{id: wlastIDs[0], due: c + 1 + late})
			wlastIDs = wlastIDs[1:]
		}
		if in.BValid {
			bs = bs[1:]
		}
		if in.DescValid && o.DescReady {
			di++
		}
		if in.WrValid && o.WrReady {
			wi++
		}
		require.False(t, o.BUnexp, "cycle %d", c)
		w.Edge(in)
		if o.CplCount == total && wi == len(writes) {
			return aws, c
		}
	}
	t.Fatalf("not done (late %d): %d of %d writes, aws %v; bs %v, wlastIDs %v, cpl %d", late, wi, len(writes), aws, bs, wlastIDs, w.cplQ)
	return nil, 0
}

// The master's model plans bursts as docs/axi.md says (contiguous
// descriptors in one burst up to 256 beats or the 4 KiB page, the rest in
// the next), and every descriptor completes with a slave that answers in
// the cycle after WLAST, the earliest AXI4 allows, or 64 cycles later.
func TestWrModelPlan(t *testing.T) {
	for _, late := range []int{0, 64} {
		// 64 bits: 3000 octets from 0x1000 contiguous in two descriptors,
		// then a descriptor elsewhere
		aws, _ := wrRun(t, 64, [][2]uint64{{0x1000, 1000}, {0x1000 + 1000, 2000}, {0x9000, 8}}, late)
		require.Equal(t, [][2]uint64{{0x1000, 256}, {0x1800, 119}, {0x9000, 1}}, aws)
		// 512 bits: a page holds 64 beats
		aws, _ = wrRun(t, 512, [][2]uint64{{0x1fc0, 200}}, late)
		require.Equal(t, [][2]uint64{{0x1fc0, 1}, {0x2000, 3}}, aws)
	}
}
