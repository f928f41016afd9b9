package learn

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// Base is the host address of the first learned buffer; buffers follow in
// the order they are first used, each aligned to Align octets.
const (
	Base  = 0x1000_0000
	Align = 4096
	// MaxMSN bounds the receive buffers posted per queue: MSNs beyond it
	// (a damaged or hostile header) get none and fail placement.
	MaxMSN = 1 << 16
)

// Buffer is one learned buffer.
type Buffer struct {
	Half   wire.FourTuple // the half connection whose ULPDUs use it (its Data Sink is Half.Dst)
	Tagged bool
	STag   uint32 // tagged
	QN     uint32 // untagged
	MSN    uint32 // untagged
	Addr   uint64
	Len    uint64
	Frame  int // the buffer is set up before this frame is processed
}

// Setup is a learned DDP setup.
type Setup struct {
	Buffers []Buffer // in the order Apply sets them up
	next    int      // Buffers[:next] are set up
}

// Target is what a setup is applied to: a ddp.Placer or a fastpath.System.
type Target interface {
	RegisterSTag(stag uint32, st ddp.StreamID, base, length uint64) error
	PostRecv(st ddp.StreamID, qn uint32, base, length uint64) error
}

type stagKey struct {
	half wire.FourTuple
	stag uint32
}

type msgKey struct {
	half    wire.FourTuple
	qn, msn uint32
}

// Learn replays frames through a golden receiver configured as cfg (its
// Auto, Ports, Checksums, Policy and Window; Placer, Digests and OnEvent
// are the learner's) and returns the setup the traffic needs.
func Learn(frames [][]byte, cfg rx.Config) *Setup {
	l := NewLearner(cfg)
	for _, f := range frames {
		l.Frame(f)
	}
	return l.Setup()
}

// use is what a Learner saw of one buffer.
type use struct {
	end   uint64 // highest offset + length
	frame int    // first frame
}

// Learner learns the setup of a capture read as a stream: the frames go
// to Frame (or Truncated) one at a time, in order, and Setup gives the
// setup the whole traffic needs, as Learn does. It holds a golden
// receiver's state and, per buffer, two numbers: not the frames.
type Learner struct {
	r      *rx.Receiver
	stags  map[stagKey]*use
	owner  map[uint32]wire.FourTuple // an STag belongs to the first half that uses it
	msgs   map[msgKey]*use
	frames int
}

// NewLearner returns a learner whose golden receiver is configured as cfg
// (its Auto, Ports, Checksums, Policy and Window; Placer, Digests and
// OnEvent are the learner's).
func NewLearner(cfg rx.Config) *Learner {
	l := &Learner{stags: map[stagKey]*use{}, owner: map[uint32]wire.FourTuple{}, msgs: map[msgKey]*use{}}
	cfg.Placer = ddp.NewPlacer(ddp.NewMemory())
	cfg.Placer.Memory().SetDiscard(true) // it places nothing (no buffer is set up); nothing reads it
	cfg.Digests = false
	cfg.OnEvent = l.event
	l.r = rx.New(cfg)
	return l
}

// Frame takes the next frame of the capture.
func (l *Learner) Frame(b []byte) { l.r.Frame(b) }

// FrameParsed takes the next frame of the capture, parsed by Config.Parse
// of the configuration NewLearner was given (rx.Receiver.FrameParsed).
func (l *Learner) FrameParsed(p rx.Parsed) { l.r.FrameParsed(p) }

// Truncated takes the next frame of the capture, which the capture cut
// short (rx.Receiver.Truncated).
func (l *Learner) Truncated(b []byte) { l.r.Truncated(b) }

// FrameParsedAt is FrameParsed for frame i of the capture: the frames
// since the last one this learner took went to other learners
// (rx.Receiver.SkipTo).
func (l *Learner) FrameParsedAt(i int, p rx.Parsed) {
	l.r.SkipTo(i)
	l.r.FrameParsed(p)
}

// TruncatedAt is Truncated for frame i of the capture (FrameParsedAt).
func (l *Learner) TruncatedAt(i int, b []byte) {
	l.r.SkipTo(i)
	l.r.Truncated(b)
}

// event records the buffer a DDP error asks for.
func (l *Learner) event(e *rx.Event) {
	if e.Kind != rx.DDPError {
		return
	}
	de, ok := e.Err.(*ddp.Error) // as the placer returns it: no errors.As per ULPDU
	if !ok && !errors.As(e.Err, &de) || de.Kind == ddp.KindShortHeader {
		return
	}
	h := e.DDP
	n := uint64(e.Len - h.Len())
	if h.Tagged {
		if o, ok := l.owner[h.STag]; ok && o != e.Half {
			return
		}
		l.owner[h.STag] = e.Half
		k := stagKey{e.Half, h.STag}
		u := l.stags[k]
		if u == nil {
			u = &use{frame: e.Frame}
			l.stags[k] = u
		}
		if end := h.TO + n; end >= h.TO { // no wrap
			u.end = max(u.end, end)
		}
		return
	}
	if h.QN >= ddp.NumQueues || h.MSN == 0 || h.MSN > MaxMSN {
		return
	}
	k := msgKey{e.Half, h.QN, h.MSN}
	u := l.msgs[k]
	if u == nil {
		u = &use{frame: e.Frame}
		l.msgs[k] = u
	}
	u.end = max(u.end, uint64(h.MO)+n)
}

// Setup returns the setup the frames taken so far need.
func (l *Learner) Setup() *Setup { return setupOf(l.stags, l.msgs) }

// setupOf returns the setup of the buffers learned.
func setupOf(stags map[stagKey]*use, msgs map[msgKey]*use) *Setup {
	var bufs []Buffer
	for k, u := range stags {
		bufs = append(bufs, Buffer{Half: k.half, Tagged: true, STag: k.stag, Len: u.end, Frame: u.frame})
	}
	// Receive buffers: MSN 1 .. the highest MSN seen on each queue, each
	// posted no later than the first message at or after it shows up.
	type queue struct {
		half wire.FourTuple
		qn   uint32
	}
	top := map[queue]uint32{}
	for k := range msgs {
		q := queue{k.half, k.qn}
		top[q] = max(top[q], k.msn)
	}
	for q, last := range top {
		frame := -1
		for m := last; m >= 1; m-- {
			b := Buffer{Half: q.half, QN: q.qn, MSN: m}
			if u := msgs[msgKey{q.half, q.qn, m}]; u != nil {
				b.Len = u.end
				if frame < 0 || u.frame < frame {
					frame = u.frame
				}
			}
			b.Frame = frame
			bufs = append(bufs, b)
		}
	}
	sort.Slice(bufs, func(i, j int) bool {
		a, b := bufs[i], bufs[j]
		switch {
		case a.Frame != b.Frame:
			return a.Frame < b.Frame
		case a.Half != b.Half:
			return a.Half.String() < b.Half.String()
		case a.Tagged != b.Tagged:
			return a.Tagged
		case a.Tagged:
			return a.STag < b.STag
		case a.QN != b.QN:
			return a.QN < b.QN
		}
		return a.MSN < b.MSN
	})
	addr := uint64(Base)
	for i := range bufs {
		b := &bufs[i]
		if b.Len > ^uint64(0)-addr-3*Align {
			b.Addr = 0 // a tagged buffer reaching the top of the address space: host addresses are the TOs
			continue
		}
		b.Addr = addr
		addr += (b.Len + 2*Align - 1) / Align * Align // a gap of at least Align between buffers
	}
	return &Setup{Buffers: bufs}
}

// Apply sets up on t, in order, every buffer not yet set up whose Frame is
// at most frame: before processing frame i, call Apply(i, ...). stream
// gives the DDP stream of a half connection in the run (for example
// rx.Receiver.Stream); a buffer of a half the run does not know yet waits.
func (s *Setup) Apply(frame int, t Target, stream func(wire.FourTuple) (ddp.StreamID, bool)) error {
	for s.next < len(s.Buffers) && s.Buffers[s.next].Frame <= frame {
		b := s.Buffers[s.next]
		st, ok := stream(b.Half)
		if !ok {
			return nil
		}
		if err := b.register(t, st); err != nil {
			return err
		}
		s.next++
	}
	return nil
}

// Plan is a setup applied by frame number alone, for a capture split by
// connection among receivers (each taking the frames of its own
// connections): every receiver applies its own copy of the plan to its
// own target before each of its frames, and each target holds every
// buffer as one target of one receiver taking every frame holds it
// through Setup.Apply, at each of the frames that receiver takes.
type Plan struct {
	bufs   []Buffer
	at     []int // the frame before which Apply sets up bufs[i]; -1: never
	stream func(wire.FourTuple) (ddp.StreamID, bool)
	next   int
}

// Plan returns the plan of the setup for a run whose receiver finds the
// connections conns (in the order rx.Receiver.Conns gives them) and
// numbers their DDP streams as stream does. Setup.Apply stops at the
// first buffer whose half connection is not known yet; a half is known
// before frame i when its connection was found during an earlier frame.
func (s *Setup) Plan(conns []rx.Conn, stream func(wire.FourTuple) (ddp.StreamID, bool)) *Plan {
	found := make(map[wire.FourTuple]int, 2*len(conns))
	for _, c := range conns {
		found[c.Initiator], found[c.Initiator.Reverse()] = c.Frame, c.Frame
	}
	p := &Plan{bufs: s.Buffers, at: make([]int, len(s.Buffers)), stream: stream}
	prev := 0
	for i, b := range s.Buffers {
		f, ok := found[b.Half]
		if !ok || prev < 0 {
			p.at[i], prev = -1, -1
			continue
		}
		prev = max(prev, b.Frame, f+1)
		p.at[i] = prev
	}
	return p
}

// Copy returns a plan that applies the same buffers from the start.
func (p *Plan) Copy() *Plan {
	c := *p
	c.next = 0
	return &c
}

// Apply sets up on t, in order, every buffer not yet set up that the plan
// sets up before frame: call it before processing frame i with i.
func (p *Plan) Apply(frame int, t Target) error {
	for p.next < len(p.bufs) && p.at[p.next] >= 0 && p.at[p.next] <= frame {
		b := p.bufs[p.next]
		st, ok := p.stream(b.Half)
		if !ok {
			return fmt.Errorf("learn: %v: no DDP stream", b.Half)
		}
		if err := b.register(t, st); err != nil {
			return err
		}
		p.next++
	}
	return nil
}

// Reset makes the setup apply from its first buffer again (a second run).
func (s *Setup) Reset() { s.next = 0 }

// Summary says in one line what was learned, for replay's output.
func (s *Setup) Summary() string {
	if len(s.Buffers) == 0 {
		return "setup learned from the traffic: no DDP buffers needed (no ULPDU with a DDP header)"
	}
	return "setup learned from the traffic (no setup came with the capture): " + s.counts()
}

// counts says how many buffers of each kind the setup has, on how many
// half connections.
func (s *Setup) counts() string {
	halves := map[wire.FourTuple]bool{}
	stags, recvs := 0, 0
	perQN := [ddp.NumQueues]int{}
	for _, b := range s.Buffers {
		halves[b.Half] = true
		if b.Tagged {
			stags++
		} else {
			recvs++
			perQN[b.QN]++
		}
	}
	var qs []string
	for qn, n := range perQN {
		if n > 0 {
			qs = append(qs, fmt.Sprintf("QN %d: %d", qn, n))
		}
	}
	q := ""
	if len(qs) > 0 {
		q = " (" + strings.Join(qs, ", ") + ")"
	}
	return fmt.Sprintf("%d tagged buffers (STags), %d receive buffers%s, on %d half connections",
		stags, recvs, q, len(halves))
}

// register sets b up on t for the stream st: an STag for a tagged buffer,
// a posted receive buffer for an untagged one.
func (b Buffer) register(t Target, st ddp.StreamID) error {
	var err error
	if b.Tagged {
		err = t.RegisterSTag(b.STag, st, b.Addr, b.Len)
	} else {
		err = t.PostRecv(st, b.QN, b.Addr, b.Len)
	}
	if err != nil {
		return fmt.Errorf("learn: %v: %w", b.Half, err)
	}
	return nil
}
