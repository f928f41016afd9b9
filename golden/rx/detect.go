package rx

import (
	"slices"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
	"github.com/mparx/mparx/golden/wire"
)

// Finding MPA connections in a capture (Config.Auto and Config.Ports).
//
// A half connection's stream starts at the sequence number after its SYN
// when the capture holds the SYN, else at the first payload octet seen.
// With Auto, the first KeyLen octets from that start are reassembled (TCP
// may cut the startup frame anywhere, RFC 5044 section 7.1) while the
// connection's frames are held; the first half whose start is whole decides:
// "MPA ID Req Frame" makes it the Initiator's half, "MPA ID Rep Frame" the
// Responder's (the Request was not captured), anything else, at a start
// known from the SYN, means the connection is not MPA (the Initiator speaks
// first, and the Responder sends its Reply before anything else). Without
// the SYN the start is the lowest sequence number seen, which may still
// move back, so a connection is given up only past the bounds below. The
// held frames are then replayed into the connection. A connection to or from a port in Config.Ports is MPA
// from the first octet of each stream, whatever it holds (Wireshark's
// "Decode As"): a wrong key or Rev there is error code 4.

// Bounds on what is held of a connection whose start is not yet whole; past
// them it is taken for not MPA.
const (
	maxHeldFrames = 64
	maxHeldOctets = 64 << 10
)

// probe is what is known of the start of one half connection's stream.
type probe struct {
	start tcpseq.Num
	known bool   // start is set
	syn   bool   // start is the SYN's sequence number plus one
	have  uint32 // bit i: head[i] holds the stream's octet start+i
	head  [mpa.KeyLen]byte
}

// add takes a segment of the half connection. Octets already held are
// kept. Without the SYN, the start is the lowest sequence number seen so
// far (segments may be captured out of order).
func (p *probe) add(f *wire.Frame) {
	seq := tcpseq.Num(f.Seq)
	if f.Flags&wire.FlagSYN != 0 {
		seq++
		if !p.syn {
			p.setStart(seq)
			p.syn = true
		}
	}
	if len(f.Payload) == 0 {
		return
	}
	if !p.syn {
		p.setStart(seq)
	}
	for i := range p.head {
		if d := p.start.Add(i).Offset(seq); d < uint32(len(f.Payload)) && p.have&(1<<i) == 0 {
			p.head[i] = f.Payload[d]
			p.have |= 1 << i
		}
	}
}

// setStart moves the start back to seq (a start already known and not
// after seq stays), keeping the octets held.
func (p *probe) setStart(seq tcpseq.Num) {
	switch {
	case !p.known:
		p.start, p.known = seq, true
	case seq.Before(p.start):
		d := p.start.Offset(seq)
		if d >= mpa.KeyLen {
			p.have = 0
		} else {
			copy(p.head[d:], p.head[:mpa.KeyLen-d])
			p.have = p.have << d & (1<<mpa.KeyLen - 1)
		}
		p.start = seq
	}
}

// whole reports whether the first KeyLen octets of the stream are held.
func (p *probe) whole() bool { return p.have == 1<<mpa.KeyLen-1 }

// probeConn is a TCP connection not (yet) known to be MPA.
type probeConn struct {
	half   [2]probe // [0]: the direction of the connection's key tuple; [1]: the reverse
	opener int      // direction of the active opener (its SYN without ACK), -1 if not seen
	held   []wire.Frame
	octets int
	notMPA bool
}

// connKey returns the tuple that names a connection whichever way t runs,
// and t's direction in it (0: t is the key, 1: its reverse).
func connKey(t wire.FourTuple) (wire.FourTuple, int) {
	a := append(t.SrcIP[:], byte(t.SrcPort>>8), byte(t.SrcPort))
	b := append(t.DstIP[:], byte(t.DstPort>>8), byte(t.DstPort))
	if string(a) <= string(b) {
		return t, 0
	}
	return t.Reverse(), 1
}

func (r *Receiver) onPort(t wire.FourTuple) bool {
	return slices.Contains(r.cfg.Ports, t.SrcPort) || slices.Contains(r.cfg.Ports, t.DstPort)
}

// held copies a frame to keep beyond the call (its payload aliases the
// caller's buffer).
func heldCopy(f wire.Frame) wire.Frame {
	f.Payload = append([]byte(nil), f.Payload...)
	return f
}

// probe takes a valid TCP frame of no known half connection.
func (r *Receiver) probe(f wire.Frame) {
	t := f.FourTuple()
	port := r.onPort(t)
	if !r.cfg.Auto && !port {
		r.stats.Untracked++
		return
	}
	key, dir := connKey(t)
	if r.probes == nil {
		r.probes = map[wire.FourTuple]*probeConn{}
	}
	pc := r.probes[key]
	if pc == nil {
		pc = &probeConn{opener: -1}
		r.probes[key] = pc
	}
	if pc.notMPA {
		r.stats.Untracked++
		return
	}
	if f.Flags&wire.FlagSYN != 0 && pc.opener < 0 {
		pc.opener = dir
		if f.Flags&wire.FlagACK != 0 {
			pc.opener = 1 - dir // SYN-ACK: the passive end
		}
	}
	pc.held = append(pc.held, heldCopy(f))
	pc.octets += len(f.Payload)
	if port {
		// The Initiator is the active opener; without its SYN, the end
		// that speaks first (the Responder sends nothing before the
		// Request, RFC 5044 section 7.1.2).
		switch {
		case pc.opener >= 0:
			r.startConn(key, pc, pc.opener, true)
		case len(f.Payload) > 0:
			r.startConn(key, pc, dir, true)
		}
		return
	}
	p := &pc.half[dir]
	p.add(&f)
	switch {
	case p.whole() && string(p.head[:]) == string(mpa.RequestKey[:]):
		r.startConn(key, pc, dir, false)
	case p.whole() && string(p.head[:]) == string(mpa.ReplyKey[:]):
		// The Request was not seen: the Responder's half starts here; the
		// Initiator's reaches full operation only if its Request turns up.
		r.startConn(key, pc, 1-dir, false)
	case p.whole() && p.syn:
		r.notMPA(pc)
	case len(pc.held) > maxHeldFrames || pc.octets > maxHeldOctets:
		// Without the SYN a start that is not a key may still move back
		// (segments captured out of order) until the bounds are reached.
		r.notMPA(pc)
	}
}

func (r *Receiver) notMPA(pc *probeConn) {
	r.stats.Untracked += len(pc.held)
	pc.notMPA, pc.held, pc.half = true, nil, [2]probe{}
}

// startConn follows the connection key as MPA, with the Initiator on
// direction init, and replays its held frames into it.
func (r *Receiver) startConn(key wire.FourTuple, pc *probeConn, init int, port bool) {
	t := key
	if init == 1 {
		t = key.Reverse()
	}
	ih, rh := r.newConn(t, r.cfg.Policy)
	ih.port, rh.port = port, port
	delete(r.probes, key)
	for _, g := range pc.held {
		r.halves[g.FourTuple()].segment(g)
	}
}

// idle takes a segment of a half connection that has not begun: it finds
// the start of the stream and begins there (from the SYN, or on an MPA
// port, at once; else when the stream's first KeyLen octets are the
// startup frame's key). It reports whether the segment is to be processed
// now; frames held until the start is known are processed from here.
func (h *half) idle(f wire.Frame) bool {
	if h.never {
		return false
	}
	h.probe.add(&f)
	switch {
	case !h.probe.known:
		return false
	case h.probe.syn, h.port:
		h.begin(h.probe.start)
	case h.probe.whole() && string(h.probe.head[:]) == string(h.expectKey()):
		h.begin(h.probe.start)
	case len(h.held) >= maxHeldFrames:
		h.never, h.held = true, nil
		return false
	default:
		// Not whole yet, or (without the SYN) a start that may still move
		// back: hold the frame.
		h.held = append(h.held, heldCopy(f))
		return false
	}
	held := h.held
	h.held = nil
	for _, g := range held {
		h.process(g)
	}
	return true
}
