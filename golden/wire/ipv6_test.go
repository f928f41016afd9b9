package wire

import (
	"encoding/binary"
	"net"
	"net/netip"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spec6 describes an IPv6 test frame; build6 serialises it with gopacket
// layers (extension headers gopacket cannot serialise, Routing and
// Fragment, are written here from RFC 8200's layouts).
type spec6 struct {
	vlan     bool
	tci      uint16
	src, dst net.IP
	hbh      []*layers.IPv6HopByHopOption // a Hop-by-Hop Options header (gopacket's) when not nil
	ext      []ext6                       // extension headers after it, in order
	tcp      spec                         // ports, sequence numbers, flags, window, options, payload, trailer
	// final is the final destination of a Routing header with segments
	// left: the TCP checksum is computed with it (gopacket would take the
	// header's destination)
	final net.IP
}

// ext6 is one extension header: its Next Header value and the layer that
// writes it.
type ext6 struct {
	nh    uint8
	layer gopacket.SerializableLayer
}

// rawExt writes an extension header's octets as given; octet 0 (its Next
// Header) is filled in by build6.
type rawExt struct{ b []byte }

func (r *rawExt) LayerType() gopacket.LayerType { return gopacket.LayerTypePayload }

func (r *rawExt) SerializeTo(buf gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	p, err := buf.PrependBytes(len(r.b))
	copy(p, r.b)
	return err
}

// routing returns a Routing header of the given type and segments left
// over the addresses (RFC 8200 section 4.4; type 4 names its last entry,
// RFC 8754).
func routing(typ, left uint8, addrs ...string) ext6 {
	b := []byte{0, uint8(2 * len(addrs)), typ, left, 0, 0, 0, 0}
	if typ == 4 {
		b[4] = uint8(len(addrs) - 1)
	}
	for _, a := range addrs {
		b = append(b, net.ParseIP(a).To16()...)
	}
	return ext6{ProtocolRouting, &rawExt{b}}
}

// fragment returns a Fragment header (RFC 8200 section 4.5).
func fragment(offset uint16, more bool, id uint32) ext6 {
	b := []byte{0, 0, 0, 0, 0, 0, 0, 0}
	fo := offset << 3
	if more {
		fo |= 1
	}
	binary.BigEndian.PutUint16(b[2:], fo)
	binary.BigEndian.PutUint32(b[4:], id)
	return ext6{ProtocolFragment, &rawExt{b}}
}

// destOpts returns a Destination Options header built by gopacket.
func destOpts(opts ...*layers.IPv6DestinationOption) ext6 {
	return ext6{ProtocolDestOpts, &layers.IPv6Destination{Options: opts}}
}

// ext returns a header of any Next Header value from its octets.
func ext(nh uint8, b ...byte) ext6 { return ext6{nh, &rawExt{b}} }

func hbhOpt(typ uint8, data ...byte) *layers.IPv6HopByHopOption {
	return &layers.IPv6HopByHopOption{OptionType: typ, OptionData: data}
}

func dstOpt(typ uint8, data ...byte) *layers.IPv6DestinationOption {
	return &layers.IPv6DestinationOption{OptionType: typ, OptionData: data}
}

func defaultSpec6() spec6 {
	return spec6{src: net.ParseIP("fd00::1"), dst: net.ParseIP("fd00::2:0:0:2"), tcp: defaultSpec()}
}

// ipv6 returns the IPv6 layer of s, with its header chain linked.
func (s spec6) ipv6() *layers.IPv6 {
	ip := &layers.IPv6{Version: 6, TrafficClass: 0x28, FlowLabel: 0x12345, HopLimit: 64, SrcIP: s.src, DstIP: s.dst}
	next := uint8(ProtocolTCP)
	for i := len(s.ext) - 1; i >= 0; i-- {
		switch l := s.ext[i].layer.(type) {
		case *rawExt:
			l.b[0] = next
		case *layers.IPv6Destination:
			l.NextHeader = layers.IPProtocol(next)
		}
		next = s.ext[i].nh
	}
	ip.NextHeader = layers.IPProtocol(next)
	if s.hbh != nil {
		ip.HopByHop = &layers.IPv6HopByHop{Options: s.hbh}
		ip.HopByHop.NextHeader = layers.IPProtocol(next)
	}
	return ip
}

func build6(t testing.TB, s spec6) []byte {
	t.Helper()
	eth := &layers.Ethernet{
		SrcMAC:       net.HardwareAddr{0x02, 0, 0, 0, 0, 1},
		DstMAC:       net.HardwareAddr{0x02, 0, 0, 0, 0, 2},
		EthernetType: layers.EthernetTypeIPv6,
	}
	ls := []gopacket.SerializableLayer{eth}
	if s.vlan {
		eth.EthernetType = layers.EthernetTypeDot1Q
		ls = append(ls, &layers.Dot1Q{Priority: uint8(s.tci >> 13), DropEligible: s.tci&0x1000 != 0,
			VLANIdentifier: s.tci & 0x0fff, Type: layers.EthernetTypeIPv6})
	}
	ip := s.ipv6()
	tcp := s.tcp.tcp()
	pseudo := ip
	if s.final != nil {
		cp := *ip
		cp.DstIP = s.final
		pseudo = &cp
	}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(pseudo))
	ls = append(ls, ip)
	for _, e := range s.ext {
		ls = append(ls, e.layer)
	}
	ls = append(ls, tcp, gopacket.Payload(s.tcp.payload))
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...))
	return append(append([]byte(nil), buf.Bytes()...), s.tcp.trailer...)
}

func (s spec6) ipOff() int {
	if s.vlan {
		return 18
	}
	return 14
}

// validCases6 are IPv6 frames ParseDual must accept, with the extension
// header length expected and the final destination when a Routing header
// names it.
func validCases6() []struct {
	name  string
	s     spec6
	ext   int
	final string
} {
	mod := func(f func(*spec6)) spec6 { s := defaultSpec6(); f(&s); return s }
	// gopacket pads an options header correctly only when its options
	// fill it to a multiple of 8 octets or 4 short: the cases add PadN
	routerAlert := []*layers.IPv6HopByHopOption{hbhOpt(0x05, 0, 0), hbhOpt(optPadN)}
	return []struct {
		name  string
		s     spec6
		ext   int
		final string
	}{
		{"plain", defaultSpec6(), 0, ""},
		{"vlan", mod(func(s *spec6) { s.vlan, s.tci = true, 0x2064 }), 0, ""},
		{"syn-options", mod(func(s *spec6) { s.tcp.flags, s.tcp.payload, s.tcp.tcpOpts = FlagSYN, nil, optsSYN }), 0, ""},
		{"timestamps-odd-payload", mod(func(s *spec6) { s.tcp.tcpOpts, s.tcp.payload = optsTimestamps, []byte("odd") }), 0, ""},
		{"padding-and-trailer", mod(func(s *spec6) { s.tcp.payload, s.tcp.trailer = []byte{1}, []byte{0xde, 0xad, 0xbe, 0xef} }), 0, ""},
		{"mss-payload", mod(func(s *spec6) { s.tcp.payload = patterned(1440) }), 0, ""},
		{"jumbo-frame-payload", mod(func(s *spec6) { s.tcp.payload, s.tcp.tcpOpts = patterned(8928), optsTimestamps }), 0, ""},
		{"hop-by-hop-router-alert", mod(func(s *spec6) { s.hbh = routerAlert }), 8, ""},
		{"hop-by-hop-pad-and-skip", mod(func(s *spec6) {
			// Pad1, PadN, an unknown option whose type says skip, Pad1
			s.ext = []ext6{ext(ProtocolHopByHop, 0, 1, optPad1, optPadN, 1, 0, 0x1e, 7, 1, 2, 3, 4, 5, 6, 7, optPad1)}
		}), 16, ""},
		{"destination-options", mod(func(s *spec6) { s.ext = []ext6{destOpts(dstOpt(0x1e, 1, 2, 3, 4))} }), 8, ""},
		{"routing-type-0-none-left", mod(func(s *spec6) { s.ext = []ext6{routing(0, 0, "fd00::99")} }), 24, ""},
		{"routing-srh-none-left", mod(func(s *spec6) { s.ext = []ext6{routing(4, 0, "fd00::2:0:0:2", "fd00::77")} }), 40, ""},
		{"routing-srh-left", mod(func(s *spec6) {
			s.dst = net.ParseIP("fd00::77") // the next segment
			s.ext = []ext6{routing(4, 1, "fd00::5", "fd00::77")}
			s.final = net.ParseIP("fd00::5")
		}), 40, "fd00::5"},
		{"routing-type-2-left", mod(func(s *spec6) {
			s.dst = net.ParseIP("2001:db8::1") // the care-of address
			s.ext = []ext6{routing(2, 1, "2001:db8:0:1::7")}
			s.final = net.ParseIP("2001:db8:0:1::7")
		}), 24, "2001:db8:0:1::7"},
		{"atomic-fragment", mod(func(s *spec6) { s.ext = []ext6{fragment(0, false, 0xabcdef)} }), 8, ""},
		{"whole-chain", mod(func(s *spec6) {
			s.vlan, s.tci = true, 7
			s.hbh = routerAlert
			s.ext = []ext6{destOpts(dstOpt(0x1e)), routing(4, 0, "fd00::2:0:0:2"), fragment(0, false, 9), destOpts(dstOpt(0x01, 0, 0, 0, 0))}
			s.tcp.tcpOpts = optsTimestamps
		}), 8 + 8 + 24 + 8 + 8, ""},
		{"jumbogram", mod(func(s *spec6) { s.tcp.payload = patterned(70000) }), 8, ""},
	}
}

// errorCases6 are IPv6 frames ParseDual must reject, with the sentinel.
func errorCases6(t testing.TB) []struct {
	name  string
	frame []byte
	want  error
} {
	d := defaultSpec6()
	mod := func(f func(*spec6)) spec6 { s := defaultSpec6(); f(&s); return s }
	edit := func(s spec6, f func(b []byte, ip int)) []byte { b := build6(t, s); f(b, s.ipOff()); return b }
	plen := func(b []byte, ip int, n int) { binary.BigEndian.PutUint16(b[ip+4:], uint16(n)) }
	jumbo := mod(func(s *spec6) { s.tcp.payload = patterned(70000) })
	alert := []*layers.IPv6HopByHopOption{hbhOpt(5, 0, 0), hbhOpt(optPadN)}
	udp := func() []byte {
		ip := d.ipv6()
		ip.NextHeader = layers.IPProtocolUDP
		u := &layers.UDP{SrcPort: 1, DstPort: 2}
		require.NoError(t, u.SetNetworkLayerForChecksum(ip))
		buf := gopacket.NewSerializeBuffer()
		require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
			&layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv6},
			ip, u, gopacket.Payload("x")))
		return buf.Bytes()
	}
	return []struct {
		name  string
		frame []byte
		want  error
	}{
		{"arp", errorCaseFrame(t, "arp"), ErrNotIP},
		{"802.3-length", errorCaseFrame(t, "802.3-length"), ErrNotIP},
		{"qinq", edit(mod(func(s *spec6) { s.vlan = true }), func(b []byte, ip int) { b[16], b[17] = 0x88, 0xa8 }), ErrNotIP},
		{"header-truncated", build6(t, d)[:14+39], ErrMalformed},
		{"version-4", edit(d, func(b []byte, ip int) { b[ip] = 0x45 }), ErrMalformed},
		{"payload-beyond-frame", edit(d, func(b []byte, ip int) { plen(b, ip, len(b)-ip-40+1) }), ErrMalformed},
		{"v4-mapped-source", build6(t, mod(func(s *spec6) { s.src = net.ParseIP("::ffff:10.0.0.1") })), ErrMalformed},
		{"v4-mapped-destination", build6(t, mod(func(s *spec6) { s.dst = net.ParseIP("::ffff:10.0.0.2") })), ErrMalformed},
		{"payload-0-no-hop-by-hop", edit(d, func(b []byte, ip int) { plen(b, ip, 0) }), ErrMalformed},
		{"payload-0-no-jumbo-option", edit(mod(func(s *spec6) { s.hbh = alert }),
			func(b []byte, ip int) { plen(b, ip, 0) }), ErrMalformed},
		{"jumbo-option-with-payload-length", edit(jumbo, func(b []byte, ip int) { plen(b, ip, 1000) }), ErrMalformed},
		{"jumbo-length-small", edit(jumbo, func(b []byte, ip int) { binary.BigEndian.PutUint32(b[ip+44:], 65535) }), ErrMalformed},
		{"jumbo-beyond-frame", edit(jumbo, func(b []byte, ip int) { binary.BigEndian.PutUint32(b[ip+44:], uint32(len(b)-ip-40+1)) }), ErrMalformed},
		{"jumbo-option-length", edit(jumbo, func(b []byte, ip int) { b[ip+43] = 3 }), ErrMalformed},
		{"jumbo-with-fragment", build6(t, mod(func(s *spec6) { s.tcp.payload = patterned(70000); s.ext = []ext6{fragment(0, false, 1)} })), ErrMalformed},
		{"hop-by-hop-not-first", build6(t, mod(func(s *spec6) {
			s.ext = []ext6{destOpts(dstOpt(1, 0, 0, 0, 0)), ext(ProtocolHopByHop, 0, 0, 1, 4, 0, 0, 0, 0)}
		})), ErrMalformed},
		{"extension-beyond-payload", edit(mod(func(s *spec6) { s.ext = []ext6{destOpts(dstOpt(1, 0, 0, 0, 0))}; s.tcp.payload = nil }),
			func(b []byte, ip int) { b[ip+41] = 4 }), ErrMalformed},
		{"extension-cut", edit(mod(func(s *spec6) { s.ext = []ext6{fragment(0, false, 1)} }), func(b []byte, ip int) { plen(b, ip, 7) }), ErrMalformed},
		{"option-overrun", edit(mod(func(s *spec6) { s.hbh = alert }), func(b []byte, ip int) { b[ip+43] = 5 }), ErrMalformed},
		{"routing-type-2-bad-length", build6(t, mod(func(s *spec6) { s.ext = []ext6{routing(2, 1, "fd00::5", "fd00::6")} })), ErrMalformed},
		{"routing-v4-mapped-final", build6(t, mod(func(s *spec6) { s.ext = []ext6{routing(4, 1, "::ffff:10.0.0.9", "fd00::2:0:0:2")} })), ErrMalformed},
		{"tcp-header-truncated", edit(mod(func(s *spec6) { s.tcp.payload = nil }), func(b []byte, ip int) { plen(b, ip, 19) }), ErrMalformed},
		{"tcp-doff-beyond", edit(mod(func(s *spec6) { s.tcp.payload = nil }), func(b []byte, ip int) { b[ip+40+12] = 0xf0 }), ErrMalformed},
		{"fragment-offset", build6(t, mod(func(s *spec6) { s.ext = []ext6{fragment(185, false, 1)} })), ErrFragment},
		{"fragment-more", build6(t, mod(func(s *spec6) { s.ext = []ext6{fragment(0, true, 1)} })), ErrFragment},
		{"fragment-after-options", build6(t, mod(func(s *spec6) {
			s.hbh = alert
			s.ext = []ext6{fragment(7, true, 1)}
		})), ErrFragment},
		{"udp", udp(), ErrNotTCP},
		{"ah", build6(t, mod(func(s *spec6) {
			s.ext = []ext6{ext(ProtocolAH, 0, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
		})), ErrNotTCP},
		{"esp", edit(d, func(b []byte, ip int) { b[ip+6] = ProtocolESP }), ErrNotTCP},
		{"no-next-header", edit(d, func(b []byte, ip int) { b[ip+6] = ProtocolNoNext }), ErrNotTCP},
		{"no-next-header-short", edit(mod(func(s *spec6) { s.tcp.payload = nil }), func(b []byte, ip int) { b[ip+6] = ProtocolNoNext; plen(b, ip, 0x03) }), ErrNotTCP},
		{"mobility-header", edit(d, func(b []byte, ip int) { b[ip+6] = 135 }), ErrNotTCP},
		{"hop-by-hop-option-discard", build6(t, mod(func(s *spec6) { s.hbh = []*layers.IPv6HopByHopOption{hbhOpt(0x63, 0, 0), hbhOpt(optPadN)} })), ErrNotTCP},
		{"destination-jumbo-option", build6(t, mod(func(s *spec6) { s.ext = []ext6{destOpts(dstOpt(optJumbo, 0, 1, 0, 0))} })), ErrNotTCP},
		{"home-address-option", build6(t, mod(func(s *spec6) {
			s.ext = []ext6{destOpts(dstOpt(0xc9, net.ParseIP("2001:db8::9").To16()...))}
		})), ErrNotTCP},
		{"routing-type-3-left", build6(t, mod(func(s *spec6) { s.ext = []ext6{routing(3, 1, "fd00::5")} })), ErrNotTCP},
		{"routing-type-0-left", build6(t, mod(func(s *spec6) { s.ext = []ext6{routing(0, 1, "fd00::5")} })), ErrNotTCP},
		{"tcp-checksum", edit(d, func(b []byte, ip int) { b[len(b)-1] ^= 0x20 }), ErrTCPChecksum},
		{"tcp-checksum-source", edit(d, func(b []byte, ip int) { b[ip+8+15] ^= 1 }), ErrTCPChecksum},
		{"tcp-checksum-ipv4-pseudo-header", edit(d, func(b []byte, ip int) {
			// the checksum as if over the IPv4 pseudo-header of the low addresses
			seg := b[ip+40:]
			seg[16], seg[17] = 0, 0
			binary.BigEndian.PutUint16(seg[16:], TCPChecksum([4]byte(b[ip+20:ip+24]), [4]byte(b[ip+36:ip+40]), seg))
		}), ErrTCPChecksum},
		{"tcp-checksum-routing-header-destination", build6(t, mod(func(s *spec6) {
			// gopacket's checksum with the header's destination, not the final one
			s.ext = []ext6{routing(4, 1, "fd00::5", "fd00::2:0:0:2")}
		})), ErrTCPChecksum},
		{"tcp-checksum-jumbo", edit(jumbo, func(b []byte, ip int) { b[len(b)-1] ^= 1 }), ErrTCPChecksum},
	}
}

// errorCaseFrame returns the frame of an IPv4 error case by name.
func errorCaseFrame(t testing.TB, name string) []byte {
	for _, tc := range errorCases(t) {
		if tc.name == name {
			return tc.frame
		}
	}
	t.Fatalf("no error case %q", name)
	return nil
}

func TestParseDualIPv6(t *testing.T) {
	for _, tc := range validCases6() {
		t.Run(tc.name, func(t *testing.T) {
			b := build6(t, tc.s)
			f, err := ParseDual(b, CheckAll)
			require.NoError(t, err)
			assert.True(t, f.IPv6)
			assert.Equal(t, tc.s.vlan, f.VLAN)
			if tc.s.vlan {
				assert.Equal(t, tc.s.tci&0x0fff, f.VLANID)
			}
			assert.Equal(t, [4]byte{}, f.SrcIP)
			assert.Equal(t, [4]byte{}, f.DstIP)
			assert.Equal(t, netip.MustParseAddr(tc.s.src.String()), netip.AddrFrom16(f.SrcAddr))
			final := tc.s.dst.String()
			if tc.final != "" {
				final = tc.final
			}
			assert.Equal(t, netip.MustParseAddr(final), netip.AddrFrom16(f.DstAddr))
			assert.Equal(t, tc.ext, f.ExtHeaderLen)
			assert.Equal(t, 40+tc.ext, f.IPHeaderLen)
			assert.Equal(t, tc.s.tcp.sport, f.SrcPort)
			assert.Equal(t, tc.s.tcp.dport, f.DstPort)
			assert.Equal(t, tc.s.tcp.seq, f.Seq)
			assert.Equal(t, tc.s.tcp.ack, f.Ack)
			assert.Equal(t, tc.s.tcp.flags, f.Flags)
			assert.Equal(t, tc.s.tcp.window, f.Window)
			assert.Equal(t, string(tc.s.tcp.payload), string(f.Payload))
			off := tc.s.ipOff() + f.IPHeaderLen + f.TCPHeaderLen
			if len(f.Payload) > 0 {
				assert.Same(t, &b[off], &f.Payload[0], "the payload is a sub-slice of the input")
			}
			_, err = Parse(b)
			require.ErrorIs(t, err, ErrNotIPv4, "Parse takes IPv4 only")
			crossCheckDual(t, b, f)
		})
	}
}

func TestParseDualIPv6Errors(t *testing.T) {
	sentinels := []error{ErrNotIP, ErrNotIPv4, ErrNotTCP, ErrFragment, ErrMalformed, ErrIPChecksum, ErrTCPChecksum}
	for _, tc := range errorCases6(t) {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDual(tc.frame, CheckAll)
			require.ErrorIs(t, err, tc.want)
			for _, s := range sentinels {
				if s != tc.want {
					assert.NotErrorIs(t, err, s)
				}
			}
			if tc.want == ErrTCPChecksum {
				f, err := ParseDual(tc.frame, CheckIP)
				require.NoError(t, err, "only the TCP checksum is wrong")
				assert.True(t, f.IPv6)
			}
		})
	}
}

// ParseDual takes every IPv4 frame as Parse does; a frame that is not IP
// is ErrNotIP where Parse says ErrNotIPv4.
func TestParseDualIPv4(t *testing.T) {
	for _, tc := range validCases() {
		b := build(t, tc.s)
		want, err := Parse(b)
		require.NoError(t, err)
		got, err := ParseDual(b, CheckAll)
		require.NoError(t, err, tc.name)
		assert.Equal(t, want, got, tc.name)
		assert.False(t, got.IPv6)
		assert.True(t, got.SrcAddr.Is4())
		assert.Equal(t, tc.s.src, got.SrcAddr.As4())
		assert.Equal(t, tc.s.dst, got.DstAddr.As4())
		assert.Zero(t, got.ExtHeaderLen)
	}
	for _, tc := range errorCases(t) {
		want, werr := Parse(tc.frame)
		got, err := ParseDual(tc.frame, CheckAll)
		switch tc.name {
		case "ipv6":
			require.NoError(t, err)
			assert.True(t, got.IPv6)
		default:
			if tc.want == ErrNotIPv4 {
				require.ErrorIs(t, err, ErrNotIP, tc.name)
				assert.NotErrorIs(t, err, ErrNotIPv4, tc.name)
			} else {
				assert.Equal(t, werr, err, tc.name)
				assert.Equal(t, want, got, tc.name)
			}
		}
	}
}

// crossCheckDual compares an IPv6 frame ParseDual accepted with gopacket's
// decoding of it, where gopacket decodes it (not a Routing header other
// than type 0, not a Fragment header), and checks the TCP checksum with
// gopacket's where the pseudo-header's destination is the header's.
func crossCheckDual(t testing.TB, b []byte, f Frame) {
	t.Helper()
	pkt := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.DecodeOptions{NoCopy: true})
	ip, _ := pkt.Layer(layers.LayerTypeIPv6).(*layers.IPv6)
	tcp, _ := pkt.Layer(layers.LayerTypeTCP).(*layers.TCP)
	if ip == nil {
		t.Fatalf("gopacket finds no IPv6 in a frame ParseDual accepted as IPv6")
	}
	if netip.AddrFrom16(f.SrcAddr) != netip.AddrFrom16([16]byte(ip.SrcIP)) {
		t.Fatalf("source %v, gopacket %v", f.SrcAddr, ip.SrcIP)
	}
	if pkt.ErrorLayer() != nil || tcp == nil {
		return
	}
	var gw string
	for _, l := range pkt.Layers() {
		if r, ok := l.(*layers.IPv6Routing); ok && r.SegmentsLeft > 0 {
			gw = "routed"
		}
	}
	if gw == "" && f.DstAddr != Addr(ip.DstIP) {
		t.Fatalf("destination %v, gopacket %v", f.DstAddr, ip.DstIP)
	}
	ipo := 14
	if f.VLAN {
		ipo = 18
	}
	seg := b[ipo+f.IPHeaderLen : ipo+f.IPHeaderLen+f.TCPHeaderLen+len(f.Payload)]
	// gopacket (v1.1.19) trims a packet with a Hop-by-Hop header to its
	// payload length after taking the header off: with octets after the
	// packet, its TCP payload takes in as many of them as the header is
	// long. Lengths and checksums are compared where that does not apply.
	whole := ip.HopByHop == nil || ipo+f.IPHeaderLen+len(seg) == len(b)
	if f.SrcPort != uint16(tcp.SrcPort) || f.DstPort != uint16(tcp.DstPort) || f.Seq != tcp.Seq || f.Ack != tcp.Ack ||
		f.TCPHeaderLen != int(tcp.DataOffset)*4 || (whole && len(f.Payload) != len(tcp.Payload)) {
		t.Fatalf("ParseDual and gopacket disagree on TCP: %d>%d seq %d ack %d hl %d len %d; gopacket %d>%d seq %d ack %d hl %d len %d",
			f.SrcPort, f.DstPort, f.Seq, f.Ack, f.TCPHeaderLen, len(f.Payload),
			tcp.SrcPort, tcp.DstPort, tcp.Seq, tcp.Ack, int(tcp.DataOffset)*4, len(tcp.Payload))
	}
	if gw == "" && whole {
		if err := tcp.SetNetworkLayerForChecksum(ip); err != nil {
			t.Fatal(err)
		}
		c, err := tcp.ComputeChecksum()
		if err != nil {
			t.Fatal(err)
		}
		if (c == 0) != (f.tcpChecksum(seg) == 0) {
			t.Fatalf("gopacket's TCP checksum check %#04x disagrees", c)
		}
	}
}

func TestAddr(t *testing.T) {
	v4 := AddrFrom4([4]byte{10, 0, 0, 1})
	assert.True(t, v4.Is4())
	assert.Equal(t, [4]byte{10, 0, 0, 1}, v4.As4())
	assert.Equal(t, "10.0.0.1", v4.String())
	assert.Equal(t, netip.MustParseAddr("::ffff:10.0.0.1").As16(), [16]byte(v4))
	v6 := Addr(netip.MustParseAddr("2001:db8::1").As16())
	assert.False(t, v6.Is4())
	assert.Equal(t, "2001:db8::1", v6.String())
	assert.False(t, Addr{}.Is4())
	assert.Equal(t, "::", Addr{}.String())
	m := map[Addr]int{v4: 4, v6: 6}
	assert.Equal(t, 4, m[AddrFrom4([4]byte{10, 0, 0, 1})])
}

func TestIPv6ChecksumsAgainstReference(t *testing.T) {
	for _, tc := range validCases6() {
		b := build6(t, tc.s)
		f, err := ParseDual(b, 0)
		require.NoError(t, err)
		seg := b[tc.s.ipOff()+f.IPHeaderLen : len(b)-len(tc.s.tcp.trailer)]
		n := len(seg)
		pseudo := append(append([]byte(nil), f.SrcAddr[:]...), f.DstAddr[:]...)
		pseudo = append(pseudo, byte(n>>24), byte(n>>16), byte(n>>8), byte(n), 0, 0, 0, ProtocolTCP)
		assert.Equal(t, ^refSum(append(pseudo, seg...)), TCPChecksumIPv6(f.SrcAddr, f.DstAddr, seg), tc.name)
		assert.Zero(t, TCPChecksumIPv6(f.SrcAddr, f.DstAddr, seg), tc.name)
		assert.Equal(t, refSum(pseudo), PseudoHeaderSumIPv6(f.SrcAddr, f.DstAddr, n), tc.name)
	}
	// all-ones addresses: every end-around carry of the 64-bit sums
	var ones Addr
	for i := range ones {
		ones[i] = 0xff
	}
	seg := make([]byte, 20)
	pseudo := append(append(append([]byte(nil), ones[:]...), ones[:]...), 0, 0, 0, 20, 0, 0, 0, 6)
	assert.Equal(t, ^refSum(append(pseudo, seg...)), TCPChecksumIPv6(ones, ones, seg))
}

func TestOffloadSignatureIPv6(t *testing.T) {
	s := defaultSpec6()
	b := build6(t, s)
	f, err := ParseDual(b, 0)
	require.NoError(t, err)
	assert.False(t, f.OffloadSignature())
	seg := b[s.ipOff()+40:]
	n := len(seg)
	pseudo := append(append([]byte(nil), f.SrcAddr[:]...), f.DstAddr[:]...)
	pseudo = append(pseudo, 0, 0, byte(n>>8), byte(n), 0, 0, 0, ProtocolTCP)
	binary.BigEndian.PutUint16(seg[16:], refSum(pseudo))
	f, err = ParseDual(b, CheckAll)
	require.ErrorIs(t, err, ErrTCPChecksum)
	assert.True(t, f.OffloadSignature())
}

func TestParseDualDoesNotAllocate(t *testing.T) {
	for _, tc := range validCases6() {
		b := build6(t, tc.s)
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := ParseDual(b, CheckAll); err != nil {
				panic(err)
			}
		})
		assert.Zero(t, allocs, tc.name)
	}
}
