package cycle

import "github.com/mparx/mparx/golden/fastpath"

// E1 with two event lanes (mpa_rx at 256 and 512 bits, docs/design.md
// section 5.3). A beat of m_evt holds a frame's VERDICT and its DROP /
// ADVANCED / CONSUMED event, or one FPDU's PLACED / DDP_ERROR and its
// DELIVERED. The current frame (cf) is the one whose VERDICT beat went out
// and whose records are not all done. The record stage holds one record
// of a PLACE frame: looked up in one cycle, checked in the next, then its
// beat; the next lookup can be made in the cycle of that beat. The lookup
// is of cf's next record, or, when cf has taken all its records (or there
// is no cf), of the first record of the next frame that E1 can start, a
// PLACE frame, before or with its VERDICT beat. A frame ends in E1 with
// its VERDICT beat (no records), its last record's beat or its last
// record's discard (one cycle per record of a frame that is not PLACE,
// after its VERDICT beat).

// wideE1 is the state of E1 with two event lanes.
type wideE1 struct {
	cf     *Frame
	left   int    // cf's records not yet taken
	rs     int    // record stage: 0 empty, 1 looked up (checks this cycle), 2 checked (its beat can go)
	rsCF   bool   // the record is cf's (else the next frame's, before its VERDICT beat)
	rsRec  beat   // the record's beat
	rsOf   *Frame // the record's frame
	pdOK   bool
	vsOK   bool
	vsF    *Frame
	lkCF   bool
	lkHead *Frame
}

// wideStep is what E1 does in a cycle, for the clock edge and the stats.
type wideStep struct {
	rq      bool // a receive-queue update (cfg_ready low)
	lookup  bool
	discard bool
}

// wideSteps builds a decided frame's beats from its one-lane steps: the
// leading events are its VERDICT beat; then, for PLACE, per record a
// lookup and a check step and one or two events; for another frame, one
// silent step per record.
func (m *Model) wideSteps(f *Frame) {
	i := 0
	for i < len(f.e1) && f.e1[i].event && f.hdr.n < MaxEvtLanes {
		f.hdr.evt[f.hdr.n], f.hdr.mask[f.hdr.n] = f.e1[i].evt, f.e1[i].mask
		f.hdr.n++
		i++
	}
	f.place = f.Result.Verdict == fastpath.Place
	for i < len(f.e1) {
		if !f.place {
			if f.e1[i].event {
				m.fail("frame %d: event after the VERDICT beat of a frame that is not PLACE", f.Seq)
				return
			}
			f.nrec++
			i++
			continue
		}
		if i+2 >= len(f.e1) || !f.e1[i].lookup || f.e1[i+1].event || !f.e1[i+2].event {
			m.fail("frame %d: record steps out of order at step %d", f.Seq, i)
			return
		}
		var b beat
		i += 2
		for i < len(f.e1) && f.e1[i].event && b.n < MaxEvtLanes {
			b.evt[b.n], b.mask[b.n] = f.e1[i].evt, f.e1[i].mask
			b.rq = b.rq || f.e1[i].rq
			if f.e1[i].plan != nil {
				b.plan = f.e1[i].plan
			}
			b.n++
			i++
		}
		f.recs = append(f.recs, b)
		f.nrec++
	}
}

// wideE1 computes E1's outputs of cycle c from the state at its start.
func (m *Model) wideE1(c uint64, in In, out *Out) wideStep {
	w := &m.w
	w.pdOK, w.vsOK, w.vsF, w.lkCF, w.lkHead = false, false, nil, false, nil
	// the next frame E1 can start: the first without its VERDICT beat, two
	// cycles after its verdict
	var hf *Frame
	for _, f := range m.frames {
		if f.vsDone {
			continue
		}
		if f.decided && c >= f.Verdict+2 {
			hf = f
		}
		break
	}
	var st wideStep
	pdGo := w.cf != nil && w.rs == 2 && w.rsCF
	vsGo := w.cf == nil && hf != nil
	if vsGo && m.E1Hold != nil && m.E1Hold(hf, c) {
		vsGo = false
	}
	switch {
	case pdGo:
		out.EvtValid, out.EvtKeep, out.Evt, out.EvtMask = true, w.rsRec.n, w.rsRec.evt, w.rsRec.mask
		w.pdOK = in.EvtReady
		st.rq = w.pdOK && w.rsRec.rq
	case vsGo:
		out.EvtValid, out.EvtKeep, out.Evt, out.EvtMask = true, hf.hdr.n, hf.hdr.evt, hf.hdr.mask
		w.vsOK, w.vsF = in.EvtReady, hf
	}
	free := w.rs == 0 || (w.rs == 2 && w.pdOK)
	more := w.cf != nil && w.left > 0
	switch {
	case !free:
	case more && w.cf.place:
		w.lkCF = true
	case !more && hf != nil && hf.place && hf.nrec > 0 && hf.taken == 0:
		w.lkHead = hf
	}
	st.lookup = w.lkCF || w.lkHead != nil
	st.discard = more && !w.cf.place
	if w.pdOK && w.rsRec.plan != nil {
		out.PlanValid, out.PlanAddr, out.PlanLen = true, w.rsRec.plan.Addr, len(w.rsRec.plan.Data)
	}
	// the frame ends in E1 with its last record's beat or discard, or with
	// its VERDICT beat when it has no records
	out.PlanFrameEnd = (w.pdOK && w.left == 0) || (st.discard && w.left == 1) || (w.vsOK && hf.nrec == 0)
	return st
}

// wideEdge takes the clock edge of E1.
func (m *Model) wideEdge(c uint64, st wideStep) {
	w := &m.w
	end := func(f *Frame) {
		f.e1Done, f.E1End = true, c
		m.lastE1 = f
	}
	if w.rs == 1 {
		w.rs = 2
	}
	cfEnds := false
	if w.pdOK {
		w.rs = 0
		cfEnds = w.left == 0
	}
	switch {
	case w.lkCF:
		w.rs, w.rsCF, w.rsOf = 1, true, w.cf
		w.rsRec = w.cf.recs[w.cf.taken]
		w.cf.taken++
		w.left--
	case w.lkHead != nil:
		f := w.lkHead
		w.rs, w.rsCF, w.rsOf = 1, false, f
		w.rsRec = f.recs[0]
		f.taken = 1
	}
	if st.discard {
		w.cf.taken++
		w.left--
		cfEnds = w.left == 0
	}
	if cfEnds {
		end(w.cf)
		w.cf = nil
	}
	if f := w.vsF; w.vsOK {
		f.vsDone, f.E1Start = true, c
		if f.nrec == 0 {
			end(f)
		} else {
			w.cf, w.left = f, f.nrec-f.taken
			if f.taken > 0 {
				w.rsCF = true
			}
		}
	}
}
