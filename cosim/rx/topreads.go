package rx

import (
	"math/rand/v2"

	"github.com/mparx/mparx/cosim/internal/axi"
	"github.com/mparx/mparx/driver"
)

// TopReadAddrs are the addresses the background reader of a lockstep run
// reads in turn: every word of the register map from RegID to the end of
// the counters' window (the unmapped words between the registers
// included), a word past it and the last word of the 4 KiB block.
func TopReadAddrs() []uint32 {
	var a []uint32
	for w := uint32(0); w < driver.RegCounters+0x100; w += 4 {
		a = append(a, w)
	}
	return append(a, driver.RegCounters+0x100, 0xffc)
}

// ReadStats counts the background reader's reads of an integration top.
type ReadStats struct {
	Reads       int            // reads answered
	BackToBack  int            // reads whose AR handshake came in the cycle after the previous read's R handshake
	DuringWrite int            // reads whose AR handshake came while the driver's write was in progress
	SlvErr      int            // reads answered SLVERR
	CounterNZ   int            // counter reads that returned a non-zero word
	Addrs       map[uint32]int // reads per address
}

// add adds o's counts to s.
func (s *ReadStats) add(o ReadStats) {
	s.Reads += o.Reads
	s.BackToBack += o.BackToBack
	s.DuringWrite += o.DuringWrite
	s.SlvErr += o.SlvErr
	s.CounterNZ += o.CounterNZ
	if s.Addrs == nil {
		s.Addrs = map[uint32]int{}
	}
	for a, n := range o.Addrs {
		s.Addrs[a] += n
	}
}

// liteOwner is who holds the AXI4-Lite read channel: nobody, the driver's
// master, or the background reader.
type liteOwner int

const (
	ownNone liteOwner = iota
	ownDriver
	ownReader
)

// liteReader is a second AXI4-Lite read master beside the driver's: in
// episodes at random intervals it reads 1-4 registers (TopReadAddrs in
// turn), each right after the previous or a cycle or two later, with
// RREADY low at random. It shares the port with the driver's master: the
// read channel belongs to whichever presents ARVALID first until its R
// handshake; the driver's writes run beside it.
type liteReader struct {
	rng    *rand.Rand
	period int // mean cycles between episodes
	addrs  []uint32
	next   int // the next address of addrs
	owner  liteOwner
	at     uint64 // the cycle the next read may present ARVALID
	left   int    // reads left in the episode
	ar     bool   // the AR handshake is done
	rready bool
	lastR  uint64 // the cycle after the last R handshake of the reader
	stats  ReadStats
}

func newLiteReader(seed uint64, period int) *liteReader {
	return &liteReader{rng: rand.New(rand.NewPCG(seed, 0x72656164)), period: period, addrs: TopReadAddrs(),
		stats: ReadStats{Addrs: map[uint32]int{}}}
}

// busy reports the reader holds the read channel or wants it in cycle cy
// (the cycles must then run one at a time).
func (b *liteReader) busy(cy uint64) bool {
	return b != nil && (b.owner != ownNone || cy >= b.at)
}

// drive merges the reader's signals of cycle cy into the driver master's q.
func (b *liteReader) drive(q axi.LiteReq, cy uint64) axi.LiteReq {
	if b.owner == ownNone {
		switch {
		case q.ARValid:
			b.owner = ownDriver
		case cy >= b.at:
			if b.left == 0 {
				b.left = 1 + b.rng.IntN(4)
			}
			b.owner, b.ar = ownReader, false
		}
	}
	if b.owner != ownReader {
		return q
	}
	b.rready = b.rng.IntN(4) != 0
	q.ARValid, q.ARAddr, q.ARProt, q.RReady = !b.ar, b.addrs[b.next], 0, b.rready
	return q
}

// observe takes the cycle's response (q the merged signals, writing: the
// driver's write in progress) and returns what the driver's master sees.
func (b *liteReader) observe(q axi.LiteReq, r axi.LiteResp, cy uint64, writing bool) axi.LiteResp {
	switch b.owner {
	case ownDriver:
		if r.RValid && q.RReady {
			b.owner = ownNone
		}
		return r
	case ownReader:
		if q.ARValid && r.ARReady {
			b.ar = true
			if cy == b.lastR {
				b.stats.BackToBack++
			}
			if writing {
				b.stats.DuringWrite++
			}
		}
		if r.RValid && q.RReady {
			a := b.addrs[b.next]
			b.stats.Reads++
			b.stats.Addrs[a]++
			if r.RResp != axi.RespOkay {
				b.stats.SlvErr++
			}
			if a >= driver.RegCounters && a < driver.RegCounters+8*driver.NumCounters && r.RData != 0 {
				b.stats.CounterNZ++
			}
			b.next = (b.next + 1) % len(b.addrs)
			b.owner, b.lastR = ownNone, cy+1
			if b.left--; b.left > 0 {
				b.at = cy + 1 + uint64(b.rng.IntN(3))
			} else {
				b.at = cy + 1 + uint64(b.rng.IntN(2*b.period+1))
			}
		}
		r.ARReady, r.RValid = false, false
	}
	return r
}
