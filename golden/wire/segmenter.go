package wire

import (
	"encoding/binary"
	"sort"
)

// Segmenter gives the frames a link carried for the frames of a capture
// that holds TCP segments longer than the link carries: a capture taken on
// a host with TCP segmentation offload (the sender's segments before its
// NIC cut them), with receive offload (GRO merges the frames of a flow),
// or on loopback. Each such segment is cut (Split) to the MSS of its half
// connection: the MSS option of the peer's SYN when the Segmenter saw it,
// else the MSS of the link's MTU, less the segment's options (RFC 6691),
// and so that no frame is longer than MaxFrame. Segmenter is not safe for
// concurrent use.
type Segmenter struct {
	// MTU is the link's IP MTU, for a half connection whose peer's SYN was
	// not seen.
	MTU int
	// MaxFrame is the longest frame in octets (Ethernet header to the end
	// of the IP packet) the receiver takes.
	MaxFrame int
	// CutAbove, when not zero, leaves a frame of at most CutAbove octets
	// as it is, whatever its segment's length: for frames that are the
	// link's as long as the receiver takes them whole (a generated
	// vector's), only a longer one is cut.
	CutAbove int

	announced map[FourTuple]int // the MSS option of each SYN, by its sender
	used      map[FourTuple]MSS
	segments  int
	frames    int
}

// MSS is the MSS a half connection's segments were cut to.
type MSS struct {
	MSS int
	SYN bool // from the peer's SYN (else the MTU)
}

// NewSegmenter returns a Segmenter for a link of the given IP MTU and a
// receiver that takes frames of at most maxFrame octets.
func NewSegmenter(mtu, maxFrame int) *Segmenter {
	return &Segmenter{MTU: mtu, MaxFrame: maxFrame, announced: map[FourTuple]int{}, used: map[FourTuple]MSS{}}
}

// Frames returns the frames the link carried for frame b: b itself, or
// the frames of its segment cut to the MSS. A frame whose checksums do not
// verify is returned as it is (Split writes correct checksums), as are a
// segment with SYN, RST or URG and a frame that is not TCP.
func (s *Segmenter) Frames(b []byte) [][]byte {
	f, err := Parse(b)
	if err != nil {
		return [][]byte{b}
	}
	t := f.FourTuple()
	hdr := f.IPHeaderLen + f.TCPHeaderLen // IP and TCP headers, options included
	if f.Flags&FlagSYN != 0 {
		if m, ok := mssOption(b, f); ok {
			s.announced[t] = m
		}
	}
	// RFC 6691: the MSS counts the payload behind a 20-octet TCP header
	// and a 20-octet IPv4 (40-octet IPv6) header; options come off it.
	base := ipv4MinHeader + tcpMinHeader
	if f.IPv6 {
		base = ipv6HeaderLen + tcpMinHeader
	}
	if s.CutAbove > 0 && len(b) <= s.CutAbove {
		return [][]byte{b}
	}
	u := MSS{MSS: s.MTU - base}
	if m, ok := s.announced[t.Reverse()]; ok {
		u = MSS{MSS: m, SYN: true}
	}
	payload := min(u.MSS-(hdr-base), s.MaxFrame-ipOffset(f)-hdr)
	if len(f.Payload) <= payload || payload < 1 || f.Flags&(FlagSYN|FlagRST|FlagURG) != 0 {
		return [][]byte{b}
	}
	out, err := Split(b, payload)
	if err != nil {
		return [][]byte{b}
	}
	s.used[t] = u
	s.segments++
	s.frames += len(out)
	return out
}

// Cut returns how many segments were cut, into how many frames, and the
// MSS of each half connection whose segments were cut, in the order of
// their names.
func (s *Segmenter) Cut() (segments, frames int, halves []FourTuple, mss []MSS) {
	for t := range s.used {
		halves = append(halves, t)
	}
	sort.Slice(halves, func(i, j int) bool { return halves[i].String() < halves[j].String() })
	for _, t := range halves {
		mss = append(mss, s.used[t])
	}
	return s.segments, s.frames, halves, mss
}

// mssOption returns the MSS option (kind 2) of the TCP header of frame b,
// parsed as f.
func mssOption(b []byte, f Frame) (int, bool) {
	tcp := ipOffset(f) + f.IPHeaderLen
	opts := b[tcp+tcpMinHeader : tcp+f.TCPHeaderLen]
	for i := 0; i < len(opts); {
		switch opts[i] {
		case 0: // End of Option List
			return 0, false
		case 1: // No-Operation
			i++
			continue
		}
		if i+1 >= len(opts) || opts[i+1] < 2 || i+int(opts[i+1]) > len(opts) {
			return 0, false
		}
		if opts[i] == 2 && opts[i+1] == 4 {
			return int(binary.BigEndian.Uint16(opts[i+2:])), true
		}
		i += int(opts[i+1])
	}
	return 0, false
}

// ipOffset returns the offset of the IP header in frame f.
func ipOffset(f Frame) int {
	if f.VLAN {
		return ethHeaderLen + vlanTagLen
	}
	return ethHeaderLen
}
