package wire

import (
	"testing"

	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Segmenter cuts a segment to the MSS the peer's SYN announced, else
// to its MTU's, less the segment's options, and to MaxFrame; it leaves a
// segment that fits, a SYN, and a frame whose checksum fails as they are;
// with CutAbove, a frame no longer than it as well.
func TestSegmenter(t *testing.T) {
	mssOpt := func(m uint16) layers.TCPOption {
		return layers.TCPOption{OptionType: layers.TCPOptionKindMSS, OptionLength: 4, OptionData: []byte{byte(m >> 8), byte(m)}}
	}
	syn := func(from spec, m uint16) []byte {
		s := from
		s.flags, s.payload = FlagSYN|FlagACK, nil
		s.tcpOpts = []layers.TCPOption{{OptionType: layers.TCPOptionKindNop}, mssOpt(m)}
		return build(t, s)
	}
	data := defaultSpec()
	data.payload = patterned(60000)
	peer := defaultSpec()
	peer.src, peer.dst, peer.sport, peer.dport = data.dst, data.src, data.dport, data.sport
	ts := data
	ts.tcpOpts = optsTimestamps
	small := data // longer than the MSS, shorter than CutAbove
	small.payload = patterned(3000)
	d6 := defaultSpec6()
	d6.tcp.payload = patterned(60000)
	bad := build(t, data)
	bad[len(bad)-1] ^= 1
	for _, tc := range []struct {
		name     string
		syn      []byte // the peer's SYN, nil for none
		frame    []byte
		mtu, max int
		cutAbove int
		want     int // payload octets per frame
	}{
		{"syn-mss", syn(peer, 1000), build(t, data), 1500, 9018, 0, 1000},
		{"syn-mss-options", syn(peer, 1000), build(t, ts), 1500, 9018, 0, 988},
		{"syn-mss-max-frame", syn(peer, 65000), build(t, data), 1500, 9018, 0, 9018 - 54},
		{"mtu", nil, build(t, data), 1500, 9018, 0, 1460},
		{"mtu-options", nil, build(t, ts), 1500, 9018, 0, 1448},
		{"mtu-ipv6", nil, build6(t, d6), 1500, 9018, 0, 1440},
		{"fits", nil, build(t, defaultSpec()), 1500, 9018, 0, 0},
		{"bad-checksum", nil, bad, 1500, 9018, 0, 0},
		{"cut-above-keeps", syn(peer, 1000), build(t, small), 1500, 9018, 9018, 0},
		{"cut-above-cuts", syn(peer, 1000), build(t, data), 1500, 9018, 9018, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSegmenter(tc.mtu, tc.max)
			s.CutAbove = tc.cutAbove
			if tc.syn != nil {
				require.Equal(t, [][]byte{tc.syn}, s.Frames(tc.syn))
			}
			out := s.Frames(tc.frame)
			segs, frames, halves, mss := s.Cut()
			if tc.want == 0 {
				assert.Equal(t, [][]byte{tc.frame}, out)
				assert.Zero(t, segs)
				return
			}
			f, err := ParseWith(tc.frame, 0)
			require.NoError(t, err)
			require.Len(t, out, (len(f.Payload)+tc.want-1)/tc.want)
			for i, b := range out {
				g, err := Parse(b)
				require.NoError(t, err)
				assert.LessOrEqual(t, len(b), tc.max)
				if i < len(out)-1 {
					assert.Len(t, g.Payload, tc.want)
				}
			}
			assert.Equal(t, 1, segs)
			assert.Equal(t, len(out), frames)
			assert.Equal(t, []FourTuple{f.FourTuple()}, halves)
			assert.Equal(t, tc.syn != nil, mss[0].SYN)
		})
	}
}
