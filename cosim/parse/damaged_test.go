package parse

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/cycle"
)

// intactFrame is an IPv4/TCP or IPv6/TCP frame (a tag one time in four,
// TCP options one time in three) with its checksums, and the offset of its
// IP header.
func intactFrame(t *testing.T, rng *rand.Rand, v6 bool) ([]byte, int) {
	tcp := randomTCP(rng)
	if !v6 {
		ls, ipOff := linkLayers(rng, layers.EthernetTypeIPv4)
		ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP,
			SrcIP: net.IP{10, 0, byte(rng.IntN(256)), byte(rng.IntN(256))}, DstIP: net.IP{10, 1, byte(rng.IntN(256)), 7}}
		require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
		return serializeFrame(t, append(ls, ip, tcp, gopacket.Payload(randomPayload(rng)))), ipOff
	}
	ls, ipOff := linkLayers(rng, layers.EthernetTypeIPv6)
	ip := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolTCP,
		SrcIP: net.IP{0x20, 0x01, 0x0d, 0xb8, 0, byte(rng.IntN(256)), 0, 0, 0, 0, 0, 0, 0, 0, byte(rng.IntN(256)), 1},
		DstIP: net.IP{0xfe, 0x80, 0, 0, 0, 0, 0, 0, byte(rng.IntN(256)), 0, 0, 0, 0, 0, 0, byte(rng.IntN(256))}}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	return serializeFrame(t, append(ls, ip, tcp, gopacket.Payload(randomPayload(rng)))), ipOff
}

// withExtensionHeaders puts a chain of one to three IPv6 extension headers
// (Hop-by-Hop Options, Routing, Fragment, Destination Options, each 8 to
// 24 octets, the last one's Next Header TCP) between an IPv6 frame's fixed
// header and its TCP header, with the payload length grown to match.
func withExtensionHeaders(b []byte, ipOff int, rng *rand.Rand) []byte {
	types := []byte{0, 43, 44, 60}
	var chain []byte
	n := 1 + rng.IntN(3)
	first := types[rng.IntN(len(types))]
	nh := first
	for i := range n {
		next := byte(6)
		if i < n-1 {
			next = types[rng.IntN(len(types))]
		}
		units := rng.IntN(3) // header length in 8-octet units beyond the first
		if nh == 44 {
			units = 0 // the Fragment header is 8 octets
		}
		h := make([]byte, 8*(units+1))
		h[0], h[1] = next, byte(units)
		for k := 2; k < len(h); k++ {
			h[k] = byte(rng.Uint32())
		}
		chain = append(chain, h...)
		nh = next
	}
	out := append([]byte(nil), b[:ipOff+40]...)
	out[ipOff+6] = first
	plen := binary.BigEndian.Uint16(b[ipOff+4:])
	binary.BigEndian.PutUint16(out[ipOff+4:], plen+uint16(len(chain)))
	out = append(out, chain...)
	return append(out, b[ipOff+40:]...)
}

// damagedFrame returns a frame damaged in one of the ways the parser's
// checks tell apart, with the name of the damage.
func damagedFrame(t *testing.T, rng *rand.Rand) ([]byte, string) {
	v6 := rng.IntN(2) == 0
	b, ipOff := intactFrame(t, rng, v6)
	tcpOff := ipOff + 20
	if v6 {
		tcpOff = ipOff + 40
	} else {
		tcpOff = ipOff + int(b[ipOff]&0x0f)*4
	}
	setIPv4Checksum := func() {
		if v6 {
			return
		}
		b[ipOff+10], b[ipOff+11] = 0, 0
		var s uint32
		for i := 0; i < 20; i += 2 {
			s += uint32(binary.BigEndian.Uint16(b[ipOff+i:]))
		}
		for s > 0xffff {
			s = s>>16 + s&0xffff
		}
		binary.BigEndian.PutUint16(b[ipOff+10:], ^uint16(s))
	}
	switch rng.IntN(9) {
	case 0: // cut inside the headers
		return b[:1+rng.IntN(min(len(b), tcpOff+24))], "headers cut"
	case 1: // cut inside the payload: shorter than its IP length says
		if len(b) <= tcpOff+21 {
			return b[:tcpOff+1], "payload cut"
		}
		return b[:tcpOff+21+rng.IntN(len(b)-tcpOff-21)], "payload cut"
	case 2: // the IP length field
		lens := []int{0, 1, 19, 20, 39, 40, 41, len(b) - ipOff + 1 + rng.IntN(3000), 65535, rng.IntN(65536)}
		n := lens[rng.IntN(len(lens))]
		if v6 {
			n = max(n-40, 0) // the payload length
			binary.BigEndian.PutUint16(b[ipOff+4:], uint16(n))
		} else {
			binary.BigEndian.PutUint16(b[ipOff+2:], uint16(n))
			setIPv4Checksum()
		}
		return b, "IP length"
	case 3: // the IPv4 header length (IPv4) or the version
		if v6 {
			b[ipOff] = b[ipOff]&0x0f | byte(rng.IntN(16))<<4
			return b, "version"
		}
		b[ipOff] = 0x40 | byte(rng.IntN(16))
		setIPv4Checksum()
		return b, "IHL"
	case 4: // the TCP data offset
		doffs := []byte{0, 1, 2, 3, 4, 15, byte(5 + rng.IntN(11))}
		b[tcpOff+12] = b[tcpOff+12]&0x0f | doffs[rng.IntN(len(doffs))]<<4
		return b, "data offset"
	case 5: // IPv6 extension headers (IPv4: an IPv4 fragment)
		if v6 {
			return withExtensionHeaders(b, ipOff, rng), "IPv6 extension headers"
		}
		binary.BigEndian.PutUint16(b[ipOff+6:], uint16(rng.IntN(2))<<13|uint16(rng.IntN(1<<13)))
		setIPv4Checksum()
		return b, "IPv4 fragment"
	case 6: // a runt: 1 to 64 octets of a frame or of random octets
		n := 1 + rng.IntN(64)
		if rng.IntN(2) == 0 {
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
		}
		return b[:min(n, len(b))], "runt"
	case 7: // another EtherType, or an IPv4-mapped address in an IPv6 header
		if v6 && rng.IntN(2) == 0 {
			a := ipOff + 8 + 16*rng.IntN(2)
			copy(b[a:], []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff})
			return b, "IPv4-mapped address"
		}
		et := []uint16{0x0806, 0x8100, 0x88cc, 0x0800, 0x86dd}[rng.IntN(5)]
		binary.BigEndian.PutUint16(b[ipOff-2:], et)
		return b, "EtherType"
	}
	// padding past the IP length
	return append(b, make([]byte, 1+rng.IntN(200))...), "padding"
}

// The cycle model's view of a frame's headers (golden/cycle: Positional
// for the context lookup and the walker, ParseFields for the events'
// fields) is the parser's on damaged frames, at every width built, with
// the frames back to back and with idle cycles between them: whether the
// frame is looked up and with which key (an IHL under 4 taking the
// addresses of an earlier frame), the payload words the walker gets, and,
// where ParseFields defines them, the events' sequence number, payload
// length and 4-tuple; and the parser's class is golden/wire's.
func TestDamagedFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var frames [][]byte
	var kinds []string
	for range 3000 {
		b, kind := damagedFrame(t, rng)
		frames, kinds = append(frames, b), append(kinds, kind)
		if rng.IntN(4) == 0 {
			b, _ := intactFrame(t, rng, rng.IntN(2) == 0)
			frames, kinds = append(frames, b), append(kinds, "intact")
		}
	}
	for _, w := range []int{64, 128, 512} {
		for _, gaps := range []bool{false, true} {
			t.Run(fmt.Sprintf("w%d/gaps=%v", w, gaps), func(t *testing.T) {
				var idle *rand.Rand
				if gaps {
					idle = rand.New(rand.NewPCG(3, uint64(w)))
				}
				res := run(t, w, frames, idle)
				check(t, frames, res)
				lanes := w / 8
				var regs cycle.ParserRegs
				// frames the model's two views see apart, per damage
				lookedUp, walked := map[string]int{}, map[string]int{}
				for i, b := range frames {
					r := res[i]
					beats := make([]byte, (len(b)+lanes-1)/lanes*lanes)
					copy(beats, b)
					p := cycle.ParsePositional(beats, len(b), lanes, &regs)
					what := fmt.Sprintf("frame %d (%s, %d octets)", i, kinds[i], len(b))
					if assert.Equal(t, r.tupled, p.Lookup, "%s: looked up", what) && p.Lookup {
						assert.Equal(t, r.tuple, p.Key, "%s: key", what)
						assert.Equal(t, r.v6, p.V6, "%s: key's IPv6 bit", what)
					}
					// The payload words the walker sees: whole words of
					// the frame's beats from PayOff, PayLen octets.
					var words []byte
					if n := min((p.PayLen+3)/4, len(beats)/4-(p.PayOff+2)/4); p.PayLen > 0 && n > 0 {
						words = beats[p.PayOff : p.PayOff+4*n]
					}
					assert.Equal(t, r.payload, words, "%s: payload words", what)
					fl := cycle.ParseFields(b)
					if fl.Defined {
						assert.Equal(t, r.tuple, fl.Tuple, "%s: 4-tuple", what)
						assert.Equal(t, r.seq, fl.Seq, "%s: sequence number", what)
						assert.Equal(t, r.plen, fl.PayLen, "%s: payload length", what)
						continue
					}
					if p.Lookup {
						lookedUp[kinds[i]]++
					}
					if len(words) > 0 {
						walked[kinds[i]]++
					}
				}
				// The damage reaches the lookup and the walker of frames
				// whose events leave the header fields undefined.
				for _, k := range []string{"payload cut", "IP length", "data offset", "IPv4-mapped address"} {
					assert.Positive(t, lookedUp[k], "%s: frames looked up without defined fields", k)
				}
				for _, k := range []string{"payload cut", "IP length", "IHL"} {
					assert.Positive(t, walked[k], "%s: frames walked without defined fields", k)
				}
			})
		}
	}
}
