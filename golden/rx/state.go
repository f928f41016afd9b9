package rx

import (
	"errors"
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
	"github.com/mparx/mparx/golden/wire"
)

// State is where a half connection is in its life.
type State uint8

// States of a half connection, in the order it goes through them.
const (
	StateIdle     State = iota // not begun (Auto: waiting for a startup frame)
	StateStartup               // reading this half's startup frame
	StateWaitPeer              // startup frame valid, waiting for the peer's
	StateFull                  // full operation
	StateClosed                // after an error or close: nothing more passed
)

var stateNames = [...]string{"idle", "startup", "wait-peer", "full", "closed"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", s)
}

type half struct {
	r         *Receiver
	tuple     wire.FourTuple
	id        ddp.StreamID
	initiator bool
	peer      *half
	policy    mpa.StartupPolicy

	state      State
	params     mpa.Half
	ddpVersion uint8
	startSeq   tcpseq.Num // first octet of the startup frame
	frameEnd   tcpseq.Num // just past the startup frame
	startup    mpa.Startup
	segRanges  [][2]tcpseq.Num // segments seen during startup (PD_Length check)
	neg        mpa.Negotiated
	// Peer-to-peer (RFC 6581): rtrPending on the Initiator half until its
	// first FPDU, the RTR, has been validated; rtrWait on the Responder
	// half until then (the Responder sends nothing before the RTR).
	rtrPending, rtrWait bool

	rcvNxt  tcpseq.Num // next octet expected in order
	pend    []byte     // in-order octets not yet consumed
	aliased bool       // pend points into the frame being processed
	scratch []byte     // ULPDU with markers removed
	pendSeq tcpseq.Num // sequence number of pend[0]
	ooo     []oooSeg   // sorted, non-overlapping, all beyond rcvNxt
	passed  map[tcpseq.Num]passedFPDU
	fin     bool
	finSeq  tcpseq.Num
	errCode ErrorCode
	stats   HalfSummary

	// Before the half begins (Auto, Ports: detect.go).
	port  bool         // on an MPA port: begins at its stream's first octet
	probe probe        // the start of its stream
	held  []wire.Frame // frames held until the start is known
	never bool         // its stream does not start with the startup frame: not followed
}

func (h *half) begin(seq tcpseq.Num) {
	h.state = StateStartup
	h.startSeq, h.rcvNxt, h.pendSeq = seq, seq, seq
}

// segment takes one valid TCP segment of this half connection.
func (h *half) segment(f wire.Frame) {
	h.stats.Frames++
	if h.state == StateIdle && !h.idle(f) {
		return
	}
	h.process(f)
}

// process takes a segment of a half connection that has begun.
func (h *half) process(f wire.Frame) {
	if h.state == StateClosed {
		if f.Flags&wire.FlagRST != 0 {
			h.peer.close() // a half closed by a FIN or an error: the RST still ends the connection
		}
		return
	}
	if f.Flags&wire.FlagRST != 0 {
		// RFC 5044 section 8, code 1: RST received. The connection is gone:
		// both halves stop.
		h.fail(CodeClosed, tcpseq.Num(f.Seq), errors.New("RST received"))
		h.peer.close()
		return
	}
	seq, data := tcpseq.Num(f.Seq), f.Payload
	if f.Flags&wire.FlagSYN != 0 {
		seq++ // SYN occupies one sequence number
	}
	if f.Flags&wire.FlagFIN != 0 && !h.fin {
		end := seq.Add(len(data))
		if d := end.Diff(h.rcvNxt); d >= 0 && d <= int(h.r.cfg.Window) {
			h.fin, h.finSeq = true, end
		}
	}
	h.accept(seq, data)
	h.run()
	if h.aliased {
		// Keep what is left of the frame's octets beyond this call.
		h.pend = append([]byte(nil), h.pend...)
		h.aliased = false
	}
}

func (h *half) expectKey() []byte {
	if h.initiator {
		return mpa.RequestKey[:]
	}
	return mpa.ReplyKey[:]
}

// fail reports MPA error code at seq and closes the half connection.
func (h *half) fail(code ErrorCode, seq tcpseq.Num, err error) {
	if h.state == StateClosed {
		return
	}
	h.r.emit(Event{Kind: MPAError, Half: h.tuple, Seq: uint32(seq), Code: code, Err: err})
	h.errCode = code
	h.close()
}

func (h *half) close() {
	h.state = StateClosed
	h.pend, h.ooo, h.passed = nil, nil, nil
}

// run consumes in-order octets: the startup frame, then FPDUs, then a FIN.
func (h *half) run() {
	for {
		switch h.state {
		case StateStartup:
			if !h.runStartup() {
				return
			}
		case StateFull:
			if h.rtrWait && (len(h.pend) > 0 || len(h.ooo) > 0) {
				h.earlyResponder()
				return
			}
			h.runFPDUs()
			h.checkFIN()
			return
		default:
			h.checkFIN()
			return
		}
	}
}

func (h *half) checkFIN() {
	if !h.fin || h.rcvNxt != h.finSeq || h.state == StateClosed {
		return
	}
	if h.state == StateStartup && len(h.pend) > 0 {
		h.fail(CodeStartup, h.startSeq, errors.New("startup frame truncated by FIN"))
		h.peer.close()
		return
	}
	h.fail(CodeClosed, h.finSeq, errors.New("FIN received"))
}

// runStartup parses this half's startup frame (RFC 5044 section 7.1). It
// reports whether the state changed so that run should continue.
func (h *half) runStartup() bool {
	s, n, err := mpa.ParseStartup(h.pend, !h.initiator, h.policy)
	if errors.Is(err, mpa.ErrShortStartup) {
		if h.fin && h.rcvNxt == h.finSeq {
			h.checkFIN()
		}
		return false
	}
	if err == nil {
		// The sender sends nothing after its startup frame until the peer
		// answers (rules 2-4), so a segment that carries the frame's last
		// octet and more octets after it means PD_Length does not match the
		// private data present (rule 9).
		end := h.startSeq.Add(n)
		for _, rg := range h.segRanges {
			if rg[0].Before(end) && end.Before(rg[1]) {
				err = fmt.Errorf("PD_Length %d does not match the private data: the segment goes on past the frame", s.PDLength)
				break
			}
		}
	}
	if err != nil {
		h.fail(CodeStartup, h.startSeq, err)
		h.peer.close()
		return false
	}
	h.startup = s
	h.segRanges = nil
	h.frameEnd = h.startSeq.Add(n)
	h.pend = h.pend[n:]
	h.pendSeq = h.frameEnd
	h.state = StateWaitPeer
	if h.peer.state == StateWaitPeer {
		h.establish()
	}
	return true
}

// establish puts both halves in full operation with the negotiated
// parameters (RFC 5044 section 7.1.1 M and C; Appendix C for Rev 0).
func (h *half) establish() {
	ih, rh := h, h.peer
	if !ih.initiator {
		ih, rh = rh, ih
	}
	n, err := mpa.Negotiate(ih.startup, rh.startup)
	if err != nil {
		// The Reply does not fit the Request (RFC 6581): the connection
		// fails on the Responder's half, at its Reply.
		code := CodeStartup
		if errors.Is(err, mpa.ErrNoMatchingRTR) {
			code = CodeNoMatchingRTR
		}
		rh.fail(code, rh.startSeq, err)
		ih.close()
		return
	}
	ih.neg, rh.neg = n, n
	ih.rtrPending, rh.rtrWait = n.RTR != mpa.RTRNone, n.RTR != mpa.RTRNone
	ih.params = mpa.Half{Markers: n.InitiatorMarkers, CRC: n.CRC, SeqStart: uint32(ih.frameEnd)}
	rh.params = mpa.Half{Markers: n.ResponderMarkers, CRC: n.CRC, SeqStart: uint32(rh.frameEnd)}
	for _, x := range []*half{ih, rh} {
		x.ddpVersion = n.DDPVersion
		if pl := x.r.cfg.Placer; pl != nil {
			pl.SetVersion(x.id, n.DDPVersion)
		}
		x.state = StateFull
		x.passed = map[tcpseq.Num]passedFPDU{}
		e := Event{Kind: Established, Half: x.tuple, Seq: x.params.SeqStart, Rev: n.Rev, RTR: n.RTR}
		if n.Enhanced {
			hdr := n.Responder
			if x.initiator {
				hdr = n.Initiator
			}
			e.Enhanced = &hdr
		}
		x.r.emit(e)
	}
	// Octets held out of order may now be FPDUs; the peer may hold data.
	h.rescan()
}

// earlyResponder reports octets the Responder sent after its Reply before
// the Initiator's RTR was received (peer-to-peer, RFC 6581; RFC 5044 section
// 7.1.2 rule 4): the startup did not complete as negotiated, code 4, at the
// first such octet. The connection is closed.
func (h *half) earlyResponder() {
	seq := h.pendSeq
	if len(h.pend) == 0 {
		seq = h.ooo[0].seq
	}
	h.fail(CodeStartup, seq, fmt.Errorf("peer-to-peer: the Responder sent octets at %d before the Initiator's %v RTR was received", seq, h.neg.RTR))
	h.peer.close()
}
