package rx

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
)

// passedFPDU remembers an FPDU passed to DDP before the in-order point
// reached it.
type passedFPDU struct {
	wireLen  int
	ok       bool // DDP accepted it
	hdr      ddp.Header
	lengthSq tcpseq.Num
}

// fpduAt decodes the FPDU whose first octet is at seq (see mpa.Half.FPDUAt).
func (h *half) fpduAt(seq tcpseq.Num, b []byte) (wireLen int, lengthSeq tcpseq.Num) {
	wl, lseq := h.params.FPDUAt(uint32(seq), b)
	return wl, tcpseq.Num(lseq)
}

// nextMarker returns the first marker position at or after seq (see
// mpa.Half.NextMarker).
func (h *half) nextMarker(seq tcpseq.Num) tcpseq.Num {
	return tcpseq.Num(h.params.NextMarker(uint32(seq)))
}

// check validates a whole FPDU (its wire octets, starting at seq): first
// the CRC (code 2), then every marker in it (code 3), which RFC 5044 makes
// optional and this model always does. It returns the ULPDU with markers
// removed, which aliases fpdu or the half's scratch buffer: it is valid
// until the next check.
func (h *half) check(seq tcpseq.Num, fpdu []byte) (ulpdu []byte, form mpa.PtrForm, code ErrorCode, err error) {
	crc, known := h.r.known.of(fpdu)
	ulpdu, form, err = h.params.DeframeHead(uint32(seq), fpdu, &h.scratch, crc, known, h.r.ulpduHead())
	switch {
	case errors.Is(err, mpa.ErrCRC):
		return nil, form, CodeCRC, err
	case err != nil:
		return nil, form, CodeMarker, err
	}
	return ulpdu, form, 0, nil
}

// headersOnly is how many octets of an FPDU's content a receiver copies
// when nothing reads its ULPDUs' payload (ulpduHead): the ULPDU_Length
// field and the longest headers read (DDP's 18 octets and an RTR's RDMAP
// header, mpa.CheckRTR), with room to spare.
const headersOnly = 128

// ulpduHead is the head argument of mpa.Half.DeframeHead for the
// receiver's FPDUs: headersOnly when nothing reads a ULPDU's payload (no
// digests, and a placer that discards what it places, or none), else -1
// (every octet).
func (r *Receiver) ulpduHead() int {
	if r.cfg.Digests || r.cfg.Placer != nil && !r.cfg.Placer.Memory().Discards() {
		return -1
	}
	return headersOnly
}

// countForm counts a passed FPDU's FPDUPTR form.
func (h *half) countForm(f mpa.PtrForm) {
	switch f {
	case mpa.PtrRFC5044:
		h.stats.PtrRFC5044++
	case mpa.PtrDraft01:
		h.stats.PtrDraft01++
	}
}

// markerDisagrees looks, once the header of the in-order FPDU at seq (wire
// length wl) is read, for what the receiver already holds that contradicts
// its ULPDU_Length (RFC 5044 section 8, code 3: a marker and ULPDU_Length
// disagree on an FPDU start). It does not need the rest of the FPDU or its
// CRC:
//   - a marker inside the FPDU whose FPDUPTR does not fit it (mpa.Half.CheckMarker);
//   - an FPDU validated and passed out of order (its start found by a
//     marker, RFC 5044 section 6) that begins inside it;
//   - (software beside the hardware) a run the hardware validated as whole
//     FPDUs that begins inside it.
//
// A marker after the FPDU that is not part of a validated FPDU is not
// checked here: it belongs to a later FPDU and is checked with it. (Reading
// such markers ahead of the in-order point would make the outcome depend on
// which copy of retransmitted octets a receiver holds and whether it holds
// them in order or out of order, so that the hardware and software together
// and the golden receiver could disagree: docs/robustness.md.)
func (h *half) markerDisagrees(seq tcpseq.Num, wl int) error {
	end := seq.Add(wl)
	p := h.params
	form := mpa.PtrPlain
	marker := func(m tcpseq.Num, b []byte) error {
		ptr := binary.BigEndian.Uint16(b[2:])
		if m.Before(end) {
			f, ok := p.CheckMarker(uint32(seq), uint32(m), ptr)
			switch {
			case !ok:
				return fmt.Errorf("marker at %d has FPDUPTR %d, want %d for the FPDU at %d (%d octets)", m, ptr&^3, p.MarkerPtr(uint32(seq), uint32(m), mpa.PtrRFC5044), seq, wl)
			case f != mpa.PtrPlain && form != mpa.PtrPlain && f != form:
				return fmt.Errorf("marker at %d has FPDUPTR %d in the %v form, an earlier marker of the FPDU at %d in the %v form", m, ptr&^3, f, seq, form)
			case f != mpa.PtrPlain:
				form = f
			}
			return nil
		}
		return nil
	}
	if p.Markers {
		for m := h.nextMarker(seq); !h.rcvNxt.Before(m.Add(mpa.MarkerLen)) && m.Before(end); m = m.Add(mpa.MarkerInterval) {
			if err := marker(m, h.pend[m.Offset(seq):]); err != nil {
				return err
			}
		}
	}
	for _, o := range h.ooo {
		if !o.seq.Before(end) {
			break
		}
		if o.skip > 0 {
			if seq.Before(o.seq) {
				return fmt.Errorf("FPDU at %d (%d octets) runs into octets %d.. validated as whole FPDUs", seq, wl, o.seq)
			}
			continue
		}
		if !p.Markers {
			continue
		}
		for m := h.nextMarker(o.seq); !o.end().Before(m.Add(mpa.MarkerLen)) && m.Before(end); m = m.Add(mpa.MarkerInterval) {
			if err := marker(m, o.data[m.Offset(o.seq):]); err != nil {
				return err
			}
		}
	}
	for ps := range h.passed {
		if d := ps.Offset(seq); d > 0 && d < uint32(wl) {
			return fmt.Errorf("FPDU passed out of order at %d lies inside the FPDU at %d (%d octets)", ps, seq, wl)
		}
	}
	return nil
}

// runFPDUs consumes whole FPDUs from the in-order octets (RFC 5044
// section 6, rule 1: ULPDU_Length finds the next FPDU).
func (h *half) runFPDUs() {
	for h.state == StateFull {
		seq := h.pendSeq
		wl, lseq := h.fpduAt(seq, h.pend)
		if p, ok := h.passedAt(seq); ok && p.wireLen == wl && len(h.pend) >= wl {
			// Passed out of order already: the in-order point passes it now.
			delete(h.passed, seq)
			h.advance(wl)
			if p.ok && p.hdr.Last {
				h.deliver(p.lengthSq, p.hdr)
			}
			continue
		}
		if wl > 0 {
			// A marker error shows as soon as the header is read.
			if err := h.markerDisagrees(seq, wl); err != nil {
				h.fail(CodeMarker, lseq, err)
				return
			}
		}
		if wl == 0 || len(h.pend) < wl {
			if !h.stepConsumed() {
				return
			}
			continue
		}
		fpdu := h.pend[:wl]
		ulpdu, form, code, err := h.check(seq, fpdu)
		if err == nil && h.rtrPending {
			// Peer-to-peer: the Initiator's first FPDU is the agreed RTR
			// (RFC 6581).
			if err = mpa.CheckRTR(h.neg.RTR, ulpdu); err != nil {
				code = CodeNoMatchingRTR
			}
		}
		if err != nil {
			h.fail(code, lseq, err)
			if code == CodeNoMatchingRTR {
				h.peer.close()
			}
			return
		}
		h.countForm(form)
		hdr, ok := h.pass(lseq, ulpdu)
		if h.rtrPending {
			h.rtrPending, h.peer.rtrWait = false, false
			h.advance(wl)
			if ok && hdr.Last {
				h.deliver(lseq, hdr)
			}
			h.rescan()
			continue
		}
		h.advance(wl)
		if ok && hdr.Last {
			h.deliver(lseq, hdr)
		}
	}
}

// passedAt returns the FPDU at seq if it was passed out of order. (The
// length test spares a map lookup per FPDU in the common in-order case.)
func (h *half) passedAt(seq tcpseq.Num) (passedFPDU, bool) {
	if len(h.passed) == 0 {
		return passedFPDU{}, false
	}
	p, ok := h.passed[seq]
	return p, ok
}

func (h *half) advance(wl int) {
	h.pend = h.pend[wl:]
	h.pendSeq = h.pendSeq.Add(wl)
	if len(h.pend) == 0 {
		h.pend = nil // let the backing array go
	}
}

// pass hands a validated ULPDU to DDP and reports whether DDP accepted it.
func (h *half) pass(lseq tcpseq.Num, ulpdu []byte) (ddp.Header, bool) {
	h.stats.ULPDUs++
	e := Event{Kind: ULPDU, Half: h.tuple, Seq: uint32(lseq), Len: len(ulpdu)}
	if h.r.cfg.Digests {
		e.SHA256 = digest(ulpdu)
	}
	h.r.emit(e)
	if pl := h.r.cfg.Placer; pl != nil {
		p, err := pl.Place(h.id, ulpdu)
		if err != nil {
			h.stats.DDPErrors++
			h.r.emit(Event{Kind: DDPError, Half: h.tuple, Seq: uint32(lseq), Len: len(ulpdu), DDP: p.Header, Err: err})
			return p.Header, false
		}
		h.r.emit(Event{Kind: Placed, Half: h.tuple, Seq: uint32(lseq), Len: p.Len, DDP: p.Header, Addr: p.Addr})
		return p.Header, true
	}
	hdr, _, err := ddp.ParseHeader(ulpdu)
	return hdr, err == nil
}

func (h *half) deliver(lseq tcpseq.Num, hdr ddp.Header) {
	h.stats.Delivered++
	if pl := h.r.cfg.Placer; pl != nil {
		pl.Deliver(h.id, hdr)
	}
	h.r.emit(Event{Kind: Delivered, Half: h.tuple, Seq: uint32(lseq), DDP: hdr})
}
