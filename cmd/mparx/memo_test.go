package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/wire"
)

// TestReplayFirstPassMemo replays the shared captures, as captured (their
// checksums left to the NIC), with their checksums completed, and so
// completed and damaged (a TCP checksum that fails, an IPv4 header checksum
// of 0, an MPA CRC that fails under good checksums), under every checksum
// policy, with
// and without the second pass using what the first found of each frame
// (frameMemo), and expects the same output, table and --json.
func TestReplayFirstPassMemo(t *testing.T) {
	defer func(m bool) { memoFrames = m }(memoFrames)
	bound := memoMaxFrames
	// A capture of vecgen's aligned scenario: markers and CRC on (the
	// shared captures have them off).
	aligned := alignedCapture(t, 300e3)
	for _, capture := range []string{sharedCapture, loCapture, aligned} {
		recs := readRecords(t, capture)
		// The captures were taken on a sending host: its checksums were
		// left to the NIC. Completed, they verify.
		completed := make([]pcapRecord, len(recs))
		for i, r := range recs {
			completed[i] = r
			completed[i].data = append([]byte(nil), r.data...)
			_, err := wire.CompleteChecksums(completed[i].data)
			require.NoError(t, err)
		}
		data := payloadFrames(recs, 8) // frames with a TCP payload
		require.GreaterOrEqual(t, len(data), 3)
		damage := map[string]func(b []byte) []byte{
			"as-captured":  nil,
			"as-is":        func(b []byte) []byte { return b },
			"tcp-checksum": func(b []byte) []byte { b[len(b)-3] ^= 0x10; return b },
			"ip-checksum-0": func(b []byte) []byte {
				b[14+10], b[14+11] = 0, 0
				return b
			},
			"mpa-crc": func(b []byte) []byte {
				b[len(b)-1] ^= 0x01 // the last CRC octet of the segment's last FPDU
				_, err := wire.CompleteChecksums(b)
				require.NoError(t, err)
				return b
			},
		}
		verify := map[string]string{} // --checksums verify --json output per damage
		for name, fn := range damage {
			out := recs
			if fn != nil {
				out = nil
				for i, r := range completed {
					r.data = append([]byte(nil), r.data...)
					if i == data[len(data)/2] || i == data[len(data)-1] {
						r.data = fn(r.data)
					}
					out = append(out, r)
				}
			}
			path := writeRecords(t, out, 1, func(b []byte) []byte { return b })
			for _, args := range [][]string{
				{path}, {"--json", path},
				{"--checksums", "verify", "--json", path},
				{"--checksums", "ignore", "--json", path},
			} {
				memoFrames = false
				want := replayOut(t, args...)
				memoFrames = true
				assert.Equal(t, want, replayOut(t, args...), "%s, %s, %v", capture, name, args)
				memoMaxFrames = 7 // the frames after the seventh checked again
				assert.Equal(t, want, replayOut(t, args...), "%s, %s, %v, 7 frames noted", capture, name, args)
				memoMaxFrames = bound
				if len(args) > 1 && args[1] == "verify" {
					verify[name] = want
				}
			}
		}
		shows := []string{"tcp-checksum"}
		if capture == aligned {
			shows = append(shows, "mpa-crc")
		}
		for _, name := range shows {
			assert.NotEqual(t, verify["as-is"], verify[name], "%s: the damage %s shows", capture, name)
		}
	}
}
