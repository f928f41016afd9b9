package rxfuzz

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/wire"
)

// Known is a disagreement between the RTL and the model that the fuzzer
// found and that is not fixed yet. Fuzz withholds the frames that Match
// from its streams (and counts them), so that a campaign keeps looking for
// other bugs; the saved case in testdata (Case, with Case.Open set) keeps
// the bug reproduced by the replay test until it is fixed.
type Known struct {
	Name  string
	Case  string // testdata/<Case>.pcap reproduces it
	Match func(b []byte) bool
}

// KnownBugs are the open bugs.
var KnownBugs = []Known{
	{
		// rtl/mpa_rx_parse.v tests "flen < ipoff + c_tlen" in 16 bits
		// (CNT_BITS): an IPv4 total length of 65,522 or more (65,518 behind
		// an 802.1Q tag) wraps the sum, the frame is not seen as shorter
		// than its total length, and it is dropped as a TCP checksum error
		// (drop code 3, payload length from the bogus total) where
		// golden/wire reports it malformed (code 1).
		Name: "ip-total-length-wrap",
		Case: "ip-total-length-wrap",
		Match: func(b []byte) bool {
			ipo := 14
			if len(b) >= 18 && binary.BigEndian.Uint16(b[12:]) == wire.EtherTypeVLAN {
				ipo = 18
			}
			if len(b) < ipo+20 || binary.BigEndian.Uint16(b[ipo-2:]) != wire.EtherTypeIPv4 {
				return false
			}
			return ipo+int(binary.BigEndian.Uint16(b[ipo+2:])) > 0xffff
		},
	},
	{
		// The walker sees the TCP payload as whole 4-octet words
		// (mpa_rx_parse w_pmask: "the last may be partial") and nothing
		// checks the payload length modulo 4: a segment whose IPv4 total
		// length ends its payload 1 to 3 octets into a word, with Ethernet
		// padding after it, has its last FPDU completed by padding octets
		// and is PLACEd (CRC checked over octets outside the TCP segment)
		// where golden/fastpath hands it to software as UNALIGNED: an FPDU
		// is always a multiple of 4 octets, so such a payload is never
		// whole FPDUs.
		Name: "payload-tail-in-padding",
		Case: "payload-tail-in-padding",
		Match: func(b []byte) bool {
			f, err := wire.Parse(b)
			if err != nil || len(f.Payload) == 0 || len(f.Payload)%4 == 0 {
				return false
			}
			end := cap(b) - cap(f.Payload) + len(f.Payload) // frame offset just past the payload
			return len(b) > end
		},
	},
}

// withhold removes the frames that match a known bug from s and counts them
// by bug name.
func withhold(s []Frame, n map[string]int) []Frame {
	out := s[:0:0]
	for _, f := range s {
		held := false
		for _, k := range KnownBugs {
			if k.Match(f.Data) {
				n[k.Name]++
				held = true
				break
			}
		}
		if !held {
			out = append(out, f)
		}
	}
	return out
}
