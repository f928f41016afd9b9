package cycle

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// Fields are the header fields of a frame that the events carry
// (docs/design.md section 4): the half connection, the sequence number and
// payload length of the TCP segment. Defined is false when the frame has no
// IPv4/TCP or IPv6/TCP header to take them from (not IP/TCP, an IPv4
// fragment, an IPv6 extension header or IPv4-mapped address, lengths that
// do not fit the frame): the events then leave them undefined.
type Fields struct {
	Defined bool
	Tuple   wire.FourTuple
	Seq     uint32
	PayLen  int
	PayOff  int // frame offset of the first payload octet
}

// ParseFields returns the event fields of frame b. They are taken from the
// header positions even when a checksum is wrong (a checksum DROP still
// names its segment).
func ParseFields(b []byte) Fields {
	var f Fields
	if len(b) < 14 {
		return f
	}
	off := 14
	et := binary.BigEndian.Uint16(b[12:])
	if et == wire.EtherTypeVLAN {
		if len(b) < 18 {
			return f
		}
		et = binary.BigEndian.Uint16(b[16:])
		off = 18
	}
	var tcp []byte
	switch et {
	case wire.EtherTypeIPv4:
		if len(b) < off+20 {
			return f
		}
		ip := b[off:]
		ihl := int(ip[0]&0x0f) * 4
		total := int(binary.BigEndian.Uint16(ip[2:]))
		if ip[0]>>4 != 4 || ihl < 20 || total < ihl || total > len(ip) {
			return f
		}
		if ip[9] != wire.ProtocolTCP || binary.BigEndian.Uint16(ip[6:])&0x3fff != 0 {
			return f
		}
		f.Tuple.SrcIP = wire.AddrFrom4([4]byte(ip[12:16]))
		f.Tuple.DstIP = wire.AddrFrom4([4]byte(ip[16:20]))
		tcp, off = ip[ihl:total], off+ihl
	case wire.EtherTypeIPv6:
		// the fixed header and TCP right after it (the receiver does not
		// walk extension headers)
		if len(b) < off+40 {
			return f
		}
		ip := b[off:]
		plen := int(binary.BigEndian.Uint16(ip[4:]))
		if ip[0]>>4 != 6 || ip[6] != wire.ProtocolTCP || 40+plen > len(ip) {
			return f
		}
		f.Tuple.SrcIP, f.Tuple.DstIP = wire.Addr(ip[8:24]), wire.Addr(ip[24:40])
		if f.Tuple.SrcIP.Is4() || f.Tuple.DstIP.Is4() {
			return Fields{}
		}
		tcp, off = ip[40:40+plen], off+40
	default:
		return f
	}
	if len(tcp) < 20 {
		return Fields{}
	}
	thl := int(tcp[12]>>4) * 4
	if thl < 20 || thl > len(tcp) {
		return Fields{}
	}
	f.Tuple.SrcPort = binary.BigEndian.Uint16(tcp[0:])
	f.Tuple.DstPort = binary.BigEndian.Uint16(tcp[2:])
	f.Seq = binary.BigEndian.Uint32(tcp[4:])
	f.PayOff = off + thl
	f.PayLen = len(tcp) - thl
	f.Defined = true
	return f
}

// WalkParams are the marker and CRC settings the FPDU walker applies to a
// frame: the context's, or markers off when the frame has no context.
type WalkParams struct {
	Markers  bool
	SeqStart uint32
}

// Records returns the number of FPDU records the walker makes for a frame
// (rtl/mpa_rx_walk.v header): it walks the payload words the frame's beats
// complete (word k holds frame octets 4k-2 .. 4k+1; a word reaching past
// the last beat is not seen), records every FPDU whose ULPDU_Length word is
// payload, and stops after the first ULPDU_Length under 14. beats is the
// number of beats of width lanes octets the frame took.
func Records(b []byte, fl Fields, p WalkParams, beats, lanes int) int {
	if !fl.Defined || fl.PayLen == 0 {
		return 0
	}
	// The payload starts at a word boundary of the word view: PayOff is
	// 2 mod 4 (headers after Ethernet are multiples of 4 octets).
	if (fl.PayOff+2)%4 != 0 {
		return 0
	}
	npay := (fl.PayLen + 3) / 4
	seen := (beats*lanes - 2 - fl.PayOff) / 4 // words with 4k+1 < beats*lanes
	npay = min(npay, max(seen, 0))
	pay := make([]byte, 4*npay)
	for i := range pay {
		if o := fl.PayOff + i; o < len(b) {
			pay[i] = b[o]
		}
	}
	h := mpa.Half{Markers: p.Markers, SeqStart: p.SeqStart}
	if p.Markers {
		// Off the word grid, markers are taken at the word that holds the
		// marker position (as if SeqStart were on the payload's grid).
		h.SeqStart += (fl.Seq - p.SeqStart) % 4
	}
	n := 0
	for off := 0; off < len(pay); {
		seq := fl.Seq + uint32(off)
		wl, lseq := h.FPDUAt(seq, pay[off:])
		if wl == 0 {
			break
		}
		n++
		lo := off + int(lseq-seq)
		if int(binary.BigEndian.Uint16(pay[lo:])) < fastpath.MinULPDU {
			break
		}
		off += wl
	}
	return n
}

// FPDU is one FPDU of a segment as the host write port sees it: the frame
// offsets of its ULPDU octets (markers skipped), and its ULPDU.
type FPDU struct {
	LSeq  uint32 // sequence number of the ULPDU_Length field
	ULPDU []byte
	Pos   []int // Pos[i]: frame offset of ULPDU octet i
}

// FPDUs splits the payload of a whole-FPDU segment into its FPDUs (markers
// stripped), with the frame position of every ULPDU octet.
func FPDUs(b []byte, fl Fields, h mpa.Half) []FPDU {
	pay := b[fl.PayOff : fl.PayOff+fl.PayLen]
	var out []FPDU
	for off := 0; off < len(pay); {
		seq := fl.Seq + uint32(off)
		wl, lseq := h.FPDUAt(seq, pay[off:])
		if wl == 0 || off+wl > len(pay) {
			break
		}
		// The FPDU's content octets, markers skipped.
		var body []byte
		var pos []int
		for i := 0; i < wl; {
			if h.IsMarker(seq + uint32(i)) {
				i += mpa.MarkerLen
				continue
			}
			body = append(body, pay[off+i])
			pos = append(pos, fl.PayOff+off+i)
			i++
		}
		ulen := int(binary.BigEndian.Uint16(body))
		end := min(mpa.LengthFieldLen+ulen, len(body))
		out = append(out, FPDU{LSeq: lseq, ULPDU: body[mpa.LengthFieldLen:end], Pos: pos[mpa.LengthFieldLen:end]})
		off += wl
	}
	return out
}
