// Package rx is the receiver half of the golden model: an RFC 5044 MPA
// receiver over TCP with DDP (RFC 5041) placement. It takes Ethernet frames,
// checks their IPv4 and TCP checksums, reassembles each half connection's
// octet stream, follows the MPA startup exchange, finds FPDUs in order by
// ULPDU_Length and out of order by markers, checks CRC32C and every marker,
// passes each valid ULPDU to DDP exactly once, and reports what happened as
// a list of Events. It is written to be read: every rule is a few lines with
// the RFC section it comes from.
package rx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// DefaultWindow is the receive window assumed when Config.Window is zero:
// data further than this beyond rcv_nxt is dropped as out of window.
const DefaultWindow = 1 << 20

// ConnSpec names an MPA connection whose startup the receiver follows.
type ConnSpec struct {
	Tuple        wire.FourTuple    // the Initiator -> Responder half connection
	InitiatorSeq uint32            // TCP sequence number of the MPA Request's first octet
	ResponderSeq uint32            // TCP sequence number of the MPA Reply's first octet
	Policy       mpa.StartupPolicy // what the receiving ends accept
}

// Config configures a Receiver.
type Config struct {
	// Auto also follows connections that it finds by their startup frames:
	// a half connection whose stream (from its SYN when the capture has
	// it, else from the lowest sequence number seen) begins with "MPA ID
	// Req Frame" is the Initiator's, and one that begins with "MPA ID Rep
	// Frame" the Responder's (Wireshark's heuristic, on the reassembled
	// stream: the key may come in several segments). See detect.go.
	Auto bool
	// Ports lists TCP ports known to speak MPA: every connection to or
	// from one is followed from the first octet of each stream, whatever
	// it holds (Wireshark's "Decode As"), so a wrong key or Rev there is
	// error code 4. The Initiator is the end that sent the SYN, else the
	// end that sent payload first.
	Ports []uint16
	// Checksums is the checksum policy (ChecksumsVerify by default).
	Checksums Checksums
	// Policy is the startup policy of connections found by Auto.
	Policy mpa.StartupPolicy
	// Window is how far beyond rcv_nxt a half connection accepts data;
	// zero means DefaultWindow.
	Window uint32
	// Placer places ULPDUs in host memory; nil reports ULPDUs without
	// placing them.
	Placer *ddp.Placer
	// Digests fills Event.SHA256 for every ULPDU (replay output and
	// vectors want it; it costs a SHA-256 over every ULPDU).
	Digests bool
	// OnEvent, when set, receives every event as it happens instead of
	// the receiver keeping them for Events. The Event is valid only
	// during the call.
	OnEvent func(*Event)
}

// Receiver is the golden MPA receiver. It is not safe for concurrent use.
type Receiver struct {
	cfg    Config
	halves map[wire.FourTuple]*half
	probes map[wire.FourTuple]*probeConn // connections not known to be MPA (Auto, Ports); made on first use
	tally  ChecksumTally
	order  []*half // in creation order, for reports
	nconn  int
	events []Event
	cur    Event
	frame  int
	stats  Stats
}

// Stats counts frames by what became of them.
type Stats struct {
	Frames    int // frames offered
	Dropped   int // failed an Ethernet, IPv4 or TCP check
	NonTCP    int // not IPv4/TCP
	Untracked int // TCP frames of no MPA half connection (held frames of a connection not yet known count too)
	// Unverified counts frames taken although a checksum did not verify
	// (Config.Checksums); UnverifiedHosts has them per sending host.
	Unverified int
}

// New returns a receiver with no connections.
func New(cfg Config) *Receiver {
	if cfg.Window == 0 {
		cfg.Window = DefaultWindow
	}
	return &Receiver{cfg: cfg, halves: map[wire.FourTuple]*half{}}
}

// AddConn follows connection c from its startup frames and returns the DDP
// stream IDs of its two half connections: Initiator to Responder, and back.
func (r *Receiver) AddConn(c ConnSpec) (i2r, r2i ddp.StreamID) {
	ih, rh := r.newConn(c.Tuple, c.Policy)
	ih.begin(c.InitiatorSeq)
	rh.begin(c.ResponderSeq)
	return ih.id, rh.id
}

func (r *Receiver) newConn(t wire.FourTuple, p mpa.StartupPolicy) (ih, rh *half) {
	k := r.nconn
	r.nconn++
	ih = &half{r: r, tuple: t, id: ddp.StreamID(2 * k), initiator: true, policy: p}
	rh = &half{r: r, tuple: t.Reverse(), id: ddp.StreamID(2*k + 1), policy: p}
	ih.peer, rh.peer = rh, ih
	r.halves[ih.tuple], r.halves[rh.tuple] = ih, rh
	r.order = append(r.order, ih, rh)
	return ih, rh
}

// Stream returns the DDP stream ID of half connection h.
func (r *Receiver) Stream(h wire.FourTuple) (ddp.StreamID, bool) {
	hf, ok := r.halves[h]
	if !ok {
		return 0, false
	}
	return hf.id, true
}

// Events returns everything reported so far, in the order it happened.
func (r *Receiver) Events() []Event { return r.events }

// Stats returns the frame counters.
func (r *Receiver) Stats() Stats {
	s := r.stats
	for _, pc := range r.probes {
		s.Untracked += len(pc.held)
	}
	s.Unverified = r.tally.Total()
	return s
}

// UnverifiedHosts returns, per sending host, the frames taken although a
// checksum did not verify, and why (Config.Checksums), and the frames
// dropped whose TCP checksum field holds the offload signature.
func (r *Receiver) UnverifiedHosts() []HostChecksums { return r.tally.Hosts() }

func (r *Receiver) emit(e Event) {
	e.Frame = r.frame
	if r.cfg.OnEvent != nil {
		r.cur = e // reused: no allocation per event
		r.cfg.OnEvent(&r.cur)
		return
	}
	r.events = append(r.events, e)
}

// Frame processes one Ethernet frame (without FCS).
func (r *Receiver) Frame(b []byte) {
	r.frame = r.stats.Frames
	r.stats.Frames++
	f, u, err := r.cfg.Checksums.Parse(b)
	switch {
	case errors.Is(err, wire.ErrNotIPv4), errors.Is(err, wire.ErrNotTCP):
		r.stats.NonTCP++
		return
	case err != nil:
		if errors.Is(err, wire.ErrTCPChecksum) && f.OffloadSignature() {
			r.tally.AddDropped(f.SrcIP)
		}
		r.stats.Dropped++
		r.emit(Event{Kind: Dropped, Half: f.FourTuple(), Seq: f.Seq, Err: err})
		if h := r.halves[f.FourTuple()]; h != nil {
			h.stats.Dropped++
		}
		return
	}
	r.tally.Add(f.SrcIP, u)
	r.take(f)
}

// take passes a valid TCP frame to its half connection, or to detection.
func (r *Receiver) take(f wire.Frame) {
	h := r.halves[f.FourTuple()]
	if h == nil {
		r.probe(f)
		return
	}
	h.segment(f)
}

// HalfSummary is the state and counters of one half connection.
type HalfSummary struct {
	Tuple      wire.FourTuple
	Stream     ddp.StreamID
	Initiator  bool // carries the Initiator's data (the Request)
	State      string
	Params     mpa.Half // negotiated markers, CRC and SeqStart (full operation)
	DDPVersion uint8
	// Startup is what the connection negotiated (RFC 5044, and RFC 6581
	// for Rev 2: IRD/ORD, peer-to-peer and its RTR type); the zero value
	// until the connection is established.
	Startup   mpa.Negotiated
	Frames    int // frames with payload or flags for this half
	Octets    int // new payload octets accepted
	Dup       int // payload octets that were duplicates
	Dropped   int // frames dropped by a checksum
	ULPDUs    int
	Delivered int
	DDPErrors int
	ErrorCode int // MPA error code, 0 if none
	// PtrRFC5044 and PtrDraft01 count the ULPDUs passed whose FPDU began
	// with a marker and held a later one, by the FPDUPTR form those
	// markers had (mpa.PtrForm): RFC 5044's, or draft-01's, which the
	// receiver accepts in exactly that case.
	PtrRFC5044 int
	PtrDraft01 int
}

// Halves summarises every half connection, in the order they were found.
func (r *Receiver) Halves() []HalfSummary {
	out := make([]HalfSummary, 0, len(r.order))
	for _, h := range r.order {
		s := h.stats
		s.Tuple, s.Stream, s.Initiator = h.tuple, h.id, h.initiator
		s.State, s.Params, s.DDPVersion, s.ErrorCode = h.state.String(), h.params, h.ddpVersion, h.errCode
		s.Startup = h.neg
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Stream < out[j].Stream })
	return out
}

type state uint8

const (
	stIdle    state = iota // not begun (Auto: waiting for a startup frame)
	stStartup              // reading this half's startup frame
	stWait                 // startup frame valid, waiting for the peer's
	stFull                 // full operation
	stClosed               // after an error or close: nothing more passed
)

func (s state) String() string {
	return [...]string{"idle", "startup", "wait-peer", "full", "closed"}[s]
}

// oooSeg is a run of out-of-order octets, or (skip > 0, data nil) a run of
// skip octets that another engine (the hardware fast path) has already
// validated and passed as whole FPDUs: see HardwareConsumed.
type oooSeg struct {
	seq  uint32
	data []byte
	skip int
}

func (s oooSeg) end() uint32 { return s.seq + uint32(len(s.data)+s.skip) }

// passedFPDU remembers an FPDU passed to DDP before the in-order point
// reached it.
type passedFPDU struct {
	wireLen  int
	ok       bool // DDP accepted it
	hdr      ddp.Header
	lengthSq uint32
}

type half struct {
	r         *Receiver
	tuple     wire.FourTuple
	id        ddp.StreamID
	initiator bool
	peer      *half
	policy    mpa.StartupPolicy

	state      state
	params     mpa.Half
	ddpVersion uint8
	startSeq   uint32 // first octet of the startup frame
	frameEnd   uint32 // just past the startup frame
	startup    mpa.Startup
	segRanges  [][2]uint32 // segments seen during startup (PD_Length check)
	neg        mpa.Negotiated
	// Peer-to-peer (RFC 6581): rtrPending on the Initiator half until its
	// first FPDU, the RTR, has been validated; rtrWait on the Responder
	// half until then (the Responder sends nothing before the RTR).
	rtrPending, rtrWait bool

	rcvNxt  uint32   // next octet expected in order
	pend    []byte   // in-order octets not yet consumed
	aliased bool     // pend points into the frame being processed
	scratch []byte   // ULPDU with markers removed
	pendSeq uint32   // sequence number of pend[0]
	ooo     []oooSeg // sorted, non-overlapping, all beyond rcvNxt
	passed  map[uint32]passedFPDU
	fin     bool
	finSeq  uint32
	errCode int
	stats   HalfSummary

	// Before the half begins (Auto, Ports: detect.go).
	port  bool         // on an MPA port: begins at its stream's first octet
	probe probe        // the start of its stream
	held  []wire.Frame // frames held until the start is known
	never bool         // its stream does not start with the startup frame: not followed
}

func (h *half) begin(seq uint32) {
	h.state = stStartup
	h.startSeq, h.rcvNxt, h.pendSeq = seq, seq, seq
}

func before(a, b uint32) bool { return int32(a-b) < 0 }

// segment takes one valid TCP segment of this half connection.
func (h *half) segment(f wire.Frame) {
	h.stats.Frames++
	if h.state == stIdle && !h.idle(f) {
		return
	}
	h.process(f)
}

// process takes a segment of a half connection that has begun.
func (h *half) process(f wire.Frame) {
	if h.state == stClosed {
		if f.Flags&wire.FlagRST != 0 {
			h.peer.close() // a half closed by a FIN or an error: the RST still ends the connection
		}
		return
	}
	if f.Flags&wire.FlagRST != 0 {
		// RFC 5044 section 8, code 1: RST received. The connection is gone:
		// both halves stop.
		h.fail(CodeClosed, f.Seq, errors.New("RST received"))
		h.peer.close()
		return
	}
	seq, data := f.Seq, f.Payload
	if f.Flags&wire.FlagSYN != 0 {
		seq++ // SYN occupies one sequence number
	}
	if f.Flags&wire.FlagFIN != 0 && !h.fin {
		end := seq + uint32(len(data))
		if int32(end-h.rcvNxt) >= 0 && int32(end-h.rcvNxt) <= int32(h.r.cfg.Window) {
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

// accept trims a segment to the receive window, drops what was already
// received, and files the rest in order or out of order.
func (h *half) accept(seq uint32, data []byte) {
	if len(data) == 0 {
		return
	}
	if h.state == stStartup {
		h.segRanges = append(h.segRanges, [2]uint32{seq, seq + uint32(len(data))})
	}
	end := seq + uint32(len(data))
	if int32(end-h.rcvNxt) <= 0 {
		h.stats.Dup += len(data)
		return
	}
	if before(seq, h.rcvNxt) {
		h.stats.Dup += int(h.rcvNxt - seq)
		data = data[h.rcvNxt-seq:]
		seq = h.rcvNxt
	}
	if off := seq - h.rcvNxt; off >= h.r.cfg.Window {
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
			n = min(n, int(h.ooo[0].seq-h.rcvNxt))
		}
		h.stats.Octets += n
		if len(h.pend) == 0 {
			// Fast path: consume FPDUs straight from the frame; segment
			// copies what is left when it is done.
			h.pend, h.aliased = data[:n:n], true
		} else {
			h.pend = append(h.pend, data[:n]...)
		}
		h.rcvNxt += uint32(n)
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
			h.rcvNxt += uint32(len(s.data))
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
		h.rcvNxt += uint32(len(s.data))
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
	h.rcvNxt += uint32(s.skip)
	h.pendSeq = h.rcvNxt
	h.pullOOO()
	return true
}

// insertOOO files an out-of-order segment, keeping octets already held
// (a retransmission does not overwrite), and then looks for FPDUs it can
// validate out of order.
func (h *half) insertOOO(seq uint32, data []byte) {
	end := seq + uint32(len(data))
	// Cut the new data into the pieces not yet covered.
	var fresh []oooSeg
	cur := seq
	for _, s := range h.ooo {
		if !before(cur, end) {
			break
		}
		if !before(cur, s.end()) {
			continue
		}
		if before(cur, s.seq) {
			stop := s.seq
			if before(end, stop) {
				stop = end
			}
			fresh = append(fresh, oooSeg{seq: cur, data: append([]byte(nil), data[cur-seq:stop-seq]...)})
		}
		if before(cur, s.end()) {
			cur = s.end()
		}
	}
	if before(cur, end) {
		fresh = append(fresh, oooSeg{seq: cur, data: append([]byte(nil), data[cur-seq:]...)})
	}
	for _, f := range fresh {
		h.stats.Octets += len(f.data)
	}
	h.stats.Dup += len(data) - octets(fresh)
	h.ooo = append(h.ooo, fresh...)
	sort.Slice(h.ooo, func(i, j int) bool { return before(h.ooo[i].seq, h.ooo[j].seq) })
	h.mergeOOO()
	if h.state == stFull && len(fresh) > 0 && !h.rtrPending && !h.rtrWait {
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

// fail reports MPA error code at seq and closes the half connection.
func (h *half) fail(code int, seq uint32, err error) {
	if h.state == stClosed {
		return
	}
	h.r.emit(Event{Kind: MPAError, Half: h.tuple, Seq: seq, Code: code, Err: err})
	h.errCode = code
	h.close()
}

func (h *half) close() {
	h.state = stClosed
	h.pend, h.ooo, h.passed = nil, nil, nil
}

// run consumes in-order octets: the startup frame, then FPDUs, then a FIN.
func (h *half) run() {
	for {
		switch h.state {
		case stStartup:
			if !h.runStartup() {
				return
			}
		case stFull:
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
	if !h.fin || h.rcvNxt != h.finSeq || h.state == stClosed {
		return
	}
	if h.state == stStartup && len(h.pend) > 0 {
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
		end := h.startSeq + uint32(n)
		for _, rg := range h.segRanges {
			if before(rg[0], end) && before(end, rg[1]) {
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
	h.frameEnd = h.startSeq + uint32(n)
	h.pend = h.pend[n:]
	h.pendSeq = h.frameEnd
	h.state = stWait
	if h.peer.state == stWait {
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
	ih.params = mpa.Half{Markers: n.InitiatorMarkers, CRC: n.CRC, SeqStart: ih.frameEnd}
	rh.params = mpa.Half{Markers: n.ResponderMarkers, CRC: n.CRC, SeqStart: rh.frameEnd}
	for _, x := range []*half{ih, rh} {
		x.ddpVersion = n.DDPVersion
		if pl := x.r.cfg.Placer; pl != nil {
			pl.SetVersion(x.id, n.DDPVersion)
		}
		x.state = stFull
		x.passed = map[uint32]passedFPDU{}
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

// fpduAt decodes the FPDU whose first octet is at seq (see mpa.Half.FPDUAt).
func (h *half) fpduAt(seq uint32, b []byte) (wireLen int, lengthSeq uint32) {
	return h.params.FPDUAt(seq, b)
}

// check validates a whole FPDU (its wire octets, starting at seq): first
// the CRC (code 2), then every marker in it (code 3), which RFC 5044 makes
// optional and this model always does. It returns the ULPDU with markers
// removed, which aliases fpdu or the half's scratch buffer: it is valid
// until the next check.
func (h *half) check(seq uint32, fpdu []byte) (ulpdu []byte, form mpa.PtrForm, code int, err error) {
	ulpdu, form, err = h.params.DeframeForm(seq, fpdu, &h.scratch)
	switch {
	case errors.Is(err, mpa.ErrCRC):
		return nil, form, CodeCRC, err
	case err != nil:
		return nil, form, CodeMarker, err
	}
	return ulpdu, form, 0, nil
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
// such markers ahead of the in-order point made the outcome depend on which
// copy of retransmitted octets a receiver holds and whether it holds them
// in order or out of order: the hardware and software together and the
// golden receiver disagreed on a fuzzed stream, docs/robustness.md.)
func (h *half) markerDisagrees(seq uint32, wl int) error {
	end := seq + uint32(wl)
	p := h.params
	form := mpa.PtrPlain
	marker := func(m uint32, b []byte) error {
		ptr := binary.BigEndian.Uint16(b[2:])
		if before(m, end) {
			f, ok := p.CheckMarker(seq, m, ptr)
			switch {
			case !ok:
				return fmt.Errorf("marker at %d has FPDUPTR %d, want %d for the FPDU at %d (%d octets)", m, ptr&^3, p.MarkerPtr(seq, m, mpa.PtrRFC5044), seq, wl)
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
		for m := p.NextMarker(seq); !before(h.rcvNxt, m+mpa.MarkerLen) && before(m, end); m += mpa.MarkerInterval {
			if err := marker(m, h.pend[m-seq:]); err != nil {
				return err
			}
		}
	}
	for _, o := range h.ooo {
		if !before(o.seq, end) {
			break
		}
		if o.skip > 0 {
			if before(seq, o.seq) {
				return fmt.Errorf("FPDU at %d (%d octets) runs into octets %d.. validated as whole FPDUs", seq, wl, o.seq)
			}
			continue
		}
		if !p.Markers {
			continue
		}
		for m := p.NextMarker(o.seq); !before(o.end(), m+mpa.MarkerLen) && before(m, end); m += mpa.MarkerInterval {
			if err := marker(m, o.data[m-o.seq:]); err != nil {
				return err
			}
		}
	}
	for ps := range h.passed {
		if d := ps - seq; d > 0 && d < uint32(wl) {
			return fmt.Errorf("FPDU passed out of order at %d lies inside the FPDU at %d (%d octets)", ps, seq, wl)
		}
	}
	return nil
}

// runFPDUs consumes whole FPDUs from the in-order octets (RFC 5044
// section 6, rule 1: ULPDU_Length finds the next FPDU).
func (h *half) runFPDUs() {
	for h.state == stFull {
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
func (h *half) passedAt(seq uint32) (passedFPDU, bool) {
	if len(h.passed) == 0 {
		return passedFPDU{}, false
	}
	p, ok := h.passed[seq]
	return p, ok
}

func (h *half) advance(wl int) {
	h.pend = h.pend[wl:]
	h.pendSeq += uint32(wl)
	if len(h.pend) == 0 {
		h.pend = nil // let the backing array go
	}
}

// pass hands a validated ULPDU to DDP and reports whether DDP accepted it.
func (h *half) pass(lseq uint32, ulpdu []byte) (ddp.Header, bool) {
	h.stats.ULPDUs++
	e := Event{Kind: ULPDU, Half: h.tuple, Seq: lseq, Len: len(ulpdu)}
	if h.r.cfg.Digests {
		e.SHA256 = digest(ulpdu)
	}
	h.r.emit(e)
	if pl := h.r.cfg.Placer; pl != nil {
		p, err := pl.Place(h.id, ulpdu)
		if err != nil {
			h.stats.DDPErrors++
			h.r.emit(Event{Kind: DDPError, Half: h.tuple, Seq: lseq, Len: len(ulpdu), DDP: p.Header, Err: err})
			return p.Header, false
		}
		h.r.emit(Event{Kind: Placed, Half: h.tuple, Seq: lseq, Len: p.Len, DDP: p.Header, Addr: p.Addr})
		return p.Header, true
	}
	hdr, _, err := ddp.ParseHeader(ulpdu)
	return hdr, err == nil
}

func (h *half) deliver(lseq uint32, hdr ddp.Header) {
	h.stats.Delivered++
	if pl := h.r.cfg.Placer; pl != nil {
		pl.Deliver(h.id, hdr)
	}
	h.r.emit(Event{Kind: Delivered, Half: h.tuple, Seq: lseq, DDP: hdr})
}

// scanOOO looks for FPDUs that can be validated out of order in the
// out-of-order run holding [seq, end) (RFC 5044 section 6, rules 2 and 3):
// with markers, every marker in the new octets points at an FPDU start, and
// ULPDU_Length leads on to the FPDUs after it; without markers, only FPDUs
// that exactly fill the segment, with CRC on.
func (h *half) scanOOO(seq, end uint32) {
	var run *oooSeg
	for i := range h.ooo {
		if !before(seq, h.ooo[i].seq) && before(seq, h.ooo[i].end()) {
			run = &h.ooo[i]
			break
		}
	}
	if run == nil || run.skip > 0 {
		return
	}
	if h.params.Markers {
		for m := h.params.NextMarker(seq); before(m, end) && !before(run.end(), m+mpa.MarkerLen); m += mpa.MarkerInterval {
			off := m - run.seq
			ptr := uint32(binary.BigEndian.Uint16(run.data[off+2:])) &^ 3
			if ptr > off {
				continue // the FPDU starts before this run
			}
			h.walkOOO(run, m-ptr, run.end(), false)
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
func (h *half) walkOOO(run *oooSeg, start, limit uint32, exact bool) {
	type found struct {
		seq, lseq uint32
		ulpdu     []byte
		wl        int
		form      mpa.PtrForm
	}
	var list []found
	for s := start; before(s, limit); {
		b := run.data[s-run.seq : limit-run.seq]
		wl, lseq := h.fpduAt(s, b)
		if wl == 0 || wl > len(b) {
			break
		}
		ulpdu, form, _, err := h.check(s, b[:wl])
		if err != nil {
			break // not passed now; in order it will be checked and reported
		}
		list = append(list, found{s, lseq, append([]byte(nil), ulpdu...), wl, form})
		s += uint32(wl)
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

// Hand-over with a hardware fast path (docs/design.md section 2). The
// receiver then plays the software slow path: it sees only the frames the
// hardware did not handle, and these calls keep its view of each stream in
// step with what the hardware consumed.

// ErrHandover reports a hand-over call that does not fit the stream's state.
var ErrHandover = errors.New("rx: hand-over does not fit the stream")

func (r *Receiver) fullHalf(t wire.FourTuple) (*half, error) {
	h := r.halves[t]
	if h == nil || h.state != stFull {
		return nil, fmt.Errorf("%w: %v is not in full operation", ErrHandover, t)
	}
	return h, nil
}

// HardwareConsumed records that octets [seq, end) of half connection t were
// validated and passed to DDP as whole FPDUs by the hardware, out of order.
// The receiver passes none of them; when its in-order point reaches seq at
// an FPDU boundary it steps over them (and reports code 3 if an FPDU of the
// in-order stream runs into them).
func (r *Receiver) HardwareConsumed(t wire.FourTuple, seq, end uint32) error {
	h, err := r.fullHalf(t)
	if err != nil {
		return err
	}
	if !before(seq, end) || before(seq, h.rcvNxt) {
		return fmt.Errorf("%w: consumed [%d, %d) with rcv_nxt %d", ErrHandover, seq, end, h.rcvNxt)
	}
	for _, o := range h.ooo {
		if before(seq, o.end()) && before(o.seq, end) {
			return fmt.Errorf("%w: consumed [%d, %d) overlaps held octets [%d, %d)", ErrHandover, seq, end, o.seq, o.end())
		}
	}
	h.ooo = append(h.ooo, oooSeg{seq: seq, skip: int(end - seq)})
	sort.Slice(h.ooo, func(i, j int) bool { return before(h.ooo[i].seq, h.ooo[j].seq) })
	return nil
}

// HardwareAdvance records that the hardware consumed half connection t in
// order up to sequence number to (whole FPDUs, and any runs it had consumed
// out of order before). The receiver must hold no in-order octets.
func (r *Receiver) HardwareAdvance(t wire.FourTuple, to uint32) error {
	h, err := r.fullHalf(t)
	if err != nil {
		return err
	}
	if len(h.pend) > 0 || before(to, h.rcvNxt) {
		return fmt.Errorf("%w: advance to %d with rcv_nxt %d and %d octets held", ErrHandover, to, h.rcvNxt, len(h.pend))
	}
	for len(h.ooo) > 0 && !before(to, h.ooo[0].end()) {
		h.ooo = h.ooo[1:]
	}
	if len(h.ooo) > 0 && before(h.ooo[0].seq, to) {
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
	if h == nil || h.state != stFull || len(h.pend) > 0 || len(h.ooo) > 0 || h.fin || h.rtrPending || h.rtrWait {
		return 0, mpa.Half{}, false
	}
	return h.rcvNxt, h.params, true
}

// Closed reports whether half connection t has stopped: after an MPA error
// on it, or when its connection was reset or failed startup.
func (r *Receiver) Closed(t wire.FourTuple) bool {
	h := r.halves[t]
	return h != nil && h.state == stClosed
}
