package wire

import (
	"encoding/binary"
	"fmt"
)

// IPv6 Hop-by-Hop and Destination option types ParseDual knows.
const (
	optPad1  = 0x00
	optPadN  = 0x01
	optJumbo = 0xc2 // Jumbo Payload (RFC 2675), Hop-by-Hop only
)

// parseIPv6 fills the IPv6 fields of f from the packet ip (the frame after
// its Ethernet header), walks the extension-header chain, and returns the
// TCP segment. See ParseDual for the checks.
func parseIPv6(f *Frame, ip []byte) ([]byte, error) {
	if len(ip) < ipv6HeaderLen {
		return nil, fmt.Errorf("%w: %d octets left for a 40-octet IPv6 header", ErrMalformed, len(ip))
	}
	if v := ip[0] >> 4; v != 6 {
		return nil, fmt.Errorf("%w: IP version %d under EtherType IPv6", ErrMalformed, v)
	}
	f.IPv6 = true
	copy(f.SrcAddr[:], ip[8:24])
	copy(f.DstAddr[:], ip[24:40])
	if f.SrcAddr.Is4() || f.DstAddr.Is4() {
		return nil, fmt.Errorf("%w: IPv6 header with an IPv4-mapped address (%v > %v)", ErrMalformed, f.SrcAddr, f.DstAddr)
	}
	plen := int(binary.BigEndian.Uint16(ip[4:]))
	jumbo := plen == 0
	if jumbo && ip[6] != ProtocolHopByHop {
		return nil, fmt.Errorf("%w: IPv6 payload length 0 without a Hop-by-Hop Options header", ErrMalformed)
	}
	end := ipv6HeaderLen + plen // end of the packet; a jumbogram's is set by its option
	if jumbo {
		end = len(ip)
	} else if end > len(ip) {
		return nil, fmt.Errorf("%w: IPv6 payload length %d exceeds the %d octets in the frame", ErrMalformed, plen, len(ip)-ipv6HeaderLen)
	}
	nh, off := ip[6], ipv6HeaderLen
	for nh != ProtocolTCP {
		switch nh {
		case ProtocolHopByHop, ProtocolDestOpts, ProtocolRouting, ProtocolFragment:
		case ProtocolAH, ProtocolESP:
			return nil, fmt.Errorf("%w: IPv6 %s: IPsec, which the receiver does not process", ErrNotTCP, extName(nh))
		case ProtocolNoNext:
			return nil, fmt.Errorf("%w: IPv6 No Next Header", ErrNotTCP)
		default:
			return nil, fmt.Errorf("%w: IPv6 next header %d", ErrNotTCP, nh)
		}
		n := 8 // a Fragment header's length; the others give theirs
		if nh != ProtocolFragment && off+2 <= end {
			n = (int(ip[off+1]) + 1) * 8
		}
		if off+n > end {
			return nil, fmt.Errorf("%w: IPv6 %s header of %d octets at octet %d of a %d-octet packet", ErrMalformed, extName(nh), n, off, end)
		}
		h := ip[off : off+n]
		switch nh {
		case ProtocolHopByHop:
			if off != ipv6HeaderLen {
				return nil, fmt.Errorf("%w: IPv6 Hop-by-Hop Options header after another extension header", ErrMalformed)
			}
			jl, err := ipv6Options(h[2:], true)
			if err != nil {
				return nil, err
			}
			switch {
			case jumbo && jl == 0:
				return nil, fmt.Errorf("%w: IPv6 payload length 0 without a Jumbo Payload option", ErrMalformed)
			case !jumbo && jl != 0:
				return nil, fmt.Errorf("%w: IPv6 Jumbo Payload option with payload length %d (RFC 2675: 0)", ErrMalformed, plen)
			case jumbo && int64(jl)+ipv6HeaderLen > int64(len(ip)):
				return nil, fmt.Errorf("%w: IPv6 jumbo payload length %d exceeds the %d octets in the frame", ErrMalformed, jl, len(ip)-ipv6HeaderLen)
			case jumbo:
				end = ipv6HeaderLen + int(jl)
			}
		case ProtocolDestOpts:
			if _, err := ipv6Options(h[2:], false); err != nil {
				return nil, err
			}
		case ProtocolRouting:
			if err := finalDestination(f, h); err != nil {
				return nil, err
			}
		case ProtocolFragment:
			if jumbo {
				return nil, fmt.Errorf("%w: IPv6 jumbogram with a Fragment header (RFC 2675)", ErrMalformed)
			}
			fo := binary.BigEndian.Uint16(h[2:])
			if fo&0xfff9 != 0 {
				return nil, fmt.Errorf("%w: IPv6 M=%d offset=%d id=%#x", ErrFragment, fo&1, fo>>3*8, binary.BigEndian.Uint32(h[4:]))
			}
		}
		nh, off = h[0], off+n
	}
	f.IPHeaderLen = off
	f.ExtHeaderLen = off - ipv6HeaderLen
	return ip[off:end], nil
}

// ipv6Options walks the options of a Hop-by-Hop (hbh) or Destination
// Options header and returns the Jumbo Payload length (0 without one).
func ipv6Options(opts []byte, hbh bool) (uint32, error) {
	name := extName(ProtocolDestOpts)
	if hbh {
		name = extName(ProtocolHopByHop)
	}
	var jumbo uint32
	for i := 0; i < len(opts); {
		t := opts[i]
		if t == optPad1 {
			i++
			continue
		}
		if i+2 > len(opts) || i+2+int(opts[i+1]) > len(opts) {
			return 0, fmt.Errorf("%w: IPv6 %s option %#02x overruns its header", ErrMalformed, name, t)
		}
		v := opts[i+2 : i+2+int(opts[i+1])]
		switch {
		case t == optPadN:
		case t == optJumbo && hbh:
			if len(v) != 4 {
				return 0, fmt.Errorf("%w: IPv6 Jumbo Payload option of length %d", ErrMalformed, len(v))
			}
			if jumbo = binary.BigEndian.Uint32(v); jumbo <= 0xffff {
				return 0, fmt.Errorf("%w: IPv6 jumbo payload length %d (RFC 2675: above 65535)", ErrMalformed, jumbo)
			}
		case t>>6 != 0:
			return 0, fmt.Errorf("%w: IPv6 %s option %#02x, unknown to the receiver, says discard (RFC 8200 section 4.2)", ErrNotTCP, name, t)
		}
		i += 2 + len(v)
	}
	return jumbo, nil
}

// finalDestination reads a Routing header h: with segments left, the final
// destination (the pseudo-header's, RFC 8200 section 8.1) is in it for the
// types the receiver knows.
func finalDestination(f *Frame, h []byte) error {
	typ, left := h[2], h[3]
	if left == 0 {
		return nil
	}
	switch {
	case typ == 2 && len(h) == 24 && left == 1: // Type 2 (RFC 6275): the home address
	case typ == 4 && len(h) >= 24: // Segment Routing (RFC 8754): Segment List[0]
	case typ == 2 || typ == 4:
		return fmt.Errorf("%w: IPv6 routing header type %d of %d octets with %d segments left", ErrMalformed, typ, len(h), left)
	default:
		return fmt.Errorf("%w: IPv6 routing header type %d with %d segments left, a type the receiver does not process (RFC 8200 section 4.4)", ErrNotTCP, typ, left)
	}
	copy(f.DstAddr[:], h[8:24])
	if f.DstAddr.Is4() {
		return fmt.Errorf("%w: IPv6 routing header with an IPv4-mapped final destination %v", ErrMalformed, f.DstAddr)
	}
	return nil
}

// extName names an IPv6 extension header for messages.
func extName(nh byte) string {
	switch nh {
	case ProtocolHopByHop:
		return "Hop-by-Hop Options"
	case ProtocolRouting:
		return "Routing"
	case ProtocolFragment:
		return "Fragment"
	case ProtocolDestOpts:
		return "Destination Options"
	case ProtocolAH:
		return "Authentication Header"
	case ProtocolESP:
		return "Encapsulating Security Payload"
	}
	return fmt.Sprintf("next header %d", nh)
}
