package main

import (
	"fmt"
	"strings"

	"github.com/mparx/mparx/golden/wire"
)

// segmentNote says what the RTL engine cut to the MSS ("" when nothing): a
// capture taken with TSO or GRO, or on loopback, holds TCP segments longer
// than the wire carries, which the golden engine takes whole and the RTL
// is given as the wire carried them (wire.Segmenter).
func segmentNote(s *wire.Segmenter) string {
	segs, frames, halves, mss := s.Cut()
	if segs == 0 {
		return ""
	}
	var per []string
	for i, t := range halves {
		from := fmt.Sprintf("--mtu %d", s.MTU)
		if mss[i].SYN {
			from = "the SYN's MSS option"
		}
		per = append(per, fmt.Sprintf("%v MSS %d (%s)", t, mss[i].MSS, from))
	}
	return fmt.Sprintf("rtl: %d TCP segments longer than the wire carries were given to the hardware as the %d frames TSO cuts them into, at most %d octets each: %s",
		segs, frames, s.MaxFrame, strings.Join(per, "; "))
}
