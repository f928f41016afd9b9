package wire

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"net"
	"net/netip"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spec describes a test frame; build serialises it with gopacket layers, an
// implementation independent of Parse.
type spec struct {
	vlan     bool
	tci      uint16 // whole 802.1Q TCI: priority, DEI and VLAN ID
	ipOpts   []layers.IPv4Option
	ipFlags  layers.IPv4Flag
	fragOff  uint16 // in 8-octet units
	src, dst [4]byte
	sport    uint16
	dport    uint16
	seq, ack uint32
	flags    uint8
	window   uint16
	tcpOpts  []layers.TCPOption
	payload  []byte
	trailer  []byte // appended after serialisation (padding, an FCS, junk)
}

func defaultSpec() spec {
	return spec{
		src: [4]byte{10, 0, 0, 1}, dst: [4]byte{10, 0, 0, 2},
		sport: 40000, dport: 4791, seq: 0x01020304, ack: 0xa0b0c0d0,
		flags: FlagACK | FlagPSH, window: 0xfff0, ipFlags: layers.IPv4DontFragment,
		payload: []byte("MPA FPDU payload"),
	}
}

func (s spec) tcp() *layers.TCP {
	return &layers.TCP{
		SrcPort: layers.TCPPort(s.sport), DstPort: layers.TCPPort(s.dport),
		Seq: s.seq, Ack: s.ack, Window: s.window, Options: s.tcpOpts,
		FIN: s.flags&FlagFIN != 0, SYN: s.flags&FlagSYN != 0, RST: s.flags&FlagRST != 0,
		PSH: s.flags&FlagPSH != 0, ACK: s.flags&FlagACK != 0, URG: s.flags&FlagURG != 0,
		ECE: s.flags&FlagECE != 0, CWR: s.flags&FlagCWR != 0,
	}
}

// buildL4 serialises the spec with the given transport layer (TCP unless
// told otherwise).
func buildL4(t testing.TB, s spec, l4 gopacket.SerializableLayer, proto layers.IPProtocol) []byte {
	t.Helper()
	eth := &layers.Ethernet{
		SrcMAC:       net.HardwareAddr{0x02, 0, 0, 0, 0, 1},
		DstMAC:       net.HardwareAddr{0x02, 0, 0, 0, 0, 2},
		EthernetType: layers.EthernetTypeIPv4,
	}
	ip := &layers.IPv4{
		Version: 4, TTL: 64, Protocol: proto, Id: 0x1234,
		Flags: s.ipFlags, FragOffset: s.fragOff, Options: s.ipOpts,
		SrcIP: net.IP(s.src[:]), DstIP: net.IP(s.dst[:]),
	}
	ls := []gopacket.SerializableLayer{eth}
	if s.vlan {
		eth.EthernetType = layers.EthernetTypeDot1Q
		ls = append(ls, &layers.Dot1Q{
			Priority: uint8(s.tci >> 13), DropEligible: s.tci&0x1000 != 0,
			VLANIdentifier: s.tci & 0x0fff, Type: layers.EthernetTypeIPv4,
		})
	}
	ls = append(ls, ip)
	switch l := l4.(type) {
	case *layers.TCP:
		require.NoError(t, l.SetNetworkLayerForChecksum(ip))
	case *layers.UDP:
		require.NoError(t, l.SetNetworkLayerForChecksum(ip))
	}
	ls = append(ls, l4, gopacket.Payload(s.payload))
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	require.NoError(t, gopacket.SerializeLayers(buf, opts, ls...))
	return append(append([]byte(nil), buf.Bytes()...), s.trailer...)
}

func build(t testing.TB, s spec) []byte {
	return buildL4(t, s, s.tcp(), layers.IPProtocolTCP)
}

// ipOff returns the offset of the IPv4 header in a frame built from s.
func (s spec) ipOff() int {
	if s.vlan {
		return 18
	}
	return 14
}

// fixIP recomputes the IPv4 header checksum after a test edits the header,
// with the naive reference sum (not the code under test).
func fixIP(b []byte, off int) {
	ihl := int(b[off]&0x0f) * 4
	b[off+10], b[off+11] = 0, 0
	binary.BigEndian.PutUint16(b[off+10:], ^refSum(b[off:off+ihl]))
}

// refSum is the plain RFC 1071 ones' complement sum, 16 bits at a time.
func refSum(b []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
		s = s&0xffff + s>>16
	}
	if len(b)%2 == 1 {
		s += uint32(b[len(b)-1]) << 8
		s = s&0xffff + s>>16
	}
	return uint16(s)
}

var (
	optsTimestamps = []layers.TCPOption{
		{OptionType: layers.TCPOptionKindNop, OptionLength: 1},
		{OptionType: layers.TCPOptionKindNop, OptionLength: 1},
		{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10,
			OptionData: []byte{0, 0, 0x12, 0x34, 0, 0, 0x56, 0x78}},
	}
	optsSYN = []layers.TCPOption{
		{OptionType: layers.TCPOptionKindMSS, OptionLength: 4, OptionData: []byte{0x05, 0xb4}},
		{OptionType: layers.TCPOptionKindSACKPermitted, OptionLength: 2},
		{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10,
			OptionData: []byte{1, 2, 3, 4, 0, 0, 0, 0}},
		{OptionType: layers.TCPOptionKindNop, OptionLength: 1},
		{OptionType: layers.TCPOptionKindWindowScale, OptionLength: 3, OptionData: []byte{7}},
	}
	optsRouterAlert = []layers.IPv4Option{
		{OptionType: 148, OptionLength: 4, OptionData: []byte{0, 0}},
	}
	optsIPLong = []layers.IPv4Option{ // record route, 9 slots: 39 octets, padded to 40
		{OptionType: 7, OptionLength: 39, OptionData: append([]byte{4}, make([]byte, 36)...)},
	}
)

// validCases are frames Parse must accept, with the header lengths expected.
func validCases() []struct {
	name     string
	s        spec
	ihl, thl int
} {
	mod := func(f func(*spec)) spec { s := defaultSpec(); f(&s); return s }
	return []struct {
		name     string
		s        spec
		ihl, thl int
	}{
		{"plain", defaultSpec(), 20, 20},
		{"syn-no-payload-options", mod(func(s *spec) { s.flags = FlagSYN; s.payload = nil; s.tcpOpts = optsSYN }), 20, 40},
		{"vlan", mod(func(s *spec) { s.vlan = true; s.tci = 0xa064 }), 20, 20},
		{"vlan-id-4095-dei", mod(func(s *spec) { s.vlan = true; s.tci = 0x1fff }), 20, 20},
		{"ip-options", mod(func(s *spec) { s.ipOpts = optsRouterAlert }), 24, 20},
		{"ip-options-max", mod(func(s *spec) { s.ipOpts = optsIPLong }), 60, 20},
		{"tcp-timestamps", mod(func(s *spec) { s.tcpOpts = optsTimestamps }), 20, 32},
		{"all-options-vlan", mod(func(s *spec) {
			s.vlan, s.tci, s.ipOpts, s.tcpOpts = true, 7, optsRouterAlert, optsTimestamps
		}), 24, 32},
		{"odd-payload", mod(func(s *spec) { s.payload = []byte("odd") }), 20, 20},
		{"padding-and-fcs", mod(func(s *spec) {
			s.payload = []byte{0xff}
			s.trailer = []byte{0xde, 0xad, 0xbe, 0xef}
		}), 20, 20},
		{"fin-rst-flags", mod(func(s *spec) { s.flags = FlagFIN | FlagRST | FlagURG | FlagECE | FlagCWR }), 20, 20},
		{"mss-payload", mod(func(s *spec) { s.payload = patterned(1460) }), 20, 20},
		{"jumbo-payload", mod(func(s *spec) { s.payload = patterned(8948); s.tcpOpts = optsTimestamps }), 20, 32},
		{"checksum-ffff", mod(func(s *spec) { s.payload = nil }), 20, 20},
	}
}

func patterned(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	return b
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases() {
		t.Run(tc.name, func(t *testing.T) {
			b := build(t, tc.s)
			f, err := Parse(b)
			require.NoError(t, err)
			assertFrame(t, tc.s, f)
			assert.Equal(t, tc.ihl, f.IPHeaderLen)
			assert.Equal(t, tc.thl, f.TCPHeaderLen)
			// The payload is a sub-slice of the input, right after the headers.
			off := tc.s.ipOff() + tc.ihl + tc.thl
			if len(f.Payload) > 0 {
				assert.Same(t, &b[off], &f.Payload[0])
			}
		})
	}
}

func assertFrame(t *testing.T, s spec, f Frame) {
	t.Helper()
	assert.Equal(t, s.vlan, f.VLAN)
	if s.vlan {
		assert.Equal(t, s.tci&0x0fff, f.VLANID)
	}
	assert.Equal(t, AddrFrom4(s.src), f.SrcIP)
	assert.Equal(t, AddrFrom4(s.dst), f.DstIP)
	assert.Equal(t, s.sport, f.SrcPort)
	assert.Equal(t, s.dport, f.DstPort)
	assert.Equal(t, s.seq, f.Seq)
	assert.Equal(t, s.ack, f.Ack)
	assert.Equal(t, s.flags, f.Flags)
	assert.Equal(t, s.window, f.Window)
	assert.Equal(t, len(s.payload), len(f.Payload))
	assert.Equal(t, string(s.payload), string(f.Payload))
}

// errorCases are frames Parse must reject, each with the sentinel expected.
func errorCases(t testing.TB) []struct {
	name  string
	frame []byte
	want  error
} {
	d := defaultSpec()
	ipo := d.ipOff()
	edit := func(s spec, f func(b []byte)) []byte { b := build(t, s); f(b); return b }
	editFix := func(s spec, f func(b []byte)) []byte {
		return edit(s, func(b []byte) { f(b); fixIP(b, s.ipOff()) })
	}
	vlan := d
	vlan.vlan, vlan.tci = true, 5

	arp := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(arp, gopacket.SerializeOptions{FixLengths: true},
		&layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: layers.EthernetBroadcast,
			EthernetType: layers.EthernetTypeARP},
		&layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4,
			HwAddressSize: 6, ProtAddressSize: 4, Operation: layers.ARPRequest,
			SourceHwAddress: []byte{2, 0, 0, 0, 0, 1}, SourceProtAddress: []byte{10, 0, 0, 1},
			DstHwAddress: make([]byte, 6), DstProtAddress: []byte{10, 0, 0, 2}}))
	udp := buildL4(t, d, &layers.UDP{SrcPort: 40000, DstPort: 4791}, layers.IPProtocolUDP)
	udpFrag := d
	udpFrag.ipFlags = layers.IPv4MoreFragments
	mf := d
	mf.ipFlags = layers.IPv4MoreFragments
	fo := d
	fo.ipFlags, fo.fragOff = 0, 185

	return []struct {
		name  string
		frame []byte
		want  error
	}{
		{"empty", nil, ErrMalformed},
		{"13-octets", build(t, d)[:13], ErrMalformed},
		{"vlan-truncated", build(t, vlan)[:16], ErrMalformed},
		{"arp", arp.Bytes(), ErrNotIP},
		{"802.3-length", edit(d, func(b []byte) { b[12], b[13] = 0x00, 0x40 }), ErrNotIP},
		{"qinq-inner-vlan", edit(vlan, func(b []byte) { b[16], b[17] = 0x81, 0x00 }), ErrNotIP},
		{"udp", udp, ErrNotTCP},
		{"udp-fragment", buildL4(t, udpFrag, &layers.UDP{SrcPort: 1, DstPort: 2}, layers.IPProtocolUDP), ErrNotTCP},
		{"more-fragments", build(t, mf), ErrFragment},
		{"fragment-offset", build(t, fo), ErrFragment},
		{"ip-truncated", build(t, d)[:ipo+19], ErrMalformed},
		{"ip-version-6", editFix(d, func(b []byte) { b[ipo] = 0x65 }), ErrMalformed},
		{"ihl-4", editFix(d, func(b []byte) { b[ipo] = 0x44 }), ErrMalformed},
		{"ihl-beyond-total", edit(d, func(b []byte) { b[ipo] = 0x4f; binary.BigEndian.PutUint16(b[ipo+2:], 40) }), ErrMalformed},
		{"total-beyond-frame", editFix(d, func(b []byte) { binary.BigEndian.PutUint16(b[ipo+2:], uint16(len(b)-ipo+1)) }), ErrMalformed},
		{"total-below-header", editFix(d, func(b []byte) { binary.BigEndian.PutUint16(b[ipo+2:], 19) }), ErrMalformed},
		{"tcp-header-truncated", editFix(d, func(b []byte) { binary.BigEndian.PutUint16(b[ipo+2:], 20+19) }), ErrMalformed},
		{"tcp-doff-4", edit(d, func(b []byte) { b[ipo+20+12] = 0x40 }), ErrMalformed},
		{"tcp-doff-beyond", editFix(d, func(b []byte) {
			b[ipo+20+12] = 0xf0
			binary.BigEndian.PutUint16(b[ipo+2:], 20+56)
		}), ErrMalformed},
		{"ip-checksum", edit(d, func(b []byte) { b[ipo+10] ^= 0x01 }), ErrIPChecksum},
		{"ip-checksum-ttl", edit(d, func(b []byte) { b[ipo+8]-- }), ErrIPChecksum},
		{"ip-checksum-zeros", edit(d, func(b []byte) { b[ipo+10], b[ipo+11] = 0, 0 }), ErrIPChecksum},
		{"tcp-checksum", edit(d, func(b []byte) { b[len(b)-1] ^= 0x80 }), ErrTCPChecksum},
		{"tcp-checksum-port", edit(d, func(b []byte) { b[ipo+20+1]++ }), ErrTCPChecksum},
		{"tcp-checksum-pseudo-header", editFix(d, func(b []byte) { b[ipo+15] ^= 0x10 }), ErrTCPChecksum},
		{"tcp-checksum-shortened", editFix(d, func(b []byte) {
			binary.BigEndian.PutUint16(b[ipo+2:], binary.BigEndian.Uint16(b[ipo+2:])-1)
		}), ErrTCPChecksum},
	}
}

func TestParseErrors(t *testing.T) {
	sentinels := []error{ErrNotIP, ErrNotTCP, ErrFragment, ErrMalformed, ErrIPChecksum, ErrTCPChecksum}
	for _, tc := range errorCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.frame)
			require.ErrorIs(t, err, tc.want)
			for _, s := range sentinels {
				if s != tc.want {
					assert.NotErrorIs(t, err, s)
				}
			}
		})
	}
}

func TestChecksumsAgainstReference(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	buf := make([]byte, 2100)
	for i := 0; i < 3000; i++ {
		r.Read(buf)
		start, n := r.Intn(16), r.Intn(2084)
		b := buf[start : start+n]
		if i%10 == 0 {
			for j := range b { // all-ones data exercises every end-around carry
				b[j] = 0xff
			}
		}
		require.Equal(t, ^refSum(b), IPv4Checksum(b), "len %d", n)
		var src, dst [4]byte
		r.Read(src[:])
		r.Read(dst[:])
		pseudo := append(append(append(src[:0:0], src[:]...), dst[:]...), 0, ProtocolTCP, byte(n>>8), byte(n))
		require.Equal(t, ^refSum(append(pseudo, b...)), TCPChecksum(src, dst, b), "len %d", n)
	}
	// RFC 1071 section 3 example: 00 01 f2 03 f4 f5 f6 f7 sums to ddf2.
	assert.Equal(t, uint16(^uint16(0xddf2)), IPv4Checksum([]byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}))
}

func randomSpec(r *rand.Rand) spec {
	s := defaultSpec()
	r.Read(s.src[:])
	r.Read(s.dst[:])
	s.sport, s.dport = uint16(r.Uint32()), uint16(r.Uint32())
	s.seq, s.ack, s.window = r.Uint32(), r.Uint32(), uint16(r.Uint32())
	s.flags = uint8(r.Uint32())
	s.ipFlags = layers.IPv4Flag(r.Intn(2) * int(layers.IPv4DontFragment))
	if r.Intn(2) == 0 {
		s.vlan, s.tci = true, uint16(r.Uint32())
	}
	switch r.Intn(3) {
	case 1:
		s.ipOpts = optsRouterAlert
	case 2:
		s.ipOpts = optsIPLong
	}
	switch r.Intn(3) {
	case 1:
		s.tcpOpts = optsTimestamps
	case 2:
		s.tcpOpts = optsSYN
	}
	s.payload = make([]byte, r.Intn(1500))
	r.Read(s.payload)
	s.trailer = make([]byte, r.Intn(3)*4)
	r.Read(s.trailer)
	return s
}

// TestRoundTripRandom builds random frames with gopacket, parses them, and
// checks every field; then changes one random octet anywhere in the IPv4
// packet, which the checksums (or length checks) must always catch, and one
// octet of the Ethernet header or trailer, which must not matter.
func TestRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 400; i++ {
		s := randomSpec(r)
		b := build(t, s)
		f, err := Parse(b)
		require.NoError(t, err, "frame %d", i)
		assertFrame(t, s, f)

		ipo := s.ipOff()
		total := int(binary.BigEndian.Uint16(b[ipo+2:]))
		pos := ipo + r.Intn(total)
		b[pos] ^= byte(1 + r.Intn(255))
		_, err = Parse(b)
		require.Error(t, err, "frame %d: octet %d changed", i, pos)

		b = build(t, s)
		pos = r.Intn(12) // MAC addresses
		if r.Intn(2) == 0 && len(b) > ipo+total {
			pos = ipo + total + r.Intn(len(b)-ipo-total) // padding or trailer
		}
		b[pos] ^= 0x5a
		_, err = Parse(b)
		require.NoError(t, err, "frame %d: octet %d outside the IPv4 packet changed", i, pos)
	}
}

func TestFourTuple(t *testing.T) {
	f, err := Parse(build(t, defaultSpec()))
	require.NoError(t, err)
	ft := f.FourTuple()
	assert.Equal(t, "10.0.0.1:40000>10.0.0.2:4791", ft.String())
	assert.Equal(t, "10.0.0.1:40000", ft.Src())
	assert.Equal(t, "10.0.0.2:4791", ft.Dst())
	assert.Equal(t, "10.0.0.2:4791>10.0.0.1:40000", ft.Reverse().String())
	assert.Equal(t, ft, ft.Reverse().Reverse())
	assert.False(t, ft.IPv6())
	m := map[FourTuple]int{ft: 1}
	assert.Equal(t, 1, m[FourTuple{SrcIP: AddrFrom4([4]byte{10, 0, 0, 1}), DstIP: AddrFrom4([4]byte{10, 0, 0, 2}), SrcPort: 40000, DstPort: 4791}])

	f6, err := Parse(build6(t, defaultSpec6()))
	require.NoError(t, err)
	t6 := f6.FourTuple()
	assert.True(t, t6.IPv6())
	assert.Equal(t, "["+f6.SrcIP.String()+"]:"+fmt.Sprint(f6.SrcPort), t6.Src())
	assert.Equal(t, t6.Src()+">"+t6.Dst(), t6.String())
	assert.False(t, FourTuple{}.IPv6())
	v6 := FourTuple{SrcIP: Addr(netip.MustParseAddr("2001:db8::1").As16()), DstIP: Addr(netip.MustParseAddr("2001:db8::2").As16()), SrcPort: 40000, DstPort: 4791}
	assert.Equal(t, "[2001:db8::1]:40000>[2001:db8::2]:4791", v6.String())
}

func TestParseDoesNotAllocate(t *testing.T) {
	b := build(t, validCases()[7].s)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := Parse(b); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
}

// ParseHeaders names the segment of a frame cut short by a capture's snap
// length, over IPv4 and IPv6; a frame cut inside its headers is malformed.
func TestParseHeaders(t *testing.T) {
	s := defaultSpec()
	s.payload = patterned(1000)
	s6 := defaultSpec6()
	s6.tcp.payload = patterned(1000)
	for _, tc := range []struct {
		name  string
		frame []byte
		hdrs  int // octets of headers
	}{
		{"ipv4", build(t, s), 14 + 20 + 20},
		{"ipv6", build6(t, s6), 14 + 40 + 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole, err := Parse(tc.frame)
			require.NoError(t, err)
			for _, n := range []int{len(tc.frame), len(tc.frame) - 1, tc.hdrs + 10, tc.hdrs} {
				f, err := ParseHeaders(tc.frame[:n])
				require.NoError(t, err, n)
				assert.Equal(t, whole.FourTuple(), f.FourTuple())
				assert.Equal(t, whole.Seq, f.Seq)
				assert.Equal(t, whole.Payload[:n-tc.hdrs], f.Payload)
				if n < len(tc.frame) {
					_, err = ParseWith(tc.frame[:n], 0)
					require.ErrorIs(t, err, ErrMalformed)
				}
			}
			_, err = ParseHeaders(tc.frame[:tc.hdrs-1])
			require.ErrorIs(t, err, ErrMalformed)
		})
	}
}
