package rx

import (
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/tcpseq"
)

// oooSeg is a run of out-of-order octets, or (skip > 0, data nil) a run of
// skip octets that another engine (the hardware fast path) has already
// validated and passed as whole FPDUs: see HardwareConsumed.
type oooSeg struct {
	seq  tcpseq.Num
	data []byte
	skip int
}

func (s oooSeg) end() tcpseq.Num { return s.seq.Add(len(s.data) + s.skip) }

// accept trims a segment to the receive window, drops what was already
// received, and files the rest in order or out of order.
func (h *half) accept(seq tcpseq.Num, data []byte) {
	if len(data) == 0 {
		return
	}
	if h.state == StateStartup {
		h.segRanges = append(h.segRanges, [2]tcpseq.Num{seq, seq.Add(len(data))})
	}
	end := seq.Add(len(data))
	if end.Diff(h.rcvNxt) <= 0 {
		h.stats.Dup += len(data)
		return
	}
	if seq.Before(h.rcvNxt) {
		h.stats.Dup += int(h.rcvNxt.Offset(seq))
		data = data[h.rcvNxt.Offset(seq):]
		seq = h.rcvNxt
	}
	if off := seq.Offset(h.rcvNxt); off >= h.r.cfg.Window {
		return // out of window
	} else if room := h.r.cfg.Window - off; uint32(len(data)) > room {
		data = data[:room]
	}
	if seq != h.rcvNxt {
		h.insertOOO(seq, data)
		return
	}
	for len(data) > 0 {
		// Take the new octets up to the next run held out of order (octets
		// already held are kept: a retransmission does not overwrite them),
		// then pull in the runs that are now contiguous.
		n := len(data)
		if len(h.ooo) > 0 {
			n = min(n, int(h.ooo[0].seq.Offset(h.rcvNxt)))
		}
		h.stats.Octets += n
		if len(h.pend) == 0 {
			// Fast path: consume FPDUs straight from the frame; segment
			// copies what is left when it is done.
			h.pend, h.aliased = data[:n:n], true
		} else {
			h.pend = append(h.pend, data[:n]...)
		}
		h.rcvNxt = h.rcvNxt.Add(n)
		data = data[n:]
		if len(data) > 0 && len(h.ooo) > 0 && h.ooo[0].skip > 0 && h.ooo[0].seq == h.rcvNxt {
			// A run the hardware consumed comes next: runFPDUs steps over
			// it at an FPDU boundary; file the rest behind it.
			h.insertOOO(h.rcvNxt, data)
			return
		}
		for len(h.ooo) > 0 && h.ooo[0].seq == h.rcvNxt && h.ooo[0].skip == 0 {
			s := h.ooo[0]
			h.ooo = h.ooo[1:]
			h.pend = append(h.pend, s.data...)
			h.rcvNxt = h.rcvNxt.Add(len(s.data))
			skip := min(len(data), len(s.data))
			h.stats.Dup += skip
			data = data[skip:]
		}
	}
}

// pullOOO appends the out-of-order byte runs that are now contiguous with
// the in-order octets.
func (h *half) pullOOO() {
	for len(h.ooo) > 0 && h.ooo[0].seq == h.rcvNxt && h.ooo[0].skip == 0 {
		s := h.ooo[0]
		h.ooo = h.ooo[1:]
		h.pend = append(h.pend, s.data...)
		h.rcvNxt = h.rcvNxt.Add(len(s.data))
	}
}

// stepConsumed steps over a run the hardware consumed when the in-order
// octets end exactly at its start, at an FPDU boundary. If an FPDU in the
// in-order octets would reach into the run, the run's start is not an FPDU
// boundary of this stream: the marker-found FPDU start and ULPDU_Length
// disagree (RFC 5044 section 8, code 3). It reports whether it stepped.
func (h *half) stepConsumed() bool {
	if len(h.ooo) == 0 || h.ooo[0].skip == 0 || h.ooo[0].seq != h.rcvNxt {
		return false
	}
	if len(h.pend) > 0 {
		h.fail(CodeMarker, h.pendSeq, fmt.Errorf("FPDU at %d runs into octets %d.. validated as whole FPDUs", h.pendSeq, h.rcvNxt))
		return false
	}
	s := h.ooo[0]
	h.ooo = h.ooo[1:]
	h.rcvNxt = h.rcvNxt.Add(s.skip)
	h.pendSeq = h.rcvNxt
	h.pullOOO()
	return true
}

// insertOOO files an out-of-order segment, keeping octets already held
// (a retransmission does not overwrite), and then looks for FPDUs it can
// validate out of order.
func (h *half) insertOOO(seq tcpseq.Num, data []byte) {
	end := seq.Add(len(data))
	// Cut the new data into the pieces not yet covered.
	var fresh []oooSeg
	cur := seq
	for _, s := range h.ooo {
		if !cur.Before(end) {
			break
		}
		if !cur.Before(s.end()) {
			continue
		}
		if cur.Before(s.seq) {
			stop := s.seq
			if end.Before(stop) {
				stop = end
			}
			fresh = append(fresh, oooSeg{seq: cur, data: append([]byte(nil), data[cur.Offset(seq):stop.Offset(seq)]...)})
		}
		if cur.Before(s.end()) {
			cur = s.end()
		}
	}
	if cur.Before(end) {
		fresh = append(fresh, oooSeg{seq: cur, data: append([]byte(nil), data[cur.Offset(seq):]...)})
	}
	for _, f := range fresh {
		h.stats.Octets += len(f.data)
	}
	h.stats.Dup += len(data) - octets(fresh)
	h.ooo = append(h.ooo, fresh...)
	sort.Slice(h.ooo, func(i, j int) bool { return h.ooo[i].seq.Before(h.ooo[j].seq) })
	h.mergeOOO()
	if h.state == StateFull && len(fresh) > 0 && !h.rtrPending && !h.rtrWait {
		h.scanOOO(seq, end)
	}
}

func octets(s []oooSeg) int {
	n := 0
	for _, x := range s {
		n += len(x.data)
	}
	return n
}

// mergeOOO joins adjacent out-of-order runs.
func (h *half) mergeOOO() {
	out := h.ooo[:0]
	for _, s := range h.ooo {
		if n := len(out); n > 0 && out[n-1].end() == s.seq && out[n-1].skip == 0 && s.skip == 0 {
			out[n-1].data = append(out[n-1].data, s.data...)
			continue
		}
		out = append(out, s)
	}
	h.ooo = out
}
