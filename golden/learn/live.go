package learn

import (
	"fmt"
	"math"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/wire"
)

// Window is the address window of each receive buffer a Live learner
// posts: its length, and the distance between the bases of consecutive
// buffers (an untagged ULPDU's MO is 32 bits).
const Window = 1 << 33

// Live learns a setup as the traffic goes, for a capture that can be read
// only once (standard input): when a ULPDU finds no buffer, it registers
// the STag, over the whole address space (base 0: a placement's address is
// its TO), or posts the receive buffers up to the ULPDU's MSN, each in its
// own Window, there and then; no ULPDU is then too long for its buffer.
// The results are those of a setup learned beforehand (Learner, two passes
// over a file) but for the buffers' addresses and lengths.
type Live struct {
	setup  Setup
	next   uint64
	frame  int
	posted map[liveQueue]uint32
	half   func(ddp.StreamID) (wire.FourTuple, bool)
}

type liveQueue struct {
	st ddp.StreamID
	qn uint32
}

// NewLive makes placer p learn as it goes (it sets p.OnMiss). half gives
// the half connection of a DDP stream (rx.Receiver.Half of the receiver
// that places through p).
func NewLive(p *ddp.Placer, half func(ddp.StreamID) (wire.FourTuple, bool)) *Live {
	l := &Live{next: Base, posted: map[liveQueue]uint32{}, half: half}
	p.OnMiss = func(s ddp.StreamID, h ddp.Header) bool { return l.miss(p, s, h) }
	return l
}

// SetFrame names the frame being processed: the buffers set up while it
// is get it as their Frame.
func (l *Live) SetFrame(i int) { l.frame = i }

// Setup returns the buffers set up so far, in order. It grows as the
// learner goes on: Setup().Apply(i, ...) after frame i was processed sets
// up on another engine what frame i needed.
func (l *Live) Setup() *Setup { return &l.setup }

// Summary says in one line what was learned, for replay's output.
func (l *Live) Summary() string {
	if len(l.setup.Buffers) == 0 {
		return "setup learned as the capture went: no DDP buffers needed (no ULPDU with a DDP header)"
	}
	return fmt.Sprintf("setup learned as the capture went (it is read once): %s; an STag spans the address space (address = TO) and a receive buffer has its own %d-octet window, so addresses and lengths differ from a setup learned from a file (two passes)",
		l.setup.counts(), uint64(Window))
}

// alloc returns the base of the next buffer's window, false when the
// address space is used up.
func (l *Live) alloc() (uint64, bool) {
	if l.next > math.MaxUint64-Window+1 {
		return 0, false
	}
	a := l.next
	l.next += Window
	return a, true
}

// miss sets up what a segment with header h of stream s did not find.
func (l *Live) miss(p *ddp.Placer, s ddp.StreamID, h ddp.Header) bool {
	t, ok := l.half(s)
	if !ok {
		return false
	}
	if h.Tagged {
		if p.RegisterSTag(h.STag, s, 0, math.MaxUint64) != nil {
			return false
		}
		l.setup.Buffers = append(l.setup.Buffers, Buffer{Half: t, Tagged: true, STag: h.STag, Len: math.MaxUint64, Frame: l.frame})
		return true
	}
	if h.QN >= ddp.NumQueues || h.MSN == 0 || h.MSN > MaxMSN {
		return false
	}
	k := liveQueue{s, h.QN}
	for l.posted[k] < h.MSN {
		a, ok := l.alloc()
		if !ok || p.PostRecv(s, h.QN, a, Window) != nil {
			return false
		}
		l.posted[k]++
		l.setup.Buffers = append(l.setup.Buffers, Buffer{Half: t, QN: h.QN, MSN: l.posted[k], Addr: a, Len: Window, Frame: l.frame})
	}
	return true
}
