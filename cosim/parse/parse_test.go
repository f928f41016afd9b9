// Package parse tests rtl/mpa_rx_parse.v against golden/wire (with
// golden/fastpath's IPv6 extension-header test).
package parse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"path/filepath"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/vector"
)

// result is what the parser reports for one frame.
type result struct {
	class, drop uint64
	seq         uint32
	flags       uint8
	plen        int
	payload     []byte // payload words seen (w_pmask), whole words
	tuple       wire.FourTuple
	v6          bool // v6_now with the tuple
	tupled      bool // tuple_done in one of the frame's beats
}

// addr is a 128-bit address port (the first octet in the top bits).
func addr(w []uint64) wire.Addr {
	var a wire.Addr
	binary.BigEndian.PutUint64(a[:8], w[1])
	binary.BigEndian.PutUint64(a[8:], w[0])
	return a
}

// run drives frames through the parser back to back (with idle cycles when
// gaps is set) and returns one result per frame.
func run(t *testing.T, width int, frames [][]byte, rng *rand.Rand) []result {
	t.Helper()
	sim, err := cosim.Open(fmt.Sprintf("mpa_rx_parse_w%d", width))
	require.NoError(t, err)
	defer sim.Close()
	sim.Reset(4)
	var (
		data, keep, valid, last = sim.Port("in_data"), sim.Port("in_keep"), sim.Port("in_valid"), sim.Port("in_last")
		wdata, pmask            = sim.Port("w_data"), sim.Port("w_pmask")
		fvalid, fclass, fdrop   = sim.Port("f_valid"), sim.Port("f_class"), sim.Port("f_drop")
		fseq, fflags, fplen     = sim.Port("f_seq"), sim.Port("f_flags"), sim.Port("f_plen")
		tdone, sip, dip         = sim.Port("tuple_done"), sim.Port("src_ip_now"), sim.Port("dst_ip_now")
		sport, dport, v6        = sim.Port("src_port_now"), sim.Port("dst_port_now"), sim.Port("v6_now")
	)
	lanes := width / 8
	var in []uint64
	rec := sim.InWords()
	type beat struct{ frame int }
	var owner []int
	for i, f := range frames {
		for off := 0; off < len(f); off += lanes {
			for rng != nil && rng.IntN(4) == 0 {
				r := make([]uint64, rec)
				in = append(in, r...)
				owner = append(owner, -1)
			}
			r := make([]uint64, rec)
			end := min(off+lanes, len(f))
			data.SetBytes(r, f[off:end])
			keep.Set(r, 1<<(end-off)-1)
			if end-off == 64 {
				keep.Set(r, ^uint64(0))
			}
			valid.SetBool(r, true)
			last.SetBool(r, end == len(f))
			in = append(in, r...)
			owner = append(owner, i)
		}
	}
	lat := cycle.LParse(width)
	n := len(in)/rec + lat + 1
	for range lat + 1 {
		in = append(in, make([]uint64, rec)...)
		owner = append(owner, -1)
	}
	out := sim.NewOut(n)
	sim.Step(n, in, out)
	res := make([]result, len(frames))
	ow := sim.OutWords()
	wpb := width / 32
	type end struct{ frame, cycle int }
	var ended []end // frames whose last beat was in, waiting for f_valid
	for c := 0; c < n; c++ {
		o := out[c*ow : (c+1)*ow]
		if fvalid.Bit(o) {
			// f_valid follows the frame's last beat by L_PARSE cycles.
			require.NotEmpty(t, ended, "f_valid at cycle %d without a frame end", c)
			require.Equal(t, ended[0].cycle+lat, c, "f_valid of frame %d", ended[0].frame)
			r := &res[ended[0].frame]
			ended = ended[1:]
			r.class, r.drop = fclass.Get(o), fdrop.Get(o)
			r.seq, r.flags, r.plen = uint32(fseq.Get(o)), uint8(fflags.Get(o)), int(fplen.Get(o))
		}
		if len(ended) > 0 {
			require.Less(t, c, ended[0].cycle+lat, "no f_valid for frame %d", ended[0].frame)
		}
		if fr := owner[c]; fr >= 0 {
			if last.Bit(in[c*rec : (c+1)*rec]) {
				ended = append(ended, end{fr, c})
			}
			if tdone.Bit(o) {
				res[fr].tuple = wire.FourTuple{SrcIP: addr(sip.Slice(o)), DstIP: addr(dip.Slice(o)),
					SrcPort: uint16(sport.Get(o)), DstPort: uint16(dport.Get(o))}
				res[fr].v6 = v6.Bit(o)
				res[fr].tupled = true
			}
		}
		// w_pmask marks the words of the previous cycle's beat.
		if c > 0 && owner[c-1] >= 0 {
			wv := wdata.AppendBytes(nil, out[(c-1)*ow:c*ow])
			m := pmask.Get(o)
			for j := 0; j < wpb; j++ {
				if m>>j&1 != 0 {
					res[owner[c-1]].payload = append(res[owner[c-1]].payload, wv[4*j:4*j+4]...)
				}
			}
		} else {
			require.Zero(t, pmask.Get(o), "w_pmask at cycle %d after no beat", c)
		}
	}
	return res
}

func want(t *testing.T, b []byte) (class, drop uint64, f wire.Frame) {
	f, err := (&fastpath.Engine{IPv4Only: !cycle.ParsesIPv6}).Parse(b)
	switch {
	case err == nil:
		return 0, 0, f
	case errors.Is(err, fastpath.ErrIPv6Ext):
		return cycle.ClassNotTCP, cycle.NotTCPIPv6Ext, f
	case errors.Is(err, wire.ErrNotIP), errors.Is(err, wire.ErrNotTCP), errors.Is(err, wire.ErrFragment):
		return 1, 0, f
	case errors.Is(err, wire.ErrIPChecksum):
		return 2, 2, f
	case errors.Is(err, wire.ErrTCPChecksum):
		return 2, 3, f
	}
	return 2, 1, f
}

func check(t *testing.T, frames [][]byte, res []result) {
	t.Helper()
	for i, b := range frames {
		class, drop, f := want(t, b)
		r := res[i]
		if !assert.Equal(t, class, r.class, "frame %d class (len %d, drop %d)", i, len(b), r.drop) || !assert.Equal(t, drop, r.drop, "frame %d drop reason", i) {
			continue
		}
		if class != 0 {
			continue
		}
		assert.Equal(t, f.Seq, r.seq, "frame %d seq", i)
		assert.Equal(t, f.Flags, r.flags, "frame %d flags", i)
		assert.Equal(t, len(f.Payload), r.plen, "frame %d payload length", i)
		assert.Equal(t, f.FourTuple(), r.tuple, "frame %d tuple", i)
		assert.Equal(t, f.IPv6, r.v6, "frame %d v6_now", i)
		// Whole words only: a payload that ends in the first two octets of
		// a word that would complete after the frame's last beat lacks them
		// (such a payload is not whole FPDUs anyway); the last word reported
		// may run past the payload.
		n := min(len(r.payload), len(f.Payload))
		assert.LessOrEqual(t, len(f.Payload)-n, 2, "frame %d payload words", i)
		assert.Less(t, len(r.payload)-len(f.Payload), 4, "frame %d payload words", i)
		assert.Equal(t, string(f.Payload[:n]), string(r.payload[:n]), "frame %d payload", i)
	}
}

// Every frame of every committed vector parses as golden/wire parses it.
func TestVectors(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	var frames [][]byte
	for _, d := range dirs {
		v, err := vector.Load(d)
		require.NoError(t, err)
		for _, f := range v.Frames {
			frames = append(frames, f.Data)
		}
	}
	for _, w := range []int{64, 128, 512} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			check(t, frames, run(t, w, frames, rand.New(rand.NewPCG(1, uint64(w)))))
		})
	}
}

// Random frames: VLAN tags, IPv4 and TCP options, padding, every kind of
// damage golden/wire tells apart.
func TestRandomFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var frames [][]byte
	for i := 0; i < 3000; i++ {
		frames = append(frames, randomFrame(t, rng))
	}
	for _, w := range []int{64, 128, 512} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			check(t, frames, run(t, w, frames, rand.New(rand.NewPCG(2, uint64(w)))))
		})
	}
}

// linkLayers is an Ethernet header for etype, behind an 802.1Q tag one
// time in four, and the offset of the IP header.
func linkLayers(rng *rand.Rand, etype layers.EthernetType) ([]gopacket.SerializableLayer, int) {
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: etype}
	if rng.IntN(4) == 0 {
		eth.EthernetType = layers.EthernetTypeDot1Q
		return []gopacket.SerializableLayer{eth, &layers.Dot1Q{VLANIdentifier: uint16(rng.IntN(4096)), Type: etype}}, 18
	}
	return []gopacket.SerializableLayer{eth}, 14
}

// randomTCP is a TCP header to port 4791, with a timestamp option one time
// in three.
func randomTCP(rng *rand.Rand) *layers.TCP {
	tcp := &layers.TCP{SrcPort: layers.TCPPort(rng.IntN(65536)), DstPort: 4791, Seq: rng.Uint32(), ACK: true, Window: 1000,
		PSH: rng.IntN(2) == 0, FIN: rng.IntN(10) == 0}
	if rng.IntN(3) == 0 {
		tcp.Options = []layers.TCPOption{{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10, OptionData: make([]byte, 8)},
			{OptionType: layers.TCPOptionKindNop}, {OptionType: layers.TCPOptionKindNop}}
	}
	return tcp
}

// randomPayload is 0 to 1,499 random octets.
func randomPayload(rng *rand.Rand) []byte {
	payload := make([]byte, rng.IntN(1500))
	for i := range payload {
		payload[i] = byte(rng.Uint32())
	}
	return payload
}

// serializeFrame serializes ls with lengths and checksums filled in and
// pads the frame to Ethernet's 60 octets.
func serializeFrame(t *testing.T, ls []gopacket.SerializableLayer) []byte {
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...))
	b := append([]byte(nil), buf.Bytes()...)
	for len(b) < 60 {
		b = append(b, 0) // Ethernet padding
	}
	return b
}

func randomFrame(t *testing.T, rng *rand.Rand) []byte {
	if rng.IntN(2) == 0 {
		return randomFrame6(t, rng)
	}
	ls, ipOff := linkLayers(rng, layers.EthernetTypeIPv4)
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP,
		SrcIP: net.IP{10, 0, byte(rng.IntN(256)), byte(rng.IntN(256))}, DstIP: net.IP{10, 1, byte(rng.IntN(256)), 7}}
	if rng.IntN(3) == 0 {
		ip.Options = []layers.IPv4Option{{OptionType: 1}, {OptionType: 1}, {OptionType: 1}, {OptionType: 0}}
		for k := rng.IntN(8); k > 0; k-- {
			ip.Options = append([]layers.IPv4Option{{OptionType: 1}, {OptionType: 1}, {OptionType: 1}, {OptionType: 1}}, ip.Options...)
		}
	}
	tcp := randomTCP(rng)
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	payload := randomPayload(rng)
	kind := rng.IntN(12)
	if kind == 0 {
		// UDP instead of TCP
		ip.Protocol = layers.IPProtocolUDP
		udp := &layers.UDP{SrcPort: 1, DstPort: 2}
		require.NoError(t, udp.SetNetworkLayerForChecksum(ip))
		ls = append(ls, ip, udp)
	} else {
		ls = append(ls, ip, tcp)
	}
	b := serializeFrame(t, append(ls, gopacket.Payload(payload)))
	switch kind {
	case 1: // corrupt one octet anywhere
		b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
	case 2: // truncate
		b = b[:rng.IntN(len(b))+1]
	case 3: // fragment flag
		b[ipOff+6] |= 0x20
	case 4: // not IPv4
		b[12], b[13] = 0x86, 0xdd
	case 5: // bad IHL / version
		b[ipOff] = byte(rng.IntN(256))
	case 6: // total length
		b[ipOff+2], b[ipOff+3] = byte(rng.IntN(256)), byte(rng.IntN(256))
	}
	return b
}

// randomFrame6 returns an IPv6 frame: a tag or none, TCP options or none,
// padding; or damaged: an extension header's Next Header, a Next Header
// that is not TCP, an IPv4-mapped address, a wrong version or payload
// length, a corrupt octet, a cut.
func randomFrame6(t *testing.T, rng *rand.Rand) []byte {
	ls, ipOff := linkLayers(rng, layers.EthernetTypeIPv6)
	src := net.IP{0x20, 0x01, 0x0d, 0xb8, 0, byte(rng.IntN(256)), 0, 0, 0, 0, 0, 0, 0, 0, byte(rng.IntN(256)), 1}
	dst := net.IP{0xfe, 0x80, 0, 0, 0, 0, 0, 0, byte(rng.IntN(256)), 0, 0, 0, 0, 0, 0, byte(rng.IntN(256))}
	kind := rng.IntN(14)
	if kind == 7 { // an IPv4-mapped source or destination
		m := net.IP{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, byte(rng.IntN(256))}
		if rng.IntN(2) == 0 {
			src = m
		} else {
			dst = m
		}
	}
	ip := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolTCP, SrcIP: src, DstIP: dst,
		TrafficClass: uint8(rng.IntN(256)), FlowLabel: rng.Uint32() & 0xfffff}
	tcp := randomTCP(rng)
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	payload := randomPayload(rng)
	if kind == 0 {
		ip.NextHeader = layers.IPProtocolUDP
		udp := &layers.UDP{SrcPort: 1, DstPort: 2}
		require.NoError(t, udp.SetNetworkLayerForChecksum(ip))
		ls = append(ls, ip, udp)
	} else {
		ls = append(ls, ip, tcp)
	}
	b := serializeFrame(t, append(ls, gopacket.Payload(payload)))
	switch kind {
	case 1: // corrupt one octet anywhere
		b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
	case 2: // truncate
		b = b[:rng.IntN(len(b))+1]
	case 3: // an extension header (Hop-by-Hop, Routing, Fragment, Destination Options), or AH, ESP, No Next Header
		b[ipOff+6] = []byte{0, 43, 44, 60, 51, 50, 59}[rng.IntN(7)]
	case 4: // version
		b[ipOff] = b[ipOff]&0x0f | byte(rng.IntN(16))<<4
	case 5: // payload length
		b[ipOff+4], b[ipOff+5] = byte(rng.IntN(256)>>rng.IntN(8)), byte(rng.IntN(256))
	case 6: // payload length 0
		b[ipOff+4], b[ipOff+5] = 0, 0
	case 8: // an extension header in a frame too short for the fixed header, or just long enough
		b[ipOff+6] = 0
		b = b[:min(len(b), ipOff+39+rng.IntN(3))]
	}
	return b
}
