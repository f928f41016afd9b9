package wire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reserialize decodes a frame with gopacket and serialises its layers
// again with gopacket computing every length and checksum: a frame whose
// lengths and checksums are right comes back the same.
func reserialize(t *testing.T, b []byte) []byte {
	t.Helper()
	pkt := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
	require.Nil(t, pkt.ErrorLayer(), "gopacket decodes the frame")
	var ls []gopacket.SerializableLayer
	var netl gopacket.NetworkLayer
	for _, l := range pkt.Layers() {
		switch l := l.(type) {
		case *layers.IPv4:
			netl = l
		case *layers.IPv6:
			netl = l
		case *layers.IPv6HopByHop:
			continue // the IPv6 layer writes it
		case *layers.TCP:
			require.NoError(t, l.SetNetworkLayerForChecksum(netl))
		}
		s, ok := l.(gopacket.SerializableLayer)
		require.True(t, ok, "layer %v", l.LayerType())
		ls = append(ls, s)
	}
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...))
	return buf.Bytes()
}

// gopacketChecksumOK verifies a frame's TCP checksum with gopacket (over
// the pseudo-header of the IP header's addresses).
func gopacketChecksumOK(t *testing.T, b []byte) bool {
	t.Helper()
	pkt := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.Default)
	tcp, _ := pkt.Layer(layers.LayerTypeTCP).(*layers.TCP)
	require.NotNil(t, tcp)
	require.NoError(t, tcp.SetNetworkLayerForChecksum(pkt.NetworkLayer()))
	c, err := tcp.ComputeChecksum()
	require.NoError(t, err)
	return c == 0
}

func TestSplit(t *testing.T) {
	v4 := func(f func(*spec)) []byte {
		s := defaultSpec()
		s.payload = patterned(64000)
		f(&s)
		return build(t, s)
	}
	v6 := func(f func(*spec6)) []byte {
		s := defaultSpec6()
		s.tcp.payload = patterned(64000)
		f(&s)
		return build6(t, s)
	}
	alert := []*layers.IPv6HopByHopOption{hbhOpt(5, 0, 0), hbhOpt(optPadN)}
	for _, tc := range []struct {
		name      string
		frame     []byte
		mss       int
		n         int    // frames expected
		reserial  bool   // gopacket decodes and serialises the frames again
		hbhLength int    // the frames' Hop-by-Hop header length (0: none)
		final     string // the final destination of a Routing header gopacket does not decode
	}{
		{"ipv4", v4(func(s *spec) {}), 1460, 44, true, 0, ""},
		{"ipv4-vlan-options", v4(func(s *spec) {
			s.vlan, s.tci, s.ipOpts, s.tcpOpts, s.payload = true, 100, optsRouterAlert, optsTimestamps, patterned(10*1448)
		}), 1448, 10, true, 0, ""},
		{"ipv4-one-more", v4(func(s *spec) { s.payload = patterned(1461) }), 1460, 2, true, 0, ""},
		{"ipv4-odd-mss-padding", v4(func(s *spec) { s.payload, s.trailer = patterned(1001), []byte{0, 0, 0, 0} }), 333, 4, true, 0, ""},
		{"ipv4-tiny-mss", v4(func(s *spec) { s.payload = patterned(10) }), 3, 4, true, 0, ""},
		{"ipv4-flags", v4(func(s *spec) { s.flags = FlagACK | FlagPSH | FlagFIN | FlagCWR | FlagECE }), 8960, 8, true, 0, ""},
		{"ipv4-no-df", v4(func(s *spec) { s.ipFlags = 0 }), 1460, 44, true, 0, ""},
		{"ipv6", v6(func(s *spec6) {}), 1440, 45, true, 0, ""},
		{"ipv6-vlan-extension-headers", v6(func(s *spec6) {
			s.vlan, s.tci, s.hbh, s.tcp.tcpOpts = true, 7, alert, optsTimestamps
			s.ext = []ext6{destOpts(dstOpt(0x1e, 1, 2, 3, 4))}
		}), 1400, 46, true, 8, ""},
		{"ipv6-routing-left", v6(func(s *spec6) {
			s.dst = net.ParseIP("fd00::77")
			s.ext = []ext6{routing(4, 1, "fd00::5", "fd00::77")}
			s.final = net.ParseIP("fd00::5")
		}), 9000, 8, false, 0, "fd00::5"},
		{"ipv6-jumbogram", v6(func(s *spec6) { s.tcp.payload = patterned(200000) }), 65000, 4, true, 0, ""},
		{"ipv6-jumbogram-router-alert", v6(func(s *spec6) { s.tcp.payload, s.hbh = patterned(70001), alert }), 8940, 8, true, 16, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := ParseDual(tc.frame, CheckAll)
			require.NoError(t, err)
			ipo := 14
			if in.VLAN {
				ipo = 18
			}
			out, err := Split(tc.frame, tc.mss)
			require.NoError(t, err)
			require.Len(t, out, tc.n)
			var payload []byte
			for i, b := range out {
				f, err := ParseDual(b, CheckAll)
				require.NoError(t, err, "frame %d", i)
				assert.Equal(t, in.IPv6, f.IPv6)
				assert.Equal(t, in.SrcAddr, f.SrcAddr)
				assert.Equal(t, in.DstAddr, f.DstAddr)
				assert.Equal(t, in.SrcPort, f.SrcPort)
				assert.Equal(t, in.Ack, f.Ack)
				assert.Equal(t, in.Window, f.Window)
				assert.Equal(t, in.VLANID, f.VLANID)
				assert.Equal(t, in.Seq+uint32(len(payload)), f.Seq, "frame %d", i)
				want := tc.mss
				if i == len(out)-1 {
					want = len(in.Payload) - i*tc.mss
				}
				assert.Len(t, f.Payload, want, "frame %d", i)
				assert.Equal(t, len(b), max(60, ipo+f.IPHeaderLen+f.TCPHeaderLen+len(f.Payload)), "frame %d: padded to 60 octets only", i)
				payload = append(payload, f.Payload...)

				flags := in.Flags
				if i < len(out)-1 {
					flags &^= FlagFIN | FlagPSH
				}
				if i > 0 {
					flags &^= FlagCWR
				}
				assert.Equal(t, flags, f.Flags, "frame %d flags", i)
				// headers as the segment's but for the fields Split sets
				assert.Equal(t, tc.frame[:12], b[:12], "frame %d MACs", i)
				tcpo := ipo + f.IPHeaderLen
				assert.Equal(t, tc.frame[ipo+in.IPHeaderLen+18:ipo+in.IPHeaderLen+in.TCPHeaderLen], b[tcpo+18:tcpo+f.TCPHeaderLen], "frame %d TCP options", i)
				if in.IPv6 {
					assert.Equal(t, tc.hbhLength != 0, b[ipo+6] == ProtocolHopByHop, "frame %d Hop-by-Hop header", i)
					if tc.hbhLength != 0 {
						assert.Equal(t, tc.hbhLength, (int(b[ipo+41])+1)*8)
					}
				} else {
					id := binary.BigEndian.Uint16(tc.frame[ipo+4:]) + uint16(i)
					assert.Equal(t, id, binary.BigEndian.Uint16(b[ipo+4:]), "frame %d IPv4 ID", i)
					assert.Equal(t, tc.frame[ipo+6:ipo+10], b[ipo+6:ipo+10], "frame %d flags, TTL, protocol", i)
					assert.Equal(t, tc.frame[ipo+12:ipo+in.IPHeaderLen], b[ipo+12:ipo+in.IPHeaderLen], "frame %d addresses and options", i)
				}
				if tc.reserial {
					assert.True(t, gopacketChecksumOK(t, b), "frame %d: gopacket verifies the TCP checksum", i)
					assert.Equal(t, reserialize(t, b), b, "frame %d: gopacket computes the same lengths and checksums", i)
				} else {
					// the reference sum over the final destination's pseudo-header
					seg := b[tcpo : tcpo+f.TCPHeaderLen+len(f.Payload)]
					n := len(seg)
					pseudo := append(append([]byte(nil), b[ipo+8:ipo+24]...), net.ParseIP(tc.final).To16()...)
					pseudo = append(pseudo, 0, 0, byte(n>>8), byte(n), 0, 0, 0, ProtocolTCP)
					assert.Equal(t, uint16(0xffff), refSum(append(pseudo, seg...)), "frame %d TCP checksum", i)
				}
			}
			assert.Equal(t, in.Payload, payload, "the frames carry the payload")
		})
	}
}

func TestSplitIPv4IDWraps(t *testing.T) {
	s := defaultSpec()
	s.payload = patterned(3000)
	b := build(t, s)
	binary.BigEndian.PutUint16(b[14+4:], 0xfffe)
	fixIP(b, 14)
	out, err := Split(b, 1000)
	require.NoError(t, err)
	require.Len(t, out, 3)
	for i, want := range []uint16{0xfffe, 0xffff, 0} {
		assert.Equal(t, want, binary.BigEndian.Uint16(out[i][14+4:]))
		assert.Zero(t, IPv4Checksum(out[i][14:34]))
	}
}

// A segment with the transmit offload signature (a capture on the sending
// host) comes out with verified checksums.
func TestSplitOffloaded(t *testing.T) {
	s := defaultSpec()
	s.payload = patterned(5000)
	b := offloaded(t, s)
	_, err := Parse(b)
	require.ErrorIs(t, err, ErrTCPChecksum)
	out, err := Split(b, 1460)
	require.NoError(t, err)
	require.Len(t, out, 4)
	for _, f := range out {
		_, err := Parse(f)
		require.NoError(t, err)
	}
}

func TestSplitFits(t *testing.T) {
	s := defaultSpec()
	s.payload = patterned(1460)
	s.trailer = []byte{1, 2}
	b := build(t, s)
	out, err := Split(b, 1460)
	require.NoError(t, err)
	require.Len(t, out, 1)
	assert.Same(t, &b[0], &out[0][0], "the frame itself")
	assert.Len(t, out[0], len(b))
}

func TestSplitErrors(t *testing.T) {
	big := func(flags uint8) []byte {
		s := defaultSpec()
		s.flags, s.payload = flags, patterned(3000)
		return build(t, s)
	}
	jumbo := defaultSpec6()
	jumbo.tcp.payload = patterned(200000)
	for _, tc := range []struct {
		name  string
		frame []byte
		mss   int
		want  error
	}{
		{"syn", big(FlagSYN), 1460, ErrSplit},
		{"rst", big(FlagRST | FlagACK), 1460, ErrSplit},
		{"urg", big(FlagURG | FlagACK), 1460, ErrSplit},
		{"mss-0", big(FlagACK), 0, ErrSplit},
		{"mss-beyond-ip-length", build6(t, jumbo), 65535, ErrSplit},
		{"not-tcp", errorCaseFrame(t, "udp"), 1460, ErrNotTCP},
		{"fragment", errorCaseFrame(t, "more-fragments"), 1460, ErrFragment},
		{"malformed", errorCaseFrame(t, "ihl-4"), 1460, ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Split(tc.frame, tc.mss)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

// The frames do not share octets with the segment: changing them leaves it
// alone.
func TestSplitCopies(t *testing.T) {
	s := defaultSpec6()
	s.tcp.payload = patterned(3000)
	b := build6(t, s)
	keep := bytes.Clone(b)
	out, err := Split(b, 1000)
	require.NoError(t, err)
	for _, f := range out {
		clear(f)
	}
	assert.Equal(t, keep, b)
}

// FuzzSplit checks Split on any frame and MSS: no panic, and for a
// segment it splits, frames that ParseDual accepts with every check, whose
// payloads are the segment's in order and at most mss octets each, at
// consecutive sequence numbers.
func FuzzSplit(f *testing.F) {
	for _, tc := range validCases() {
		f.Add(build(f, tc.s), uint16(7))
	}
	for _, tc := range validCases6() {
		if b := build6(f, tc.s); len(b) < 0xffff {
			f.Add(b, uint16(100))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, mss uint16) {
		in, err := ParseDual(b, 0)
		out, serr := Split(b, int(mss))
		if err != nil {
			if serr == nil {
				t.Fatalf("Split took a frame ParseDual refuses: %v", err)
			}
			return
		}
		if serr != nil {
			if !errors.Is(serr, ErrSplit) {
				t.Fatalf("Split of a frame ParseDual accepts: %v", serr)
			}
			return
		}
		if len(out) == 1 {
			if &out[0][0] != &b[0] {
				t.Fatalf("a segment that fits is not returned as it is")
			}
			return
		}
		var payload []byte
		for i, fr := range out {
			g, err := ParseDual(fr, CheckAll)
			if err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			if g.Seq != in.Seq+uint32(len(payload)) || len(g.Payload) > int(mss) || len(g.Payload) == 0 {
				t.Fatalf("frame %d: seq %d payload %d, after %d octets of a segment at %d, MSS %d", i, g.Seq, len(g.Payload), len(payload), in.Seq, mss)
			}
			payload = append(payload, g.Payload...)
		}
		if !bytes.Equal(payload, in.Payload) {
			t.Fatalf("the frames do not carry the segment's payload")
		}
	})
}
