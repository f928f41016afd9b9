package main

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/mparx/mparx/golden/wire"
)

// A capture taken on a host with TCP segmentation offload (the sender) or
// receive offload (GRO), or on loopback, holds TCP segments longer than
// the wire carries. The golden engine takes them whole; the RTL engine is
// given the frames the wire carried: each such segment cut to the MSS
// (wire.Split, as TSO cuts it).

// splitter cuts the TCP segments of a capture to the MSS of their half
// connection.
type splitter struct {
	mtu      int // the link's IP MTU, for a half connection whose SYN was not seen
	maxFrame int // the longest frame the receiver takes (MAX_FRAME)
	// announced holds the MSS option of each SYN, by the half connection
	// of its sender: what that end takes.
	announced map[wire.FourTuple]int
	// used is the MSS each half connection's segments were cut to, and
	// where it came from.
	used     map[wire.FourTuple]mssUse
	segments int // segments cut
	frames   int // frames they were cut into
}

type mssUse struct {
	mss int
	syn bool // from the SYN's MSS option (else the MTU)
}

func newSplitter(mtu, maxFrame int) *splitter {
	return &splitter{mtu: mtu, maxFrame: maxFrame, announced: map[wire.FourTuple]int{}, used: map[wire.FourTuple]mssUse{}}
}

// take returns the frames the wire carried for frame b, a frame whose
// checksums verify as the engine sees it (a frame that does not is given
// as it is: Split writes correct checksums): b itself, or the frames of
// the segment cut to the MSS.
func (s *splitter) take(b []byte) [][]byte {
	f, err := wire.Parse(b)
	if err != nil {
		return [][]byte{b}
	}
	t := f.FourTuple()
	hdr := f.IPHeaderLen + f.TCPHeaderLen // IP and TCP headers, options included
	if f.Flags&wire.FlagSYN != 0 {
		if m, ok := mssOption(b, f); ok {
			s.announced[t] = m
		}
	}
	// RFC 6691: the MSS counts the payload behind 20-octet IP and TCP
	// headers (40 and 20 for IPv6); the options of a segment come off it.
	base := 40
	if f.IPv6 {
		base = 60
	}
	u := mssUse{mss: s.mtu - base, syn: false}
	if m, ok := s.announced[t.Reverse()]; ok {
		u = mssUse{mss: m, syn: true}
	}
	payload := min(u.mss-(hdr-base), s.maxFrame-ipOffset(f)-hdr)
	if len(f.Payload) <= payload || payload < 1 || f.Flags&(wire.FlagSYN|wire.FlagRST|wire.FlagURG) != 0 {
		return [][]byte{b}
	}
	out, err := wire.Split(b, payload)
	if err != nil {
		return [][]byte{b}
	}
	s.used[t] = u
	s.segments++
	s.frames += len(out)
	return out
}

// note says what was cut ("" when nothing).
func (s *splitter) note() string {
	if s.segments == 0 {
		return ""
	}
	var halves []string
	for t, u := range s.used {
		from := fmt.Sprintf("--mtu %d", s.mtu)
		if u.syn {
			from = "the SYN's MSS option"
		}
		halves = append(halves, fmt.Sprintf("%v MSS %d (%s)", t, u.mss, from))
	}
	sort.Strings(halves)
	return fmt.Sprintf("rtl: %d TCP segments longer than the wire carries were given to the hardware as the %d frames TSO cuts them into, at most %d octets each: %s",
		s.segments, s.frames, s.maxFrame, strings.Join(halves, "; "))
}

// mssOption returns the MSS option (kind 2) of the TCP header of frame b,
// parsed as f.
func mssOption(b []byte, f wire.Frame) (int, bool) {
	tcp := ipOffset(f) + f.IPHeaderLen
	opts := b[tcp+20 : tcp+f.TCPHeaderLen]
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
func ipOffset(f wire.Frame) int {
	if f.VLAN {
		return 18
	}
	return 14
}
