package rx

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
	"github.com/mparx/mparx/golden/wire"
)

// Hand-over with a hardware fast path (docs/design.md section 2). The
// receiver then plays the software slow path: it sees only the frames the
// hardware did not handle, and these calls keep its view of each stream in
// step with what the hardware consumed.

// ErrHandover reports a hand-over call that does not fit the stream's state.
var ErrHandover = errors.New("rx: hand-over does not fit the stream")

func (r *Receiver) fullHalf(t wire.FourTuple) (*half, error) {
	h := r.halves[t]
	if h == nil || h.state != StateFull {
		return nil, fmt.Errorf("%w: %v is not in full operation", ErrHandover, t)
	}
	return h, nil
}

// HardwareConsumed records that octets [seq, end) of half connection t were
// validated and passed to DDP as whole FPDUs by the hardware, out of order.
// The receiver passes none of them; when its in-order point reaches seq at
// an FPDU boundary it steps over them (and reports code 3 if an FPDU of the
// in-order stream runs into them).
func (r *Receiver) HardwareConsumed(t wire.FourTuple, start, end uint32) error {
	h, err := r.fullHalf(t)
	if err != nil {
		return err
	}
	seq, stop := tcpseq.Num(start), tcpseq.Num(end)
	if !seq.Before(stop) || seq.Before(h.rcvNxt) {
		return fmt.Errorf("%w: consumed [%d, %d) with rcv_nxt %d", ErrHandover, seq, end, h.rcvNxt)
	}
	for _, o := range h.ooo {
		if seq.Before(o.end()) && o.seq.Before(stop) {
			return fmt.Errorf("%w: consumed [%d, %d) overlaps held octets [%d, %d)", ErrHandover, seq, end, o.seq, o.end())
		}
	}
	h.ooo = append(h.ooo, oooSeg{seq: seq, skip: int(stop.Offset(seq))})
	sort.Slice(h.ooo, func(i, j int) bool { return h.ooo[i].seq.Before(h.ooo[j].seq) })
	return nil
}

// HardwareAdvance records that the hardware consumed half connection t in
// order up to sequence number to (whole FPDUs, and any runs it had consumed
// out of order before). The receiver must hold no in-order octets.
func (r *Receiver) HardwareAdvance(t wire.FourTuple, end uint32) error {
	h, err := r.fullHalf(t)
	if err != nil {
		return err
	}
	to := tcpseq.Num(end)
	if len(h.pend) > 0 || to.Before(h.rcvNxt) {
		return fmt.Errorf("%w: advance to %d with rcv_nxt %d and %d octets held", ErrHandover, to, h.rcvNxt, len(h.pend))
	}
	for len(h.ooo) > 0 && !to.Before(h.ooo[0].end()) {
		h.ooo = h.ooo[1:]
	}
	if len(h.ooo) > 0 && h.ooo[0].seq.Before(to) {
		return fmt.Errorf("%w: advance to %d splits held octets [%d, %d)", ErrHandover, to, h.ooo[0].seq, h.ooo[0].end())
	}
	h.rcvNxt, h.pendSeq = to, to
	return nil
}

// Idle reports whether half connection t is in full operation and holds
// nothing (no in-order octets, no out-of-order runs): the moment software
// can hand the stream back to the hardware. It returns the in-order point
// and the negotiated parameters.
func (r *Receiver) Idle(t wire.FourTuple) (rcvNxt uint32, params mpa.Half, ok bool) {
	h := r.halves[t]
	if h == nil || h.state != StateFull || len(h.pend) > 0 || len(h.ooo) > 0 || h.fin || h.rtrPending || h.rtrWait {
		return 0, mpa.Half{}, false
	}
	return uint32(h.rcvNxt), h.params, true
}

// Closed reports whether half connection t has stopped: after an MPA error
// on it, or when its connection was reset or failed startup.
func (r *Receiver) Closed(t wire.FourTuple) bool {
	h := r.halves[t]
	return h != nil && h.state == StateClosed
}
