package vecgen

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/tcpseq"
	"github.com/mparx/mparx/vecgen/vector"
)

// ConnOpts describes how a connection starts.
type ConnOpts struct {
	// Req and Rep are the startup frames. When Rep.Reply is false (the zero
	// value) and NoReply is not set, a valid Reply is built from RepM/RepC.
	Req, Rep mpa.Startup
	// ReqRaw / RepRaw replace the encoded frames (malformed startups).
	ReqRaw, RepRaw []byte
	// ReqCuts / RepCuts split a startup frame into several segments at
	// these offsets.
	ReqCuts, RepCuts []int
	// NoReply: the Responder sends no Reply (its Request was invalid).
	NoReply bool
	// ReqFIN: a FIN follows the Request (a truncated Request).
	ReqFIN bool
	// Permissive: the receiver is configured to accept Rev 0 (Appendix C).
	Permissive bool
	Link       Link
	// ISN: initial sequence numbers of the Initiator and Responder TCP
	// (zero: random).
	ISN [2]uint32
	// NoHandshake: omit SYN, SYN/ACK, ACK.
	NoHandshake bool
}

// Conn is one TCP connection carrying MPA.
type Conn struct {
	g     *Gen
	Index int
	Opts  ConnOpts
	Neg   mpa.Negotiated
	Valid bool     // the startup is meant to succeed
	H     [2]*Half // I2R, R2I
}

// Half is one direction of a connection.
type Half struct {
	c        *Conn
	dir      int
	src, dst vector.Endpoint
	nxt      uint32 // next sequence number to send
	ipid     uint16
	S        *mpa.Stream // full-operation stream (FPDUs)
	sent     int         // octets of S.Data already taken for segments
	fsent    int         // FPDUs of S already taken
	fpduEnd  map[uint32]uint32
	EMSS     int
	MULPDU   int
	DV       uint8             // DDP version in the headers it sends
	msn      map[uint32]uint32 // next MSN to send, per QN
	postMSN  map[uint32]uint32 // next MSN to post a receive buffer for, per QN
	closed   bool
	tsval    uint32
}

// Dir returns vector.I2R or vector.R2I.
func (h *Half) Dir() string {
	if h.dir == 0 {
		return vector.I2R
	}
	return vector.R2I
}

// Peer returns the opposite half connection.
func (h *Half) Peer() *Half { return h.c.H[1-h.dir] }

// Conn returns the connection of h.
func (h *Half) Conn() *Conn { return h.c }

// I2R and R2I return the connection's halves.
func (c *Conn) I2R() *Half { return c.H[0] }

// R2I returns the Responder-to-Initiator half.
func (c *Conn) R2I() *Half { return c.H[1] }

// Startup builds a valid Request/Reply pair with the given M and C bits.
func Startup(reqM, reqC, repM, repC bool) (req, rep mpa.Startup) {
	return mpa.NewStartup(false, reqM, reqC, nil), mpa.NewStartup(true, repM, repC, nil)
}

// Conn opens a connection: TCP handshake, MPA Request and Reply, and sets
// up both halves for full operation with the negotiated parameters.
func (g *Gen) Conn(o ConnOpts) *Conn {
	c := &Conn{g: g, Index: len(g.conns), Opts: o}
	g.conns = append(g.conns, c)
	ini := vector.Endpoint{IP: g.host(), Port: uint16(40000 + c.Index%20000)}
	res := vector.Endpoint{IP: g.host(), Port: 4791}
	for d := range 2 {
		isn := o.ISN[d]
		if isn == 0 {
			isn = g.rng.Uint32()
		}
		h := &Half{c: c, dir: d, nxt: isn, ipid: uint16(g.rng.Uint32()), fpduEnd: map[uint32]uint32{},
			msn: map[uint32]uint32{}, postMSN: map[uint32]uint32{}, tsval: g.rng.Uint32() >> 4}
		h.src, h.dst = ini, res
		if d == 1 {
			h.src, h.dst = res, ini
		}
		h.EMSS = o.Link.EMSS()
		c.H[d] = h
	}
	i, r := c.H[0], c.H[1]
	if !o.NoHandshake {
		mss := uint16(o.Link.mtu() - 40)
		i.emit(tcpSeg{syn: true, seq: i.nxt, mss: mss}, 1)
		r.emit(tcpSeg{syn: true, ackf: true, seq: r.nxt, mss: mss}, 1)
		i.emit(tcpSeg{seq: i.nxt}, 0)
	}
	cs := vector.Conn{
		Initiator: ini.String(), Responder: res.String(),
		InitiatorSeq: i.nxt, ResponderSeq: r.nxt, Permissive: o.Permissive,
	}
	req := o.ReqRaw
	if req == nil {
		req = o.Req.Append(nil)
	}
	policy := mpa.StartupPolicy{Permissive: o.Permissive}
	reqF, reqN, reqErr := mpa.ParseStartup(req, false, policy)
	i.sendStartup(req, o.ReqCuts)
	if o.ReqFIN {
		i.FIN()
	}
	repOK := false
	var repF mpa.Startup
	if !o.NoReply {
		rep := o.RepRaw
		if rep == nil {
			rep = o.Rep.Append(nil)
		}
		var repN int
		var repErr error
		repF, repN, repErr = mpa.ParseStartup(rep, true, policy)
		repOK = repErr == nil && repN == len(rep)
		r.sendStartup(rep, o.RepCuts)
	}
	c.Valid = reqErr == nil && reqN == len(req) && !o.ReqFIN && repOK
	if c.Valid {
		// RFC 6581: the Reply must fit the Request (Rev, enhanced header,
		// peer-to-peer and RTR type).
		var err error
		c.Neg, err = mpa.Negotiate(reqF, repF)
		c.Valid = err == nil
	}
	if c.Valid {
		// The Data Sink's DDP version follows the MPA revision; one
		// vector holds connections of one version only.
		if g.validConns == 0 {
			g.setup.Receiver.DDPVersion = c.Neg.DDPVersion
		} else if g.setup.Receiver.DDPVersion != c.Neg.DDPVersion {
			panic("vecgen: a vector mixes DDP versions 0 and 1")
		}
		g.validConns++
		cs.Intended = &vector.Negotiated{
			I2RMarkers: c.Neg.InitiatorMarkers, R2IMarkers: c.Neg.ResponderMarkers,
			CRC: c.Neg.CRC, DDPVersion: c.Neg.DDPVersion,
		}
		if c.Neg.Rev == mpa.RevEnhanced {
			cs.Intended.Rev = int(c.Neg.Rev)
		}
		if c.Neg.RTR != mpa.RTRNone {
			cs.Intended.RTR = c.Neg.RTR.String()
		}
	} else {
		// Whatever the frames said, FPDUs a scenario sends after a failed
		// startup use markers and CRC as asked in the Request.
		c.Neg = mpa.Negotiated{InitiatorMarkers: o.Rep.M, ResponderMarkers: o.Req.M, CRC: true, DDPVersion: 1}
	}
	g.setup.Conns = append(g.setup.Conns, cs)
	i.start(c.Neg.InitiatorMarkers, c.Neg.CRC, c.Neg.DDPVersion)
	r.start(c.Neg.ResponderMarkers, c.Neg.CRC, c.Neg.DDPVersion)
	return c
}

func (h *Half) start(markers, crc bool, dv uint8) {
	h.S = mpa.NewStream(mpa.Half{Markers: markers, CRC: crc, SeqStart: h.nxt})
	h.MULPDU = mpa.MULPDU(h.EMSS, markers)
	h.DV = dv
}

// sendStartup sends a startup frame, split at cuts.
func (h *Half) sendStartup(b []byte, cuts []int) {
	if len(cuts) > 0 {
		h.c.g.notOnePer = true
	}
	prev := 0
	cuts = append(append([]int(nil), cuts...), len(b))
	sort.Ints(cuts)
	for _, c := range cuts {
		if c <= prev || c > len(b) {
			continue
		}
		h.emitData(h.nxt, b[prev:c], 0)
		h.nxt += uint32(c - prev)
		prev = c
	}
}

// emit sends a segment from this half; adv is how far the SYN/FIN advances
// the sequence number.
func (h *Half) emit(s tcpSeg, adv uint32) int {
	s.src, s.dst = h.src, h.dst
	peer := h.Peer()
	if !s.syn || s.ackf {
		s.ackf = true
		s.ack = peer.nxt
	}
	s.link = h.c.Opts.Link
	s.ipid = h.ipid
	h.ipid++
	h.tsval++
	s.tsval = h.tsval
	s.tsecr = peer.tsval
	i := h.c.g.emitTCP(s)
	h.nxt += adv
	return i
}

// emitData sends payload at seq (no sequence bookkeeping).
func (h *Half) emitData(seq uint32, payload []byte, mod Mod) int {
	return h.emit(tcpSeg{seq: seq, payload: payload, ackf: true, mod: mod}, 0)
}

// FIN sends a FIN at the current end of the stream.
func (h *Half) FIN() int {
	h.closed = true
	return h.emit(tcpSeg{fin: true, ackf: true, seq: h.nxt}, 1)
}

// RST sends a RST at seq (the current end of the stream when seq is 0).
func (h *Half) RST() int {
	h.closed = true
	return h.emit(tcpSeg{rst: true, ackf: true, seq: h.nxt}, 0)
}

// Raw sends arbitrary octets as the next data of the half (not framed).
func (h *Half) Raw(b []byte) int {
	i := h.emitData(h.nxt, b, 0)
	h.nxt += uint32(len(b))
	return i
}

// ---- full operation: FPDUs and segments ----

// ULPDU frames u as the next FPDU of the stream and returns its reference.
func (h *Half) ULPDU(u []byte) mpa.FPDURef {
	f := h.S.Add(u)
	h.fpduEnd[f.Seq] = f.Seq + uint32(f.Len)
	if !h.c.g.noIntent {
		h.c.g.intend(h, f.LengthSeq, u)
	}
	return f
}

// FPDUBytes returns the wire octets of an FPDU of the stream (a sub-slice
// that scenarios may alter before the segments are emitted).
func (h *Half) FPDUBytes(f mpa.FPDURef) []byte { return h.S.Data[f.Off : f.Off+f.Len] }

// Pending returns the stream offsets [from, to) not yet taken for segments.
func (h *Half) Pending() (from, to int) { return h.sent, len(h.S.Data) }

func (h *Half) take() (from, to int, fpdus []mpa.FPDURef) {
	from, to = h.sent, len(h.S.Data)
	fpdus = h.S.FPDUs[h.fsent:]
	h.sent, h.fsent = to, len(h.S.FPDUs)
	return
}

// CutAt cuts the pending stream at the given offsets (relative to the start
// of the pending data) and returns the segments.
func (h *Half) CutAt(offs []int) []mpa.Segment {
	from, to, _ := h.take()
	return h.cut(from, to, offs, false)
}

func (h *Half) cut(from, to int, offs []int, abs bool) []mpa.Segment {
	cuts := make([]int, 0, len(offs)+1)
	for _, o := range offs {
		if !abs {
			o += from
		}
		cuts = append(cuts, o)
	}
	sort.Ints(cuts)
	cuts = append(cuts, to)
	var segs []mpa.Segment
	prev := from
	for _, c := range cuts {
		if c <= prev || c > to {
			continue
		}
		segs = append(segs, mpa.Segment{Seq: h.S.Seq(prev), Data: h.S.Data[prev:c]})
		prev = c
	}
	return segs
}

// Aligned packs the pending FPDUs whole into segments of at most EMSS octets
// (an FPDU longer than EMSS is cut at EMSS).
func (h *Half) Aligned() []mpa.Segment { return h.AlignedTo(h.EMSS) }

// AlignedTo is Aligned with a given segment limit.
func (h *Half) AlignedTo(limit int) []mpa.Segment {
	from, to, fpdus := h.take()
	return h.cut(from, to, mpa.AlignedCuts(fpdus, from, limit), true)
}

// OnePer puts each pending FPDU in its own segment.
func (h *Half) OnePer() []mpa.Segment {
	from, to, fpdus := h.take()
	cuts := make([]int, 0, len(fpdus))
	for _, f := range fpdus {
		cuts = append(cuts, f.Off)
	}
	return h.cut(from, to, cuts, true)
}

// Random cuts the pending stream at random points, segments of minLen to
// maxLen octets.
func (h *Half) Random(minLen, maxLen int) []mpa.Segment {
	from, to, _ := h.take()
	var cuts []int
	for off := from; off < to; {
		off += minLen + h.c.g.rng.IntN(maxLen-minLen+1)
		cuts = append(cuts, off)
	}
	return h.cut(from, to, cuts, true)
}

// Emit sends segments of this half's stream in the order given.
func (h *Half) Emit(segs []mpa.Segment, mods ...Mod) []int {
	var mod Mod
	for _, m := range mods {
		mod |= m
	}
	idx := make([]int, len(segs))
	for i, s := range segs {
		if e, ok := h.fpduEnd[s.Seq]; !ok || e != s.End() {
			h.c.g.notOnePer = true
		}
		idx[i] = h.emitData(s.Seq, s.Data, mod)
		if tcpseq.Num(h.nxt).Before(tcpseq.Num(s.End())) {
			h.nxt = s.End()
		}
	}
	return idx
}

// Flush sends everything pending, aligned, in order.
func (h *Half) Flush() []int { return h.Emit(h.Aligned()) }

// ---- DDP ----

// DDP is a DDP header (RFC 5041) as the generator writes it.
type DDP struct {
	Tagged, Last bool
	DV           uint8 // DDP version
	RDMAP        byte  // octet 1: reserved for the ULP (RDMAP control)
	STag         uint32
	TO           uint64
	QN, MSN, MO  uint32
}

// RDMAP control octets (RV 1 in the top two bits, opcode below).
const (
	rdmapWrite    = 0x40 // RDMA Write
	rdmapReadReq  = 0x41 // RDMA Read Request
	rdmapReadResp = 0x42 // RDMA Read Response
	rdmapSend     = 0x43 // Send
)

// Append appends the encoded header.
func (d DDP) Append(b []byte) []byte {
	ctl := d.DV & 3
	if d.Tagged {
		ctl |= 0x80
	}
	if d.Last {
		ctl |= 0x40
	}
	b = append(b, ctl, d.RDMAP)
	if d.Tagged {
		b = binary.BigEndian.AppendUint32(b, d.STag)
		return binary.BigEndian.AppendUint64(b, d.TO)
	}
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, d.QN)
	b = binary.BigEndian.AppendUint32(b, d.MSN)
	return binary.BigEndian.AppendUint32(b, d.MO)
}

// Len returns the header length (14 tagged, 18 untagged).
func (d DDP) Len() int {
	if d.Tagged {
		return 14
	}
	return 18
}

func (h *Half) rdmap(op byte) byte {
	if h.DV == 0 {
		return op &^ 0xc0 // RDMA Consortium RDMAP: RV 0
	}
	return op
}

// Segment frames one DDP segment (header and payload) as the next FPDU.
func (h *Half) Segment(d DDP, payload []byte) mpa.FPDURef {
	g := h.c.g
	var u []byte
	if g.noIntent {
		u = d.Append(g.scratch[:0]) // framed at once, not kept
	} else {
		u = d.Append(make([]byte, 0, d.Len()+len(payload)))
	}
	u = append(u, payload...)
	g.scratch = u[:0]
	return h.ULPDU(u)
}

// Reserve makes room in the stream for about n more octets of ULPDUs, so
// that framing a large amount of traffic does not copy the stream as it
// grows.
func (h *Half) Reserve(n int) {
	n += n/32 + 1024 // headers, pad, CRC, markers
	if cap(h.S.Data)-len(h.S.Data) < n {
		d := make([]byte, len(h.S.Data), len(h.S.Data)+n)
		copy(d, h.S.Data)
		h.S.Data = d
	}
}

// segSize returns the payload octets per DDP segment: seg if positive,
// else as many as fit in MULPDU.
func (h *Half) segSize(hdr, seg int) int {
	if seg > 0 {
		return seg
	}
	return h.MULPDU - hdr
}

// Write sends an RDMA Write: a tagged DDP message to stag at TO to, in DDP
// segments of at most seg payload octets (0: MULPDU). It returns the FPDUs.
func (h *Half) Write(stag uint32, to uint64, payload []byte, seg int) []mpa.FPDURef {
	n := h.segSize(14, seg)
	var out []mpa.FPDURef
	for off := 0; ; off += n {
		end := min(off+n, len(payload))
		d := DDP{Tagged: true, Last: end == len(payload), DV: h.DV, RDMAP: h.rdmap(rdmapWrite), STag: stag, TO: to + uint64(off)}
		out = append(out, h.Segment(d, payload[off:end]))
		if end == len(payload) {
			return out
		}
	}
}

// Send sends an untagged message on queue qn with the next MSN of that
// queue, in DDP segments of at most seg payload octets (0: MULPDU).
func (h *Half) Send(qn uint32, payload []byte, seg int) (msn uint32, fpdus []mpa.FPDURef) {
	if h.msn[qn] == 0 {
		h.msn[qn] = 1
	}
	msn = h.msn[qn]
	h.msn[qn]++
	n := h.segSize(18, seg)
	for off := 0; ; off += n {
		end := min(off+n, len(payload))
		d := DDP{Last: end == len(payload), DV: h.DV, RDMAP: h.rdmap(rdmapSend), QN: qn, MSN: msn, MO: uint32(off)}
		fpdus = append(fpdus, h.Segment(d, payload[off:end]))
		if end == len(payload) {
			return msn, fpdus
		}
	}
}

// RTR frames the Ready To Receive message of type t (RFC 6581) as the next
// FPDU: a zero-length Send into a posted buffer, a zero-length RDMA Write to
// a registered STag, or a zero-length RDMA Read Request (on QN 1, into a
// buffer posted for it) naming a sink STag that it registers on the peer
// half, for the Read Response. It returns that sink STag (0 for the other
// types).
func (h *Half) RTR(t mpa.RTR) (sink uint32) {
	switch t {
	case mpa.RTRSend:
		h.PostRecv(0, 16)
		h.Send(0, nil, 0)
	case mpa.RTRWrite:
		h.Write(h.RegisterSTag(64), 0, nil, 0)
	case mpa.RTRRead:
		sink = h.Peer().RegisterSTag(64)
		h.PostRecv(1, 28)
		if h.msn[1] == 0 {
			h.msn[1] = 1
		}
		msn := h.msn[1]
		h.msn[1]++
		req := binary.BigEndian.AppendUint32(nil, sink) // Data Sink STag
		req = binary.BigEndian.AppendUint64(req, 0)     // Data Sink TO
		req = binary.BigEndian.AppendUint32(req, 0)     // RDMA Read Message Size
		req = binary.BigEndian.AppendUint32(req, 0x77)  // Data Source STag (the Responder's)
		req = binary.BigEndian.AppendUint64(req, 0)     // Data Source TO
		h.Segment(DDP{Last: true, DV: h.DV, RDMAP: h.rdmap(rdmapReadReq), QN: 1, MSN: msn}, req)
	}
	return sink
}

// ReadResponse frames a zero-length RDMA Read Response to sink (the answer
// to a zero-length Read Request RTR).
func (h *Half) ReadResponse(sink uint32) {
	h.Segment(DDP{Tagged: true, Last: true, DV: h.DV, RDMAP: h.rdmap(rdmapReadResp), STag: sink}, nil)
}

// RegisterSTag registers a tagged buffer of n octets that this half's data
// may target, and returns its STag.
func (h *Half) RegisterSTag(n uint64) uint32 {
	g := h.c.g
	stag := g.nextSTag<<8 | uint32(0x5a^g.nextSTag&0xff)
	g.nextSTag++
	g.setup.STags = append(g.setup.STags, vector.STag{STag: stag, Conn: h.c.Index, Dir: h.Dir(), Addr: g.alloc(n), Len: n})
	return stag
}

// PostRecv posts an untagged receive buffer of n octets on queue qn for the
// next MSN of that queue, and returns the MSN.
func (h *Half) PostRecv(qn uint32, n uint64) uint32 {
	g := h.c.g
	if h.postMSN[qn] == 0 {
		h.postMSN[qn] = 1
	}
	msn := h.postMSN[qn]
	h.postMSN[qn]++
	g.setup.Recvs = append(g.setup.Recvs, vector.Recv{Conn: h.c.Index, Dir: h.Dir(), QN: qn, MSN: msn, Addr: g.alloc(n), Len: n})
	return msn
}

// String names the half connection "src>dst".
func (h *Half) String() string { return fmt.Sprintf("%s>%s", h.src, h.dst) }

// TCP opens a plain TCP connection (handshake only, no MPA) that the
// receiver is not told about; its halves send with Raw.
func (g *Gen) TCP(link Link) *Conn {
	c := &Conn{g: g, Index: -1, Opts: ConnOpts{Link: link}}
	port := uint16(30000 + g.nextHost%20000)
	ini := vector.Endpoint{IP: g.host(), Port: port}
	res := vector.Endpoint{IP: g.host(), Port: 80}
	for d := range 2 {
		h := &Half{c: c, dir: d, nxt: g.rng.Uint32(), ipid: uint16(g.rng.Uint32()), fpduEnd: map[uint32]uint32{}, tsval: g.rng.Uint32() >> 4}
		h.src, h.dst = ini, res
		if d == 1 {
			h.src, h.dst = res, ini
		}
		h.EMSS = link.EMSS()
		c.H[d] = h
	}
	i, r := c.H[0], c.H[1]
	i.emit(tcpSeg{syn: true, seq: i.nxt, mss: uint16(link.mtu() - 40)}, 1)
	r.emit(tcpSeg{syn: true, ackf: true, seq: r.nxt, mss: uint16(link.mtu() - 40)}, 1)
	i.emit(tcpSeg{seq: i.nxt}, 0)
	return c
}
