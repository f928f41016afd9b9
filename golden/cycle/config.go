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
)

// CfgData is the 384-bit cfg_data as six 64-bit words, least significant
// first.
type CfgData [6]uint64

// EncodeOp returns the configuration write (cfg_op, cfg_index, cfg_data) of
// a table write of software, for a context table of slots entries and an
// STag table of stagCount entries (both powers of two).
func EncodeOp(o fastpath.Op, slots, stagCount int) (op, index int, d CfgData) {
	switch o.Kind {
	case fastpath.OpContext:
		return OpContext, fastpath.Index(o.Half, slots), EncodeContext(o.Half, o.Ctx)
	case fastpath.OpSTag:
		return OpSTag, int(o.STag>>8) & (stagCount - 1),
			EncodeSTag(STagEntry{Valid: o.Valid, STag: o.STag, Stream: o.Stream, Base: o.Base, Length: o.Len})
	case fastpath.OpPost:
		return OpPost, fastpath.Index(o.Half, slots),
			EncodeRecv(RecvEntry{QN: o.QN, Valid: o.Valid, MSN: o.MSN, Stream: o.Stream, Base: o.Base, Length: uint32(o.Len)})
	}
	return OpMSN, fastpath.Index(o.Half, slots), EncodeRecv(RecvEntry{QN: o.QN, MSN: o.MSN})
}

// Field returns width bits (at most 64) from bit pos.
func (d *CfgData) Field(pos, width int) uint64 {
	var v uint64
	for i := 0; i < width; i++ {
		if d[(pos+i)/64]>>((pos+i)%64)&1 != 0 {
			v |= 1 << i
		}
	}
	return v
}

// SetField writes width bits (at most 64) of v at bit pos.
func (d *CfgData) SetField(pos, width int, v uint64) {
	for i := 0; i < width; i++ {
		bit := uint64(1) << ((pos + i) % 64)
		if v>>i&1 != 0 {
			d[(pos+i)/64] |= bit
		} else {
			d[(pos+i)/64] &^= bit
		}
	}
}

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

// Entry is a context entry as the configuration port carries it (section
// 3, with the DDP version in [21:20]): the half connection it is for and
// its fastpath state.
type Entry struct {
	Valid bool
	Tuple wire.FourTuple
	Ctx   fastpath.Context
}

// EncodeContext returns the cfg_data of a context write (op 0). The
// context holds IPv4 addresses: an IPv6 half connection has no context
// (the model's engine is IPv4Only, whose Claim refuses one).
func EncodeContext(t wire.FourTuple, c fastpath.Context) CfgData {
	src, dst := t.SrcIP.As4(), t.DstIP.As4()
	var d CfgData
	d.SetField(0, 1, 1)
	d.SetField(1, 1, b2u(c.Full))
	d.SetField(2, 1, b2u(c.Err))
	d.SetField(3, 1, b2u(c.SWOwned))
	d.SetField(4, 1, b2u(c.Params.Markers))
	d.SetField(5, 1, b2u(c.Params.CRC))
	d.SetField(8, 12, uint64(c.Stream))
	d.SetField(20, 2, uint64(c.DDPVersion))
	d.SetField(32, 32, uint64(c.Params.SeqStart))
	d.SetField(64, 32, uint64(c.RcvNxt))
	d.SetField(96, 32, uint64(binary.BigEndian.Uint32(src[:])))
	d.SetField(128, 32, uint64(binary.BigEndian.Uint32(dst[:])))
	d.SetField(160, 16, uint64(t.SrcPort))
	d.SetField(176, 16, uint64(t.DstPort))
	for i, rg := range c.Ranges {
		d.SetField(6+i, 1, 1)
		d.SetField(192+64*i, 32, uint64(rg.Start))
		d.SetField(224+64*i, 32, uint64(rg.End))
	}
	return d
}

// DecodeContext decodes the cfg_data of a context write.
func DecodeContext(d CfgData) Entry {
	e := Entry{Valid: d.Field(0, 1) == 1}
	e.Ctx.Full = d.Field(1, 1) == 1
	e.Ctx.Err = d.Field(2, 1) == 1
	e.Ctx.SWOwned = d.Field(3, 1) == 1
	e.Ctx.Params = mpa.Half{Markers: d.Field(4, 1) == 1, CRC: d.Field(5, 1) == 1, SeqStart: uint32(d.Field(32, 32))}
	e.Ctx.Stream = ddp.StreamID(d.Field(8, 12))
	e.Ctx.DDPVersion = uint8(d.Field(20, 2))
	e.Ctx.RcvNxt = uint32(d.Field(64, 32))
	e.Tuple.SrcIP = ipv4(d.Field(96, 32))
	e.Tuple.DstIP = ipv4(d.Field(128, 32))
	e.Tuple.SrcPort = uint16(d.Field(160, 16))
	e.Tuple.DstPort = uint16(d.Field(176, 16))
	for i := 0; i < fastpath.MaxRanges; i++ {
		if d.Field(6+i, 1) == 1 {
			e.Ctx.Ranges = append(e.Ctx.Ranges, fastpath.Range{Start: uint32(d.Field(192+64*i, 32)), End: uint32(d.Field(224+64*i, 32))})
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
	d.SetField(0, 1, b2u(e.Valid))
	d.SetField(32, 32, uint64(e.STag))
	d.SetField(64, 12, uint64(e.Stream))
	d.SetField(128, 64, e.Base)
	d.SetField(192, 64, e.Length)
	return d
}

// DecodeSTag decodes the cfg_data of an STag write.
func DecodeSTag(d CfgData) STagEntry {
	return STagEntry{Valid: d.Field(0, 1) == 1, STag: uint32(d.Field(32, 32)), Stream: ddp.StreamID(d.Field(64, 12)),
		Base: d.Field(128, 64), Length: d.Field(192, 64)}
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

// EncodeRecv returns the cfg_data of a receive-queue write (op 2 or 3).
func EncodeRecv(e RecvEntry) CfgData {
	var d CfgData
	d.SetField(0, 2, uint64(e.QN))
	d.SetField(2, 1, b2u(e.Valid))
	d.SetField(32, 32, uint64(e.MSN))
	d.SetField(64, 12, uint64(e.Stream))
	d.SetField(128, 64, e.Base)
	d.SetField(192, 32, uint64(e.Length))
	return d
}

// DecodeRecv decodes the cfg_data of a receive-queue write.
func DecodeRecv(d CfgData) RecvEntry {
	return RecvEntry{QN: uint32(d.Field(0, 2)), Valid: d.Field(2, 1) == 1, MSN: uint32(d.Field(32, 32)),
		Stream: ddp.StreamID(d.Field(64, 12)), Base: d.Field(128, 64), Length: uint32(d.Field(192, 32))}
}
