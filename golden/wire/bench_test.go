package wire

import (
	"strconv"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// BenchmarkParse measures Parse (both checksums verified) on VLAN-tagged
// frames with TCP timestamps. The GopacketDLP sub-benchmarks decode the same
// frames with gopacket's DecodingLayerParser, which verifies no checksum: a
// reference point for the same octets in the same run.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{64, 1024, 8948} {
		s := defaultSpec()
		s.vlan, s.tci, s.tcpOpts, s.payload = true, 100, optsTimestamps, patterned(n)
		frame := build(b, s)
		b.Run("payload="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(frame); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("GopacketDLP/payload="+strconv.Itoa(n), func(b *testing.B) {
			var (
				eth  layers.Ethernet
				vlan layers.Dot1Q
				ip   layers.IPv4
				tcp  layers.TCP
				pl   gopacket.Payload
			)
			p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &vlan, &ip, &tcp, &pl)
			decoded := make([]gopacket.LayerType, 0, 5)
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				if err := p.DecodeLayers(frame, &decoded); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseDual measures ParseDual (TCP checksum verified) on IPv6
// frames with TCP timestamps, without and with extension headers (a
// Hop-by-Hop Options and a Destination Options header), and on the IPv4
// frames of BenchmarkParse.
func BenchmarkParseDual(b *testing.B) {
	for _, n := range []int{64, 1024, 8948} {
		s4 := defaultSpec()
		s4.vlan, s4.tci, s4.tcpOpts, s4.payload = true, 100, optsTimestamps, patterned(n)
		s := defaultSpec6()
		s.vlan, s.tci, s.tcp.tcpOpts, s.tcp.payload = true, 100, optsTimestamps, patterned(n)
		x := s
		x.hbh = []*layers.IPv6HopByHopOption{hbhOpt(5, 0, 0), hbhOpt(optPadN)}
		x.ext = []ext6{destOpts(dstOpt(0x1e, 1, 2, 3, 4))}
		for name, frame := range map[string][]byte{"ipv4": build(b, s4), "ipv6": build6(b, s), "ipv6-ext": build6(b, x)} {
			b.Run(name+"/payload="+strconv.Itoa(n), func(b *testing.B) {
				b.SetBytes(int64(len(frame)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ParseDual(frame, CheckAll); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSplit measures Split of a 64 KB segment into MSS-sized frames.
func BenchmarkSplit(b *testing.B) {
	s := defaultSpec()
	s.tcpOpts, s.payload = optsTimestamps, patterned(65000)
	frame := build(b, s)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Split(frame, 1448); err != nil {
			b.Fatal(err)
		}
	}
}
