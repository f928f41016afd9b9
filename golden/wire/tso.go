package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrSplit is wrapped by the errors of Split for a segment it will not
// split (the frame itself parsed).
var ErrSplit = errors.New("wire: cannot split")

// Split returns the frames that a NIC's TCP segmentation offload (TSO)
// puts on the wire for frame, an Ethernet frame holding one TCP segment
// over IPv4 or IPv6 that ParseDual accepts (its checksums are not
// verified), when its payload is longer than mss octets. mss is the most
// TCP payload per frame: the MSS the peer announced less the TCP options
// each frame carries (RFC 6691). Capture tools see such super-frames on a
// sending host with TSO, on a receiving host with GRO (which merges the
// frames of a flow back), and on loopback.
//
// Each frame gets a copy of the headers (Ethernet, the 802.1Q tag, IP with
// its options or extension headers, TCP with its options) and the next mss
// octets of payload (the last one the rest), with:
//   - the IPv4 total length or the IPv6 payload length of that frame;
//   - for IPv4, the Identification of the segment plus the frame's index
//     (modulo 2^16), as Linux's segmentation and NICs that follow the
//     Microsoft LSO contract do, and the header checksum recomputed;
//   - the sequence number advanced by the payload before it;
//   - FIN and PSH only on the last frame and CWR only on the first (the
//     other flags, the window and the TCP options on every frame);
//   - the TCP checksum recomputed (over the final destination's
//     pseudo-header for an IPv6 Routing header with segments left).
//
// An IPv6 jumbogram's Jumbo Payload option is not on the wire: it becomes
// padding, and a Hop-by-Hop Options header left with padding only is
// removed. Octets after the IP packet (Ethernet padding) are not copied; a
// frame shorter than the Ethernet minimum of 60 octets (without the FCS)
// is padded to it with zeros, as the NIC pads it.
//
// A segment whose payload fits in mss octets is returned as it is (the
// frame itself, not a copy). Otherwise the frames are new slices of one
// allocation. The checksums of the result are correct whatever those of
// the input: a caller that must keep a bad checksum bad checks the input
// first. Split refuses (ErrSplit) a segment with SYN, RST or URG, and an
// mss for which a frame's IP length would exceed 65,535.
func Split(frame []byte, mss int) ([][]byte, error) {
	f, err := ParseDual(frame, 0)
	if err != nil {
		return nil, err
	}
	if mss < 1 {
		return nil, fmt.Errorf("%w: MSS %d", ErrSplit, mss)
	}
	if len(f.Payload) <= mss {
		return [][]byte{frame}, nil
	}
	if f.Flags&(FlagSYN|FlagRST|FlagURG) != 0 {
		return nil, fmt.Errorf("%w: a segment with flags %#02x (SYN, RST or URG)", ErrSplit, f.Flags)
	}
	ipo := ethHeaderLen
	if f.VLAN {
		ipo += vlanTagLen
	}
	tmpl := frame[:ipo+f.IPHeaderLen+f.TCPHeaderLen]
	iphl := f.IPHeaderLen
	if f.IPv6 && binary.BigEndian.Uint16(frame[ipo+4:]) == 0 {
		tmpl = dropJumbo(tmpl, ipo)
		iphl = len(tmpl) - ipo - f.TCPHeaderLen
	}
	ipLen := iphl + f.TCPHeaderLen + mss // the largest frame's IP length
	if f.IPv6 {
		ipLen -= ipv6HeaderLen
	}
	if ipLen > 0xffff {
		return nil, fmt.Errorf("%w: MSS %d with %d octets of headers exceeds the IP length field", ErrSplit, mss, iphl+f.TCPHeaderLen)
	}

	n := (len(f.Payload) + mss - 1) / mss
	last := len(f.Payload) - (n-1)*mss
	buf := make([]byte, (n-1)*max(len(tmpl)+mss, minFrame)+max(len(tmpl)+last, minFrame))
	out := make([][]byte, n)
	id := binary.BigEndian.Uint16(frame[ipo+4:])
	for i := range out {
		chunk := f.Payload[i*mss : min((i+1)*mss, len(f.Payload))]
		b := buf[:max(len(tmpl)+len(chunk), minFrame)]
		buf = buf[len(b):]
		copy(b, tmpl)
		copy(b[len(tmpl):], chunk)
		ip := b[ipo : len(tmpl)+len(chunk)]
		tcp := ip[iphl:]
		if f.IPv6 {
			binary.BigEndian.PutUint16(ip[4:], uint16(len(ip)-ipv6HeaderLen))
		} else {
			binary.BigEndian.PutUint16(ip[2:], uint16(len(ip)))
			binary.BigEndian.PutUint16(ip[4:], id+uint16(i))
			ip[10], ip[11] = 0, 0
			binary.BigEndian.PutUint16(ip[10:], IPv4Checksum(ip[:iphl]))
		}
		binary.BigEndian.PutUint32(tcp[4:], f.Seq+uint32(i*mss))
		flags := f.Flags
		if i < n-1 {
			flags &^= FlagFIN | FlagPSH
		}
		if i > 0 {
			flags &^= FlagCWR
		}
		tcp[13] = flags
		tcp[16], tcp[17] = 0, 0
		binary.BigEndian.PutUint16(tcp[16:], f.tcpChecksum(tcp))
		out[i] = b
	}
	return out, nil
}

// minFrame is the shortest Ethernet frame without its FCS (IEEE 802.3
// clause 3.2.8: 64 octets with it).
const minFrame = 60

// dropJumbo returns a copy of the headers h of a jumbogram (the IPv6
// header at ipo, a Hop-by-Hop Options header after it, as ParseDual has
// checked) with its Jumbo Payload option turned into padding, and the
// Hop-by-Hop header removed when nothing but padding is left in it.
func dropJumbo(h []byte, ipo int) []byte {
	h = append([]byte(nil), h...)
	hbh := h[ipo+ipv6HeaderLen:]
	hbh = hbh[:(int(hbh[1])+1)*8]
	onlyPadding := true
	for i := 2; i < len(hbh); {
		switch hbh[i] {
		case optPad1:
			i++
			continue
		case optPadN:
		case optJumbo:
			hbh[i] = optPadN
			clear(hbh[i+2 : i+2+int(hbh[i+1])])
		default:
			onlyPadding = false
		}
		i += 2 + int(hbh[i+1])
	}
	if !onlyPadding {
		return h
	}
	h[ipo+6] = hbh[0] // the IPv6 Next Header: what followed the Hop-by-Hop header
	return append(h[:ipo+ipv6HeaderLen], h[ipo+ipv6HeaderLen+len(hbh):]...)
}
