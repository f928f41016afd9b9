package rx

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/cycle"
	goldenrx "github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// lockBatch is the number of cycles per Lockstep.Step.
const lockBatch = 256

// ports of the top.
type ports struct {
	tdata, tkeep, tvalid, tready, tlast, tuser cosim.Port
	xdata, xkeep, xvalid, xready, xlast, xuser cosim.Port
	edata, ekeep, evalid, eready               cosim.Port
	hvalid, hready, haddr, hdata, hstrb        cosim.Port
	cvalid, cready, cop, cindex, cdata         cosim.Port
	pvalid, paddr, plen, pend                  cosim.Port
	hasHost, hasOp, hasPlan                    bool
}

func lookup(l *cosim.Layout) (ports, error) {
	var p ports
	var missing []string
	get := func(dst *cosim.Port, name string, optional bool) bool {
		q, ok := l.LookupPort(name)
		if !ok && !optional {
			missing = append(missing, name)
		}
		*dst = q
		return ok
	}
	get(&p.tdata, "s_axis_tdata", false)
	get(&p.tkeep, "s_axis_tkeep", false)
	get(&p.tvalid, "s_axis_tvalid", false)
	get(&p.tready, "s_axis_tready", false)
	get(&p.tlast, "s_axis_tlast", false)
	get(&p.tuser, "s_axis_tuser", false)
	get(&p.xdata, "m_exc_axis_tdata", false)
	get(&p.xkeep, "m_exc_axis_tkeep", false)
	get(&p.xvalid, "m_exc_axis_tvalid", false)
	get(&p.xready, "m_exc_axis_tready", false)
	get(&p.xlast, "m_exc_axis_tlast", false)
	get(&p.xuser, "m_exc_axis_tuser", false)
	get(&p.edata, "m_evt_tdata", false)
	get(&p.ekeep, "m_evt_tkeep", false)
	get(&p.evalid, "m_evt_tvalid", false)
	get(&p.eready, "m_evt_tready", false)
	p.hasHost = get(&p.hvalid, "m_host_valid", false)
	get(&p.hready, "m_host_ready", false)
	get(&p.haddr, "m_host_addr", false)
	get(&p.hdata, "m_host_data", false)
	get(&p.hstrb, "m_host_strb", false)
	get(&p.cvalid, "cfg_valid", false)
	get(&p.cready, "cfg_ready", false)
	p.hasOp = get(&p.cop, "cfg_op", false)
	get(&p.cindex, "cfg_index", false)
	get(&p.cdata, "cfg_data", false)
	if p.hasPlan = get(&p.pvalid, "m_plan_valid", true); p.hasPlan {
		get(&p.paddr, "m_plan_addr", false)
		get(&p.plen, "m_plan_len", false)
		get(&p.pend, "m_plan_frame_end", false)
	}
	if len(missing) > 0 {
		return p, fmt.Errorf("rx: mpa_rx has no ports %v", missing)
	}
	return p, nil
}

// inputs decodes a cycle's input record.
func (p *ports) inputs(rec []uint64, lanes int) cycle.In {
	in := cycle.In{
		Valid:    p.tvalid.Bit(rec),
		Data:     p.tdata.AppendBytes(make([]byte, 0, lanes), rec),
		Keep:     p.tkeep.Get(rec),
		Last:     p.tlast.Bit(rec),
		User:     p.tuser.Bit(rec),
		EvtReady: p.eready.Bit(rec),
		ExcReady: p.xready.Bit(rec),
		CfgValid: p.cvalid.Bit(rec),
		CfgIndex: int(p.cindex.Get(rec)),
	}
	if p.hasHost {
		in.HostReady = p.hready.Bit(rec)
	}
	if p.hasOp {
		in.CfgOp = int(p.cop.Get(rec))
	}
	copy(in.CfgData[:], p.cdata.Slice(rec))
	return in
}

// outputs decodes a cycle's output record.
func (p *ports) outputs(rec []uint64, lanes int) cycle.Out {
	out := cycle.Out{
		Ready:    p.tready.Bit(rec),
		EvtValid: p.evalid.Bit(rec),
		ExcValid: p.xvalid.Bit(rec),
		ExcData:  p.xdata.AppendBytes(make([]byte, 0, lanes), rec),
		ExcKeep:  p.xkeep.Get(rec),
		ExcLast:  p.xlast.Bit(rec),
		ExcUser:  int(p.xuser.Get(rec)),
		CfgReady: p.cready.Bit(rec),
	}
	// event lanes: 128 bits of tdata and 16 of tkeep each, from lane 0
	ed, keep := p.edata.Slice(rec), p.ekeep.Get(rec)
	for i := 0; i < cycle.MaxEvtLanes && 2*i+1 < len(ed); i++ {
		out.Evt[i] = cycle.Word{ed[2*i], ed[2*i+1]}
		if keep>>(16*i)&1 != 0 {
			out.EvtKeep++
		}
	}
	if p.hasHost {
		out.HostValid = p.hvalid.Bit(rec)
		out.HostAddr = p.haddr.Get(rec)
		out.HostData = p.hdata.AppendBytes(make([]byte, 0, lanes), rec)
		out.HostStrb = p.hstrb.Get(rec)
	}
	if p.hasPlan {
		out.PlanValid = p.pvalid.Bit(rec)
		out.PlanAddr = p.paddr.Get(rec)
		out.PlanLen = int(p.plen.Get(rec))
		out.PlanFrameEnd = p.pend.Bit(rec)
	}
	return out
}

// setOutputs writes the model's outputs into an output record.
func (p *ports) setOutputs(rec []uint64, o cycle.Out) {
	p.tready.SetBool(rec, o.Ready)
	p.evalid.SetBool(rec, o.EvtValid)
	ed := p.edata.Slice(rec)
	for i := 0; i < cycle.MaxEvtLanes && 2*i+1 < len(ed); i++ {
		ed[2*i], ed[2*i+1] = o.Evt[i][0], o.Evt[i][1]
	}
	if o.EvtValid {
		p.ekeep.Set(rec, 1<<(16*o.EvtKeep)-1)
	}
	p.xvalid.SetBool(rec, o.ExcValid)
	if o.ExcValid {
		p.xdata.SetBytes(rec, o.ExcData)
		p.xkeep.Set(rec, o.ExcKeep)
		p.xlast.SetBool(rec, o.ExcLast)
		p.xuser.Set(rec, uint64(o.ExcUser))
	}
	p.cready.SetBool(rec, o.CfgReady)
	if p.hasHost {
		p.hvalid.SetBool(rec, o.HostValid)
		if o.HostValid {
			p.haddr.Set(rec, o.HostAddr)
			p.hdata.SetBytes(rec, o.HostData)
			p.hstrb.Set(rec, o.HostStrb)
		}
	}
	if p.hasPlan {
		p.pvalid.SetBool(rec, o.PlanValid)
		p.pend.SetBool(rec, o.PlanFrameEnd)
		if o.PlanValid {
			p.paddr.Set(rec, o.PlanAddr)
			p.plen.Set(rec, uint64(o.PlanLen))
		}
	}
}

// adapter runs the cycle model on cosim cycle records and keeps, per cycle
// of the current batch, the outputs compared outside Lockstep (masked).
type adapter struct {
	m     *cycle.Model
	p     *ports
	lanes int
	outs  []cycle.Out
}

func (a *adapter) Step(in, out []uint64) {
	o := a.m.Step(a.p.inputs(in, a.lanes))
	a.p.setOutputs(out, o)
	a.outs = append(a.outs, o)
}

// Lockstep is the device under test for cycle.Bench: an mpa_rx instance
// in lockstep with the cycle model. Every output is compared in every
// cycle: those a valid qualifies while it is high, m_evt_tdata on the lanes
// that hold an event and in the bits the contract defines, m_host_data on
// the lanes of m_host_strb, m_plan_addr and m_plan_len while m_plan_valid.
type Lockstep struct {
	Vector string
	sim    *cosim.Sim
	ls     *cosim.Lockstep
	src    *cosim.Source
	p      ports
	a      *adapter
	bench  *cycle.Bench
	lanes  int
	in     []uint64
}

// OpenLockstep opens an mpa_rx variant, resets it and pairs it with a fresh
// model.
func OpenLockstep(width int, v *vector.Vector, bench *cycle.Bench, opts ...cosim.Option) (*Lockstep, error) {
	return openLockstep(width, v, bench, nil, opts...)
}

func openLockstep(width int, v *vector.Vector, bench *cycle.Bench, adjust func(*cycle.Config), opts ...cosim.Option) (*Lockstep, error) {
	sim, err := cosim.Open(fmt.Sprintf("mpa_rx_w%d", width), opts...)
	if err != nil {
		return nil, err
	}
	p, err := lookup(&sim.Layout)
	if err != nil {
		sim.Close()
		return nil, err
	}
	src, err := sim.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast", "s_axis_tuser")
	if err != nil {
		sim.Close()
		return nil, err
	}
	sim.Reset(4)
	cfg := cycle.Config{DataWidth: width, MaxFrame: cycle.JumboFrame, ConnCount: Slots, Window: v.Setup.Receiver.Window, DDPVersion: v.Setup.Receiver.DDPVersion,
		RQDepth: RQDepth}
	if adjust != nil {
		adjust(&cfg)
	}
	m := cycle.New(cfg)
	r := &Lockstep{Vector: v.Setup.Name, sim: sim, src: src, p: p, bench: bench, lanes: width / 8, in: sim.NewIn(lockBatch)}
	r.a = &adapter{m: m, p: &r.p, lanes: r.lanes}
	ignore := []cosim.LockstepOption{
		cosim.Ignore("m_evt_tdata"),
		cosim.CompareWhen("m_evt_tkeep", "m_evt_tvalid"),
		cosim.CompareWhen("m_exc_axis_tdata", "m_exc_axis_tvalid"),
		cosim.CompareWhen("m_exc_axis_tkeep", "m_exc_axis_tvalid"),
		cosim.CompareWhen("m_exc_axis_tlast", "m_exc_axis_tvalid"),
		cosim.CompareWhen("m_exc_axis_tuser", "m_exc_axis_tvalid"),
		cosim.ReportWindow(8, 4, 4),
	}
	if p.hasPlan {
		ignore = append(ignore, cosim.CompareWhen("m_plan_addr", "m_plan_valid"), cosim.CompareWhen("m_plan_len", "m_plan_valid"))
	}
	if p.hasHost {
		ignore = append(ignore, cosim.Ignore("m_host_data"),
			cosim.CompareWhen("m_host_addr", "m_host_valid"),
			cosim.CompareWhen("m_host_strb", "m_host_valid"))
	}
	r.ls, err = cosim.NewLockstep(sim, r.a, ignore...)
	if err != nil {
		sim.Close()
		return nil, err
	}
	return r, nil
}

// HasHostPort reports whether the RTL has the host write port (the DDP
// stage of docs/design.md section 5).
func (r *Lockstep) HasHostPort() bool { return r.p.hasHost }

// Model returns the cycle model.
func (r *Lockstep) Model() *cycle.Model { return r.a.m }

// Close releases the simulation.
func (r *Lockstep) Close() error { return r.sim.Close() }

// TracePath returns the waveform file ("" when not tracing).
func (r *Lockstep) TracePath() string { return r.sim.TracePath() }

// Push queues a frame on the harness source.
func (r *Lockstep) Push(frame []byte, gap int, fcsBad bool) {
	PushFrame(r.src, r.p.tdata, frame, gap, fcsBad)
}

// Mismatch is a difference between the RTL and the model.
type Mismatch struct {
	Vector string
	Cycle  uint64 // simulation cycle (the model's cycle is 4 less: reset)
	Signal string
	RTL    string // the RTL's value, hexadecimal
	Model  string // the model's value
	// Known names the open issue the mismatch is (KnownIssues), or "".
	Known  string
	Detail string
	Trace  string
}

func (m *Mismatch) Error() string {
	s := fmt.Sprintf("lockstep %s: cycle %d: %s: %s", m.Vector, m.Cycle, m.Signal, m.Detail)
	if m.Trace != "" {
		s += "\ntrace: " + m.Trace
	}
	return s
}

// step runs n cycles (n <= lockBatch) from the records in r.in.
func (r *Lockstep) step(n int) error {
	iw, ow := r.sim.InWords(), r.sim.OutWords()
	start := r.sim.Cycle()
	r.a.outs = r.a.outs[:0]
	err := r.ls.Step(n, r.in[:n*iw])
	if err != nil {
		var mm *cosim.Mismatch
		if errors.As(err, &mm) {
			return &Mismatch{Vector: r.Vector, Cycle: mm.Cycle, Signal: mm.Port, RTL: mm.Actual, Model: mm.Expected,
				Detail: fmt.Sprintf("rtl %s, model %s\n%s%s", mm.Actual, mm.Expected, mm.Context, r.a.m.State()), Trace: mm.Trace}
		}
		return err
	}
	ins, outs := r.ls.Inputs(), r.ls.Outputs()
	for c := 0; c < n; c++ {
		in := r.p.inputs(ins[c*iw:(c+1)*iw], r.lanes)
		out := r.p.outputs(outs[c*ow:(c+1)*ow], r.lanes)
		mo := r.a.outs[c]
		if out.EvtValid {
			for l := 0; l < mo.EvtKeep; l++ {
				ev, me, mk := out.Evt[l], mo.Evt[l], mo.EvtMask[l]
				for i := range ev {
					if (ev[i]^me[i])&mk[i] != 0 {
						return &Mismatch{Vector: r.Vector, Cycle: start + uint64(c), Signal: "m_evt_tdata",
							Detail: fmt.Sprintf("lane %d: rtl %016x%016x (%v), model %016x%016x (%v), mask %016x%016x",
								l, ev[1], ev[0], cycle.Decode(ev), me[1], me[0], cycle.Decode(me), mk[1], mk[0]),
							Trace: r.sim.TracePath()}
					}
				}
			}
		}
		if out.HostValid {
			for i := 0; i < r.lanes; i++ {
				if out.HostStrb>>i&1 != 0 && out.HostData[i] != mo.HostData[i] {
					return &Mismatch{Vector: r.Vector, Cycle: start + uint64(c), Signal: "m_host_data",
						Detail: fmt.Sprintf("lane %d: rtl %#02x, model %#02x (addr %#x)", i, out.HostData[i], mo.HostData[i], out.HostAddr),
						Trace:  r.sim.TracePath()}
				}
			}
		}
		r.bench.Observe(in, out)
	}
	if r.a.m.Err != nil {
		return &Mismatch{Vector: r.Vector, Cycle: r.sim.Cycle(), Signal: "(model)", Detail: r.a.m.Err.Error(), Trace: r.sim.TracePath()}
	}
	return nil
}

// fill sets the ready inputs of n records and clears cfg_valid.
func (r *Lockstep) fill(n int) {
	iw := r.sim.InWords()
	c := r.sim.Cycle()
	for i := 0; i < n; i++ {
		rec := r.in[i*iw : (i+1)*iw]
		e, x, h := r.bench.Ready(c + uint64(i))
		r.p.eready.SetBool(rec, e)
		r.p.xready.SetBool(rec, x)
		if r.p.hasHost {
			r.p.hready.SetBool(rec, h)
		}
		r.p.cvalid.SetBool(rec, false)
	}
}

// Run runs n cycles.
func (r *Lockstep) Run(n int) error {
	for n > 0 {
		k := min(n, lockBatch)
		r.fill(k)
		if err := r.step(k); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

// Config makes one configuration write.
func (r *Lockstep) Config(op, index int, d cycle.CfgData) error {
	if op != cycle.OpContext && !r.p.hasOp {
		return nil // this RTL has no DDP tables yet
	}
	for n := 0; n < 1000; n++ {
		r.fill(1)
		rec := r.in[:r.sim.InWords()]
		r.p.cvalid.SetBool(rec, true)
		if r.p.hasOp {
			r.p.cop.Set(rec, uint64(op))
		}
		r.p.cindex.Set(rec, uint64(index))
		copy(r.p.cdata.Slice(rec), d[:])
		if err := r.step(1); err != nil {
			return err
		}
		if r.p.cready.Bit(r.ls.Outputs()) {
			return nil
		}
	}
	return fmt.Errorf("%w: cfg_ready low for 1000 cycles", cycle.ErrStuck)
}

// Idle reports that no beat is queued and the model holds no frame.
func (r *Lockstep) Idle() bool { return r.src.Pending() == 0 && r.a.m.Idle() }

// Cycle returns the cycles run (reset included).
func (r *Lockstep) Cycle() uint64 { return r.sim.Cycle() }

// Beats returns the s_axis beats accepted.
func (r *Lockstep) Beats() uint64 { return r.src.Accepted() }

// LockstepOptions are the options of a lockstep run.
type LockstepOptions struct {
	Width   int
	Pattern cycle.Pattern
	Seed    uint64
	// TraceDir receives the waveform of a failing run (it is run again with
	// tracing from a little before the mismatch); "" picks
	// $MPARX_TRACE or the system's temporary directory.
	TraceDir string
	// Model, when set, adjusts the model's configuration (tests of the
	// lockstep itself).
	Model func(*cycle.Config)
}

// Bench returns the bench of a run.
func (o LockstepOptions) Bench() *cycle.Bench {
	return cycle.NewBench(cycle.Options{Slots: Slots, STagCount: STagSlots, RQDepth: RQDepth, Lanes: o.Width / 8, Seed: o.Seed,
		GapProb: 0.3, MaxGap: 12, FCSBad: 0.02, Noise: 0.5, Oversize: 1, MaxFrame: cycle.JumboFrame}, cycle.NewReady(o.Pattern, o.Seed))
}

// RunLockstep runs vector v through the RTL and the model in lockstep. On a
// mismatch it runs the vector again with an FST waveform from a little
// before the mismatch and returns the *Mismatch with the file's path (or,
// for a model built without waveform code, mk/sim.mk's SIM_TRACE, why
// there is none).
//
// A capture's TCP segments longer than the link carries go in as the frames
// the link carried (replay.OnTheWire).
func RunLockstep(v *vector.Vector, o LockstepOptions) (cycle.Report, error) {
	v = replay.OnTheWire(v, MaxFrame)
	rep, err := runLockstep(v, o)
	var mm *Mismatch
	if err == nil || !errors.As(err, &mm) || mm.Known != "" {
		return rep, err
	}
	dir := o.TraceDir
	if dir == "" {
		dir = os.Getenv("MPARX_TRACE")
	}
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "mparx-lockstep")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return rep, fmt.Errorf("%w (no waveform: %v)", mm, err)
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-w%d-%s-%d.fst", v.Setup.Name, o.Width, o.Pattern, time.Now().UnixNano()))
	from := uint64(0)
	if mm.Cycle > 3000 {
		from = mm.Cycle - 3000
	}
	_, err2 := runLockstep(v, o, cosim.Trace(path), cosim.TraceFrom(from))
	var again *Mismatch
	if errors.As(err2, &again) && again.Cycle == mm.Cycle {
		again.Trace = path
		return rep, again
	}
	if _, err := os.Stat(path); err != nil {
		mm.Trace = fmt.Sprintf("none (%v)", err2)
		return rep, mm
	}
	mm.Trace = fmt.Sprintf("%s (the traced rerun ended differently: %v)", path, err2)
	return rep, mm
}

func runLockstep(v *vector.Vector, o LockstepOptions, opts ...cosim.Option) (cycle.Report, error) {
	b := o.Bench()
	r, err := openLockstep(o.Width, v, b, o.Model, append([]cosim.Option{cosim.Name(v.Setup.Name)}, opts...)...)
	if err != nil {
		return cycle.Report{Vector: v.Setup.Name}, err
	}
	defer r.Close()
	w, err := workload(v)
	if err != nil {
		return cycle.Report{Vector: v.Setup.Name}, err
	}
	rep, err := b.Run(w, r)
	var mm *Mismatch
	if errors.As(err, &mm) {
		for _, k := range KnownIssues {
			if k.Match(mm, r.Model()) {
				mm.Known = k.Name
			}
		}
	}
	return rep, err
}

// workload sets up vector v for the bench: the golden models with the
// tables of the co-simulation variants.
func workload(v *vector.Vector) (cycle.Workload, error) {
	sys, err := replay.NewSystem(&v.Setup, Hardware(0))
	if err != nil {
		return cycle.Workload{}, err
	}
	g, err := replay.NewGolden(&v.Setup, goldenrx.Config{Digests: true})
	if err != nil {
		return cycle.Workload{}, err
	}
	w := cycle.Workload{Name: v.Setup.Name, Frames: v.Data(), System: sys, Golden: g.Receiver, Memory: g.Placer.Memory()}
	for _, b := range v.Setup.Buffers() {
		w.Buffers = append(w.Buffers, cycle.Buffer(b))
	}
	return w, nil
}

// KnownIssue is a disagreement between the RTL and docs/design.md that is
// reported and open: Match recognises its mismatch.
type KnownIssue struct {
	Name  string
	Match func(mm *Mismatch, m *cycle.Model) bool
}

// KnownIssues are the open disagreements. The lockstep test counts the runs
// they stop and fails when one no longer shows at all (then it is fixed and
// must be taken off this list).
var KnownIssues = []KnownIssue{}
