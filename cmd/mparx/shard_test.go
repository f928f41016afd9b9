package main

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// TestReplayShardedSecondPass replays captures with the second pass split
// by connection among 2 to 4 receivers (replaySharded) and with one
// receiver taking every frame (one learner: no split in either pass), and
// expects the same table and notes, and the same --json events. The captures: the shared ones, and
// vecgen's aligned scenario, whose connections reuse STags (an STag
// belongs to a connection that another receiver takes), as written, with
// a frame cut short by the snap length, with a TCP checksum that fails
// (under --checksums verify and ignore), with an ARP frame, and with an
// MPA Reply captured after the Initiator's first FPDU (the connection's
// frames held until it is found).
func TestReplayShardedSecondPass(t *testing.T) {
	defer func(l int) { learnersSet = l }(learnersSet)
	aligned := alignedCapture(t, 3e6)

	recs := readRecords(t, aligned)
	data := payloadFrames(recs, 200) // frames with a TCP payload
	require.Greater(t, len(data), 100)
	damaged := make([]pcapRecord, 0, len(recs)+1)
	for i, r := range recs {
		r.data = append([]byte(nil), r.data...)
		switch i {
		case data[len(data)/3]: // cut short: lost, and counted for its half connection
			r.data = r.data[:120]
			r.ci.CaptureLength = 120
		case data[len(data)/2], data[2*len(data)/3]:
			r.data[len(r.data)-3] ^= 0x10 // the TCP checksum fails
		}
		damaged = append(damaged, r)
		if i == len(recs)/4 {
			arp := make([]byte, 60) // not IP
			binary.BigEndian.PutUint16(arp[12:], 0x0806)
			damaged = append(damaged, pcapRecord{r.ci, arp})
			damaged[len(damaged)-1].ci.CaptureLength, damaged[len(damaged)-1].ci.Length = len(arp), len(arp)
		}
	}
	// The first MPA Reply captured after the Initiator's first FPDU: the
	// connection's frames are held until it is found.
	for i, r := range damaged {
		f, err := wire.ParseWith(r.data, 0)
		if err != nil || !strings.HasPrefix(string(f.Payload), "MPA ID Rep Frame") {
			continue
		}
		j := i + 1
		for ; j < len(damaged); j++ {
			g, err := wire.ParseWith(damaged[j].data, 0)
			if err == nil && g.FourTuple() == f.FourTuple().Reverse() && len(g.Payload) > 200 {
				break
			}
		}
		require.Less(t, j, len(damaged))
		rep := damaged[i]
		copy(damaged[i:j], damaged[i+1:j+1])
		damaged[j] = rep
		break
	}
	damagedPath := writeRecords(t, damaged, layers.LinkTypeEthernet, func(b []byte) []byte { return b })

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"shared", []string{sharedCapture}},
		{"loopback", []string{loCapture}},
		{"aligned", []string{aligned}},
		{"damaged", []string{damagedPath}},
		{"damaged-verify", []string{"--checksums", "verify", damagedPath}},
		{"damaged-ignore", []string{"--checksums", "ignore", damagedPath}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			learnersSet = 1
			want := replayOut(t, tc.args...)
			wantJSON := replayOut(t, append([]string{"--json"}, tc.args...)...)
			if strings.HasPrefix(tc.name, "damaged") {
				assert.Contains(t, want, "truncated: 1 frames")
			}
			for n := 2; n <= 4; n++ {
				learnersSet = n
				assert.Equal(t, want, replayOut(t, tc.args...), "%d receivers", n)
				assert.Equal(t, wantJSON, replayOut(t, append([]string{"--json"}, tc.args...)...), "%d receivers, --json", n)
				// The split ran as planned: no fallback to one receiver.
				o := captureOpts{checksums: rx.ChecksumsAuto, learn: true, mtu: 1500}
				if len(tc.args) > 1 {
					var err error
					o.checksums, err = rx.ParseChecksums(tc.args[1])
					require.NoError(t, err)
				}
				r, _, err := replayCapture(tc.args[len(tc.args)-1], nil, o, nil, nil)
				require.NoError(t, err)
				require.IsType(t, &shardedRun{}, r)
				var js bytes.Buffer
				out := newSink(&js, true)
				rj, _, err := replayCapture(tc.args[len(tc.args)-1], nil, o, out, nil)
				require.NoError(t, err)
				require.NoError(t, out.flush())
				require.IsType(t, &shardedRun{}, rj, "--json")
				assert.Equal(t, wantJSON, js.String(), "%d receivers, --json, replayCapture", n)
				if tc.name == "aligned" {
					busy := 0
					for _, rr := range r.(*shardedRun).rs {
						if len(rr.Halves()) > 0 {
							busy++
						}
					}
					assert.GreaterOrEqual(t, busy, 2, "%d receivers: connections on at least two", n)
				}
			}
		})
	}
}
