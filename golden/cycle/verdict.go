package cycle

import (
	"errors"
	"reflect"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
)

// decide takes the verdict of a frame and builds its E1 and E2 steps.
func (m *Model) decide(f *Frame) {
	f.decided = true
	b := f.data[:f.size]
	fl := f.Fields
	var res fastpath.Result
	var logFrom int
	switch {
	case f.FCSBad || f.Oversize:
		res = fastpath.Result{Verdict: fastpath.Drop, Half: fl.Tuple}
	default:
		_, perr := m.engine.Parse(b)
		e := m.slots[f.slot]
		hit := fl.Defined && e.Valid && e.Tuple == fl.Tuple
		if perr == nil && !hit {
			res = fastpath.Result{Verdict: fastpath.Exception, Reason: fastpath.NoConn, Half: fl.Tuple}
			break
		}
		var before fastpath.Context
		if hit {
			before, _ = m.engine.Context(fl.Tuple)
		}
		logFrom = len(m.mem.Log())
		res = m.engine.Frame(b)
		if hit {
			after, _ := m.engine.Context(fl.Tuple)
			if !reflect.DeepEqual(before, after) {
				m.writeCtx = true
				e.Ctx = after
				m.slots[f.slot] = e
			}
		}
	}
	f.Result = res

	idx := 0
	mask := HeaderMask
	if fl.Defined {
		idx, mask = f.slot, FullMask
	}
	end := fl.Seq + uint32(fl.PayLen)
	hdr := Event{Index: idx, Seq: fl.Seq, End: end, Len: fl.PayLen}
	add := func(e Event, mk Word) { f.e1 = append(f.e1, e1Step{event: true, evt: e.Encode(), mask: mk}) }
	v := hdr
	v.Kind, v.Verdict = EvVerdict, VerdictCode(res.Verdict)
	if res.Verdict == fastpath.Exception {
		v.Reason = int(res.Reason)
	}
	add(v, mask)

	switch res.Verdict {
	case fastpath.Drop:
		d := hdr
		d.Kind = EvDrop
		if !f.FCSBad && !f.Oversize {
			_, err := m.engine.Parse(b)
			d.Verdict = fastpath.DropCode(err)
		}
		add(d, mask)
	case fastpath.Place:
		m.placeSteps(f, res, hdr, logFrom)
		return
	}
	for i := 0; i < Records(f.data, f.pos.walkFields(), f.walk, f.beats, m.lanes); i++ {
		f.e1 = append(f.e1, e1Step{})
		f.Records++
	}
	for bt := 0; bt < f.stored; bt++ {
		f.e2 = append(f.e2, e2Step{read: true, exc: res.Verdict == fastpath.Exception, beat: bt})
	}
}

// placeSteps builds the E1 and E2 steps of a PLACE frame.
func (m *Model) placeSteps(f *Frame, res fastpath.Result, hdr Event, logFrom int) {
	ctx, _ := m.engine.Context(f.Fields.Tuple)
	fpdus := FPDUs(f.data[:f.size], f.Fields, ctx.Params)
	var second Event
	var recs [][]fastpath.Event
	for _, e := range res.Events {
		switch e.Kind {
		case fastpath.Advanced, fastpath.Consumed:
			second = hdr
			second.Kind, second.End = EvAdvanced, e.End
			second.NRFC, second.NDraft = e.PtrRFC5044, e.PtrDraft01
			if e.Kind == fastpath.Consumed {
				second.Kind = EvConsumed
			}
		case fastpath.Placed, fastpath.DDPError:
			recs = append(recs, []fastpath.Event{e})
		case fastpath.Delivered:
			if len(recs) == 0 {
				m.fail("frame %d: DELIVERED before any PLACED", f.Seq)
				return
			}
			recs[len(recs)-1] = append(recs[len(recs)-1], e)
		}
	}
	f.e1 = append(f.e1, e1Step{event: true, evt: second.Encode(), mask: FullMask})
	if n := Records(f.data, f.pos.walkFields(), f.walk, f.beats, m.lanes); n != len(fpdus) {
		m.fail("frame %d: %d FPDUs, the walker would record %d", f.Seq, len(fpdus), n)
		return
	}
	if len(recs) != len(fpdus) {
		m.fail("frame %d: %d FPDUs in the frame, fastpath reports %d", f.Seq, len(fpdus), len(recs))
		return
	}
	log := m.mem.Log()[logFrom:]
	var ps []Placement
	for i, evs := range recs {
		fp := fpdus[i]
		e0 := evs[0]
		if e0.Seq != fp.LSeq || e0.Len != len(fp.ULPDU) {
			m.fail("frame %d FPDU %d: fastpath seq %d len %d, frame %d len %d", f.Seq, i, e0.Seq, e0.Len, fp.LSeq, len(fp.ULPDU))
			return
		}
		u := fp.ULPDU
		ev := Event{Kind: EvPlaced, Index: hdr.Index, Seq: fp.LSeq, Len: len(u), Ctrl: u[0]}
		tagged := u[0]&0x80 != 0
		if tagged {
			ev.End = uint32(u[2])<<24 | uint32(u[3])<<16 | uint32(u[4])<<8 | uint32(u[5])
		} else {
			ev.End = uint32(u[10])<<24 | uint32(u[11])<<16 | uint32(u[12])<<8 | uint32(u[13])
			ev.QN = int(u[9] & 3)
		}
		f.e1 = append(f.e1, e1Step{lookup: true}, e1Step{}) // the lookup and the check cycle
		if e0.Kind == fastpath.DDPError {
			ev.Kind = EvDDPError
			var de *ddp.Error
			if errors.As(e0.Err, &de) {
				ev.DDPKind = int(de.Kind)
			}
		} else {
			if len(log) == 0 {
				m.fail("frame %d FPDU %d: placed without a memory log entry", f.Seq, i)
				return
			}
			w := log[0]
			log = log[1:]
			hl := ddp.UntaggedHeaderLen
			if tagged {
				hl = ddp.TaggedHeaderLen
			}
			if len(w.Data) != len(u)-hl {
				m.fail("frame %d FPDU %d: placed %d octets, payload %d", f.Seq, i, len(w.Data), len(u)-hl)
				return
			}
			ps = append(ps, Placement{Addr: w.Addr, Data: w.Data, Pos: fp.Pos[hl:]})
		}
		st := e1Step{event: true, evt: ev.Encode(), mask: FullMask}
		if ev.Kind == EvPlaced && len(ps) > 0 && len(ps[len(ps)-1].Data) > 0 && e0.Kind != fastpath.DDPError {
			pl := ps[len(ps)-1]
			st.plan = &pl
		}
		f.e1 = append(f.e1, st)
		if len(evs) > 1 {
			d := ev
			d.Kind = EvDelivered
			f.e1 = append(f.e1, e1Step{event: true, evt: d.Encode(), mask: FullMask, rq: !tagged})
		}
		f.Records++
	}
	for _, st := range PlanWrites(f.stored, m.lanes, ps) {
		f.e2 = append(f.e2, e2Step{read: st.Read, run: st.Run, extra: st.Extra, beat: st.Beat, write: st.Write})
		if st.Write != nil {
			f.Writes++
		}
	}
}
