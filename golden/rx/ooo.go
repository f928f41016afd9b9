package rx

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
)

// rescan looks again for FPDUs that can be passed out of order in what both
// halves hold, and runs the peer of h on what it holds in order.
func (h *half) rescan() {
	for _, x := range []*half{h.peer, h} {
		if len(x.ooo) > 0 && !x.rtrPending && !x.rtrWait {
			for _, s := range append([]oooSeg(nil), x.ooo...) {
				if s.skip > 0 {
					continue
				}
				x.scanOOO(s.seq, s.end())
			}
		}
		if x != h {
			x.run()
		}
	}
}

// scanOOO looks for FPDUs that can be validated out of order in the
// out-of-order run holding [seq, end) (RFC 5044 section 6, rules 2 and 3):
// with markers, every marker in the new octets points at an FPDU start, and
// ULPDU_Length leads on to the FPDUs after it; without markers, only FPDUs
// that exactly fill the segment, with CRC on.
func (h *half) scanOOO(seq, end tcpseq.Num) {
	var run *oooSeg
	for i := range h.ooo {
		if !seq.Before(h.ooo[i].seq) && seq.Before(h.ooo[i].end()) {
			run = &h.ooo[i]
			break
		}
	}
	if run == nil || run.skip > 0 {
		return
	}
	if h.params.Markers {
		for m := h.nextMarker(seq); m.Before(end) && !run.end().Before(m.Add(mpa.MarkerLen)); m = m.Add(mpa.MarkerInterval) {
			off := m.Offset(run.seq)
			ptr := uint32(binary.BigEndian.Uint16(run.data[off+2:])) &^ 3
			if ptr > off {
				continue // the FPDU starts before this run
			}
			h.walkOOO(run, m.Add(-int(ptr)), run.end(), false)
		}
		return
	}
	if h.params.CRC {
		h.walkOOO(run, seq, end, true)
	}
}

// walkOOO validates and passes consecutive FPDUs from start while they lie
// whole in the run before limit. With exact set, they must end exactly at
// limit or none is passed.
func (h *half) walkOOO(run *oooSeg, start, limit tcpseq.Num, exact bool) {
	type found struct {
		seq, lseq tcpseq.Num
		ulpdu     []byte
		wl        int
		form      mpa.PtrForm
	}
	var list []found
	for s := start; s.Before(limit); {
		b := run.data[s.Offset(run.seq):limit.Offset(run.seq)]
		wl, lseq := h.fpduAt(s, b)
		if wl == 0 || wl > len(b) {
			break
		}
		ulpdu, form, _, err := h.check(s, b[:wl])
		if err != nil {
			break // not passed now; in order it will be checked and reported
		}
		list = append(list, found{s, lseq, append([]byte(nil), ulpdu...), wl, form})
		s = s.Add(wl)
		if s == limit && exact {
			exact = false
		}
	}
	if exact {
		return
	}
	for _, f := range list {
		if _, ok := h.passed[f.seq]; ok {
			continue
		}
		h.countForm(f.form)
		hdr, ok := h.pass(f.lseq, f.ulpdu)
		h.passed[f.seq] = passedFPDU{wireLen: f.wl, ok: ok, hdr: hdr, lengthSq: f.lseq}
	}
}
