package axi

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// MemoryConfig sets how a Memory behaves. The zero value (but DataBytes)
// is an always-ready slave that answers a burst in the cycle after its last
// beat, in order, without errors.
type MemoryConfig struct {
	DataBytes int     // octets per beat
	Latency   int     // cycles from a burst's last W handshake to its B response being ready
	Jitter    int     // a random 0..Jitter cycles more, per burst
	AWStall   float64 // probability that AWREADY is low in a cycle
	WStall    float64 // probability that WREADY is low in a cycle
	BStall    float64 // probability that a ready response is held back a cycle
	Reorder   bool    // answer the ready bursts of different IDs in random order
	WaitAW    bool    // WREADY only while an accepted burst waits for beats (else W may lead AW)
	MaxBursts int     // bursts accepted and not answered, at most (0: no limit)
	SlvErr    float64 // probability that a burst is answered SLVERR (its beats are not written)
	DecErr    float64 // probability that a burst is answered DECERR (its beats are not written)
	Seed      uint64
}

// burst is an accepted AW.
type burst struct {
	seq   int // order of acceptance
	id    uint32
	addr  uint64
	len   int // beats
	size  int
	resp  uint8
	beats int    // beats received
	due   uint64 // the cycle its response may be presented from
}

// Memory is a write-only AXI4 slave in front of a sparse byte memory: it
// takes INCR bursts, writes the octets of each beat whose strobe is set
// (unless the burst is answered with an error), and answers each burst
// with one B response after its last beat. Responses of one ID come in the
// order of their bursts; with Reorder, ready responses of different IDs
// come in random order.
type Memory struct {
	cfg   MemoryConfig
	rng   *rand.Rand
	cycle uint64
	mem   Sparse

	bursts  []*burst            // accepted, not all beats in (AW order)
	early   []beatData          // beats accepted before their AW
	ready   map[uint32][]*burst // per ID: all beats in, not answered (AW order)
	present *burst              // the response on the B channel
	open    int                 // bursts accepted and not answered
	nseq    int
	hold    WriteResp // what Drive decided for this cycle
	stats   MemoryStats
	lenHist map[int]int
}

type beatData struct {
	data []byte
	strb uint64
	last bool
}

// MemoryStats counts what a Memory saw.
type MemoryStats struct {
	Bursts    int // AW handshakes
	Beats     int // W handshakes
	Responses int // B handshakes
	SlvErrs   int // bursts answered SLVERR
	DecErrs   int // bursts answered DECERR
	MaxOpen   int // most bursts accepted and not answered at once
}

// NewMemory returns a Memory.
func NewMemory(cfg MemoryConfig) *Memory {
	if cfg.DataBytes <= 0 || cfg.DataBytes&(cfg.DataBytes-1) != 0 {
		panic(fmt.Sprintf("axi: DataBytes %d is not a power of two", cfg.DataBytes))
	}
	return &Memory{
		cfg:     cfg,
		rng:     rand.New(rand.NewPCG(cfg.Seed, 0x6178692d6d656d)),
		ready:   map[uint32][]*burst{},
		lenHist: map[int]int{},
	}
}

// Stats returns the counts so far.
func (m *Memory) Stats() MemoryStats { return m.stats }

// BurstLengths returns how many bursts of each length (in beats) were
// accepted.
func (m *Memory) BurstLengths() map[int]int { return m.lenHist }

// Outstanding reports the bursts accepted and not answered.
func (m *Memory) Outstanding() int { return m.open }

func (m *Memory) chance(p float64) bool { return p > 0 && m.rng.Float64() < p }

// Drive returns the slave's outputs for this cycle.
func (m *Memory) Drive() WriteResp {
	var r WriteResp
	r.AWReady = !m.chance(m.cfg.AWStall) && (m.cfg.MaxBursts == 0 || m.open < m.cfg.MaxBursts)
	if m.cfg.WaitAW {
		r.WReady = m.waiting() != nil
	} else {
		r.WReady = len(m.early) < 4096
	}
	if r.WReady && m.chance(m.cfg.WStall) {
		r.WReady = false
	}
	if m.present == nil && !m.chance(m.cfg.BStall) {
		m.present = m.pick()
	}
	if b := m.present; b != nil {
		r.BValid, r.BID, r.BResp = true, b.id, b.resp
	}
	m.hold = r
	return r
}

// waiting returns the oldest accepted burst that still takes beats.
func (m *Memory) waiting() *burst {
	if len(m.bursts) > 0 && len(m.early) == 0 {
		return m.bursts[0]
	}
	return nil
}

// pick chooses the response to present: the oldest burst's once it is
// ready, or with Reorder the head of a random ID's queue among those
// ready.
func (m *Memory) pick() *burst {
	var heads []*burst
	for _, q := range m.ready {
		if len(q) > 0 && (q[0].due <= m.cycle || !m.cfg.Reorder) {
			heads = append(heads, q[0])
		}
	}
	if len(heads) == 0 {
		return nil
	}
	slices.SortFunc(heads, func(a, b *burst) int { return a.seq - b.seq })
	if m.cfg.Reorder {
		return heads[m.rng.IntN(len(heads))]
	}
	// in order: the oldest, once its time has come
	if heads[0].due > m.cycle {
		return nil
	}
	return heads[0]
}

// Observe takes the cycle's handshakes (req from the master, resp as Drive
// returned it) and ends the cycle.
func (m *Memory) Observe(req WriteReq) {
	resp := m.hold
	if req.AWValid && resp.AWReady {
		b := &burst{seq: m.nseq, id: req.AWID, addr: req.AWAddr, len: int(req.AWLen) + 1, size: int(req.AWSize)}
		m.nseq++
		switch {
		case m.chance(m.cfg.SlvErr):
			b.resp = RespSlvErr
			m.stats.SlvErrs++
		case m.chance(m.cfg.DecErr):
			b.resp = RespDecErr
			m.stats.DecErrs++
		}
		m.bursts = append(m.bursts, b)
		m.open++
		m.stats.MaxOpen = max(m.stats.MaxOpen, m.open)
		m.stats.Bursts++
		m.lenHist[b.len]++
	}
	if req.WValid && resp.WReady {
		m.early = append(m.early, beatData{data: slices.Clone(req.WData), strb: req.WStrb, last: req.WLast})
		m.stats.Beats++
	}
	// beats meet their bursts in order
	for len(m.early) > 0 && len(m.bursts) > 0 {
		b, d := m.bursts[0], m.early[0]
		m.early = m.early[1:]
		if b.resp == RespOkay {
			m.mem.Write(b.addr&^uint64(m.cfg.DataBytes-1)+uint64(b.beats*m.cfg.DataBytes), d.data, d.strb)
		}
		b.beats++
		if b.beats == b.len {
			m.bursts = m.bursts[1:]
			b.due = m.cycle + 1 + uint64(m.cfg.Latency)
			if m.cfg.Jitter > 0 {
				b.due += uint64(m.rng.IntN(m.cfg.Jitter + 1))
			}
			m.ready[b.id] = append(m.ready[b.id], b)
		}
	}
	if resp.BValid && req.BReady {
		b := m.present
		q := m.ready[b.id]
		m.ready[b.id] = q[1:]
		m.present = nil
		m.open--
		m.stats.Responses++
	}
	m.cycle++
}

// Byte returns the octet at addr and whether it was ever written.
func (m *Memory) Byte(addr uint64) (byte, bool) { return m.mem.Byte(addr) }

// Written calls f for every octet written, in no particular order.
func (m *Memory) Written(f func(addr uint64, v byte)) { m.mem.Written(f) }

// Sparse is a byte memory of 4 KiB pages that knows which octets were
// written. The zero value is empty.
type Sparse struct {
	mem   map[uint64][]byte // 4 KiB pages
	wmask map[uint64][]bool // octets written, per page
}

// Write writes the octets of data whose bit in strb is set (lane i at
// addr+i).
func (s *Sparse) Write(addr uint64, data []byte, strb uint64) {
	if s.mem == nil {
		s.mem, s.wmask = map[uint64][]byte{}, map[uint64][]bool{}
	}
	for i := range data {
		if strb>>i&1 == 0 {
			continue
		}
		a := addr + uint64(i)
		page, off := a/Page, a%Page
		p := s.mem[page]
		if p == nil {
			p = make([]byte, Page)
			s.mem[page] = p
			s.wmask[page] = make([]bool, Page)
		}
		p[off] = data[i]
		s.wmask[page][off] = true
	}
}

// Byte returns the octet at addr and whether it was ever written.
func (s *Sparse) Byte(addr uint64) (byte, bool) {
	page, off := addr/Page, addr%Page
	if p := s.mem[page]; p != nil && s.wmask[page][off] {
		return p[off], true
	}
	return 0, false
}

// Written calls f for every octet written, in no particular order.
func (s *Sparse) Written(f func(addr uint64, v byte)) {
	for page, mask := range s.wmask {
		for off, w := range mask {
			if w {
				f(page*Page+uint64(off), s.mem[page][off])
			}
		}
	}
}

// Idle reports whether every accepted burst has been answered and no beat
// waits for its burst.
func (m *Memory) Idle() bool { return m.open == 0 && len(m.early) == 0 }
