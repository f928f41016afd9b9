package fastpath_test

import (
	"encoding/binary"
	"math/bits"
	"net"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// frame6 serialises an Ethernet/[802.1Q]/IPv6/[extension headers]/L4 frame
// with gopacket; next is the protocol after the extension headers.
func frame6(t *testing.T, vlan bool, ext []gopacket.SerializableLayer, l4 gopacket.SerializableLayer, payload []byte) []byte {
	t.Helper()
	ip := &layers.IPv6{Version: 6, HopLimit: 64, SrcIP: net.ParseIP("2001:db8::1"), DstIP: net.ParseIP("2001:db8::2")}
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv6}
	ls := []gopacket.SerializableLayer{eth}
	if vlan {
		eth.EthernetType = layers.EthernetTypeDot1Q
		ls = append(ls, &layers.Dot1Q{VLANIdentifier: 7, Type: layers.EthernetTypeIPv6})
	}
	ls = append(ls, ip)
	ls = append(ls, ext...)
	ls = append(ls, l4, gopacket.Payload(payload))
	switch l := l4.(type) {
	case *layers.TCP:
		require.NoError(t, l.SetNetworkLayerForChecksum(ip))
		ip.NextHeader = layers.IPProtocolTCP
	case *layers.UDP:
		require.NoError(t, l.SetNetworkLayerForChecksum(ip))
		ip.NextHeader = layers.IPProtocolUDP
	}
	if len(ext) > 0 {
		d := ext[0].(*layers.IPv6Destination)
		d.NextHeader = ip.NextHeader
		ip.NextHeader = layers.IPProtocolIPv6Destination
	}
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...))
	return buf.Bytes()
}

func tcp6() *layers.TCP {
	return &layers.TCP{SrcPort: 40000, DstPort: 4791, Seq: 1000, ACK: true, PSH: true, Window: 65535}
}

// destOpts is a Destination Options header holding one PadN option.
func destOpts() *layers.IPv6Destination {
	d := &layers.IPv6Destination{}
	d.Options = []*layers.IPv6DestinationOption{{OptionType: 1, OptionLength: 4, OptionData: make([]byte, 4)}}
	return d
}

// The hardware's parse: the frame length first, then an IPv6 extension
// header after the fixed header (not walked), then golden/wire; an
// IPv4-only hardware takes every IPv6 frame as not IP.
func TestEngineParse(t *testing.T) {
	payload := make([]byte, 100)
	plain := frame6(t, false, nil, tcp6(), payload)
	vlan := frame6(t, true, nil, tcp6(), payload)
	ext := frame6(t, false, []gopacket.SerializableLayer{destOpts()}, tcp6(), payload)
	extUDP := frame6(t, true, []gopacket.SerializableLayer{destOpts()}, &layers.UDP{SrcPort: 1, DstPort: 2}, payload)
	udp := frame6(t, false, nil, &layers.UDP{SrcPort: 1, DstPort: 2}, payload)
	badSum := append([]byte(nil), plain...)
	badSum[len(badSum)-1] ^= 1
	short := plain[:14+39]
	for _, tc := range []struct {
		name     string
		frame    []byte
		limit    int
		ipv4Only bool
		want     error // nil: parsed
		verdict  fastpath.Verdict
		reason   fastpath.Reason
		code     int // drop code
	}{
		{"ipv6", plain, 0, false, nil, fastpath.Exception, fastpath.NoConn, 0},
		{"ipv6-vlan", vlan, 0, false, nil, fastpath.Exception, fastpath.NoConn, 0},
		{"ipv6-at-limit", plain, len(plain), false, nil, fastpath.Exception, fastpath.NoConn, 0},
		{"ipv6-over-limit", plain, len(plain) - 1, false, rx.ErrOversize, fastpath.Drop, 0, 0},
		{"ext-over-limit", ext, len(ext) - 1, false, rx.ErrOversize, fastpath.Drop, 0, 0},
		{"ext", ext, 0, false, fastpath.ErrIPv6Ext, fastpath.Exception, fastpath.IPv6Ext, 0},
		{"ext-udp", extUDP, 0, false, fastpath.ErrIPv6Ext, fastpath.Exception, fastpath.IPv6Ext, 0},
		{"udp", udp, 0, false, wire.ErrNotTCP, fastpath.Exception, fastpath.NotTCP, 0},
		{"tcp-checksum", badSum, 0, false, wire.ErrTCPChecksum, fastpath.Drop, 0, 3},
		{"short", short, 0, false, wire.ErrMalformed, fastpath.Drop, 0, 1},
		{"ipv4-only", plain, 0, true, wire.ErrNotIP, fastpath.Exception, fastpath.NotTCP, 0},
		{"ipv4-only-ext", ext, 0, true, wire.ErrNotIP, fastpath.Exception, fastpath.NotTCP, 0},
		{"ipv4-only-short", short, 0, true, wire.ErrNotIP, fastpath.Exception, fastpath.NotTCP, 0},
		{"ipv4-only-over-limit", plain, 60, true, rx.ErrOversize, fastpath.Drop, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := fastpath.New(ddp.NewPlacer(ddp.NewMemory()), 0)
			e.FrameLimit, e.IPv4Only = tc.limit, tc.ipv4Only
			f, err := e.Parse(tc.frame)
			if tc.want == nil {
				require.NoError(t, err)
				assert.True(t, f.IPv6)
			} else {
				require.ErrorIs(t, err, tc.want)
			}
			res := e.Frame(tc.frame)
			assert.Equal(t, tc.verdict, res.Verdict)
			assert.Equal(t, tc.reason, res.Reason)
			if tc.verdict == fastpath.Drop {
				require.Len(t, res.Events, 1)
				assert.Equal(t, tc.code, fastpath.DropCode(res.Events[0].Err))
			}
		})
	}
}

// ctxHash is the RTL's context hash (rtl/mpa_rx.v ctx_hash) of IPv4
// addresses, written out here: source XOR destination rotated left by 8
// XOR the ports, folded to 16 bits.
func ctxHash(src, dst uint32, sport, dport uint16, slots int) int {
	x := src ^ bits.RotateLeft32(dst, 8) ^ (uint32(sport)<<16 | uint32(dport))
	return int((x>>16)^(x&0xffff)) & (slots - 1)
}

// An IPv4 half connection keeps its slot; an IPv6 address is folded to 32
// bits (the XOR of its words) first, so that IPv6 tuples spread over the
// table as IPv4 ones do.
func TestIndex(t *testing.T) {
	v4 := wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{10, 0, 0, 1}), DstIP: wire.AddrFrom4([4]byte{192, 168, 7, 9}), SrcPort: 40000, DstPort: 4791}
	assert.Equal(t, ctxHash(0x0a000001, 0xc0a80709, 40000, 4791, 1024), fastpath.Index(v4, 1024))
	var a, b wire.Addr
	copy(a[:], net.ParseIP("2001:db8::1:2:3"))
	copy(b[:], net.ParseIP("fd00:1234::5"))
	fold := func(x wire.Addr) uint32 {
		return binary.BigEndian.Uint32(x[0:]) ^ binary.BigEndian.Uint32(x[4:]) ^ binary.BigEndian.Uint32(x[8:]) ^ binary.BigEndian.Uint32(x[12:])
	}
	v6 := wire.FourTuple{SrcIP: a, DstIP: b, SrcPort: 40000, DstPort: 4791}
	assert.Equal(t, ctxHash(fold(a), fold(b), 40000, 4791, 1024), fastpath.Index(v6, 1024))
	assert.NotEqual(t, fastpath.Index(v6, 1024), fastpath.Index(v6.Reverse(), 1024))

	e := fastpath.New(ddp.NewPlacer(ddp.NewMemory()), 0)
	e.Slots = 1024
	assert.True(t, e.Claim(v6))
	assert.True(t, e.SetContext(v6, fastpath.Context{Full: true}))
	e.IPv4Only = true
	assert.False(t, e.Claim(v6.Reverse()), "an IPv4-only hardware holds no IPv6 context")
	assert.True(t, e.Claim(v4))
}
