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
// names its segment). The context lookup and the walker take the frame as
// ParsePositional reads it, also when these fields are undefined.
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

// Positional is what mpa_rx_parse gives the context lookup and the FPDU
// walker of a frame (docs/design.md sections 3 and 5): header fields read
// at the positions the EtherType and the header length fields give, in
// the beats that hold them, before and whatever the checks that decide the
// frame's class. A frame that fails them (an IPv4 total length beyond the
// frame, an IHL under 5, a data offset under 5, an IPv4-mapped address in
// an IPv6 header, not IP at all) is still looked up and walked as far as
// these positions reach: its lookup can find a context (the verdict stage
// then waits as for a matched frame), and the walker makes records of its
// payload words, which E1 spends a cycle on each.
type Positional struct {
	// Lookup: the frame has the beat of the TCP ports' word (tuple_done),
	// so its Key is looked up.
	Lookup bool
	// Key: the addresses (an IPv4-layout frame's as IPv4-mapped) and the
	// ports. An address word that comes in a later beat than the ports'
	// (an IHL under 4) is the parser's register: the last frame's
	// (ParserRegs).
	Key wire.FourTuple
	V6  bool // the IPv6 layout: the EtherType after the optional tag is 0x86dd
	// The walker's view: Seq the sequence number's word; the payload
	// words are those from frame offset PayOff (the later of the data
	// offset's word and the header's end by the data offset) before the
	// IP datagram's end by its length field, PayLen octets from PayOff (0:
	// none), for an IPv4 layout of EtherType 0x0800, version 4, protocol
	// 6 and no fragment, or an IPv6 layout of version 6 and Next Header 6.
	Seq    uint32
	PayOff int
	PayLen int
}

// ParserRegs are the registers of mpa_rx_parse that a frame's lookup key
// can take from an earlier frame: the IPv4 layout's address words, which
// keep the last value a frame reached.
type ParserRegs struct {
	Src, Dst [4]byte
}

// ParsePositional returns the Positional fields of a frame of size octets
// whose beats of lanes octets are data (every lane of every beat; lanes
// past the frame's end as the bus carried them), and updates regs as the
// parser's registers are at the frame's end.
func ParsePositional(data []byte, size, lanes int, regs *ParserRegs) Positional {
	var p Positional
	wpb := lanes / 4
	beats := len(data) / lanes
	has := func(w int) bool { return w/wpb < beats } // word w's beat is one of the frame's
	oct := func(i int) byte {
		if i < 0 || i >= len(data) {
			return 0
		}
		return data[i]
	}
	u16 := func(i int) uint16 { return uint16(oct(i))<<8 | uint16(oct(i+1)) }
	if !has(3) {
		return p
	}
	vlan := u16(12) == wire.EtherTypeVLAN
	et, ipw := u16(12), 4
	if vlan {
		et, ipw = u16(16), 5
	}
	p.V6 = et == wire.EtherTypeIPv6
	ip := 4*ipw - 2 // frame offset of the IP header
	ver, ihl := int(oct(ip)>>4), int(oct(ip)&0x0f)
	hl := ihl
	if p.V6 {
		hl = 10
	}
	tw := ipw + hl // the TCP header's first word
	tcp := 4*tw - 2
	var src, dst [4]byte
	for i := range 4 {
		src[i], dst[i] = oct(ip+12+i), oct(ip+16+i)
	}
	// The IPv4 layout's address words at the ports' beat: this frame's
	// when they came in that beat or before, else the registers'.
	key := func(w int, cur [4]byte, reg [4]byte) [4]byte {
		if w/wpb <= tw/wpb {
			return cur
		}
		return reg
	}
	if p.Lookup = has(tw); p.Lookup {
		if p.V6 {
			p.Key.SrcIP, p.Key.DstIP = wire.Addr(data[ip+8:ip+24]), wire.Addr(data[ip+24:ip+40])
		} else {
			p.Key.SrcIP = wire.AddrFrom4(key(ipw+3, src, regs.Src))
			p.Key.DstIP = wire.AddrFrom4(key(ipw+4, dst, regs.Dst))
		}
		p.Key.SrcPort, p.Key.DstPort = u16(tcp), u16(tcp+2)
	}
	if has(ipw + 3) {
		regs.Src = src
	}
	if has(ipw + 4) {
		regs.Dst = dst
	}
	ok := ver == 6 && oct(ip+6) == wire.ProtocolTCP
	end := 4*ipw + 40 + int(u16(ip+4)) // the word offset (+2) of the datagram's end
	if !p.V6 {
		ok = et == wire.EtherTypeIPv4 && ver == 4 && oct(ip+9) == wire.ProtocolTCP && u16(ip+6)&0x3fff == 0
		end = 4*ipw + int(u16(ip+2))
	}
	end &= 0xffff // the parser's 16-bit octet offsets
	if !ok || !has(tw+3) {
		return p
	}
	p.Seq = uint32(u16(tcp+4))<<16 | uint32(u16(tcp+6))
	pw := tw + max(3, int(oct(tcp+12)>>4)) // the first payload word
	if 4*pw < end {
		p.PayOff, p.PayLen = 4*pw-2, end-4*pw
	}
	return p
}

// walkFields are the fields Records takes of a frame's Positional.
func (p Positional) walkFields() Fields {
	return Fields{Defined: p.PayLen > 0, Seq: p.Seq, PayOff: p.PayOff, PayLen: p.PayLen}
}

// keyIndex is the context slot mpa_rx_ctx hashes the key to: a frame of
// the IPv6 layout folds its addresses as IPv6 addresses also when they are
// IPv4-mapped.
func keyIndex(p Positional, slots int) int {
	if p.V6 {
		return fastpath.IndexAs6(p.Key, slots)
	}
	return fastpath.Index(p.Key, slots)
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
