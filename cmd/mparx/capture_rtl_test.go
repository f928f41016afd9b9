//go:build rtl

package main

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

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
