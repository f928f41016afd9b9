package axi

import (
	"bytes"
	"fmt"
	"math/bits"
)

// Checker checks the AXI4 write channels cycle by cycle:
//   - AWVALID, WVALID and BVALID stay high until their handshake, with the
//     payload unchanged;
//   - every burst is INCR with AWSIZE the data width, its address aligned
//     to it, and does not cross a 4 KiB boundary (AWLEN is at most 255 by
//     its width);
//   - WLAST is on the last beat of each burst and on no other (the beats
//     of the bursts come in AW order, possibly before their AW);
//   - one B response per burst, after its AW and its last beat, for an ID
//     that has such a burst; those of one ID in AW order.
//
// The first violation is returned by Observe and kept in Err.
type Checker struct {
	dataBytes int
	cycle     uint64
	prev      WriteCycle
	prevData  []byte
	havePrev  bool

	aw     []*chkBurst // bursts in AW order whose beats are not all seen
	early  []int       // beat counts of bursts whose beats (up to WLAST) came before their AW
	wbeats int         // beats of the burst in progress on W
	wait   map[uint32][]*chkBurst
	err    error

	// Bursts, Beats and Responses count the handshakes.
	Bursts, Beats, Responses int
}

type chkBurst struct {
	id    uint32
	beats int
	cycle uint64
}

// NewChecker returns a Checker for a data bus of dataBytes octets.
func NewChecker(dataBytes int) *Checker {
	return &Checker{dataBytes: dataBytes, wait: map[uint32][]*chkBurst{}}
}

// Err returns the first violation, or nil.
func (c *Checker) Err() error { return c.err }

// Reset forgets everything in flight (a reset of both sides).
func (c *Checker) Reset() {
	*c = Checker{dataBytes: c.dataBytes, cycle: c.cycle, wait: map[uint32][]*chkBurst{}, err: c.err,
		Bursts: c.Bursts, Beats: c.Beats, Responses: c.Responses}
}

func (c *Checker) fail(format string, args ...any) error {
	if c.err == nil {
		c.err = fmt.Errorf("axi: cycle %d: %s", c.cycle, fmt.Sprintf(format, args...))
	}
	return c.err
}

// Pending reports bursts with their AW or beats seen and no response yet.
func (c *Checker) Pending() int {
	n := len(c.aw) + len(c.early)
	for _, q := range c.wait {
		n += len(q)
	}
	return n
}

// Observe checks one cycle.
func (c *Checker) Observe(cy WriteCycle) error {
	defer func() { c.cycle++ }()
	q, r := cy.Req, cy.Resp
	if c.havePrev {
		p, pr := c.prev.Req, c.prev.Resp
		if p.AWValid && !pr.AWReady {
			if !q.AWValid {
				return c.fail("AWVALID dropped before AWREADY")
			}
			if q.AWID != p.AWID || q.AWAddr != p.AWAddr || q.AWLen != p.AWLen || q.AWSize != p.AWSize ||
				q.AWBurst != p.AWBurst || q.AWLock != p.AWLock || q.AWCache != p.AWCache || q.AWProt != p.AWProt {
				return c.fail("AW payload changed while waiting for AWREADY")
			}
		}
		if p.WValid && !pr.WReady {
			if !q.WValid {
				return c.fail("WVALID dropped before WREADY")
			}
			if !bytes.Equal(q.WData, c.prevData) || q.WStrb != p.WStrb || q.WLast != p.WLast {
				return c.fail("W payload changed while waiting for WREADY")
			}
		}
		if pr.BValid && !p.BReady {
			if !r.BValid {
				return c.fail("BVALID dropped before BREADY")
			}
			if r.BID != pr.BID || r.BResp != pr.BResp {
				return c.fail("B payload changed while waiting for BREADY")
			}
		}
	}
	c.prev, c.havePrev = cy, true
	c.prevData = append(c.prevData[:0], q.WData...)

	// the response first: a burst's response cannot come in the cycle of
	// its last beat
	if r.BValid && q.BReady {
		c.Responses++
		w := c.wait[r.BID]
		if len(w) == 0 {
			return c.fail("B response for ID %d, which has no burst waiting for one", r.BID)
		}
		c.wait[r.BID] = w[1:]
	}
	if q.AWValid && r.AWReady {
		c.Bursts++
		beats := int(q.AWLen) + 1
		size := bits.TrailingZeros(uint(c.dataBytes))
		switch {
		case q.AWBurst != BurstIncr:
			return c.fail("AWBURST %d, not INCR", q.AWBurst)
		case int(q.AWSize) != size:
			return c.fail("AWSIZE %d, the data width is %d octets", q.AWSize, c.dataBytes)
		case q.AWAddr%uint64(c.dataBytes) != 0:
			return c.fail("AWADDR %#x not aligned to %d octets", q.AWAddr, c.dataBytes)
		case q.AWAddr%Page+uint64(beats*c.dataBytes) > Page:
			return c.fail("burst at %#x of %d beats crosses a 4 KiB boundary", q.AWAddr, beats)
		}
		b := &chkBurst{id: q.AWID, beats: beats, cycle: c.cycle}
		if len(c.early) > 0 {
			if c.early[0] != beats {
				return c.fail("burst of %d beats (AWLEN %d) had WLAST on beat %d", beats, q.AWLen, c.early[0])
			}
			c.early = c.early[1:]
			c.wait[b.id] = append(c.wait[b.id], b)
		} else {
			c.aw = append(c.aw, b)
		}
	}
	if q.WValid && r.WReady {
		c.Beats++
		if q.WStrb>>c.dataBytes != 0 && c.dataBytes < 64 {
			return c.fail("WSTRB %#x has bits beyond %d lanes", q.WStrb, c.dataBytes)
		}
		c.wbeats++
		if len(c.aw) > 0 && len(c.early) == 0 {
			b := c.aw[0]
			if q.WLast != (c.wbeats == b.beats) {
				return c.fail("WLAST %v on beat %d of a burst of %d", q.WLast, c.wbeats, b.beats)
			}
			if q.WLast {
				c.aw = c.aw[1:]
				c.wait[b.id] = append(c.wait[b.id], b)
				c.wbeats = 0
			}
		} else if q.WLast {
			c.early = append(c.early, c.wbeats)
			c.wbeats = 0
		} else if c.wbeats > MaxBurstLen {
			return c.fail("%d beats without WLAST", c.wbeats)
		}
	}
	return nil
}
