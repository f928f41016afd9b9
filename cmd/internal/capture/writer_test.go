package capture

import (
	"encoding/binary"
	"time"
)

// The writers and link converters here build test captures from the
// format and link-type definitions, independently of the reader.

// rec is one record to write: the link-layer octets as captured, the
// original length (0: the captured length), the time and, for pcapng, the
// interface and block type.
type rec struct {
	data  []byte
	orig  int
	t     time.Time
	iface int
	block uint32 // pcapng: ngEPB (default), ngPB or ngSPB
}

func (x rec) origLen() int {
	if x.orig != 0 {
		return x.orig
	}
	return len(x.data)
}

// byteOrder is a binary.ByteOrder that also appends.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

func order(be bool) byteOrder {
	if be {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// writePcap returns a classic pcap file.
func writePcap(be, nano bool, lt LinkType, recs []rec) []byte {
	o := order(be)
	magic := uint32(0xa1b2c3d4)
	if nano {
		magic = 0xa1b23c4d
	}
	b := o.AppendUint32(nil, magic)
	b = o.AppendUint16(b, 2)
	b = o.AppendUint16(b, 4)
	b = o.AppendUint32(b, 0)
	b = o.AppendUint32(b, 0)
	b = o.AppendUint32(b, 262144)
	b = o.AppendUint32(b, uint32(lt))
	for _, x := range recs {
		frac := uint32(x.t.Nanosecond())
		if !nano {
			frac /= 1000
		}
		b = o.AppendUint32(b, uint32(x.t.Unix()))
		b = o.AppendUint32(b, frac)
		b = o.AppendUint32(b, uint32(len(x.data)))
		b = o.AppendUint32(b, uint32(x.origLen()))
		b = append(b, x.data...)
	}
	return b
}

// ngIfaceSpec describes an Interface Description Block.
type ngIfaceSpec struct {
	lt       LinkType
	snap     uint32
	tsresol  int   // if_tsresol option value; 0: no option (microseconds)
	tsoffset int64 // if_tsoffset option value when non-zero
}

// ngSection is one pcapng section: its byte order, interfaces and records.
type ngSection struct {
	be     bool
	ifaces []ngIfaceSpec
	recs   []rec
	// extra blocks written after the interfaces: Name Resolution,
	// Interface Statistics and one of a type not assigned, which the reader skips
	extra bool
}

func ngAppendBlock(b []byte, o byteOrder, typ uint32, body []byte) []byte {
	for len(body)%4 != 0 {
		body = append(body, 0)
	}
	n := uint32(12 + len(body))
	b = o.AppendUint32(b, typ)
	b = o.AppendUint32(b, n)
	b = append(b, body...)
	return o.AppendUint32(b, n)
}

func ngOption(b []byte, o byteOrder, code uint16, v []byte) []byte {
	b = o.AppendUint16(b, code)
	b = o.AppendUint16(b, uint16(len(v)))
	b = append(b, v...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// writePcapng returns a pcapng file of the sections.
func writePcapng(secs ...ngSection) []byte {
	var b []byte
	for _, s := range secs {
		o := order(s.be)
		shb := o.AppendUint32(nil, 0x1a2b3c4d)
		shb = o.AppendUint16(shb, 1)
		shb = o.AppendUint16(shb, 0)
		shb = o.AppendUint64(shb, ^uint64(0))
		shb = ngOption(shb, o, 4, []byte("mparx capture test")) // shb_userappl
		shb = ngOption(shb, o, 0, nil)
		b = ngAppendBlock(b, o, 0x0a0d0d0a, shb)
		units := make([]int64, len(s.ifaces))
		for i, ifc := range s.ifaces {
			idb := o.AppendUint16(nil, uint16(ifc.lt))
			idb = o.AppendUint16(idb, 0)
			idb = o.AppendUint32(idb, ifc.snap)
			idb = ngOption(idb, o, 2, []byte("if"+string(rune('0'+i)))) // if_name
			units[i] = 1e6
			if ifc.tsresol != 0 {
				idb = ngOption(idb, o, 9, []byte{byte(ifc.tsresol)})
				if ifc.tsresol&0x80 != 0 {
					units[i] = 1 << (ifc.tsresol & 0x7f)
				} else {
					units[i] = 1
					for range ifc.tsresol {
						units[i] *= 10
					}
				}
			}
			if ifc.tsoffset != 0 {
				idb = ngOption(idb, o, 14, o.AppendUint64(nil, uint64(ifc.tsoffset)))
			}
			idb = ngOption(idb, o, 0, nil)
			b = ngAppendBlock(b, o, 1, idb)
		}
		if s.extra {
			nrb := o.AppendUint16(nil, 1) // nrb_record_ipv4
			nrb = o.AppendUint16(nrb, 9)
			nrb = append(nrb, 10, 0, 0, 1, 'h', 'o', 's', 't', 0, 0, 0, 0)
			nrb = append(nrb, 0, 0, 0, 0) // nrb_record_end
			b = ngAppendBlock(b, o, 4, nrb)
			isb := o.AppendUint32(nil, 0)
			isb = o.AppendUint64(isb, 0)
			b = ngAppendBlock(b, o, 5, isb)
			b = ngAppendBlock(b, o, 0x0000bead, o.AppendUint32(nil, 32473)) // a block type not assigned
		}
		for _, x := range s.recs {
			ifc := s.ifaces[x.iface]
			ts := x.t.Unix() - ifc.tsoffset
			ticks := uint64(ts)*uint64(units[x.iface]) + uint64(int64(x.t.Nanosecond())*units[x.iface]/1e9)
			switch x.block {
			case 3: // SPB
				body := o.AppendUint32(nil, uint32(x.origLen()))
				b = ngAppendBlock(b, o, 3, append(body, x.data...))
			case 2: // PB
				body := o.AppendUint16(nil, uint16(x.iface))
				body = o.AppendUint16(body, 0)
				body = o.AppendUint32(body, uint32(ticks>>32))
				body = o.AppendUint32(body, uint32(ticks))
				body = o.AppendUint32(body, uint32(len(x.data)))
				body = o.AppendUint32(body, uint32(x.origLen()))
				b = ngAppendBlock(b, o, 2, append(body, x.data...))
			default: // EPB, with an option after the data
				body := o.AppendUint32(nil, uint32(x.iface))
				body = o.AppendUint32(body, uint32(ticks>>32))
				body = o.AppendUint32(body, uint32(ticks))
				body = o.AppendUint32(body, uint32(len(x.data)))
				body = o.AppendUint32(body, uint32(x.origLen()))
				body = append(body, x.data...)
				for len(body)%4 != 0 {
					body = append(body, 0)
				}
				body = ngOption(body, o, 2, o.AppendUint32(nil, 1)) // epb_flags: inbound
				body = ngOption(body, o, 0, nil)
				b = ngAppendBlock(b, o, 6, body)
			}
		}
	}
	return b
}

// Link converters: each takes an Ethernet II frame and returns it as the
// link type carries it, and want returns the Ethernet frame the reader
// gives for it (the MAC addresses the link does not carry zeroed).

func src(eth []byte) []byte { return eth[6:12] }

func toSLL(eth []byte) []byte {
	h := []byte{0, 4, 0, 1, 0, 6} // outgoing, ARPHRD_ETHER, 6-octet address
	h = append(h, src(eth)...)
	h = append(h, 0, 0)
	return append(h, eth[12:]...) // protocol (the EtherType), then the payload
}

func toSLL2(eth []byte) []byte {
	h := append([]byte(nil), eth[12:14]...) // protocol
	h = append(h, 0, 0, 0, 0, 0, 3)         // reserved, interface index 3
	h = append(h, 0, 1, 0, 6)               // ARPHRD_ETHER, to us, 6-octet address
	h = append(h, src(eth)...)
	h = append(h, 0, 0)
	return append(h, eth[14:]...)
}

func toRaw(eth []byte) []byte { return append([]byte(nil), eth[14:]...) }

func toNull(be bool, family uint32) func([]byte) []byte {
	return func(eth []byte) []byte {
		return append(order(be).AppendUint32(nil, family), eth[14:]...)
	}
}

// keepSrc is the frame as read from a Linux cooked capture: no destination.
func keepSrc(eth []byte) []byte {
	out := append([]byte(nil), eth...)
	clear(out[:6])
	return out
}

// noMACs is the frame as read from a link without MAC addresses.
func noMACs(eth []byte) []byte {
	out := append([]byte(nil), eth...)
	clear(out[:12])
	return out
}
