package rx

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// offload rewrites a frame built by tcpFrame as a capture on its sending
// host with transmit checksum offload shows it: the TCP checksum field holds
// the folded sum of the pseudo-header (addresses, protocol, TCP length),
// computed here word by word.
func offload(b []byte) []byte {
	b = append([]byte(nil), b...)
	ip := b[14:]
	ihl := int(ip[0]&0x0f) * 4
	tcpLen := int(binary.BigEndian.Uint16(ip[2:])) - ihl
	var s uint32
	for i := 12; i < 20; i += 2 {
		s += uint32(binary.BigEndian.Uint16(ip[i:]))
	}
	s += 6 + uint32(tcpLen)
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	binary.BigEndian.PutUint16(ip[ihl+16:], uint16(s))
	return b
}

func TestChecksumPolicies(t *testing.T) {
	req := mpa.NewStartup(false, false, true, nil)
	rep := mpa.NewStartup(true, false, true, nil)
	c := newTestConn(7, req, rep, 100, 700)
	var pl [][]byte
	for n := 0; n < 4; n++ {
		u := []byte(fmt.Sprintf("ULPDU %d", n))
		pl = append(pl, u)
		c.i2r.Add(u)
	}
	// Everything the Initiator's host sent carries the offload signature
	// (the capture was taken there); the Responder's frames are correct.
	var frames [][]byte
	for _, f := range c.handshake(t)[:1] {
		frames = append(frames, offload(f))
	}
	frames = append(frames, tcpFrame(t, c.tu.Reverse(), c.rseq-1, wire.FlagSYN|wire.FlagACK, nil))
	frames = append(frames, offload(tcpFrame(t, c.tu, c.iseq, wire.FlagACK, req.Append(nil))))
	frames = append(frames, tcpFrame(t, c.tu.Reverse(), c.rseq, wire.FlagACK, rep.Append(nil)))
	for _, g := range c.i2r.OnePerSegment() {
		frames = append(frames, offload(tcpFrame(t, c.tu, g.Seq, wire.FlagACK, g.Data)))
	}
	offloaded := len(frames) - 2
	last := frames[len(frames)-1]
	damaged := append([]byte(nil), last...)
	damaged[14+20+17] ^= 0x01 // the checksum field: neither right nor the signature
	// Damage under the offload signature cannot be seen by the TCP
	// checksum (the capture never had the real one): MPA's CRC finds it.
	crcHit := append([]byte(nil), last...)
	crcHit[len(crcHit)-1] ^= 0x40
	badIP := append([]byte(nil), frames[len(frames)-1]...)
	badIP[14+10] ^= 0x01
	ulps := expected(c.tu, c.i2r, pl)

	tests := []struct {
		name       string
		policy     Checksums
		frames     [][]byte
		wantULPDUs []ulpduKey
		wantDrops  []string    // drop reasons
		wantCodes  []ErrorCode // MPA error codes
		wantHosts  []HostChecksums
	}{
		{"verify", ChecksumsVerify, frames, nil, repeat("tcp_checksum", offloaded), nil,
			[]HostChecksums{{Host: c.tu.SrcIP, DroppedOffloaded: offloaded}}},
		{"auto", ChecksumsAuto, frames, ulps, nil, nil,
			[]HostChecksums{{Host: c.tu.SrcIP, Offloaded: offloaded}}},
		{"auto-damaged-field", ChecksumsAuto, with(frames, damaged), ulps[:3], []string{"tcp_checksum"}, nil,
			[]HostChecksums{{Host: c.tu.SrcIP, Offloaded: offloaded - 1}}},
		{"auto-damaged-payload", ChecksumsAuto, with(frames, crcHit), ulps[:3], nil, []ErrorCode{CodeCRC},
			[]HostChecksums{{Host: c.tu.SrcIP, Offloaded: offloaded}}},
		{"auto-bad-ip", ChecksumsAuto, with(frames, badIP), ulps[:3], []string{"ip_checksum"}, nil,
			[]HostChecksums{{Host: c.tu.SrcIP, Offloaded: offloaded - 1}}},
		{"ignore-damaged-field", ChecksumsIgnore, with(frames, damaged), ulps, nil, nil,
			[]HostChecksums{{Host: c.tu.SrcIP, Ignored: offloaded}}},
		{"ignore-bad-ip", ChecksumsIgnore, with(frames, badIP), ulps, nil, nil,
			[]HostChecksums{{Host: c.tu.SrcIP, Ignored: offloaded}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(Config{Auto: true, Digests: true, Checksums: tc.policy})
			for _, f := range tc.frames {
				r.Frame(f)
			}
			evs := r.Events()
			if tc.wantULPDUs == nil {
				assert.Empty(t, ulpdus(evs))
			} else {
				assert.Equal(t, tc.wantULPDUs, ulpdus(evs))
			}
			var drops []string
			for _, e := range kinds(evs, Dropped) {
				name := "ip_checksum"
				if e.Half.SrcPort != 0 {
					name = "tcp_checksum"
					require.ErrorIs(t, e.Err, wire.ErrTCPChecksum)
					// the drop names the frame's real ports and sequence number
					assert.Equal(t, c.tu, e.Half)
					f, _ := wire.ParseWith(tc.frames[e.Frame], 0)
					assert.Equal(t, f.Seq, e.Seq)
				}
				drops = append(drops, name)
			}
			assert.Equal(t, tc.wantDrops, drops)
			var codes []ErrorCode
			for _, e := range errorsOf(evs) {
				codes = append(codes, e.Code)
			}
			assert.Equal(t, tc.wantCodes, codes)
			assert.Equal(t, tc.wantHosts, nilIfEmpty(r.UnverifiedHosts()))
			n := 0
			for _, h := range tc.wantHosts {
				n += h.Offloaded + h.Ignored
			}
			assert.Equal(t, n, r.Stats().Unverified)

			// Wire gives the frames as the wire carried them: each one
			// the policy takes unverified verifies once completed.
			var tally ChecksumTally
			for _, f := range tc.frames {
				w, u, src := tc.policy.Wire(f)
				tally.Add(src, u)
				if u != Verified {
					_, err := wire.Parse(w)
					require.NoError(t, err)
					assert.NotEqual(t, f, w)
				} else {
					assert.Equal(t, f, w)
				}
			}
			var taken []HostChecksums
			for _, h := range tc.wantHosts {
				if h.DroppedOffloaded == 0 {
					taken = append(taken, h)
				}
			}
			assert.Equal(t, taken, nilIfEmpty(tally.Hosts()))
		})
	}
}

// with returns frames with its last frame replaced by last.
func with(frames [][]byte, last []byte) [][]byte {
	return append(frames[:len(frames)-1:len(frames)-1], last)
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func nilIfEmpty(h []HostChecksums) []HostChecksums {
	if len(h) == 0 {
		return nil
	}
	return h
}

func TestParseChecksums(t *testing.T) {
	for _, c := range []Checksums{ChecksumsVerify, ChecksumsAuto, ChecksumsIgnore} {
		got, err := ParseChecksums(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	_, err := ParseChecksums("sometimes")
	assert.Error(t, err)
}
