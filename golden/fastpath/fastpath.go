package fastpath

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/tcpseq"
	"github.com/mparx/mparx/golden/wire"
)

// Verdict is what the hardware does with a frame.
type Verdict uint8

// Verdicts.
const (
	Place     Verdict = iota + 1 // validated: its FPDUs are placed (or get DDP errors)
	Exception                    // sent unmodified to software with a Reason
	Drop                         // a checksum or header check failed: discarded, a Dropped event
	Ignore                       // nothing to do: no payload, old duplicate, beyond the window
)

var verdictNames = [...]string{"", "place", "exception", "drop", "ignore"}

func (v Verdict) String() string { return verdictNames[v] }

// Reason says why a frame went to software (the exception stream's tuser).
type Reason uint8

// Reasons, in the order the hardware tests them.
const (
	NotTCP     Reason = 1 // not Ethernet II / IPv4 or IPv6 / TCP, or an IPv4 fragment
	NoConn     Reason = 2 // no context for the 4-tuple
	NotFull    Reason = 3 // the context is not in full operation, or in error
	Flags      Reason = 4 // SYN, FIN or RST set
	SWOwned    Reason = 5 // software owns the half connection
	Unaligned  Reason = 6 // not whole FPDUs from the segment start, a ULPDU under 14 octets, overlaps what was received
	OutOfOrder Reason = 7 // out of order and not verifiable, or carries a DDP message end
	RangesFull Reason = 8 // no free out-of-order range
	MPACheck   Reason = 9 // an FPDU failed its CRC or a marker check: software reports code 2 or 3
	// IPv6Ext: an IPv6 frame whose fixed header is followed by an
	// extension header (Hop-by-Hop Options, Routing, Fragment, Destination
	// Options). The hardware does not walk the chain, so it knows neither
	// the half connection nor where TCP starts; software parses the frame
	// and takes the half connection over (System). Tested with NotTCP,
	// before any other test but the frame's length.
	IPv6Ext Reason = 10
)

// ErrIPv6Ext is the error of Engine.Parse for an IPv6 frame whose fixed
// header names an extension header as its Next Header (reason IPv6Ext).
var ErrIPv6Ext = errors.New("fastpath: IPv6 extension header")

// MaxRanges is the number of out-of-order ranges a context holds.
const MaxRanges = 2

// MinULPDU is the smallest ULPDU the hardware takes: a tagged DDP header.
const MinULPDU = ddp.TaggedHeaderLen

// Range is a run of sequence space [Start, End) placed out of order.
type Range struct{ Start, End uint32 }

// Context is the hardware's state of one half connection (section 3 of
// docs/design.md), programmed by software through the configuration port
// and updated by the hardware.
type Context struct {
	Full    bool // in full operation
	Err     bool // software reported an MPA error: everything goes to software
	SWOwned bool
	Params  mpa.Half // markers, CRC, SeqStart
	RcvNxt  uint32
	Stream  ddp.StreamID
	// DDPVersion is the DDP version negotiated for the stream (the
	// Placer's per-stream version; the RTL's context field [21:20]).
	DDPVersion uint8
	Ranges     []Range // sorted, at most MaxRanges, all beyond RcvNxt
}

// EventKind is what an Event reports.
type EventKind uint8

// Event kinds.
const (
	Placed    EventKind = iota + 1 // a ULPDU validated and placed
	DDPError                       // a ULPDU validated, rejected by DDP: nothing placed
	Delivered                      // the in-order point passed a placed ULPDU with L set
	Dropped                        // the frame was dropped
	Advanced                       // the in-order point moved to End
	Consumed                       // [Seq, End) was placed out of order
)

// Event is one event of the hardware's event stream.
type Event struct {
	Kind   EventKind
	Half   wire.FourTuple
	Seq    uint32 // ULPDU_Length field (Placed, DDPError, Delivered); start (Consumed)
	End    uint32 // Advanced, Consumed
	Len    int    // ULPDU length
	SHA256 [32]byte
	DDP    ddp.Header
	Addr   uint64
	Err    error
	// PtrRFC5044 and PtrDraft01 (Advanced, Consumed) count the segment's
	// FPDUs that begin with a marker and hold a later one, by the FPDUPTR
	// form of those markers (mpa.PtrForm): the ADVANCED / CONSUMED event's
	// bits [23:16] and [15:8].
	PtrRFC5044, PtrDraft01 int
}

// Result is the hardware's handling of one frame.
type Result struct {
	Verdict Verdict
	Reason  Reason
	Half    wire.FourTuple // zero when the frame is not TCP
	Events  []Event
}

// Engine is the functional model of the hardware: its context table and
// its DDP tables.
type Engine struct {
	// Window is how far beyond rcv_nxt data is taken (as rx.Config.Window).
	Window uint32
	Placer *ddp.Placer
	// Slots, when not zero, is the size of the hardware's context table
	// (CONN_COUNT): a context lives at Index(t, Slots), and a half
	// connection whose slot holds another one's context is not programmed
	// (its frames are NO_CONN).
	Slots int
	// FrameLimit, when not zero, is the longest frame in octets the
	// hardware takes: a longer frame is dropped before any other check
	// (DROP code 0, as a bad FCS; rx.ErrOversize, as rx.Config.FrameLimit
	// drops it). mpa_rx stores each frame in its frame
	// FIFO while it checks it and drops a frame the FIFO cannot hold:
	// FIFO_DEPTH + 1 beats when the frame finds the FIFO empty, at least
	// 2 x MAX_FRAME octets with the default FIFO_DEPTH
	// (cycle.FrameCapacity; golden/cycle models the FIFO's fill).
	FrameLimit int
	// IPv4Only models a hardware without the IPv6 parser: every frame
	// with EtherType IPv6 is NOT_TCP, and an IPv6 half connection gets no
	// context (Claim fails).
	IPv4Only bool
	ctx      map[wire.FourTuple]*Context
	owner    map[int]wire.FourTuple
	scratch  []byte
}

// Index returns the context table slot of half connection t in a table of
// slots entries (a power of two): the XOR of the source address, the
// destination address rotated left by 8 bits (so that the two halves of a
// connection do not share a slot) and the ports, folded to 16 bits, low
// bits (rtl/mpa_rx.v ctx_hash). An IPv6 address is first folded to 32
// bits, the XOR of its four words (an XOR tree beside the IPv4 one; the
// parser knows the version).
func Index(t wire.FourTuple, slots int) int {
	return slot(fold32(t.SrcIP), fold32(t.DstIP), t, slots)
}

// IndexAs6 is Index with both addresses folded as IPv6 addresses, also
// when they are IPv4-mapped: the slot mpa_rx_ctx hashes the key of a frame
// of the IPv6 layout to.
func IndexAs6(t wire.FourTuple, slots int) int {
	return slot(fold128(t.SrcIP), fold128(t.DstIP), t, slots)
}

// slot folds the folded addresses and the ports of t to one of slots.
func slot(src, dst uint32, t wire.FourTuple, slots int) int {
	x := src ^ bits.RotateLeft32(dst, 8) ^ (uint32(t.SrcPort)<<16 | uint32(t.DstPort))
	h := (x >> 16) ^ (x & 0xffff)
	return int(h) & (slots - 1)
}

// fold32 returns an IPv4 address as its 32 bits, an IPv6 address as the
// XOR of its four 32-bit words.
func fold32(a wire.Addr) uint32 {
	if a.Is4() {
		return binary.BigEndian.Uint32(a[12:])
	}
	return fold128(a)
}

// fold128 returns the XOR of the address's four 32-bit words.
func fold128(a wire.Addr) uint32 {
	w := func(i int) uint32 { return binary.BigEndian.Uint32(a[i:]) }
	return w(0) ^ w(4) ^ w(8) ^ w(12)
}

// New returns an engine with no contexts that places through p.
func New(p *ddp.Placer, window uint32) *Engine {
	return &Engine{Window: window, Placer: p, ctx: map[wire.FourTuple]*Context{}}
}

// SetContext programs the context of half connection t (the configuration
// port). It reports false, and programs nothing, when t's slot holds another
// half connection's context.
func (e *Engine) SetContext(t wire.FourTuple, c Context) bool {
	if !e.Claim(t) {
		return false
	}
	cp := c
	cp.Ranges = append([]Range(nil), c.Ranges...)
	e.ctx[t] = &cp
	return true
}

// Claim reserves t's slot of the context table (and of the receive-queue
// tables, which are per slot) for t. It reports false when the slot
// belongs to another half connection, and for an IPv6 half connection
// when the engine is IPv4Only.
func (e *Engine) Claim(t wire.FourTuple) bool {
	if e.IPv4Only && t.IPv6() {
		return false
	}
	if e.Slots == 0 {
		return true
	}
	if e.owner == nil {
		e.owner = map[int]wire.FourTuple{}
	}
	i := Index(t, e.Slots)
	if o, ok := e.owner[i]; ok && o != t {
		return false
	}
	e.owner[i] = t
	return true
}

// Context returns the context of half connection t.
func (e *Engine) Context(t wire.FourTuple) (Context, bool) {
	c, ok := e.ctx[t]
	if !ok {
		return Context{}, false
	}
	return *c, true
}

// fpdu is one validated FPDU of a segment.
type fpdu struct {
	lseq  uint32
	ulpdu []byte
	hdr   ddp.Header
	form  mpa.PtrForm
}

// Parse parses frame b as the hardware does: wire.Parse, after two tests
// of its own. A frame longer than FrameLimit is rx.ErrOversize (its Frame
// holds what wire.ParseWith(b, 0) finds: a drop report names its segment
// when it can). A frame with EtherType IPv6 (after an optional 802.1Q tag)
// is wire.ErrNotIP when the engine is IPv4Only, and ErrIPv6Ext when its
// fixed header is there with version 6 and a Next Header of Hop-by-Hop
// Options, Routing, Fragment or Destination Options.
func (e *Engine) Parse(b []byte) (wire.Frame, error) {
	if e.FrameLimit > 0 && len(b) > e.FrameLimit {
		f, _ := wire.ParseWith(b, 0)
		return f, fmt.Errorf("%w: %d octets, the limit is %d", rx.ErrOversize, len(b), e.FrameLimit)
	}
	if off, ok := ipv6Offset(b); ok {
		if e.IPv4Only {
			return wire.Frame{}, fmt.Errorf("%w: IPv6, and the hardware parses IPv4 only", wire.ErrNotIP)
		}
		if len(b) >= off+40 && b[off]>>4 == 6 {
			switch nh := b[off+6]; nh {
			case wire.ProtocolHopByHop, wire.ProtocolRouting, wire.ProtocolFragment, wire.ProtocolDestOpts:
				return wire.Frame{}, fmt.Errorf("%w: next header %d", ErrIPv6Ext, nh)
			}
		}
	}
	return wire.Parse(b)
}

// ipv6Offset returns the offset of the IP header of an Ethernet frame and
// whether its EtherType is IPv6.
func ipv6Offset(b []byte) (int, bool) {
	if len(b) < 14 {
		return 0, false
	}
	off, et := 14, binary.BigEndian.Uint16(b[12:])
	if et == wire.EtherTypeVLAN && len(b) >= 18 {
		off, et = 18, binary.BigEndian.Uint16(b[16:])
	}
	return off, et == wire.EtherTypeIPv6
}

// Frame processes one Ethernet frame.
func (e *Engine) Frame(b []byte) Result {
	f, err := e.Parse(b)
	switch {
	case errors.Is(err, ErrIPv6Ext):
		return Result{Verdict: Exception, Reason: IPv6Ext}
	case errors.Is(err, wire.ErrNotIP), errors.Is(err, wire.ErrNotTCP), errors.Is(err, wire.ErrFragment):
		return Result{Verdict: Exception, Reason: NotTCP}
	case err != nil:
		t := f.FourTuple()
		return Result{Verdict: Drop, Half: t, Events: []Event{{Kind: Dropped, Half: t, Seq: f.Seq, Err: err}}}
	}
	t := f.FourTuple()
	res := Result{Half: t}
	c := e.ctx[t]
	exception := func(r Reason) Result {
		res.Verdict, res.Reason = Exception, r
		return res
	}
	switch {
	case c == nil:
		return exception(NoConn)
	case !c.Full || c.Err:
		return exception(NotFull)
	case c.SWOwned:
		return exception(SWOwned)
	}
	seq, data := tcpseq.Num(f.Seq), f.Payload
	end, rcv := seq.Add(len(data)), tcpseq.Num(c.RcvNxt)
	// Software takes the stream over whenever it gets a segment of it.
	handOver := func(r Reason) Result {
		c.SWOwned, c.Ranges = true, nil
		return exception(r)
	}
	switch {
	case f.Flags&(wire.FlagSYN|wire.FlagFIN|wire.FlagRST) != 0:
		return handOver(Flags)
	case len(data) == 0, !rcv.Before(end):
		res.Verdict = Ignore // no payload, or an old duplicate
		return res
	case seq.Before(rcv):
		return handOver(Unaligned)
	case seq.Offset(rcv) >= e.Window || end.Offset(rcv) > e.Window:
		if seq.Offset(rcv) >= e.Window {
			res.Verdict = Ignore // beyond the window, as the golden receiver drops it
			return res
		}
		return handOver(OutOfOrder)
	}
	for _, r := range c.Ranges {
		if seq.Before(tcpseq.Num(r.End)) && tcpseq.Num(r.Start).Before(end) {
			return handOver(Unaligned)
		}
	}
	inOrder := seq == rcv
	if !inOrder && !(c.Params.Markers && c.Params.CRC) {
		return handOver(OutOfOrder)
	}
	fpdus, reason := e.walk(c.Params, uint32(seq), data, !inOrder)
	if reason != 0 {
		return handOver(reason)
	}
	if !inOrder {
		merged, ok := AddRange(c.Ranges, Range{uint32(seq), uint32(end)})
		if !ok {
			return handOver(RangesFull)
		}
		c.Ranges = merged
	}
	res.Verdict = Place
	var rfc, draft int
	for _, fp := range fpdus {
		switch fp.form {
		case mpa.PtrRFC5044:
			rfc++
		case mpa.PtrDraft01:
			draft++
		}
		sum := sha256.Sum256(fp.ulpdu)
		p, err := e.Placer.Place(c.Stream, fp.ulpdu)
		if err != nil {
			res.Events = append(res.Events, Event{Kind: DDPError, Half: t, Seq: fp.lseq, Len: len(fp.ulpdu), SHA256: sum, DDP: p.Header, Err: err})
			continue
		}
		res.Events = append(res.Events, Event{Kind: Placed, Half: t, Seq: fp.lseq, Len: len(fp.ulpdu), SHA256: sum, DDP: p.Header, Addr: p.Addr})
		if inOrder && p.Header.Last {
			e.Placer.Deliver(c.Stream, p.Header)
			res.Events = append(res.Events, Event{Kind: Delivered, Half: t, Seq: fp.lseq, DDP: p.Header})
		}
	}
	if !inOrder {
		res.Events = append(res.Events, Event{Kind: Consumed, Half: t, Seq: uint32(seq), End: uint32(end), PtrRFC5044: rfc, PtrDraft01: draft})
		return res
	}
	// The in-order point moves past the segment and any ranges it reaches.
	c.RcvNxt = uint32(end)
	for len(c.Ranges) > 0 && c.Ranges[0].Start == c.RcvNxt {
		c.RcvNxt = c.Ranges[0].End
		c.Ranges = c.Ranges[1:]
	}
	res.Events = append(res.Events, Event{Kind: Advanced, Half: t, Seq: uint32(seq), End: c.RcvNxt, PtrRFC5044: rfc, PtrDraft01: draft})
	return res
}

// walk validates the segment as whole FPDUs from its first octet and
// returns them, or the reason to hand the segment to software. The reasons
// are decided by a fixed priority, not by which FPDU shows a fault first
// (the hardware computes them as per-segment flags):
//
//  1. markers on and the segment off the 4-octet grid of SeqStart: UNALIGNED
//  2. not whole FPDUs from its first octet to its last, or a ULPDU under 14
//     octets (the hardware's walk stops at one): UNALIGNED
//  3. out of order and no marker in the first FPDU before its CRC field
//     (nothing confirms the first FPDU's start): OOO
//  4. a CRC or marker check fails: MPA_CHECK
//  5. out of order and an FPDU with the DDP L bit (the hardware keeps no
//     delivery records): OOO
func (e *Engine) walk(p mpa.Half, seq uint32, b []byte, ooo bool) ([]fpdu, Reason) {
	if p.Markers && (seq-p.SeqStart)%4 != 0 {
		return nil, Unaligned
	}
	var out []fpdu
	firstMarker, checks, anyL := false, true, false
	for off := 0; off < len(b); {
		s := seq + uint32(off)
		wl, lseq := p.FPDUAt(s, b[off:])
		if wl == 0 || wl > len(b)-off {
			return nil, Unaligned
		}
		if ulen := int(b[off+int(lseq-s)])<<8 | int(b[off+int(lseq-s)+1]); ulen < MinULPDU {
			return nil, Unaligned
		}
		if off == 0 {
			firstMarker = p.Markers && p.NextMarker(s)-s < uint32(wl-mpa.CRCLen)
		}
		u, form, err := p.DeframeForm(s, b[off:off+wl], &e.scratch)
		off += wl
		if err != nil {
			checks = false
			continue
		}
		anyL = anyL || (len(u) > 0 && u[0]&0x40 != 0)
		h, _, _ := ddp.ParseHeader(u)
		out = append(out, fpdu{lseq: lseq, ulpdu: append([]byte(nil), u...), hdr: h, form: form})
	}
	switch {
	case ooo && !firstMarker:
		return nil, OutOfOrder
	case !checks:
		return nil, MPACheck
	case ooo && anyL:
		return nil, OutOfOrder
	}
	return out, 0
}

// AddRange adds r to the sorted ranges, merging it with ranges it touches;
// it fails when that would need more than MaxRanges.
func AddRange(rs []Range, r Range) ([]Range, bool) {
	out := make([]Range, 0, len(rs)+1)
	for _, x := range rs {
		switch {
		case x.End == r.Start:
			r.Start = x.Start
		case r.End == x.Start:
			r.End = x.End
		default:
			out = append(out, x)
		}
	}
	i := 0
	for i < len(out) && tcpseq.Num(out[i].Start).Before(tcpseq.Num(r.Start)) {
		i++
	}
	out = append(out[:i], append([]Range{r}, out[i:]...)...)
	if len(out) > MaxRanges {
		return nil, false
	}
	return out, true
}

// DropCode returns the code a DROP event carries (docs/design.md section
// 4) for a frame that Engine.Parse rejects with err: 0 a frame longer than
// the hardware stores (as a bad FCS, which only the cycle model sees), 2
// IPv4 header checksum, 3 TCP checksum, 1 any other malformed frame.
func DropCode(err error) int {
	switch {
	case errors.Is(err, rx.ErrOversize):
		return 0
	case errors.Is(err, wire.ErrIPChecksum):
		return 2
	case errors.Is(err, wire.ErrTCPChecksum):
		return 3
	}
	return 1
}

// String renders an event for test failures.
func (ev Event) String() string {
	return fmt.Sprintf("kind=%d %v seq=%d end=%d len=%d", ev.Kind, ev.Half, ev.Seq, ev.End, ev.Len)
}
