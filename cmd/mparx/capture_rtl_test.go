//go:build rtl

package main

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shared capture through the RTL receiver with the software slow path,
// at both co-simulated widths: the frames go to the hardware as the wire
// carried them (checksums completed), the learned setup gives it receive
// buffers, its host writes are checked octet by octet against the hardware
// model (cosim/rx), and together with software it reports exactly what the
// golden engine does, ULPDUs of both directions included.
func TestReplayRTLSharedCapture(t *testing.T) {
	golden, _ := replayJSON(t, sharedCapture)
	require.Len(t, ofType(golden, "ulpdu"), 5)
	for _, width := range []string{"64", "128"} {
		t.Run(width, func(t *testing.T) {
			rtl, notes := replayJSON(t, "--engine", "rtl", "--width", width, sharedCapture)
			assert.Equal(t, golden, rtl)
			assert.Contains(t, notes, "given to the hardware with their checksums completed")
			assert.Contains(t, notes, "setup learned from the traffic")

			var out, errb bytes.Buffer
			require.Equal(t, 0, run([]string{"replay", "--engine", "rtl", "--width", width, sharedCapture}, &out, &errb), errb.String())
			m := regexp.MustCompile(`(\d+) taken by the hardware \((\d+) host writes\)`).FindStringSubmatch(out.String())
			require.NotNil(t, m, out.String())
			hw, _ := strconv.Atoi(m[1])
			writes, _ := strconv.Atoi(m[2])
			assert.Positive(t, hw, "the hardware took frames")
			assert.Positive(t, writes, "the hardware wrote to host memory")
			assert.Contains(t, out.String(), "10.10.1.1:42742>10.10.1.2:9999 4 ULPDUs, 4 placed, 4 delivered")
			assert.Contains(t, out.String(), "10.10.1.2:9999>10.10.1.1:42742 1 ULPDUs, 1 placed, 1 delivered")
		})
	}
}

// The loopback capture's TCP segments of up to 47,682 octets through the
// RTL receiver at every width: each is cut to the MSS (the SYN's, 65,495,
// then MAX_FRAME) as TSO cuts it, and hardware and software together report
// exactly what the golden engine reports from the segments whole; the
// same with the MSS of a 1500-octet MTU (the SYNs not in the capture).
func TestReplayRTLSuperFrames(t *testing.T) {
	golden, _ := replayJSON(t, loCapture)
	require.NotEmpty(t, ofType(golden, "ulpdu"))
	for _, width := range []string{"64", "128", "256", "512"} {
		t.Run(width, func(t *testing.T) {
			rtl, notes := replayJSON(t, "--engine", "rtl", "--width", width, loCapture)
			assert.Equal(t, golden, rtl)
			assert.Regexp(t, `rtl: \d+ TCP segments longer than the wire carries were given to the hardware as the \d+ frames TSO cuts them into, at most 9018 octets each`, notes)
			assert.Contains(t, notes, "MSS 65495 (the SYN's MSS option)")
		})
	}
	recs := readRecords(t, loCapture)
	var noSYN []pcapRecord
	for _, r := range recs {
		if r.data[14+20+13]&0x02 == 0 {
			noSYN = append(noSYN, r)
		}
	}
	p := writeRecords(t, noSYN, layers.LinkTypeEthernet, func(b []byte) []byte { return b })
	golden, _ = replayJSON(t, p)
	rtl, notes := replayJSON(t, "--engine", "rtl", "--mtu", "1500", p)
	assert.Equal(t, golden, rtl)
	assert.Contains(t, notes, "(--mtu 1500)")
}
