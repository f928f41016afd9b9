// Package wire parses the Ethernet frames that the mparx receiver takes as
// input: Ethernet II (IEEE 802.3 clause 3.2.6 type field) with at most one
// IEEE 802.1Q tag, IPv4 (RFC 791) with options, and TCP (RFC 9293) with
// options; ParseDual also takes IPv6 (RFC 8200) with its extension headers.
//
// Parse is hand-written, allocation-free on the accept path, and safe on any
// input: it never reads outside the slice it is given, and the payload it
// returns is a sub-slice of that input. It checks every length field against
// the frame and verifies both the IPv4 header checksum (RFC 791 section 3.1)
// and the TCP checksum over the IPv4 pseudo-header (RFC 9293 section 3.1),
// or the IPv6 one (RFC 8200 section 8.1), using the ones' complement sum of
// RFC 1071.
//
// Every rejection wraps exactly one of the sentinel errors below, so a caller
// can classify a frame with errors.Is: ErrNotIPv4 (ErrNotIP for ParseDual)
// and ErrNotTCP are traffic the receiver ignores, ErrFragment is traffic it
// does not reassemble, and ErrMalformed, ErrIPChecksum and ErrTCPChecksum
// are damaged frames.
//
// Split cuts a TCP segment longer than the MSS into the frames a NIC's TCP
// segmentation offload puts on the wire.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"net/netip"
	"strconv"
)

// Sentinel errors. Parse wraps one of them, with detail, in every error it
// returns.
var (
	// ErrNotIPv4: the EtherType (after an optional 802.1Q tag) is not IPv4
	// (0x0800), for example ARP, IPv6, a second VLAN tag or an 802.3 length
	// (Parse and ParseWith).
	ErrNotIPv4 = errors.New("wire: not IPv4")
	// ErrNotIP: the EtherType (after an optional 802.1Q tag) is neither
	// IPv4 (0x0800) nor IPv6 (0x86dd) (ParseDual).
	ErrNotIP = errors.New("wire: not IP")
	// ErrNotTCP: an IPv4 packet whose protocol is not TCP (6); an IPv6
	// packet whose header chain ends in another protocol, in IPsec (AH,
	// ESP), in No Next Header, in a header the receiver does not know, or
	// that carries an option or a routing header the receiver must discard
	// the packet for (RFC 8200 sections 4.2 and 4.4).
	ErrNotTCP = errors.New("wire: not TCP")
	// ErrFragment: an IPv4 fragment of a TCP packet (MF set or a non-zero
	// fragment offset), or an IPv6 packet with a Fragment header that is
	// not an atomic fragment (RFC 6946); fragments are not reassembled.
	ErrFragment = errors.New("wire: fragment")
	// ErrMalformed: a truncated frame or an inconsistent length field.
	ErrMalformed = errors.New("wire: malformed frame")
	// ErrIPChecksum: the IPv4 header checksum does not verify.
	ErrIPChecksum = errors.New("wire: bad IPv4 header checksum")
	// ErrTCPChecksum: the TCP checksum (with the IPv4 pseudo-header) does
	// not verify.
	ErrTCPChecksum = errors.New("wire: bad TCP checksum")
)

// EtherType values and protocol numbers that Parse recognises.
const (
	EtherTypeIPv4 = 0x0800
	EtherTypeIPv6 = 0x86dd
	EtherTypeVLAN = 0x8100 // IEEE 802.1Q C-tag
	ProtocolTCP   = 6
)

// IPv6 Next Header values of the extension headers ParseDual walks or
// names (the IANA Assigned Internet Protocol Numbers registry).
const (
	ProtocolHopByHop = 0  // Hop-by-Hop Options
	ProtocolRouting  = 43 // Routing
	ProtocolFragment = 44 // Fragment
	ProtocolESP      = 50 // Encapsulating Security Payload
	ProtocolAH       = 51 // Authentication Header
	ProtocolNoNext   = 59 // No Next Header
	ProtocolDestOpts = 60 // Destination Options
)

// TCP header flag bits, as in octet 13 of the TCP header.
const (
	FlagFIN = 0x01
	FlagSYN = 0x02
	FlagRST = 0x04
	FlagPSH = 0x08
	FlagACK = 0x10
	FlagURG = 0x20
	FlagECE = 0x40
	FlagCWR = 0x80
)

const (
	ethHeaderLen  = 14
	vlanTagLen    = 4
	ipv4MinHeader = 20
	ipv6HeaderLen = 40
	tcpMinHeader  = 20
)

// Frame is a parsed Ethernet/IPv4/TCP or Ethernet/IPv6/TCP frame.
type Frame struct {
	VLAN   bool   // the frame carried one 802.1Q tag
	VLANID uint16 // VLAN identifier (low 12 bits of the TCI) when VLAN is set

	// SrcIP and DstIP are the IPv4 addresses (zero for IPv6).
	SrcIP, DstIP [4]byte
	// IPv6 reports an IPv6 frame (only ParseDual returns one).
	IPv6 bool
	// SrcAddr and DstAddr are the addresses as 128 bits, an IPv4 one in
	// its IPv4-mapped form (see Addr). For IPv6, DstAddr is the final
	// destination: a Routing header with segments left names it (RFC 8200
	// section 8.1), else it is the header's Destination Address.
	SrcAddr, DstAddr Addr
	// IPHeaderLen is the IPv4 header length in octets, options included,
	// or the IPv6 header and its extension headers: the offset of the TCP
	// header from the start of the IP packet.
	IPHeaderLen int
	// ExtHeaderLen is the length in octets of the IPv6 extension headers
	// between the fixed header and TCP (0 for IPv4, and for IPv6 without
	// extension headers). The hardware places only IPv6 frames without
	// them; the others go to software.
	ExtHeaderLen int
	TCPHeaderLen int // TCP header length in octets, options included

	SrcPort, DstPort uint16
	Seq, Ack         uint32
	Flags            uint8 // FlagFIN ... FlagCWR
	Window           uint16
	Checksum         uint16 // the TCP checksum field as carried

	// Payload is the TCP payload: a sub-slice of the input to Parse (not a
	// copy). Ethernet padding beyond the IPv4 total length (the IPv6
	// payload length) is not included.
	Payload []byte
}

// Addr is an IPv4 or IPv6 address as 128 bits: an IPv4 address a.b.c.d is
// held in its IPv4-mapped form ::ffff:a.b.c.d (RFC 4291 section 2.5.5.2).
// ParseDual rejects an IPv6 header that carries an IPv4-mapped address, so
// the form tells the two versions apart. Addr is comparable.
type Addr [16]byte

// AddrFrom4 returns the IPv4 address a as an Addr.
func AddrFrom4(a [4]byte) Addr {
	return Addr{10: 0xff, 11: 0xff, 12: a[0], 13: a[1], 14: a[2], 15: a[3]}
}

// Is4 reports whether a holds an IPv4 address (the IPv4-mapped form).
func (a Addr) Is4() bool {
	return binary.BigEndian.Uint64(a[:]) == 0 && binary.BigEndian.Uint32(a[8:]) == 0xffff
}

// As4 returns the IPv4 address of an Addr that Is4.
func (a Addr) As4() [4]byte { return [4]byte(a[12:]) }

// String returns the address in its usual text form: dotted decimal for
// IPv4, RFC 5952 for IPv6.
func (a Addr) String() string {
	if a.Is4() {
		return netip.AddrFrom4(a.As4()).String()
	}
	return netip.AddrFrom16(a).String()
}

// Parse parses and verifies one Ethernet frame (without the FCS). The checks
// are made in this order: Ethernet length and EtherType (ErrMalformed,
// ErrNotIPv4); IPv4 version, header length and total length (ErrMalformed);
// IPv4 header checksum (ErrIPChecksum); protocol (ErrNotTCP); fragmentation
// (ErrFragment); TCP header length (ErrMalformed); TCP checksum
// (ErrTCPChecksum). Octets after the IPv4 total length (Ethernet padding) are
// ignored. With ErrTCPChecksum the returned Frame is filled as for an
// accepted frame (ports, sequence number, flags, payload).
func Parse(b []byte) (Frame, error) { return ParseWith(b, CheckAll) }

// Checks selects the checksums ParseWith verifies.
type Checks uint8

// Checksums ParseWith can verify.
const (
	CheckIP  Checks = 1 << iota // the IPv4 header checksum (ErrIPChecksum)
	CheckTCP                    // the TCP checksum (ErrTCPChecksum)

	CheckAll = CheckIP | CheckTCP
)

// ParseWith is Parse verifying only the checksums in checks: with 0 it
// accepts a frame whatever its checksums hold (as Wireshark does by
// default). Every other check is made.
func ParseWith(b []byte, checks Checks) (Frame, error) {
	var f Frame
	err := parse(&f, b, checks, false)
	return f, err
}

// ParseDual is ParseWith taking IPv6 frames as well as IPv4 ones (a
// frame that is neither is ErrNotIP). For IPv6 the checks are made in this
// order: the fixed header's version and payload length (ErrMalformed); the
// extension headers, each once in the order the chain gives them
// (ErrMalformed for a length beyond the payload or a Hop-by-Hop Options
// header that is not first; ErrFragment for a Fragment header that is not
// an atomic fragment; ErrNotTCP for an option or routing type the
// receiver must discard the packet for, and for a chain that ends in
// AH, ESP, No Next Header or any protocol other than TCP); the TCP header
// length (ErrMalformed); the TCP checksum over the IPv6 pseudo-header
// (ErrTCPChecksum, checked when checks has CheckTCP; IPv6 has no header
// checksum).
//
// Options in Hop-by-Hop and Destination Options headers are walked: Pad1,
// PadN and (Hop-by-Hop only) Jumbo Payload are known; any other option is
// skipped when its type's two high bits say so and makes the packet
// ErrNotTCP otherwise (RFC 8200 section 4.2). A jumbogram (RFC 2675:
// payload length 0 and a Jumbo Payload option above 65,535) is taken with
// the option's length; a payload length of 0 without the option, the
// option with a non-zero payload length, and a jumbogram with a Fragment
// header are ErrMalformed. A Routing header with segments left names the
// final destination for types 2 (RFC 6275) and 4 (RFC 8754); another type
// with segments left is ErrNotTCP (RFC 8200 section 4.4). A Fragment
// header with offset 0 and M 0 is an atomic fragment, a whole packet (RFC
// 6946): the chain goes on after it.
func ParseDual(b []byte, checks Checks) (Frame, error) {
	var f Frame
	err := parse(&f, b, checks, true)
	return f, err
}

// parse fills f from the frame b; dual takes IPv6 as well as IPv4.
func parse(f *Frame, b []byte, checks Checks, dual bool) error {
	if len(b) < ethHeaderLen {
		return fmt.Errorf("%w: frame of %d octets is shorter than an Ethernet header", ErrMalformed, len(b))
	}
	off := 12
	et := binary.BigEndian.Uint16(b[off:])
	off += 2
	if et == EtherTypeVLAN {
		if len(b) < off+vlanTagLen {
			return fmt.Errorf("%w: frame of %d octets truncates its 802.1Q tag", ErrMalformed, len(b))
		}
		f.VLAN = true
		f.VLANID = binary.BigEndian.Uint16(b[off:]) & 0x0fff
		et = binary.BigEndian.Uint16(b[off+2:])
		off += vlanTagLen
	}
	var tcp []byte
	var err error
	switch {
	case et == EtherTypeIPv4:
		tcp, err = parseIPv4(f, b[off:], checks)
	case et == EtherTypeIPv6 && dual:
		tcp, err = parseIPv6(f, b[off:])
	case dual:
		return fmt.Errorf("%w: EtherType %#04x", ErrNotIP, et)
	default:
		return fmt.Errorf("%w: EtherType %#04x", ErrNotIPv4, et)
	}
	if err != nil {
		return err
	}
	return parseTCP(f, tcp, checks)
}

// parseIPv4 fills the IPv4 fields of f from the packet ip (the frame after
// its Ethernet header) and returns the IPv4 payload.
func parseIPv4(f *Frame, ip []byte, checks Checks) ([]byte, error) {
	if len(ip) < ipv4MinHeader {
		return nil, fmt.Errorf("%w: %d octets left for a 20-octet IPv4 header", ErrMalformed, len(ip))
	}
	if v := ip[0] >> 4; v != 4 {
		return nil, fmt.Errorf("%w: IP version %d under EtherType IPv4", ErrMalformed, v)
	}
	ihl := int(ip[0]&0x0f) * 4
	if ihl < ipv4MinHeader {
		return nil, fmt.Errorf("%w: IPv4 IHL %d < 5", ErrMalformed, ihl/4)
	}
	total := int(binary.BigEndian.Uint16(ip[2:]))
	if total < ihl {
		return nil, fmt.Errorf("%w: IPv4 total length %d < header length %d", ErrMalformed, total, ihl)
	}
	if total > len(ip) {
		return nil, fmt.Errorf("%w: IPv4 total length %d exceeds the %d octets in the frame", ErrMalformed, total, len(ip))
	}
	ip = ip[:total] // drop Ethernet padding
	if checks&CheckIP != 0 && IPv4Checksum(ip[:ihl]) != 0 {
		return nil, fmt.Errorf("%w: header checksum field %#04x", ErrIPChecksum, binary.BigEndian.Uint16(ip[10:]))
	}
	if ip[9] != ProtocolTCP {
		return nil, fmt.Errorf("%w: IPv4 protocol %d", ErrNotTCP, ip[9])
	}
	if fo := binary.BigEndian.Uint16(ip[6:]); fo&0x3fff != 0 {
		return nil, fmt.Errorf("%w: IPv4 MF=%d offset=%d", ErrFragment, fo>>13&1, (fo&0x1fff)*8)
	}
	f.IPHeaderLen = ihl
	copy(f.SrcIP[:], ip[12:16])
	copy(f.DstIP[:], ip[16:20])
	// The IPv4-mapped forms (see AddrFrom4): f is zero, octets 8 to 15
	// are 00 00 ff ff and the address, stored as one word each.
	binary.LittleEndian.PutUint64(f.SrcAddr[8:], 0xffff0000|uint64(binary.LittleEndian.Uint32(ip[12:]))<<32)
	binary.LittleEndian.PutUint64(f.DstAddr[8:], 0xffff0000|uint64(binary.LittleEndian.Uint32(ip[16:]))<<32)
	return ip[ihl:], nil
}

// parseTCP fills the TCP fields of f from the IP payload tcp.
func parseTCP(f *Frame, tcp []byte, checks Checks) error {
	ipv := "IPv4"
	if f.IPv6 {
		ipv = "IPv6"
	}
	if len(tcp) < tcpMinHeader {
		return fmt.Errorf("%w: %d octets of %s payload for a 20-octet TCP header", ErrMalformed, len(tcp), ipv)
	}
	thl := int(tcp[12]>>4) * 4
	if thl < tcpMinHeader {
		return fmt.Errorf("%w: TCP data offset %d < 5", ErrMalformed, thl/4)
	}
	if thl > len(tcp) {
		return fmt.Errorf("%w: TCP header length %d exceeds the %d-octet %s payload", ErrMalformed, thl, len(tcp), ipv)
	}
	// The header fields are filled before the checksum is checked: a frame
	// rejected with ErrTCPChecksum still names its ports and sequence
	// number (drop reports, transmit checksum offload).
	f.TCPHeaderLen = thl
	f.SrcPort = binary.BigEndian.Uint16(tcp[0:])
	f.DstPort = binary.BigEndian.Uint16(tcp[2:])
	f.Seq = binary.BigEndian.Uint32(tcp[4:])
	f.Ack = binary.BigEndian.Uint32(tcp[8:])
	f.Flags = tcp[13]
	f.Window = binary.BigEndian.Uint16(tcp[14:])
	f.Checksum = binary.BigEndian.Uint16(tcp[16:])
	f.Payload = tcp[thl:]
	if checks&CheckTCP != 0 && f.tcpChecksum(tcp) != 0 {
		return fmt.Errorf("%w: checksum field %#04x", ErrTCPChecksum, f.Checksum)
	}
	return nil
}

// tcpChecksum returns TCPChecksum or TCPChecksumIPv6 of segment with f's
// addresses.
func (f *Frame) tcpChecksum(segment []byte) uint16 {
	if f.IPv6 {
		return TCPChecksumIPv6(f.SrcAddr, f.DstAddr, segment)
	}
	return TCPChecksum(f.SrcIP, f.DstIP, segment)
}

// OffloadSignature reports whether the frame's TCP checksum field holds the
// transmit checksum offload signature: the folded ones' complement sum of
// the IPv4 pseudo-header alone (PseudoHeaderSum), which a sending stack
// leaves in the field when the NIC is to complete the checksum (Linux
// CHECKSUM_PARTIAL, the NDIS task offload contract). A capture taken on the
// sending host shows the frame before the NIC completed it.
func (f Frame) OffloadSignature() bool {
	n := f.TCPHeaderLen + len(f.Payload)
	if f.IPv6 {
		return f.Checksum == PseudoHeaderSumIPv6(f.SrcAddr, f.DstAddr, n)
	}
	return f.Checksum == PseudoHeaderSum(f.SrcIP, f.DstIP, n)
}

// PseudoHeaderSum returns the folded ones' complement sum (not
// complemented) of the IPv4 pseudo-header of a TCP segment of tcpLen octets
// from src to dst (RFC 9293 section 3.1).
func PseudoHeaderSum(src, dst [4]byte, tcpLen int) uint16 {
	acc := uint64(binary.BigEndian.Uint32(src[:])) +
		uint64(binary.BigEndian.Uint32(dst[:])) +
		ProtocolTCP + uint64(tcpLen)
	return fold(acc)
}

// PseudoHeaderSumIPv6 returns the folded ones' complement sum (not
// complemented) of the IPv6 pseudo-header of a TCP segment of tcpLen
// octets from src to dst (RFC 8200 section 8.1).
func PseudoHeaderSumIPv6(src, dst Addr, tcpLen int) uint16 {
	return fold(pseudoIPv6(src, dst, tcpLen))
}

// pseudoIPv6 returns the sum of the IPv6 pseudo-header, folded to 16 bits:
// source, destination, the 32-bit upper-layer length, and the next header
// (TCP).
func pseudoIPv6(src, dst Addr, tcpLen int) uint64 {
	var acc, c uint64
	for i := 0; i < 16; i += 8 {
		acc, c = bits.Add64(acc, binary.BigEndian.Uint64(src[i:]), c)
		acc, c = bits.Add64(acc, binary.BigEndian.Uint64(dst[i:]), c)
	}
	// the last addend is below 2^33: after a carry out, acc is small
	acc, c = bits.Add64(acc, uint64(uint32(tcpLen))+ProtocolTCP, c)
	return uint64(fold(acc + c))
}

// CompleteChecksums rewrites, in place, the IPv4 header checksum and the
// TCP checksum of an Ethernet frame that ParseWith(b, 0) accepts, to the
// values that verify: what a NIC with transmit checksum offload puts on the
// wire. It reports whether it changed an octet.
func CompleteChecksums(b []byte) (bool, error) {
	f, err := ParseWith(b, 0)
	if err != nil {
		return false, err
	}
	off := ethHeaderLen
	if f.VLAN {
		off += vlanTagLen
	}
	ip := b[off:]
	ip = ip[:binary.BigEndian.Uint16(ip[2:])]
	// A checksum that fails verification differs from the one computed
	// here, so every rewrite changes the frame.
	changed := false
	if IPv4Checksum(ip[:f.IPHeaderLen]) != 0 {
		ip[10], ip[11] = 0, 0
		binary.BigEndian.PutUint16(ip[10:], IPv4Checksum(ip[:f.IPHeaderLen]))
		changed = true
	}
	tcp := ip[f.IPHeaderLen:]
	if TCPChecksum(f.SrcIP, f.DstIP, tcp) != 0 {
		tcp[16], tcp[17] = 0, 0
		binary.BigEndian.PutUint16(tcp[16:], TCPChecksum(f.SrcIP, f.DstIP, tcp))
		changed = true
	}
	return changed, nil
}

// FourTuple names the half connection that carried a frame: data flows from
// Src to Dst. It is comparable and can be used as a map key.
type FourTuple struct {
	SrcIP, DstIP     [4]byte
	SrcPort, DstPort uint16
}

// FourTuple returns the frame's (source, destination) address and port pair.
func (f Frame) FourTuple() FourTuple {
	return FourTuple{SrcIP: f.SrcIP, DstIP: f.DstIP, SrcPort: f.SrcPort, DstPort: f.DstPort}
}

// Reverse returns the four-tuple of the opposite half connection.
func (t FourTuple) Reverse() FourTuple {
	return FourTuple{SrcIP: t.DstIP, DstIP: t.SrcIP, SrcPort: t.DstPort, DstPort: t.SrcPort}
}

// Src returns the source as "ip:port", for example "10.0.0.1:40000".
func (t FourTuple) Src() string { return endpoint(t.SrcIP, t.SrcPort) }

// Dst returns the destination as "ip:port".
func (t FourTuple) Dst() string { return endpoint(t.DstIP, t.DstPort) }

// String returns "src>dst", for example "10.0.0.1:40000>10.0.0.2:4791".
func (t FourTuple) String() string { return t.Src() + ">" + t.Dst() }

func endpoint(ip [4]byte, port uint16) string {
	return netip.AddrFrom4(ip).String() + ":" + strconv.Itoa(int(port))
}

// IPv4Checksum returns the ones' complement of the ones' complement sum of
// hdr taken as 16-bit big-endian words (RFC 791, RFC 1071). To fill in a
// header, zero its checksum field, compute, and store the result big endian.
// Over a header whose checksum field is correct it returns 0.
func IPv4Checksum(hdr []byte) uint16 {
	return ^fold(sum(hdr, 0))
}

// TCPChecksum returns the TCP checksum of segment (TCP header and payload)
// sent from src to dst: the ones' complement of the ones' complement sum of
// the IPv4 pseudo-header (src, dst, zero, protocol 6, TCP length) and the
// segment. To fill in a header, zero its checksum field first. Over a segment
// whose checksum field is correct it returns 0.
func TCPChecksum(src, dst [4]byte, segment []byte) uint16 {
	acc := uint64(binary.BigEndian.Uint32(src[:])) +
		uint64(binary.BigEndian.Uint32(dst[:])) +
		ProtocolTCP + uint64(len(segment))
	return ^fold(sum(segment, acc))
}

// TCPChecksumIPv6 is TCPChecksum over the IPv6 pseudo-header (source,
// destination, the 32-bit upper-layer length, three zero octets and next
// header 6; RFC 8200 section 8.1). For a packet with a Routing header, dst
// is the final destination.
func TCPChecksumIPv6(src, dst Addr, segment []byte) uint16 {
	return ^fold(sum(segment, pseudoIPv6(src, dst, len(segment))))
}

// sum adds b, as big-endian 16-bit words (an odd last octet padded with a
// zero octet), to acc. The result is congruent to the ones' complement sum
// modulo 0xffff; fold reduces it to 16 bits. The ones' complement sum does
// not depend on byte order (RFC 1071 section 2(B)), so sumLE adds the octets
// as little-endian words, which needs no byte swaps, and the folded result is
// swapped back once.
func sum(b []byte, acc uint64) uint64 {
	le := fold(sumLE(b))
	return acc + uint64(bits.ReverseBytes16(le))
}

// sumLE adds b as little-endian 64-bit words with end-around carry, which
// is valid because 2^16, 2^32 and 2^64 are all 1 modulo 0xffff (RFC 1071
// section 2).
func sumLE(b []byte) uint64 {
	var acc, c uint64
	for len(b) >= 64 {
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[0:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[8:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[16:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[24:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[32:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[40:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[48:]), c)
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b[56:]), c)
		b = b[64:]
	}
	for len(b) >= 8 {
		acc, c = bits.Add64(acc, binary.LittleEndian.Uint64(b), c)
		b = b[8:]
	}
	if len(b) >= 4 {
		acc, c = bits.Add64(acc, uint64(binary.LittleEndian.Uint32(b)), c)
		b = b[4:]
	}
	if len(b) >= 2 {
		acc, c = bits.Add64(acc, uint64(binary.LittleEndian.Uint16(b)), c)
		b = b[2:]
	}
	if len(b) == 1 {
		acc, c = bits.Add64(acc, uint64(b[0]), c)
	}
	acc, c = bits.Add64(acc, c, 0)
	return acc + c // when c is 1 here, acc is 0: no further carry
}

// fold reduces a 64-bit end-around-carry sum to a 16-bit ones' complement sum.
func fold(s uint64) uint16 {
	s = s>>32 + s&0xffffffff
	s = s>>32 + s&0xffffffff
	s = s>>16 + s&0xffff
	s = s>>16 + s&0xffff
	return uint16(s)
}
