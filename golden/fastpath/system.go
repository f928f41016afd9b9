package fastpath

import (
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// System is the hardware model together with the software slow path, as the
// host runs them (the dual stack of RFC 5044 section 7.1): a golden
// receiver gets the frames the hardware hands over, and the two keep each
// other informed:
//
//   - software programs a context when both startup frames are valid, marks
//     it in error after an MPA error, and hands the stream back (clears
//     SWOwned, sets rcv_nxt) whenever it holds nothing of it;
//   - software takes a stream over (sets SWOwned) when it gets a segment of
//     it the hardware could not parse (an IPv6 frame with extension
//     headers, reason IPv6Ext), as the hardware does for its own
//     exceptions;
//   - the hardware's Advanced and Consumed events tell software what it
//     consumed, so that software passes nothing twice and steps over it;
//   - each side's untagged deliveries are mirrored into the other's
//     receive-queue state (in the RTL a configuration write).
//
// Both place into one host memory. Events holds everything both reported,
// as golden receiver events, so that a run can be compared with the golden
// receiver's run over all frames.
type System struct {
	HW       *Engine
	SW       *rx.Receiver
	HWPlacer *ddp.Placer
	SWPlacer *ddp.Placer
	// Events is the union of the hardware's and software's reports (empty
	// when OnEvent is set).
	Events []rx.Event
	// OnEvent, when set, receives each event of the union as it happens
	// instead of Events keeping it (a run that streams its reports).
	OnEvent func(e rx.Event)
	// Verdicts counts frames by verdict, Reasons exceptions by reason.
	Verdicts map[Verdict]int
	Reasons  map[Reason]int
	// Err is the first hand-over inconsistency met (nil when none).
	Err error
	// OnConfig, when set, sees every context write software makes (what
	// the RTL's configuration port receives), after it is made.
	OnConfig func(t wire.FourTuple, c Context)

	// STagSlots, when not zero, is the size of the hardware's STag table
	// (STAG_COUNT): an STag lives in slot STag[31:8] mod STagSlots, and an
	// STag whose slot holds another valid STag is not given to the
	// hardware (an RNIC allocates STag indices so that this never
	// happens). Set it before registering STags.
	STagSlots int
	// RQDepth, when not zero, is how many receive buffers per queue the
	// hardware holds beyond the current MSN (RQ_DEPTH): software posts the
	// others to the hardware as messages are delivered. Set it before
	// posting.
	RQDepth int
	// Ops is every write software makes to the hardware's tables, in order
	// (contexts, STags, receive buffers, current MSNs): what the RTL's
	// configuration port receives. TakeOps empties it.
	Ops []Op

	// HWPtrForms counts, per half connection, the FPDUs the hardware
	// placed that began with a marker and held a later one, by FPDUPTR
	// form: [0] RFC 5044, [1] draft-01 (from its ADVANCED and CONSUMED
	// events; software's are in its rx.HalfSummary).
	HWPtrForms map[wire.FourTuple][2]int

	frame    int
	checks   rx.Checksums // software's checksum policy
	stagSlot map[int]uint32
	rqs      map[rqKey]*hwQueue
}

// OpKind is the kind of a configuration write (docs/design.md section 4).
type OpKind uint8

// Configuration writes.
const (
	OpContext OpKind = iota // a context: Half, Ctx
	OpSTag                  // an STag entry: STag, Stream, Base, Len, Valid
	OpPost                  // a receive buffer: Half, QN, MSN, Stream, Base, Len
	OpMSN                   // a queue's current MSN: Half, QN, MSN
)

// Op is one configuration write.
type Op struct {
	Kind      OpKind
	Half      wire.FourTuple
	Ctx       Context
	STag      uint32
	Stream    ddp.StreamID
	Base, Len uint64
	Valid     bool
	QN, MSN   uint32
}

// TakeOps returns the configuration writes made since the last call.
func (s *System) TakeOps() []Op {
	ops := s.Ops
	s.Ops = nil
	return ops
}

type rqKey struct {
	st ddp.StreamID
	qn uint32
}

// hwQueue is what software holds of a receive queue for the hardware.
type hwQueue struct {
	posted  uint32      // buffers given to the hardware: MSNs 1 .. posted
	pending [][2]uint64 // buffers not given yet: base, length
}

// NewSystem returns a system placing into mem, with the given receive
// window (0: rx.DefaultWindow).
func NewSystem(mem *ddp.Memory, window uint32) *System {
	return NewSystemConfig(mem, rx.Config{Window: window})
}

// NewSystemConfig is NewSystem with the software receiver's configuration
// (Window, Auto, Policy; its Placer, Digests and OnEvent are the system's).
func NewSystemConfig(mem *ddp.Memory, cfg rx.Config) *System {
	if cfg.Window == 0 {
		cfg.Window = rx.DefaultWindow
	}
	s := &System{
		HWPlacer: ddp.NewPlacer(mem),
		SWPlacer: ddp.NewPlacer(mem),
		Verdicts: map[Verdict]int{},
		Reasons:  map[Reason]int{},
		checks:   cfg.Checksums,
	}
	s.HW = New(s.HWPlacer, cfg.Window)
	cfg.Placer, cfg.Digests, cfg.OnEvent = s.SWPlacer, true, s.software
	s.SW = rx.New(cfg)
	return s
}

// AddConn follows a connection from its startup frames (in software) and
// returns its DDP streams.
func (s *System) AddConn(c rx.ConnSpec) (i2r, r2i ddp.StreamID) { return s.SW.AddConn(c) }

// SetVersion sets the DDP version both placers accept by default.
func (s *System) SetVersion(v uint8) { s.HWPlacer.Version, s.SWPlacer.Version = v, v }

// RegisterSTag registers a tagged buffer in both engines' tables (in the
// hardware's when its slot is free, see STagSlots).
func (s *System) RegisterSTag(stag uint32, st ddp.StreamID, base, length uint64) error {
	if err := s.SWPlacer.RegisterSTag(stag, st, base, length); err != nil {
		return err
	}
	if s.STagSlots > 0 {
		if s.stagSlot == nil {
			s.stagSlot = map[int]uint32{}
		}
		i := int(stag>>8) & (s.STagSlots - 1)
		if o, ok := s.stagSlot[i]; ok && o != stag {
			return nil
		}
		s.stagSlot[i] = stag
	}
	if err := s.HWPlacer.RegisterSTag(stag, st, base, length); err != nil {
		return err
	}
	s.Ops = append(s.Ops, Op{Kind: OpSTag, STag: stag, Stream: st, Base: base, Len: length, Valid: true})
	return nil
}

// InvalidateSTag invalidates an STag in both engines' tables.
func (s *System) InvalidateSTag(stag uint32) {
	s.SWPlacer.InvalidateSTag(stag)
	s.HWPlacer.InvalidateSTag(stag)
	if s.STagSlots == 0 || s.stagSlot[int(stag>>8)&(s.STagSlots-1)] == stag {
		s.Ops = append(s.Ops, Op{Kind: OpSTag, STag: stag})
	}
}

// PostRecv posts a receive buffer in both engines' tables (in the
// hardware's when it holds fewer than RQDepth, else later).
func (s *System) PostRecv(st ddp.StreamID, qn uint32, base, length uint64) error {
	if err := s.SWPlacer.PostRecv(st, qn, base, length); err != nil {
		return err
	}
	if s.rqs == nil {
		s.rqs = map[rqKey]*hwQueue{}
	}
	k := rqKey{st, qn}
	q := s.rqs[k]
	if q == nil {
		q = &hwQueue{}
		s.rqs[k] = q
	}
	q.pending = append(q.pending, [2]uint64{base, length})
	s.refill(k, q)
	return nil
}

// refill gives the hardware the pending buffers of a queue it has room for.
func (s *System) refill(k rqKey, q *hwQueue) {
	for len(q.pending) > 0 {
		cur := s.HWPlacer.CurrentMSN(k.st, k.qn)
		if s.RQDepth > 0 && q.posted+1-cur >= uint32(s.RQDepth) {
			return
		}
		b := q.pending[0]
		q.pending = q.pending[1:]
		_ = s.HWPlacer.PostRecv(k.st, k.qn, b[0], b[1]) // qn was checked by the software placer
		q.posted++
		if h := s.streamHalf(k.st); s.HW.Claim(h) {
			s.Ops = append(s.Ops, Op{Kind: OpPost, Half: h, Stream: k.st, QN: k.qn, MSN: q.posted,
				Base: b[0], Len: b[1], Valid: true})
		}
	}
}

// streamHalf returns the half connection whose DDP stream is st.
func (s *System) streamHalf(st ddp.StreamID) wire.FourTuple {
	for _, h := range s.SW.Halves() {
		if h.Stream == st {
			return h.Tuple
		}
	}
	return wire.FourTuple{}
}

// Frame runs one frame through the hardware and, when it hands the frame
// over, through software.
func (s *System) Frame(b []byte) Result {
	defer func() { s.frame++ }()
	res := s.HW.Frame(b)
	s.Verdicts[res.Verdict]++
	for _, ev := range res.Events {
		s.hardware(ev)
	}
	if res.Verdict == Exception {
		s.Reasons[res.Reason]++
		s.SW.Frame(b)
		half := res.Half
		if res.Reason == IPv6Ext {
			half = s.takeOver(b)
		}
		if half != (wire.FourTuple{}) {
			s.handBack(half)
			s.handBack(half.Reverse())
		}
	}
	for k, q := range s.rqs {
		if len(q.pending) > 0 {
			s.refill(k, q)
		}
	}
	return res
}

// SetFrame sets the frame number the events of the next Frame carry (the
// frames are numbered from 0 in the order Frame gets them, unless the
// caller numbers them: several frames cut from one captured frame carry
// its number).
func (s *System) SetFrame(i int) { s.frame = i }

// record keeps or passes on one event of the union.
func (s *System) record(e rx.Event) {
	if s.OnEvent != nil {
		s.OnEvent(e)
		return
	}
	s.Events = append(s.Events, e)
}

func (s *System) fail(err error) {
	if s.Err == nil && err != nil {
		s.Err = fmt.Errorf("frame %d: %w", s.frame, err)
	}
}

// hardware turns a hardware event into golden events and keeps software in
// step.
func (s *System) hardware(ev Event) {
	e := rx.Event{Half: ev.Half, Frame: s.frame, Seq: ev.Seq, DDP: ev.DDP, Err: ev.Err}
	switch ev.Kind {
	case Placed, DDPError:
		u := e
		u.Kind, u.Len, u.SHA256 = rx.ULPDU, ev.Len, ev.SHA256
		s.record(u)
		e.Kind, e.Addr, e.Len = rx.Placed, ev.Addr, ev.Len-ev.DDP.Len()
		if ev.Kind == DDPError {
			e.Kind, e.Len = rx.DDPError, ev.Len
		}
	case Delivered:
		e.Kind = rx.Delivered
		if st, ok := s.SW.Stream(ev.Half); ok {
			s.SWPlacer.Deliver(st, ev.DDP) // mirror: the MSN moves on in software too
		}
	case Dropped:
		e.Kind = rx.Dropped
	case Advanced:
		s.countForms(ev)
		s.fail(s.SW.HardwareAdvance(ev.Half, ev.End))
		return
	case Consumed:
		s.countForms(ev)
		s.fail(s.SW.HardwareConsumed(ev.Half, ev.Seq, ev.End))
		return
	}
	s.record(e)
}

func (s *System) countForms(ev Event) {
	if ev.PtrRFC5044 == 0 && ev.PtrDraft01 == 0 {
		return
	}
	if s.HWPtrForms == nil {
		s.HWPtrForms = map[wire.FourTuple][2]int{}
	}
	n := s.HWPtrForms[ev.Half]
	n[0] += ev.PtrRFC5044
	n[1] += ev.PtrDraft01
	s.HWPtrForms[ev.Half] = n
}

// PtrForms returns the FPDUs of half connection t that began with a
// marker and held a later one, by FPDUPTR form, that the hardware and
// software passed together.
func (s *System) PtrForms(t wire.FourTuple) (rfc5044, draft01 int) {
	n := s.HWPtrForms[t]
	rfc5044, draft01 = n[0], n[1]
	for _, h := range s.SW.Halves() {
		if h.Tuple == t {
			rfc5044 += h.PtrRFC5044
			draft01 += h.PtrDraft01
		}
	}
	return rfc5044, draft01
}

// software takes the golden receiver's events: it records them and programs
// the hardware.
func (s *System) software(e *rx.Event) {
	ev := *e
	ev.Frame = s.frame
	s.record(ev)
	switch e.Kind {
	case rx.Established:
		st, _ := s.SW.Stream(e.Half)
		var ver uint8
		for _, h := range s.SW.Halves() {
			if h.Tuple == e.Half {
				ver = h.DDPVersion
			}
		}
		s.HWPlacer.SetVersion(st, ver)
		s.config(e.Half, Context{Full: true, SWOwned: true, Params: s.halfParams(e.Half), RcvNxt: e.Seq, Stream: st,
			DDPVersion: ver})
		for qn := uint32(0); qn < ddp.NumQueues && s.HW.Claim(e.Half); qn++ {
			s.Ops = append(s.Ops, Op{Kind: OpMSN, Half: e.Half, QN: qn, MSN: s.HWPlacer.CurrentMSN(st, qn)})
		}
	case rx.MPAError:
		if c, ok := s.HW.Context(e.Half); ok {
			c.Err = true
			s.config(e.Half, c)
		}
	case rx.Delivered:
		if st, ok := s.SW.Stream(e.Half); ok {
			s.HWPlacer.Deliver(st, e.DDP) // mirror: the MSN moves on in hardware too
			if !e.DDP.Tagged && s.HW.Claim(e.Half) {
				s.Ops = append(s.Ops, Op{Kind: OpMSN, Half: e.Half, QN: e.DDP.QN, MSN: s.HWPlacer.CurrentMSN(st, e.DDP.QN)})
			}
		}
	}
}

func (s *System) halfParams(t wire.FourTuple) (p mpa.Half) {
	for _, h := range s.SW.Halves() {
		if h.Tuple == t {
			return h.Params
		}
	}
	return p
}

// takeOver makes software the owner of the half connection of frame b, a
// frame the hardware handed over without knowing its half connection
// (IPv6Ext), when software takes it as a TCP segment and the hardware
// holds that half connection in full operation. It returns the half
// connection (zero when b is not a segment software takes).
func (s *System) takeOver(b []byte) wire.FourTuple {
	f, _, err := s.checks.Parse(b)
	if err != nil {
		return wire.FourTuple{}
	}
	t := f.FourTuple()
	if c, ok := s.HW.Context(t); ok && c.Full && !c.Err && !c.SWOwned {
		c.SWOwned, c.Ranges = true, nil
		s.config(t, c)
	}
	return t
}

// handBack returns half connection t to the hardware when software owns it
// and holds nothing of it, and stops the hardware on it when software has
// closed it.
func (s *System) handBack(t wire.FourTuple) {
	c, ok := s.HW.Context(t)
	if !ok || c.Err {
		return
	}
	if s.SW.Closed(t) {
		c.Err = true // closed without an error of its own: the peer half was reset
		s.config(t, c)
		return
	}
	if !c.SWOwned {
		return
	}
	if rcv, params, idle := s.SW.Idle(t); idle {
		c.SWOwned, c.RcvNxt, c.Params, c.Ranges = false, rcv, params, nil
		s.config(t, c)
	}
}

// config writes a context as software does through the configuration port
// (unless its table slot belongs to another half connection).
func (s *System) config(t wire.FourTuple, c Context) {
	if !s.HW.SetContext(t, c) {
		return
	}
	s.Ops = append(s.Ops, Op{Kind: OpContext, Half: t, Ctx: c})
	if s.OnConfig != nil {
		s.OnConfig(t, c)
	}
}

// OutcomeKinds are the kinds of golden receiver events SameOutcome compares
// when given none: what was passed, reported and delivered.
var OutcomeKinds = []rx.Kind{rx.ULPDU, rx.MPAError, rx.Delivered, rx.Dropped}

// SameOutcome checks that union, the hardware's and software's reports
// together (System.Events), holds the same events of the given kinds
// (OutcomeKinds when none) as golden, the golden receiver's, as multisets:
// the two sides may report in a different order.
func SameOutcome(golden, union []rx.Event, kinds ...rx.Kind) error {
	if len(kinds) == 0 {
		kinds = OutcomeKinds
	}
	key := func(evs []rx.Event, k rx.Kind) map[string]int {
		m := map[string]int{}
		for _, e := range evs {
			if e.Kind == k {
				m[fmt.Sprintf("%v %d %d %x %d", e.Half, e.Seq, e.Len, e.SHA256[:4], e.Code)]++
			}
		}
		return m
	}
	for _, k := range kinds {
		a, b := key(golden, k), key(union, k)
		if len(a) != len(b) {
			return fmt.Errorf("%v events: golden %d, hardware and software %d", k, len(a), len(b))
		}
		for s, n := range a {
			if b[s] != n {
				return fmt.Errorf("%v event %s: golden %d, hardware and software %d", k, s, n, b[s])
			}
		}
	}
	return nil
}
