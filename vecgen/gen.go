package vecgen

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/vecgen/vector"
)

// Gen builds one vector. Scenarios call its methods to open connections and
// emit traffic; frames are serialized as they are emitted.
type Gen struct {
	rng   *rand.Rand
	scale int

	setup  vector.Setup
	frames []vector.Frame
	conns  []*Conn

	arena    []byte // backing store for frame octets
	sbuf     gopacket.SerializeBuffer
	nextHost int
	nextAddr uint64
	nextSTag uint32
	// validConns counts connections whose startup succeeds.
	validConns int

	// notOnePer is set when a segment carrying MPA data is not exactly one
	// whole FPDU or startup frame.
	notOnePer bool
	// intended is every ULPDU the scenario put into an MPA stream, by half
	// connection: what a receiver must pass when nothing goes wrong.
	intended []Intended
	progress func(frames int)
	noIntent bool   // do not record Intended (benchmarks)
	scratch  []byte // ULPDU scratch when noIntent
}

// Intended is one ULPDU a scenario sent.
type Intended struct {
	Half   vector.Endpoint // sender
	Peer   vector.Endpoint // receiver
	Seq    uint32          // seq of its ULPDU_Length field
	ULPDU  []byte
	Frames []int // indexes of the frames that carried its octets (first emission)
}

func newGen(name string, seed uint64, scale int) *Gen {
	if scale < 1 {
		scale = 1
	}
	return &Gen{
		rng:   rand.New(rand.NewPCG(seed, nameHash(name))),
		scale: scale,
		setup: vector.Setup{Format: vector.FormatVersion, Name: name, Seed: seed, Scale: scale,
			Receiver: vector.Receiver{DDPVersion: 1}},
		sbuf:     gopacket.NewSerializeBufferExpectedSize(64, 9100),
		nextHost: 1,
		nextAddr: 0x1000_0000,
		nextSTag: 1,
	}
}

func nameHash(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// Rand returns the generator's seeded random source.
func (g *Gen) Rand() *rand.Rand { return g.rng }

// Scale returns the scale factor (1 for the committed vectors).
func (g *Gen) Scale() int { return g.scale }

// Frames returns the number of frames emitted so far.
func (g *Gen) Frames() int { return len(g.frames) }

// Bytes returns n seeded random octets.
func (g *Gen) Bytes(n int) []byte {
	b := make([]byte, n+8)
	for i := 0; i < n; i += 8 {
		binary.LittleEndian.PutUint64(b[i:], g.rng.Uint64())
	}
	return b[:n:n]
}

// alloc reserves n octets of host memory (64-octet aligned, with a guard gap).
func (g *Gen) alloc(n uint64) uint64 {
	a := g.nextAddr
	g.nextAddr += (n + 64 + 63) &^ 63
	return a
}

// host returns a fresh endpoint address: 10.0.H.L with a fixed MAC derived
// from it.
func (g *Gen) host() [4]byte {
	h := g.nextHost
	g.nextHost++
	return [4]byte{10, byte(h >> 16), byte(h >> 8), byte(h)}
}

func mac(ip [4]byte) net.HardwareAddr {
	return net.HardwareAddr{0x02, 0x00, ip[0], ip[1], ip[2], ip[3]}
}

// Link holds the link-level shape of a connection's frames.
type Link struct {
	MTU        int    // IP MTU; 0 means 1500
	VLAN       uint16 // 802.1Q VLAN ID; 0 means untagged
	IPOptions  bool   // add IPv4 options (Router Alert, Record Route)
	Timestamps bool   // add the TCP timestamps option (RFC 7323)
}

func (l Link) mtu() int {
	if l.MTU == 0 {
		return 1500
	}
	return l.MTU
}

// ipOptLen and tcpOptLen are the option octets a Link adds to each header.
func (l Link) ipOptLen() int {
	if l.IPOptions {
		return 16
	}
	return 0
}

func (l Link) tcpOptLen() int {
	if l.Timestamps {
		return 12
	}
	return 0
}

// EMSS is the effective MSS: TCP payload octets per segment.
func (l Link) EMSS() int { return l.mtu() - 20 - l.ipOptLen() - 20 - l.tcpOptLen() }

// Mod alters one emitted frame.
type Mod uint8

// Frame modifications.
const (
	BadIPChecksum  Mod = 1 << iota // corrupt the IPv4 header checksum
	BadTCPChecksum                 // corrupt the TCP checksum
)

// tcpSeg is one TCP segment to serialize.
type tcpSeg struct {
	src, dst      vector.Endpoint
	seq, ack      uint32
	syn, fin, rst bool
	ackf          bool
	payload       []byte
	link          Link
	ipid          uint16
	mss           uint16 // MSS option on SYNs
	tsval, tsecr  uint32
	mod           Mod
}

// store copies a serialized frame into the arena and appends it.
func (g *Gen) store(b []byte) int {
	if cap(g.arena)-len(g.arena) < len(b) {
		g.arena = make([]byte, 0, max(1<<20, len(b)))
	}
	start := len(g.arena)
	g.arena = append(g.arena, b...)
	i := len(g.frames)
	g.frames = append(g.frames, vector.Frame{
		Time: vector.Epoch.Add(vector.FrameGap * time.Duration(i)),
		Data: g.arena[start:len(g.arena):len(g.arena)],
	})
	if g.progress != nil && (i+1)%100000 == 0 {
		g.progress(i + 1)
	}
	return i
}

var serOpts = gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}

// emitTCP serializes one Ethernet/[802.1Q]/IPv4/TCP frame and returns its
// index.
func (g *Gen) emitTCP(s tcpSeg) int {
	eth := &layers.Ethernet{SrcMAC: mac(s.src.IP), DstMAC: mac(s.dst.IP), EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{
		Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, Id: s.ipid, Flags: layers.IPv4DontFragment,
		SrcIP: net.IP(s.src.IP[:]), DstIP: net.IP(s.dst.IP[:]),
	}
	if s.link.IPOptions {
		ip.Options = []layers.IPv4Option{
			{OptionType: 148, OptionLength: 4, OptionData: []byte{0, 0}},                     // Router Alert (RFC 2113)
			{OptionType: 7, OptionLength: 11, OptionData: []byte{4, 0, 0, 0, 0, 0, 0, 0, 0}}, // Record Route, 2 slots
			{OptionType: 0}, // End of Option List
		}
	}
	tcp := &layers.TCP{
		SrcPort: layers.TCPPort(s.src.Port), DstPort: layers.TCPPort(s.dst.Port),
		Seq: s.seq, Ack: s.ack, SYN: s.syn, FIN: s.fin, RST: s.rst, ACK: s.ackf,
		PSH: len(s.payload) > 0, Window: 65535,
	}
	if s.mss != 0 {
		tcp.Options = append(tcp.Options, layers.TCPOption{OptionType: layers.TCPOptionKindMSS, OptionLength: 4, OptionData: []byte{byte(s.mss >> 8), byte(s.mss)}})
	}
	if s.link.Timestamps {
		var ts [8]byte
		binary.BigEndian.PutUint32(ts[:], s.tsval)
		binary.BigEndian.PutUint32(ts[4:], s.tsecr)
		tcp.Options = append(tcp.Options,
			layers.TCPOption{OptionType: layers.TCPOptionKindNop},
			layers.TCPOption{OptionType: layers.TCPOptionKindNop},
			layers.TCPOption{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10, OptionData: ts[:]})
	}
	if err := tcp.SetNetworkLayerForChecksum(ip); err != nil {
		panic(err)
	}
	g.sbuf.Clear()
	var err error
	if s.link.VLAN != 0 {
		eth.EthernetType = layers.EthernetTypeDot1Q
		vlan := &layers.Dot1Q{VLANIdentifier: s.link.VLAN, Type: layers.EthernetTypeIPv4}
		err = gopacket.SerializeLayers(g.sbuf, serOpts, eth, vlan, ip, tcp, gopacket.Payload(s.payload))
	} else {
		err = gopacket.SerializeLayers(g.sbuf, serOpts, eth, ip, tcp, gopacket.Payload(s.payload))
	}
	if err != nil {
		panic(fmt.Sprintf("vecgen: serialize: %v", err))
	}
	b := g.sbuf.Bytes()
	l2 := 14
	if s.link.VLAN != 0 {
		l2 += 4
	}
	if s.mod&BadIPChecksum != 0 {
		b[l2+10] ^= 0x5a
	}
	if s.mod&BadTCPChecksum != 0 {
		b[l2+20+s.link.ipOptLen()+16] ^= 0xa5
	}
	return g.store(b)
}

// emitLayers serializes an arbitrary layer stack (non-MPA traffic).
func (g *Gen) emitLayers(ls ...gopacket.SerializableLayer) int {
	g.sbuf.Clear()
	for _, l := range ls {
		if n, ok := l.(interface {
			SetNetworkLayerForChecksum(gopacket.NetworkLayer) error
		}); ok {
			for _, nl := range ls {
				if ipl, ok := nl.(gopacket.NetworkLayer); ok {
					_ = n.SetNetworkLayerForChecksum(ipl)
				}
			}
		}
	}
	if err := gopacket.SerializeLayers(g.sbuf, serOpts, ls...); err != nil {
		panic(fmt.Sprintf("vecgen: serialize: %v", err))
	}
	return g.store(g.sbuf.Bytes())
}

// intend records a ULPDU the scenario sent.
func (g *Gen) intend(h *Half, seq uint32, ulpdu []byte) {
	g.intended = append(g.intended, Intended{Half: h.src, Peer: h.dst, Seq: seq, ULPDU: ulpdu})
}

// mpaFPDU is a helper for scenarios that need the wire octets of one FPDU
// built by the golden framer.
func mpaFPDU(h mpa.Half, seq uint32, ulpdu []byte) []byte { return h.AppendFPDU(nil, seq, ulpdu) }
