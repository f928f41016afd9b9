package cycle

import (
	"cmp"
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// Events returns the events of the cycle's m_evt beat, decoded (none when
// m_evt_tvalid is low).
func (o Out) Events() []Event {
	if !o.EvtValid {
		return nil
	}
	evs := make([]Event, 0, o.EvtKeep)
	for i := 0; i < o.EvtKeep; i++ {
		evs = append(evs, Decode(o.Evt[i]))
	}
	return evs
}

// In is one cycle's inputs.
type In struct {
	Valid     bool   // s_axis_tvalid
	Data      []byte // s_axis_tdata, DataWidth/8 lanes
	Keep      uint64 // s_axis_tkeep
	Last      bool   // s_axis_tlast
	User      bool   // s_axis_tuser
	EvtReady  bool   // m_evt_tready
	ExcReady  bool   // m_exc_axis_tready
	HostReady bool   // m_host_ready
	CfgValid  bool
	CfgOp     int
	CfgIndex  int
	CfgData   CfgData
}

// Out is one cycle's outputs. EvtMask marks the bits of Evt that the
// contract defines in this cycle (the header fields of a frame that has
// none are not); the other outputs are defined when their valid is high,
// HostData on the lanes of HostStrb.
type Out struct {
	Ready    bool // s_axis_tready
	EvtValid bool
	// EvtKeep is the number of lanes of the m_evt beat that hold an event
	// (m_evt_tkeep, 16 bits per lane, lanes from lane 0): 1 with one event
	// lane, 1 or 2 with two (EvtLanes); Evt[i] and EvtMask[i] are lane i.
	EvtKeep   int
	Evt       [MaxEvtLanes]Word
	EvtMask   [MaxEvtLanes]Word
	ExcValid  bool
	ExcData   []byte
	ExcKeep   uint64
	ExcLast   bool
	ExcUser   int
	HostValid bool
	HostAddr  uint64
	HostData  []byte
	HostStrb  uint64
	CfgReady  bool
	// PlanValid: a placement descriptor (m_plan_*: the host address and
	// the octets of a placed FPDU's payload, when it has one) goes to E2
	// in this cycle, the cycle its PLACED beat is taken; PlanFrameEnd: a
	// frame ends in E1 in this cycle (section 4).
	PlanValid    bool
	PlanAddr     uint64
	PlanLen      int
	PlanFrameEnd bool
}

// e1Step is one E1 step: an event (waits on m_evt_tready) or a silent
// cycle (a record of a frame that is not PLACE, or a DDP lookup or check
// cycle).
type e1Step struct {
	event  bool
	lookup bool // the lookup cycle of a PLACE frame's record
	evt    Word
	mask   Word
	rq     bool // a receive-queue update (DELIVERED of an untagged message)
	plan   *Placement
}

// beat is one m_evt beat of two event lanes: one or two events.
type beat struct {
	n    int
	evt  [MaxEvtLanes]Word
	mask [MaxEvtLanes]Word
	rq   bool // a receive-queue update (DELIVERED of an untagged message)
	plan *Placement
}

// e2Step is one E2 step: read a beat (and free it), and send it on
// m_exc_axis or write to the host.
type e2Step struct {
	read  bool
	exc   bool
	run   bool // in a placement's payload run: waits while a last write is pending
	extra bool // a pending last write (E2Step.Extra), not a step of its own
	beat  int
	write *HostWrite
}

// Frame is the model's record of one frame, kept for reports and tests.
type Frame struct {
	// E1Steps and E2Steps are the number of steps of its egress stages
	// (cycles when nothing waits).
	E1Steps, E2Steps int
	// RQUpdate: one of its E1 events is an untagged DELIVERED.
	RQUpdate bool
	Seq      int    // frame number in arrival order
	Last     uint64 // cycle its last beat was accepted
	Verdict  uint64 // cycle of its verdict
	E1Start  uint64
	E1End    uint64
	E2Start  uint64
	E2End    uint64
	Result   fastpath.Result
	Fields   Fields
	Records  int // walker records (E1 record cycles)
	Writes   int // host writes
	Oversize bool
	FCSBad   bool

	data     []byte // every lane of every beat
	size     int    // frame octets
	beats    int    // beats received
	stored   int    // beats in the FIFO
	keepLast uint64
	walk     WalkParams
	pos      Positional // what the parser gave the lookup and the walker
	slot     int
	matched  bool   // its lookup found its half connection (mpa_rx frm_match)
	v0       uint64 // cycle it entered the verdict stage V0 (Verdict - 2)

	decided bool
	base    uint64 // FIFO position of its first beat (Model.stored then)
	// two event lanes (wideSteps): the VERDICT beat, per record of a PLACE
	// frame its beat, the records of any other frame (discards)
	hdr     beat
	recs    []beat
	nrec    int
	place   bool
	vsDone  bool // its VERDICT beat went out
	taken   int  // records looked up or discarded
	e1      []e1Step
	e2      []e2Step
	e1Done  bool
	e2Begun bool
}

// Stats counts what a run exercised.
type Stats struct {
	Cycles         uint64
	FullInflight   uint64 // cycles s_axis_tready was low for the 14-frame limit
	FullFIFO       uint64 // ... for a full FIFO
	CfgBusyVerdict uint64 // cycles cfg_ready was low for a verdict's context write
	CfgBusyRQ      uint64 // ... for a receive-queue update
	CfgWaited      uint64 // cycles a configuration write waited on cfg_ready
	Overlap        uint64 // cycles E1 and E2 worked on different frames
	Events         uint64 // m_evt handshakes
	ExcBeats       uint64
	HostWrites     uint64
	ExtraWrites    uint64 // host writes left pending by the step before (section 5.4)
	Stalled        uint64 // cycles an output valid waited on its ready
	OversizeFrames uint64
	RecordCycles   uint64 // silent E1 cycles of frames that are not PLACE
	DDPLookups     uint64
}

// Model is the cycle model. Use New; drive it with Step once per cycle
// after reset.
type Model struct {
	cfg      Config
	lanes    int
	lwalk    int
	inflimit int // MAX_INFLIGHT

	cycle    uint64
	engine   *fastpath.Engine
	placer   *ddp.Placer
	mem      *ddp.Memory
	slots    []Entry
	addr6    [2]wire.Addr // the addresses of the last address write (OpAddr6)
	parser   ParserRegs   // mpa_rx_parse's registers a frame's key can take
	stags    map[int]STagEntry
	cur      *Frame // frame being received
	stored   uint64 // beats ever stored in the FIFO
	popped   uint64 // beats E2 was ever done with
	inflight int
	frames   []*Frame // last beat accepted, egress not ended, in order
	nframes  int

	posted       map[[2]uint32]uint32 // receive buffers posted per stream and QN
	wide         bool                 // two event lanes (section 5.3's E1 for 256 and 512 bits)
	w            wideE1
	e1, e2       *Frame
	fl           *HostWrite // E2: a placement's last write, pending (section 5.4)
	e1Pos, e2Pos int
	lastE1       *Frame // the frame that last ended E1
	// Stats counts what the run exercised.
	Stats    Stats
	e1Gate   func(uint64) bool    // analysis: holds E1 starts (nil: none)
	bubble   func(*Frame, uint64) // analysis: an E1 start held  // E2 steps before this one have their beats out of the FIFO
	writeCtx bool                 // the verdict of this cycle writes a context
	prevV    *Frame               // the frame that entered V0 last
	queuedV0 uint64               // V0 cycle of the last frame whose summary was queued (+1; 0: none)

	// E1Hold, when set, is asked before E1 starts a frame and holds the
	// start for a cycle when it returns true: a hook for harnesses that
	// study where an RTL departs from the contract (nil in lockstep).
	E1Hold func(f *Frame, cycle uint64) bool
	// Done receives every frame when its egress ends (optional).
	Done func(*Frame)
	// Err is the first situation the model does not cover (a configuration
	// write racing a frame in a way section 5 leaves open), or an
	// inconsistency between the model's parts.
	Err error
}

// New returns a model in its reset state.
func New(cfg Config) *Model {
	if cfg.MaxFrame == 0 {
		cfg.MaxFrame = MaxFrame
	}
	if cfg.FIFODepth == 0 {
		cfg.FIFODepth = DefaultFIFODepth(cfg.DataWidth, cfg.MaxFrame)
	}
	if cfg.Window == 0 {
		cfg.Window = rx.DefaultWindow
	}
	mem := ddp.NewMemory()
	pl := ddp.NewPlacer(mem)
	pl.Version = cfg.DDPVersion
	// Oversize frames are decided here, with the FIFO's fill, not by the
	// engine's FrameLimit.
	eng := fastpath.New(pl, cfg.Window)
	eng.IPv4Only = !ParsesIPv6
	return &Model{
		cfg:      cfg,
		lanes:    cfg.DataWidth / 8,
		lwalk:    cmp.Or(cfg.LWalk, LWalk(cfg.DataWidth)),
		wide:     EvtLanes(cfg.DataWidth) == 2,
		inflimit: InflightLimit(cfg.DataWidth),
		engine:   eng,
		placer:   pl,
		mem:      mem,
		slots:    make([]Entry, cfg.ConnCount),
		stags:    map[int]STagEntry{},
	}
}

// Cycle returns the number of cycles stepped.
func (m *Model) Cycle() uint64 { return m.cycle }

// Memory returns the memory the model's placer writes (the functional
// result of its host writes).
func (m *Model) Memory() *ddp.Memory { return m.mem }

// Inflight returns the frames between their last beat and the end of
// their egress.
func (m *Model) Inflight() int { return m.inflight }

func (m *Model) fail(format string, args ...any) {
	if m.Err == nil {
		m.Err = fmt.Errorf("cycle: cycle %d: %s", m.cycle, fmt.Sprintf(format, args...))
	}
}

// Step computes the outputs of one cycle from the state and the inputs,
// then takes the clock edge.
func (m *Model) Step(in In) Out {
	var out Out
	c := m.cycle
	m.takeVerdicts(c)
	e1 := m.e1Outputs(c, in, &out)
	e2Adv := m.e2Outputs(c, in, &out)
	out.Ready = m.inflight < m.inflimit && (m.stored-m.popped < uint64(m.capacity()) || (m.cur != nil && m.cur.stored >= m.cfg.FIFODepth))
	out.CfgReady = !m.writeCtx && !e1.rq && !m.inV1(c)
	m.count(in, out, e1)
	m.edge(c, in, out, e1, e2Adv)
	m.cycle++
	return out
}

// e1Cycle is what E1 does in a cycle.
type e1Cycle struct {
	adv  bool     // its step is done at the clock edge
	rq   bool     // it updates a receive queue (cfg_ready low)
	wide wideStep // with two event lanes: the step of wideE1
}

// takeVerdicts takes the verdicts of cycle c (they see the configuration
// writes made before it) and builds the decided frames' egress steps.
func (m *Model) takeVerdicts(c uint64) {
	m.writeCtx = false
	for _, f := range m.frames {
		if !f.decided && f.Verdict == c {
			m.decide(f)
			f.E1Steps, f.E2Steps = len(f.e1), len(f.e2)
			for _, st := range f.e1 {
				f.RQUpdate = f.RQUpdate || st.rq
			}
			if m.wide {
				m.wideSteps(f)
			}
		}
	}
}

// e1Outputs drives m_evt from E1's step in cycle c, starting the next
// decided frame's E1 when none is in it.
func (m *Model) e1Outputs(c uint64, in In, out *Out) e1Cycle {
	var e e1Cycle
	if m.wide {
		e.wide = m.wideE1(c, in, out)
		e.rq = e.wide.rq
	} else if m.e1 == nil {
		m.startE1(c)
	}
	if f := m.e1; f != nil {
		st := f.e1[m.e1Pos]
		if st.event {
			out.EvtValid, out.EvtKeep, out.Evt[0], out.EvtMask[0] = true, 1, st.evt, st.mask
			e.adv = in.EvtReady
			e.rq = st.rq && in.EvtReady
		} else {
			e.adv = true
		}
		if e.adv && st.plan != nil {
			out.PlanValid, out.PlanAddr, out.PlanLen = true, st.plan.Addr, len(st.plan.Data)
		}
		out.PlanFrameEnd = e.adv && m.e1Pos == len(f.e1)-1
	}
	return e
}

// startE1 starts E1 on the oldest frame that has not been through it, two
// cycles after its verdict (unless E1Hold holds it).
func (m *Model) startE1(c uint64) {
	f := m.oldest(func(f *Frame) bool { return f.e1Done })
	if f != nil && f.decided && c >= f.Verdict+2 && (m.E1Hold == nil || !m.E1Hold(f, c)) {
		m.e1, m.e1Pos = f, 0
		f.E1Start = c
	}
}

// oldest returns the oldest frame in flight that done does not report as
// through a stage, or nil.
func (m *Model) oldest(done func(*Frame) bool) *Frame {
	for _, f := range m.frames {
		if !done(f) {
			return f
		}
	}
	return nil
}

// e2Outputs drives m_exc_axis and m_host from E2's step in cycle c (and a
// last write left pending), starting the next frame's E2 when none is in
// it. It reports whether the step is done at the clock edge.
func (m *Model) e2Outputs(c uint64, in In, out *Out) bool {
	if m.e2 == nil {
		m.startE2(c)
	}
	var adv bool
	if w := m.fl; w != nil {
		out.HostValid, out.HostAddr, out.HostData, out.HostStrb = true, w.Addr, w.Data, w.Strb
	}
	if f := m.e2; f != nil {
		st := f.e2[m.e2Pos]
		switch {
		case m.fl != nil && st.run:
			// waits for the pending last write
		case st.exc:
			out.ExcValid = true
			out.ExcData = f.data[st.beat*m.lanes : (st.beat+1)*m.lanes]
			out.ExcKeep = m.allKeep()
			if st.beat == f.stored-1 {
				out.ExcLast, out.ExcKeep = true, f.keepLast
			}
			out.ExcUser = int(f.Result.Reason)
			adv = in.ExcReady
		case st.write != nil:
			out.HostValid, out.HostAddr, out.HostData, out.HostStrb = true, st.write.Addr, st.write.Data, st.write.Strb
			adv = in.HostReady
		default:
			adv = true
		}
	}
	return adv
}

// startE2 starts E2 on the oldest frame that has not begun it, three
// cycles after its E1 ended.
func (m *Model) startE2(c uint64) {
	f := m.oldest(func(f *Frame) bool { return f.e2Begun })
	if f != nil && f.e1Done && c >= f.E1End+3 {
		m.e2, m.e2Pos = f, 0
		f.e2Begun, f.E2Start = true, c
	}
}

// count adds the cycle to Stats.
func (m *Model) count(in In, out Out, e1 e1Cycle) {
	st := &m.Stats
	st.Cycles++
	if !out.Ready {
		if m.inflight >= m.inflimit {
			st.FullInflight++
		} else {
			st.FullFIFO++
		}
	}
	if m.writeCtx {
		st.CfgBusyVerdict++
	}
	if e1.rq {
		st.CfgBusyRQ++
	}
	if in.CfgValid && !out.CfgReady {
		st.CfgWaited++
	}
	if (m.e1 != nil || (m.wide && m.w.cf != nil)) && m.e2 != nil {
		st.Overlap++
	}
	if out.EvtValid && in.EvtReady {
		st.Events++
	}
	if out.ExcValid && in.ExcReady {
		st.ExcBeats++
	}
	if out.HostValid && in.HostReady {
		st.HostWrites++
		if m.fl != nil {
			st.ExtraWrites++
		}
	}
	if (out.EvtValid && !in.EvtReady) || (out.ExcValid && !in.ExcReady) || (out.HostValid && !in.HostReady) {
		st.Stalled++
	}
	if f := m.e1; f != nil && !f.e1[m.e1Pos].event {
		if f.Result.Verdict == fastpath.Place {
			if f.e1[m.e1Pos].lookup {
				st.DDPLookups++
			}
		} else {
			st.RecordCycles++
		}
	}
	if e1.wide.lookup {
		st.DDPLookups++
	}
	if e1.wide.discard {
		st.RecordCycles++
	}
}

// edge takes the clock edge at the end of cycle c: the beat and the
// configuration write accepted, E1's and E2's steps done, and a frame
// whose egress ended leaves.
func (m *Model) edge(c uint64, in In, out Out, e1 e1Cycle, e2Adv bool) {
	if in.Valid && out.Ready {
		m.accept(in)
	}
	if in.CfgValid && out.CfgReady {
		m.config(in)
	}
	if m.wide {
		m.wideEdge(c, e1.wide)
	}
	if f := m.e1; f != nil && e1.adv {
		m.e1Pos++
		if m.e1Pos == len(f.e1) {
			f.e1Done, f.E1End, m.e1 = true, c, nil
			m.lastE1 = f
		}
	}
	if m.fl != nil && in.HostReady {
		m.fl = nil
	}
	if f := m.e2; f != nil && e2Adv {
		m.advanceE2(c, f)
	}
}

// advanceE2 moves E2 past its step in frame f: the beat it read is free
// from the next cycle, a last write it leaves pending goes out from the
// next cycle, and the frame leaves after its last step.
func (m *Model) advanceE2(c uint64, f *Frame) {
	if f.e2[m.e2Pos].read {
		m.popped++
	}
	m.e2Pos++
	if m.e2Pos < len(f.e2) && f.e2[m.e2Pos].extra {
		m.fl = f.e2[m.e2Pos].write
		m.e2Pos++
	}
	if m.e2Pos == len(f.e2) {
		f.E2End, m.e2 = c, nil
		m.inflight--
		m.frames = m.frames[1:]
		if m.Done != nil {
			m.Done(f)
		}
	}
}

// inV1 reports whether a frame is in the verdict stage V1 in cycle c (its
// context was read: the configuration port waits).
func (m *Model) inV1(c uint64) bool {
	for _, f := range m.frames {
		if f.Verdict == c+1 {
			return true
		}
		if f.Verdict > c+1 {
			break
		}
	}
	return false
}

func (m *Model) allKeep() uint64 {
	if m.lanes >= 64 {
		return ^uint64(0)
	}
	return 1<<m.lanes - 1
}

// Idle reports that no frame is being received or in flight.
func (m *Model) Idle() bool { return m.cur == nil && len(m.frames) == 0 && m.fl == nil }

// State describes the model's state after the last Step, for mismatch
// reports.
func (m *Model) State() string {
	s := fmt.Sprintf("model after cycle %d: %d beats in the FIFO, %d frames in flight", m.cycle-1, m.stored-m.popped, m.inflight)
	if m.cur != nil {
		s += fmt.Sprintf(", receiving frame %d (%d beats)", m.cur.Seq, m.cur.beats)
	}
	for _, f := range m.frames {
		s += fmt.Sprintf("\n  frame %d: %v/%d, last beat %d, verdict %d, %d beats, %d records, e1 %d..%d (done %v), e2 from %d (begun %v), %d E1 steps, %d E2 steps",
			f.Seq, f.Result.Verdict, f.Result.Reason, f.Last, f.Verdict, f.stored, f.Records, f.E1Start, f.E1End, f.e1Done, f.E2Start, f.e2Begun, len(f.e1), len(f.e2))
	}
	if m.e1 != nil {
		s += fmt.Sprintf("\n  E1 at step %d of frame %d", m.e1Pos, m.e1.Seq)
	}
	if m.fl != nil {
		s += fmt.Sprintf("\n  E2: last write to %#x pending", m.fl.Addr)
	}
	if m.e2 != nil {
		s += fmt.Sprintf("\n  E2 at step %d of frame %d:", m.e2Pos, m.e2.Seq)
		for i := max(0, m.e2Pos-3); i < min(len(m.e2.e2), m.e2Pos+3); i++ {
			st := m.e2.e2[i]
			s += fmt.Sprintf(" [%d: beat %d read %v exc %v run %v extra %v write %v]", i, st.beat, st.read, st.exc, st.run, st.extra, st.write != nil)
		}
	}
	return s
}

// InFlight returns the frames between their last beat and the end of their
// egress, oldest first.
func (m *Model) InFlight() []*Frame { return append([]*Frame(nil), m.frames...) }

// Bytes returns the frame's octets.
func (f *Frame) Bytes() []byte { return f.data[:f.size] }

// LastE1 returns the frame that most recently ended its E1 stage (nil
// before the first).
func (m *Model) LastE1() *Frame { return m.lastE1 }

// capacity is the number of beats the frame FIFO holds: FIFO_DEPTH and the
// output register.
func (m *Model) capacity() int { return m.cfg.FIFODepth + 1 }
