package cycle

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// Configuration operations on cfg_op (docs/design.md section 4).
const (
	OpContext = 0
	OpSTag    = 1
	OpPost    = 2
	OpMSN     = 3
	// OpAddr6 stages the two 128-bit addresses of the next context write
	// with CtxV6 (an IPv6 half connection's context takes two writes).
	OpAddr6 = 4
)

// CfgData is the 384-bit cfg_data as six 64-bit words, least significant
// first.
type CfgData [6]uint64

// CfgWrite is one configuration write: cfg_op, cfg_index, cfg_data.
type CfgWrite struct {
	Op, Index int
	Data      CfgData
}

// EncodeOps returns the configuration writes of a table write of software,
// for a context table of slots entries and an STag table of stagCount
// entries (both powers of two): one, or for the context of an IPv6 half
// connection two (its addresses, then the context).
func EncodeOps(o fastpath.Op, slots, stagCount int) []CfgWrite {
	switch o.Kind {
	case fastpath.OpContext:
		return EncodeContextWrites(o.Half, o.Ctx, fastpath.Index(o.Half, slots))
	case fastpath.OpSTag:
		return []CfgWrite{{OpSTag, int(o.STag>>8) & (stagCount - 1),
			EncodeSTag(STagEntry{Valid: o.Valid, STag: o.STag, Stream: o.Stream, Base: o.Base, Length: o.Len})}}
	case fastpath.OpPost:
		return []CfgWrite{{OpPost, fastpath.Index(o.Half, slots),
			EncodeRecv(RecvEntry{QN: o.QN, Valid: o.Valid, MSN: o.MSN, Stream: o.Stream, Base: o.Base, Length: uint32(o.Len)})}}
	}
	return []CfgWrite{{OpMSN, fastpath.Index(o.Half, slots), EncodeRecv(RecvEntry{QN: o.QN, MSN: o.MSN})}}
}

// EncodeContextWrites returns the configuration writes that program the
// context of half connection t in slot: for IPv6 the address write
// (OpAddr6), then the context write (OpContext).
func EncodeContextWrites(t wire.FourTuple, c fastpath.Context, slot int) []CfgWrite {
	w := CfgWrite{OpContext, slot, EncodeContext(t, c)}
	if !t.IPv6() {
		return []CfgWrite{w}
	}
	return []CfgWrite{{OpAddr6, slot, EncodeAddr6(t.SrcIP, t.DstIP)}, w}
}

// EncodeAddr6 returns the cfg_data of an address write (OpAddr6).
func EncodeAddr6(src, dst wire.Addr) CfgData {
	var d CfgData
	for i, a := range [2]wire.Addr{src, dst} {
		d[2*i+1] = binary.BigEndian.Uint64(a[0:])
		d[2*i] = binary.BigEndian.Uint64(a[8:])
	}
	return d
}

// DecodeAddr6 decodes the cfg_data of an address write: source and
// destination.
func DecodeAddr6(d CfgData) (src, dst wire.Addr) {
	binary.BigEndian.PutUint64(src[0:], d[1])
	binary.BigEndian.PutUint64(src[8:], d[0])
	binary.BigEndian.PutUint64(dst[0:], d[3])
	binary.BigEndian.PutUint64(dst[8:], d[2])
	return src, dst
}

// Field returns width bits (at most 64) from bit pos.
func (d *CfgData) Field(pos, width int) uint64 { return getBits(d[:], pos, width) }

// SetField writes width bits (at most 64) of v at bit pos.
func (d *CfgData) SetField(pos, width int, v uint64) { setBits(d[:], pos, width, v) }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// ipv4 returns the IPv4 address of a 32-bit context field, in its
// IPv4-mapped form.
func ipv4(v uint64) wire.Addr {
	var ip [4]byte
	binary.BigEndian.PutUint32(ip[:], uint32(v))
	return wire.AddrFrom4(ip)
}

// ctxRanges are the out-of-order range fields of a context entry.
var ctxRanges = [fastpath.MaxRanges]struct{ valid, start, end int }{
	{CtxR0Valid, CtxR0Start, CtxR0End},
	{CtxR1Valid, CtxR1Start, CtxR1End},
}

// Entry is a context entry as the configuration port carries it (section
// 3, with the DDP version in [21:20]): the half connection it is for and
// its fastpath state.
type Entry struct {
	Valid bool
	Tuple wire.FourTuple
	Ctx   fastpath.Context
}

// EncodeContext returns the cfg_data of a context write (op 0): for an
// IPv4 half connection with its addresses, for an IPv6 one with CtxV6 set
// and the address fields zero (the addresses go in an address write
// before it: EncodeContextWrites).
func EncodeContext(t wire.FourTuple, c fastpath.Context) CfgData {
	var d CfgData
	if t.IPv6() {
		d.SetField(CtxV6, 1, 1)
	} else {
		src, dst := t.SrcIP.As4(), t.DstIP.As4()
		d.SetField(CtxSrcIP, CtxSrcIPW, uint64(binary.BigEndian.Uint32(src[:])))
		d.SetField(CtxDstIP, CtxDstIPW, uint64(binary.BigEndian.Uint32(dst[:])))
	}
	d.SetField(CtxValid, 1, 1)
	d.SetField(CtxFull, 1, b2u(c.Full))
	d.SetField(CtxErr, 1, b2u(c.Err))
	d.SetField(CtxSWOwned, 1, b2u(c.SWOwned))
	d.SetField(CtxMarkers, 1, b2u(c.Params.Markers))
	d.SetField(CtxCRC, 1, b2u(c.Params.CRC))
	d.SetField(CtxStream, CtxStreamW, uint64(c.Stream))
	d.SetField(CtxDDPVer, CtxDDPVerW, uint64(c.DDPVersion))
	d.SetField(CtxSeqStart, CtxSeqStartW, uint64(c.Params.SeqStart))
	d.SetField(CtxRcvNxt, CtxRcvNxtW, uint64(c.RcvNxt))
	d.SetField(CtxSrcPort, CtxSrcPortW, uint64(t.SrcPort))
	d.SetField(CtxDstPort, CtxDstPortW, uint64(t.DstPort))
	for i, rg := range c.Ranges {
		d.SetField(ctxRanges[i].valid, 1, 1)
		d.SetField(ctxRanges[i].start, CtxR0StartW, uint64(rg.Start))
		d.SetField(ctxRanges[i].end, CtxR0EndW, uint64(rg.End))
	}
	return d
}

// DecodeContext decodes the cfg_data of a context write of an IPv4 half
// connection (DecodeContext6 when CtxV6 is set).
func DecodeContext(d CfgData) Entry {
	return DecodeContext6(d, wire.Addr{}, wire.Addr{})
}

// DecodeContext6 decodes the cfg_data of a context write, with src and
// dst the addresses of the last address write: the tuple's addresses when
// CtxV6 is set.
func DecodeContext6(d CfgData, src, dst wire.Addr) Entry {
	e := Entry{Valid: d.Field(CtxValid, 1) == 1}
	e.Ctx.Full = d.Field(CtxFull, 1) == 1
	e.Ctx.Err = d.Field(CtxErr, 1) == 1
	e.Ctx.SWOwned = d.Field(CtxSWOwned, 1) == 1
	e.Ctx.Params = mpa.Half{Markers: d.Field(CtxMarkers, 1) == 1, CRC: d.Field(CtxCRC, 1) == 1,
		SeqStart: uint32(d.Field(CtxSeqStart, CtxSeqStartW))}
	e.Ctx.Stream = ddp.StreamID(d.Field(CtxStream, CtxStreamW))
	e.Ctx.DDPVersion = uint8(d.Field(CtxDDPVer, CtxDDPVerW))
	e.Ctx.RcvNxt = uint32(d.Field(CtxRcvNxt, CtxRcvNxtW))
	e.Tuple.SrcIP = ipv4(d.Field(CtxSrcIP, CtxSrcIPW))
	e.Tuple.DstIP = ipv4(d.Field(CtxDstIP, CtxDstIPW))
	if d.Field(CtxV6, 1) == 1 {
		e.Tuple.SrcIP, e.Tuple.DstIP = src, dst
	}
	e.Tuple.SrcPort = uint16(d.Field(CtxSrcPort, CtxSrcPortW))
	e.Tuple.DstPort = uint16(d.Field(CtxDstPort, CtxDstPortW))
	for _, rg := range ctxRanges {
		if d.Field(rg.valid, 1) == 1 {
			e.Ctx.Ranges = append(e.Ctx.Ranges, fastpath.Range{Start: uint32(d.Field(rg.start, CtxR0StartW)),
				End: uint32(d.Field(rg.end, CtxR0EndW))})
		}
	}
	return e
}

// STagEntry is an STag table entry (op 1).
type STagEntry struct {
	Valid        bool
	STag         uint32
	Stream       ddp.StreamID
	Base, Length uint64
}

// EncodeSTag returns the cfg_data of an STag write.
func EncodeSTag(e STagEntry) CfgData {
	var d CfgData
	d.SetField(STagValid, 1, b2u(e.Valid))
	d.SetField(STagSTag, STagSTagW, uint64(e.STag))
	d.SetField(STagStream, STagStreamW, uint64(e.Stream))
	d.SetField(STagBase, STagBaseW, e.Base)
	d.SetField(STagLen, STagLenW, e.Length)
	return d
}

// DecodeSTag decodes the cfg_data of an STag write.
func DecodeSTag(d CfgData) STagEntry {
	return STagEntry{Valid: d.Field(STagValid, 1) == 1, STag: uint32(d.Field(STagSTag, STagSTagW)),
		Stream: ddp.StreamID(d.Field(STagStream, STagStreamW)), Base: d.Field(STagBase, STagBaseW),
		Length: d.Field(STagLen, STagLenW)}
}

// RecvEntry is a posted receive buffer (op 2), or with op 3 only QN and
// MSN: a queue's current MSN.
type RecvEntry struct {
	QN     uint32
	Valid  bool
	MSN    uint32
	Stream ddp.StreamID
	Base   uint64
	Length uint32
}

// EncodeRecv returns the cfg_data of a receive-queue write (op 2, or op 3
// with the queue-MSN fields QMSNQN and QMSNMSN, which are at the same
// places).
func EncodeRecv(e RecvEntry) CfgData {
	var d CfgData
	d.SetField(RBufQN, RBufQNW, uint64(e.QN))
	d.SetField(RBufValid, 1, b2u(e.Valid))
	d.SetField(RBufMSN, RBufMSNW, uint64(e.MSN))
	d.SetField(RBufStream, RBufStreamW, uint64(e.Stream))
	d.SetField(RBufBase, RBufBaseW, e.Base)
	d.SetField(RBufLen, RBufLenW, uint64(e.Length))
	return d
}

// DecodeRecv decodes the cfg_data of a receive-queue write.
func DecodeRecv(d CfgData) RecvEntry {
	return RecvEntry{QN: uint32(d.Field(RBufQN, RBufQNW)), Valid: d.Field(RBufValid, 1) == 1,
		MSN: uint32(d.Field(RBufMSN, RBufMSNW)), Stream: ddp.StreamID(d.Field(RBufStream, RBufStreamW)),
		Base: d.Field(RBufBase, RBufBaseW), Length: uint32(d.Field(RBufLen, RBufLenW))}
}
