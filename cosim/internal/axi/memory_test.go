package axi

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testBurst is a burst the test master sends.
type testBurst struct {
	id    uint32
	addr  uint64
	beats [][]byte
	strb  []uint64
}

// testMaster is a simple AXI4 write master: bursts in order, AW and W
// each after random delays, B always ready but for random stalls.
type testMaster struct {
	rng      *rand.Rand
	k        int
	bursts   []testBurst
	awNext   int // next burst to send on AW
	wBurst   int // burst whose beats go on W
	wBeat    int
	awWait   int
	wWait    int
	bStall   float64
	lead     bool // W may run ahead of AW
	req      WriteReq
	resps    map[uint32][]uint8
	respSeq  []uint32
	complete int
}

func (m *testMaster) drive() WriteReq {
	var q WriteReq
	if m.awNext < len(m.bursts) && m.awWait == 0 {
		b := m.bursts[m.awNext]
		q.AWValid, q.AWID, q.AWAddr = true, b.id, b.addr
		q.AWLen, q.AWSize, q.AWBurst = uint8(len(b.beats)-1), uint8(bitsOf(m.k)), BurstIncr
	}
	if m.wBurst < len(m.bursts) && m.wWait == 0 && (m.lead || m.wBurst < m.awNext) {
		b := m.bursts[m.wBurst]
		q.WValid, q.WData, q.WStrb, q.WLast = true, b.beats[m.wBeat], b.strb[m.wBeat], m.wBeat == len(b.beats)-1
	}
	q.BReady = m.rng.Float64() >= m.bStall
	m.req = q
	return q
}

func bitsOf(k int) int {
	n := 0
	for 1<<n < k {
		n++
	}
	return n
}

func (m *testMaster) observe(r WriteResp) {
	q := m.req
	if m.awWait > 0 {
		m.awWait--
	}
	if m.wWait > 0 {
		m.wWait--
	}
	if q.AWValid && r.AWReady {
		m.awNext++
		m.awWait = m.rng.IntN(3)
	}
	if q.WValid && r.WReady {
		m.wBeat++
		if m.wBeat == len(m.bursts[m.wBurst].beats) {
			m.wBurst, m.wBeat = m.wBurst+1, 0
		}
		if m.rng.IntN(4) == 0 {
			m.wWait = m.rng.IntN(3)
		}
	}
	if r.BValid && q.BReady {
		m.resps[r.BID] = append(m.resps[r.BID], r.BResp)
		m.respSeq = append(m.respSeq, r.BID)
		m.complete++
	}
}

// randomBursts returns n legal bursts of random IDs, lengths and
// addresses, none overlapping another, and the octets they write.
func randomBursts(rng *rand.Rand, k, n, ids int) ([]testBurst, map[uint64]byte) {
	want := map[uint64]byte{}
	var out []testBurst
	base := uint64(0x10000)
	for i := 0; i < n; i++ {
		addr := base + uint64(rng.IntN(64))*uint64(k)
		room := int(Page-addr%Page) / k
		beats := 1 + rng.IntN(min(room, 1+rng.IntN(MaxBurstLen)))
		b := testBurst{id: uint32(rng.IntN(ids)), addr: addr}
		for j := 0; j < beats; j++ {
			d := make([]byte, k)
			var s uint64
			for l := 0; l < k; l++ {
				d[l] = byte(rng.Uint32())
				if rng.IntN(8) != 0 {
					s |= 1 << l
					want[addr+uint64(j*k+l)] = d[l]
				}
			}
			b.beats, b.strb = append(b.beats, d), append(b.strb, s)
		}
		out = append(out, b)
		base = addr + uint64(beats*k)
	}
	return out, want
}

func runMemory(t *testing.T, cfg MemoryConfig, m *testMaster, limit int) (*Memory, *Checker) {
	t.Helper()
	mem := NewMemory(cfg)
	chk := NewChecker(cfg.DataBytes)
	for c := 0; c < limit && m.complete < len(m.bursts); c++ {
		q := m.drive()
		r := mem.Drive()
		require.NoError(t, chk.Observe(WriteCycle{Req: q, Resp: r}))
		mem.Observe(q)
		m.observe(r)
	}
	require.Equal(t, len(m.bursts), m.complete, "responses")
	return mem, chk
}

func TestMemoryWritesEveryStrobedOctet(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  MemoryConfig
		lead bool
	}{
		{"ready", MemoryConfig{}, false},
		{"stalls", MemoryConfig{Latency: 20, Jitter: 30, AWStall: 0.3, WStall: 0.3, BStall: 0.3}, true},
		{"wait-aw", MemoryConfig{Latency: 5, WaitAW: true, WStall: 0.5}, true},
		{"limit", MemoryConfig{Latency: 64, MaxBursts: 3, Reorder: true}, false},
	} {
		for _, k := range []int{8, 64} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, k), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(1, uint64(k)))
				bursts, want := randomBursts(rng, k, 200, 4)
				cfg := tc.cfg
				cfg.DataBytes, cfg.Seed = k, 7
				m := &testMaster{rng: rng, k: k, bursts: bursts, lead: tc.lead, bStall: 0.2, resps: map[uint32][]uint8{}}
				mem, chk := runMemory(t, cfg, m, 200000)
				n := 0
				mem.Written(func(a uint64, v byte) {
					n++
					w, ok := want[a]
					require.True(t, ok, "octet %#x written, none sent", a)
					require.Equal(t, w, v, "octet %#x", a)
				})
				assert.Equal(t, len(want), n, "octets written")
				assert.Equal(t, len(bursts), chk.Bursts)
				assert.Zero(t, chk.Pending())
				assert.True(t, mem.Idle())
				if cfg.MaxBursts > 0 {
					assert.LessOrEqual(t, mem.Stats().MaxOpen, cfg.MaxBursts)
				}
			})
		}
	}
}

// With Reorder, responses of different IDs overtake each other, those of
// one ID never do; without it they come in burst order.
func TestMemoryReorderAcrossIDs(t *testing.T) {
	for _, reorder := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(3, 4))
		bursts, _ := randomBursts(rng, 16, 300, 4)
		m := &testMaster{rng: rng, k: 16, bursts: bursts, resps: map[uint32][]uint8{}}
		runMemory(t, MemoryConfig{DataBytes: 16, Latency: 10, Jitter: 20, Reorder: reorder, Seed: 5}, m, 100000)
		// the order of IDs of the bursts and of their responses
		overtaken := false
		next := map[uint32]int{}
		pos := 0
		for _, id := range m.respSeq {
			// the response is for the oldest burst of its ID not answered
			i := next[id]
			for bursts[i].id != id {
				i++
			}
			next[id] = i + 1
			if i != pos {
				overtaken = true
			}
			pos++
		}
		assert.Equal(t, reorder, overtaken, "reorder %v", reorder)
	}
}

func TestMemoryErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	bursts, _ := randomBursts(rng, 32, 400, 2)
	m := &testMaster{rng: rng, k: 32, bursts: bursts, resps: map[uint32][]uint8{}}
	mem, _ := runMemory(t, MemoryConfig{DataBytes: 32, SlvErr: 0.1, DecErr: 0.1, Seed: 11}, m, 100000)
	st := mem.Stats()
	require.Positive(t, st.SlvErrs)
	require.Positive(t, st.DecErrs)
	count := map[uint8]int{}
	for _, rs := range m.resps {
		for _, r := range rs {
			count[r]++
		}
	}
	assert.Equal(t, st.SlvErrs, count[RespSlvErr])
	assert.Equal(t, st.DecErrs, count[RespDecErr])
	assert.Equal(t, len(bursts)-st.SlvErrs-st.DecErrs, count[RespOkay])
}
