package ddp

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
)

// StreamID names a DDP stream: one half connection, from the Data Source to
// this Data Sink. The receiver assigns the numbers.
type StreamID uint32

// NumQueues is the number of untagged receive queues of every stream: the
// valid QNs are 0, 1 and 2, as RDMAP uses them (RFC 5040 section 5.1:
// 0 Send, 1 RDMA Read Request, 2 Terminate). Any other QN is KindInvalidQN.
const NumQueues = 3

// Placer is a Data Sink's DDP placement engine for any number of streams: a
// tagged buffer table (STag -> stream, base address, length) and, per stream
// and QN, a queue of posted untagged buffers. Place validates a DDP segment
// and writes its payload to Memory; Deliver completes messages in order.
//
// Tagged Offsets are zero based: TO is the offset from the start of the
// tagged buffer, which RFC 5041 allows (a Data Sink may instead treat TO as a
// virtual address; this model does not). The first message on each untagged
// queue has MSN 1; the buffers posted to a queue take MSNs 1, 2, 3 ... in
// posting order (modulo 2^32). An MSN m is in range on a queue whose current
// MSN is c when (m - c) mod 2^32 < 2^31; MSNs below c (already completed)
// and from c + 2^31 on are KindMSNRange.
//
// A Placer is not safe for concurrent use.
type Placer struct {
	// Version is the DDP version (DV) accepted in every header: VersionIETF
	// (1, RFC 5041, the default) or VersionRDMC (0) for RDMA Consortium
	// peers. A segment with another version is KindTaggedVersion or
	// KindUntaggedVersion. SetVersion overrides it per stream.
	Version uint8

	// OnMiss, when set, is called by Place for a segment that finds no
	// buffer (a tagged one an STag that was never registered, an untagged
	// one no buffer posted for its MSN) before Place reports it: it may
	// register the STag or post the buffers (a setup learned as the
	// traffic goes), and returns true when it did, for Place to look
	// again.
	OnMiss func(s StreamID, h Header) bool

	versions map[StreamID]uint8
	mem      *Memory
	stags    map[uint32]*region
	regions  []*region // every registration, in order, for Image
	streams  map[StreamID]*[NumQueues]queue
	errs     errorCache
}

type region struct {
	stag         uint32
	stream       StreamID
	base, length uint64
	valid        bool
}

type queue struct {
	bufs []*buffer // bufs[i] has MSN 1+i (mod 2^32)
	done int       // messages completed: the current MSN is 1+done
}

type buffer struct {
	base, length uint64
	seen         uint64 // highest MO+len placed: the message length at delivery
}

func (q *queue) current() uint32 { return uint32(1 + q.done) }

// NewPlacer returns a Placer that writes to mem and accepts DDP version 1.
func NewPlacer(mem *Memory) *Placer {
	return &Placer{
		Version: VersionIETF,
		mem:     mem,
		stags:   map[uint32]*region{},
		streams: map[StreamID]*[NumQueues]queue{},
	}
}

// Memory returns the memory the Placer writes to.
func (p *Placer) Memory() *Memory { return p.mem }

// SetVersion sets the DDP version accepted on stream s, overriding Version
// for it: the receiver calls it with the version its MPA startup negotiated
// (0 when a permissive end met an RDMA Consortium peer, RFC 5044 Appendix C).
func (p *Placer) SetVersion(s StreamID, v uint8) {
	if p.versions == nil {
		p.versions = map[StreamID]uint8{}
	}
	p.versions[s] = v
}

// version returns the DDP version accepted on stream s.
func (p *Placer) version(s StreamID) uint8 {
	if v, ok := p.versions[s]; ok {
		return v
	}
	return p.Version
}

// RegisterSTag makes the length octets at base a tagged buffer named stag,
// owned by stream s. It fails if stag is already registered and valid, or if
// the buffer would wrap the 64-bit address space. An STag that was
// invalidated may be registered again.
func (p *Placer) RegisterSTag(stag uint32, s StreamID, base, length uint64) error {
	if r := p.stags[stag]; r != nil && r.valid {
		return fmt.Errorf("ddp: STag %#08x is already registered", stag)
	}
	if length > 0 && base > math.MaxUint64-(length-1) {
		return fmt.Errorf("ddp: tagged buffer at %#x of %d octets wraps the address space", base, length)
	}
	r := &region{stag: stag, stream: s, base: base, length: length, valid: true}
	p.stags[stag] = r
	p.regions = append(p.regions, r)
	return nil
}

// InvalidateSTag invalidates stag: later segments naming it are
// KindInvalidSTag. Its buffer stays in the Image. Unknown STags are ignored.
func (p *Placer) InvalidateSTag(stag uint32) {
	if r := p.stags[stag]; r != nil {
		r.valid = false
	}
}

// PostRecv posts an untagged buffer of length octets at base to queue qn of
// stream s. It takes the next MSN of that queue. It fails for a QN outside
// 0..NumQueues-1 or a buffer that would wrap the address space.
func (p *Placer) PostRecv(s StreamID, qn uint32, base, length uint64) error {
	if qn >= NumQueues {
		return fmt.Errorf("ddp: QN %d: streams have queues 0..%d", qn, NumQueues-1)
	}
	if length > 0 && base > math.MaxUint64-(length-1) {
		return fmt.Errorf("ddp: untagged buffer at %#x of %d octets wraps the address space", base, length)
	}
	q := &p.queues(s)[qn]
	q.bufs = append(q.bufs, &buffer{base: base, length: length})
	return nil
}

// CurrentMSN returns the MSN of the oldest message not yet delivered on
// queue qn of stream s (1 before the first delivery), or 0 for an invalid
// QN.
func (p *Placer) CurrentMSN(s StreamID, qn uint32) uint32 {
	if qn >= NumQueues {
		return 0
	}
	if qs := p.streams[s]; qs != nil {
		return qs[qn].current()
	}
	return 1
}

func (p *Placer) queues(s StreamID) *[NumQueues]queue {
	qs := p.streams[s]
	if qs == nil {
		qs = new([NumQueues]queue)
		p.streams[s] = qs
	}
	return qs
}

// Placement is the result of placing one DDP segment.
type Placement struct {
	Header Header // the segment's header (also set when Place fails after parsing it)
	Addr   uint64 // host address of the first payload octet
	Len    int    // payload octets written (may be 0)
}

// Place validates one DDP segment (a ULPDU that MPA passed up on stream s)
// and writes its payload to memory. The checks, in order: header length;
// version; then for a tagged segment STag valid, STag owned by s, TO wrap,
// bounds; for an untagged one QN, MSN range, buffer posted, MO, MO + length.
// On any error it writes nothing and returns an *Error.
func (p *Placer) Place(s StreamID, ulpdu []byte) (Placement, error) {
	h, payload, err := ParseHeader(ulpdu)
	pl := Placement{Header: h}
	if err != nil {
		return pl, err
	}
	n := uint64(len(payload))
	if h.Tagged {
		if v := p.version(s); h.Version != v {
			return pl, p.errs.errorf(KindTaggedVersion, "DV %d, accepting %d", uint64(h.Version), uint64(v))
		}
		r := p.stags[h.STag]
		if r == nil && p.OnMiss != nil && p.OnMiss(s, h) {
			r = p.stags[h.STag]
		}
		switch {
		case r == nil:
			return pl, p.errs.errorf(KindInvalidSTag, "STag %#08x is not registered", uint64(h.STag))
		case !r.valid:
			return pl, p.errs.errorf(KindInvalidSTag, "STag %#08x was invalidated", uint64(h.STag))
		case r.stream != s:
			return pl, p.errs.errorf(KindSTagNotAssociated, "STag %#08x belongs to stream %d, not %d", uint64(h.STag), uint64(r.stream), uint64(s))
		case n > 0 && h.TO > math.MaxUint64-(n-1):
			return pl, p.errs.errorf(KindTOWrap, "TO %#x + %d octets", h.TO, n)
		case h.TO > r.length || n > r.length-h.TO:
			return pl, p.errs.errorf(KindBaseBounds, "TO %d + %d octets, buffer of %d", h.TO, n, r.length)
		}
		pl.Addr, pl.Len = r.base+h.TO, len(payload)
		p.mem.place(s, pl.Addr, payload)
		return pl, nil
	}

	if v := p.version(s); h.Version != v {
		return pl, p.errs.errorf(KindUntaggedVersion, "DV %d, accepting %d", uint64(h.Version), uint64(v))
	}
	if h.QN >= NumQueues {
		return pl, p.errs.errorf(KindInvalidQN, "QN %d", uint64(h.QN))
	}
	q := &p.queues(s)[h.QN]
	cur := q.current()
	d := h.MSN - cur
	if d >= 1<<31 {
		return pl, p.errs.errorf(KindMSNRange, "MSN %d on QN %d, current %d", uint64(h.MSN), uint64(h.QN), uint64(cur))
	}
	if uint64(d) >= uint64(len(q.bufs)-q.done) && p.OnMiss != nil && p.OnMiss(s, h) {
		q = &p.queues(s)[h.QN]
	}
	if uint64(d) >= uint64(len(q.bufs)-q.done) {
		return pl, p.errs.errorf(KindNoBuffer, "MSN %d on QN %d, %d buffers posted", uint64(h.MSN), uint64(h.QN), uint64(len(q.bufs)))
	}
	b := q.bufs[q.done+int(d)]
	mo := uint64(h.MO)
	if mo > b.length {
		return pl, p.errs.errorf(KindInvalidMO, "MO %d, buffer of %d", uint64(h.MO), b.length)
	}
	if n > b.length-mo {
		return pl, p.errs.errorf(KindTooLong, "MO %d + %d octets, buffer of %d", uint64(h.MO), n, b.length)
	}
	pl.Addr, pl.Len = b.base+mo, len(payload)
	b.seen = max(b.seen, mo+n)
	p.mem.place(s, pl.Addr, payload)
	return pl, nil
}

// Delivery reports a DDP message handed to the ULP.
type Delivery struct {
	Stream StreamID
	Header Header // the header of the message's last segment
	// Untagged only: the buffer the message was placed in and the message
	// length, the highest MO + payload length placed for its MSN.
	Addr uint64
	Len  uint64
}

// ErrDelivery is wrapped by Deliver's errors: a delivery out of MSN order,
// of a segment without L, or of an untagged message with an invalid QN or
// no buffer. The receiver delivers only segments that Place accepted, in
// TCP order, so these mean a bug in the caller or a sender skipping MSNs.
var ErrDelivery = errors.New("ddp: invalid delivery")

// Deliver completes a DDP message: the receiver calls it, in TCP order, for
// every segment with L set that Place accepted, once all octets before it
// have arrived (RFC 5041 section 5). A tagged message needs no state. An
// untagged message must be the current MSN of its queue: its buffer is
// consumed and the current MSN advances by one.
func (p *Placer) Deliver(s StreamID, h Header) (Delivery, error) {
	dv := Delivery{Stream: s, Header: h}
	if !h.Last {
		return dv, fmt.Errorf("%w: segment without L (%v)", ErrDelivery, h)
	}
	if h.Tagged {
		return dv, nil
	}
	if h.QN >= NumQueues {
		return dv, fmt.Errorf("%w: QN %d", ErrDelivery, h.QN)
	}
	q := &p.queues(s)[h.QN]
	if h.MSN != q.current() {
		return dv, fmt.Errorf("%w: MSN %d on QN %d, current %d", ErrDelivery, h.MSN, h.QN, q.current())
	}
	if q.done >= len(q.bufs) {
		return dv, fmt.Errorf("%w: MSN %d on QN %d has no buffer", ErrDelivery, h.MSN, h.QN)
	}
	b := q.bufs[q.done]
	q.done++
	dv.Addr, dv.Len = b.base, b.seen
	return dv, nil
}

// Region is one buffer of the Image: a tagged buffer or a posted untagged
// buffer, with its final contents.
type Region struct {
	Tagged bool
	Stream StreamID
	STag   uint32 // tagged buffers
	QN     uint32 // untagged buffers
	MSN    uint32 // untagged buffers: the MSN the buffer was posted for
	Base   uint64
	Length uint64
	Data   []byte // the Length octets at Base
}

// Image is the final state of host memory as DDP sees it.
type Image []Region

// Image returns every tagged buffer ever registered (invalidated ones too)
// ordered by STag then registration, followed by every posted untagged
// buffer ordered by stream, QN and MSN, each with its current contents.
// It reads every buffer whole: meant for test-sized buffers.
func (p *Placer) Image() Image {
	var img Image
	tagged := slices.Clone(p.regions)
	slices.SortStableFunc(tagged, func(a, b *region) int { return cmp.Compare(a.stag, b.stag) })
	for _, r := range tagged {
		img = append(img, Region{Tagged: true, Stream: r.stream, STag: r.stag,
			Base: r.base, Length: r.length, Data: p.mem.Read(r.base, int(r.length))})
	}
	ids := make([]StreamID, 0, len(p.streams))
	for s := range p.streams {
		ids = append(ids, s)
	}
	slices.Sort(ids)
	for _, s := range ids {
		for qn := range p.streams[s] {
			for i, b := range p.streams[s][qn].bufs {
				img = append(img, Region{Stream: s, QN: uint32(qn), MSN: uint32(1 + i),
					Base: b.base, Length: b.length, Data: p.mem.Read(b.base, int(b.length))})
			}
		}
	}
	return img
}

// Digest returns the hex SHA-256 of the image's canonical encoding: for
// each region in order, 33 octets of big-endian metadata (tagged flag as one
// octet, stream, STag, QN, MSN as 32 bits, base and length as 64 bits) and
// then its data.
func (img Image) Digest() string {
	h := sha256.New()
	var meta [33]byte
	for _, r := range img {
		meta[0] = 0
		if r.Tagged {
			meta[0] = 1
		}
		binary.BigEndian.PutUint32(meta[1:], uint32(r.Stream))
		binary.BigEndian.PutUint32(meta[5:], r.STag)
		binary.BigEndian.PutUint32(meta[9:], r.QN)
		binary.BigEndian.PutUint32(meta[13:], r.MSN)
		binary.BigEndian.PutUint64(meta[17:], r.Base)
		binary.BigEndian.PutUint64(meta[25:], r.Length)
		h.Write(meta[:])
		h.Write(r.Data)
	}
	return hex.EncodeToString(h.Sum(nil))
}
