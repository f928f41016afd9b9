package rx

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
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
	// FrameLimit, when not zero, is the longest frame in octets the
	// receiver takes: a longer one is dropped (a Dropped event with
	// ErrOversize, its segment named when its headers parse), as a NIC
	// drops a frame longer than it stores.
	FrameLimit int
	// StreamIDs, when set, gives the DDP stream IDs of each connection the
	// receiver follows (AddConn, or found by Auto and Ports) from its
	// Initiator -> Responder half connection: that half takes the ID
	// returned and the other half the next one. A capture split by
	// connection among receivers (each taking the frames of its own
	// connections, Receiver.SkipTo) numbers the streams as one receiver
	// taking every frame does when it gives each connection twice the rank
	// of its Receiver.Conns entry in that run. Without it, connections are
	// numbered in the order they are found; one for which it returns false
	// is numbered from 1<<31 on.
	StreamIDs func(initiator wire.FourTuple) (ddp.StreamID, bool)
}

// ErrOversize is the error of a frame dropped for its length
// (Config.FrameLimit).
var ErrOversize = errors.New("rx: frame longer than the receiver takes")

// Receiver is the golden MPA receiver. It is not safe for concurrent use.
type Receiver struct {
	cfg    Config
	halves map[wire.FourTuple]*half
	probes map[wire.FourTuple]*probeConn // connections not known to be MPA (Auto, Ports); made on first use
	tally  ChecksumTally
	trunc  map[wire.FourTuple]int // frames cut short by the capture, per half connection
	order  []*half                // in creation order, for reports
	conns  []Conn                 // in creation order
	nconn  int
	events []Event
	cur    Event
	known  knownCRC // of the frame being processed
	frame  int
	stats  Stats
}

// Stats counts frames by what became of them.
type Stats struct {
	Frames    int // frames offered
	Dropped   int // failed an Ethernet, IP or TCP check, or longer than FrameLimit
	NonTCP    int // not IPv4/TCP or IPv6/TCP
	Untracked int // TCP frames of no MPA half connection (held frames of a connection not yet known count too)
	// Unverified counts frames taken although a checksum did not verify
	// (Config.Checksums); UnverifiedHosts has them per sending host.
	Unverified int
	// Truncated counts frames the capture cut short (Receiver.Truncated),
	// taken as lost.
	Truncated int
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
	ih.begin(tcpseq.Num(c.InitiatorSeq))
	rh.begin(tcpseq.Num(c.ResponderSeq))
	return ih.id, rh.id
}

func (r *Receiver) newConn(t wire.FourTuple, p mpa.StartupPolicy) (ih, rh *half) {
	k := r.nconn
	r.nconn++
	id := ddp.StreamID(2 * k)
	if r.cfg.StreamIDs != nil {
		var ok bool
		if id, ok = r.cfg.StreamIDs(t); !ok {
			id = 1<<31 + ddp.StreamID(2*k)
		}
	}
	ih = &half{r: r, tuple: t, id: id, initiator: true, policy: p}
	rh = &half{r: r, tuple: t.Reverse(), id: id + 1, policy: p}
	ih.peer, rh.peer = rh, ih
	r.halves[ih.tuple], r.halves[rh.tuple] = ih, rh
	r.order = append(r.order, ih, rh)
	r.conns = append(r.conns, Conn{Initiator: t, Frame: r.frame})
	return ih, rh
}

// Conn is a connection a receiver follows: its Initiator -> Responder half
// connection, and the frame during which the receiver found it (AddConn:
// the frame being processed then, 0 before the first).
type Conn struct {
	Initiator wire.FourTuple
	Frame     int
}

// Conns returns the connections the receiver follows, in the order it
// found them.
func (r *Receiver) Conns() []Conn { return r.conns }

// MergeConns returns the connections of receivers that split a capture by
// connection (each taking the frames of its own, numbered as in the
// capture), in the order one receiver taking every frame finds them: by
// the frame during which each was found (a frame belongs to one
// connection).
func MergeConns(rs ...*Receiver) []Conn {
	var out []Conn
	for _, r := range rs {
		out = append(out, r.conns...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Frame < out[j].Frame })
	return out
}

// Stream returns the DDP stream ID of half connection h.
func (r *Receiver) Stream(h wire.FourTuple) (ddp.StreamID, bool) {
	hf, ok := r.halves[h]
	if !ok {
		return 0, false
	}
	return hf.id, true
}

// Half returns the half connection whose DDP stream is st.
func (r *Receiver) Half(st ddp.StreamID) (wire.FourTuple, bool) {
	if r.cfg.StreamIDs != nil {
		for _, h := range r.order {
			if h.id == st {
				return h.tuple, true
			}
		}
		return wire.FourTuple{}, false
	}
	if int(st) >= len(r.order) {
		return wire.FourTuple{}, false
	}
	return r.order[st].tuple, true
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

// Parsed is a frame as a receiver parses it (Config.Parse): what
// FrameParsed takes, so that the parsing can be done apart from the
// receiver (in another goroutine).
type Parsed struct {
	Data       []byte     // the frame
	Frame      wire.Frame // its headers; Payload is a sub-slice of Data
	Unverified Unverified // why a checksum went unverified
	Err        error      // why the frame is dropped or not TCP (nil: taken)

	// The CRC32C of the TCP payload without its last four octets, when
	// PrecomputeCRC found the payload to look like one whole FPDU.
	crc      uint32
	crcKnown bool
}

// PrecomputeCRC computes, when the frame's TCP payload looks like one
// whole FPDU (mpa.MaybeFPDU), the CRC32C that a receiver checks that FPDU
// with, so that FrameParsed need not: the work of a reader parsing frames
// ahead of the receiver, in another goroutine. A receiver uses the value
// only for an FPDU that is exactly the payload (the same octets in
// memory); a payload that is not one FPDU costs a look at six octets.
func (p *Parsed) PrecomputeCRC() {
	if pl := p.Frame.Payload; p.Err == nil && mpa.MaybeFPDU(pl) {
		p.crc, p.crcKnown = mpa.CRC32C(pl[:len(pl)-mpa.CRCLen]), true
	}
}

// PrecomputedCRC returns the CRC PrecomputeCRC computed, and whether it
// computed one.
func (p *Parsed) PrecomputedCRC() (uint32, bool) { return p.crc, p.crcKnown }

// SetPrecomputedCRC gives p the CRC that PrecomputeCRC computed for the
// same octets before (a second pass over a capture keeps the first one's).
func (p *Parsed) SetPrecomputedCRC(crc uint32) { p.crc, p.crcKnown = crc, true }

// ParseVerified is Parse of a frame whose checksums Parse found to verify
// before (Err nil, Unverified zero: a second pass over the same octets of
// a capture): the checksums are not computed again, and the result is
// what Parse returns.
func (c Config) ParseVerified(b []byte) Parsed {
	if c.FrameLimit > 0 && len(b) > c.FrameLimit {
		return c.Parse(b)
	}
	f, err := wire.ParseWith(b, 0)
	return Parsed{Data: b, Frame: f, Err: err}
}

// knownCRC is the CRC of the payload of the frame being processed, from
// Parsed.PrecomputeCRC: of the len(fpdu) octets at at.
type knownCRC struct {
	at  *byte
	len int
	crc uint32
}

// of returns the CRC32C of fpdu without its CRC field if it is known.
func (k *knownCRC) of(fpdu []byte) (uint32, bool) {
	if k.at == nil || len(fpdu) != k.len || &fpdu[0] != k.at {
		return 0, false
	}
	return k.crc, true
}

// Parse parses frame b as a receiver configured as c does (its
// FrameLimit and Checksums): Frame(b) is FrameParsed(c.Parse(b)).
func (c Config) Parse(b []byte) Parsed {
	if c.FrameLimit > 0 && len(b) > c.FrameLimit {
		f, _ := wire.ParseWith(b, 0)
		return Parsed{Data: b, Frame: f, Err: fmt.Errorf("%w: %d octets, the limit is %d", ErrOversize, len(b), c.FrameLimit)}
	}
	f, u, err := c.Checksums.Parse(b)
	return Parsed{Data: b, Frame: f, Unverified: u, Err: err}
}

// Frame processes one Ethernet frame (without FCS).
func (r *Receiver) Frame(b []byte) { r.FrameParsed(r.cfg.Parse(b)) }

// FrameParsed processes one Ethernet frame that Config.Parse of the
// receiver's configuration parsed. The receiver keeps none of p's slices
// beyond the call.
func (r *Receiver) FrameParsed(p Parsed) {
	r.frame = r.stats.Frames
	r.stats.Frames++
	b, f, u, err := p.Data, p.Frame, p.Unverified, p.Err
	switch {
	case errors.Is(err, ErrOversize):
		r.drop(f, err)
		return
	case errors.Is(err, wire.ErrNotIP), errors.Is(err, wire.ErrNotTCP):
		r.stats.NonTCP++
		return
	case err != nil:
		if r.cfg.Checksums == ChecksumsVerify {
			if host, ok := OffloadedDrop(b, f, err); ok {
				r.tally.AddDropped(host, errors.Is(err, wire.ErrIPChecksum))
			}
		}
		r.drop(f, err)
		return
	}
	r.tally.Add(f.SrcIP, u)
	if p.crcKnown {
		r.known = knownCRC{at: &f.Payload[0], len: len(f.Payload), crc: p.crc}
	}
	r.take(f)
	r.known = knownCRC{}
}

// SkipTo numbers the next frame i: the frames before it that this
// receiver did not take went to others (a capture split by connection
// among receivers, as learn.Sharded does; the events of a connection do
// not depend on the frames of another). Stats.Frames then counts them
// too. An i at or below the frames counted so far changes nothing.
func (r *Receiver) SkipTo(i int) {
	r.stats.Frames = max(r.stats.Frames, i)
}

// drop reports frame f dropped with err.
func (r *Receiver) drop(f wire.Frame, err error) {
	r.stats.Dropped++
	r.emit(Event{Kind: Dropped, Half: f.FourTuple(), Seq: f.Seq, Err: err})
	if h := r.halves[f.FourTuple()]; h != nil {
		h.stats.Dropped++
	}
}

// Truncated takes frame b, which the capture cut short (its snap length),
// as a frame whose octets the network lost: it counts as a frame (events
// keep the capture's frame numbers) but is not processed, and TCP's
// retransmission brings its octets again. It is counted in
// Stats.Truncated and, when its headers name a half connection
// (wire.ParseHeaders), in that half's HalfSummary.Truncated, also when the
// receiver follows the half only from a later frame on.
func (r *Receiver) Truncated(b []byte) {
	r.frame = r.stats.Frames
	r.stats.Frames++
	r.stats.Truncated++
	if f, err := wire.ParseHeaders(b); err == nil {
		if r.trunc == nil {
			r.trunc = map[wire.FourTuple]int{}
		}
		r.trunc[f.FourTuple()]++
	}
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
	State      State
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
	Truncated int // frames the capture cut short (Receiver.Truncated)
	ULPDUs    int
	Delivered int
	DDPErrors int
	ErrorCode ErrorCode // MPA error code, 0 if none
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
		s.State, s.Params, s.DDPVersion, s.ErrorCode = h.state, h.params, h.ddpVersion, h.errCode
		s.Startup = h.neg
		s.Truncated = r.trunc[h.tuple]
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Stream < out[j].Stream })
	return out
}
