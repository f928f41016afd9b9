package vecgen

import (
	"github.com/mparx/mparx/golden/mpa"
)

// IPv6 scenarios (RFC 8200; TCP over IPv6 with the IPv6 pseudo-header in
// its checksum), IPv4 and IPv6 on one link, and a capture of TCP segments
// longer than the wire carries (a sender's TSO).

// v6 is the Link of an IPv6 connection.
var v6 = Link{IPv6: true}

// tsoSegments packs the half's pending FPDUs whole into wire segments of at
// most its EMSS, as an MPA sender aligns them, and joins runs of them into
// segments of up to limit octets: what the sender's stack hands its NIC to
// cut with TCP segmentation offload (TSO), and what a capture on that host
// shows. Cut at the MSS again, they are the aligned segments.
func (h *Half) tsoSegments(limit int) []mpa.Segment {
	var out []mpa.Segment
	for _, s := range h.Aligned() {
		if n := len(out); n > 0 && out[n-1].End() == s.Seq && len(out[n-1].Data)+len(s.Data) <= limit {
			prev := &out[n-1]
			prev.Data = prev.Data[:len(prev.Data)+len(s.Data)] // s follows in the stream's buffer
			continue
		}
		out = append(out, s)
	}
	return out
}

func init() {
	for _, s := range []*Scenario{
		{
			Name: "ipv6-aligned", Clean: true,
			Summary: "IPv6: FPDUs packed whole into segments up to EMSS (1440), markers and CRC on; large RDMA Writes and Sends both ways",
			Tags:    []string{"ipv6", "aligned", "packed", "markers-both", "crc-on", "ddp-tagged", "ddp-untagged", "ddp-multiseg", "marker-first", "pad", "handshake"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, v6)
				c.I2R().Traffic(kib(g, 128), 64<<10, nil)
				c.I2R().Flush()
				c.R2I().Traffic(kib(g, 8), 2000, nil)
				c.R2I().Flush()
			},
		},
		{
			Name: "ipv6-packed", Clean: true,
			Summary: "IPv6: many small RDMA Writes packed whole into each segment, markers on (markers between and inside FPDUs)",
			Tags:    []string{"ipv6", "packed", "markers-both", "crc-on", "marker-between", "ddp-tagged", "pad"},
			Build: func(g *Gen) {
				// RDMA Writes only: a segment of many small Sends on one
				// queue needs more receive buffers than a hardware with a
				// small RQ_DEPTH holds ahead (golden/fastpath's tests run
				// RQ_DEPTH 4), and that hardware reports "no buffer" where
				// a receiver with every buffer posted places them.
				c := g.FullConn(true, true, true, v6)
				h := c.I2R()
				for sent := 0; sent < kib(g, 24); {
					size := 1 + g.rng.IntN(300)
					h.WriteMsg(size, 0)
					sent += size
				}
				h.Flush()
			},
		},
		{
			Name: "ipv6-out-of-order", Clean: true,
			Summary: "IPv6: aligned and re-segmented segments arrive out of order within windows of 8; markers locate FPDUs",
			Tags:    []string{"ipv6", "ooo", "ooo-markers", "markers-both", "crc-on", "aligned", "resegment", "ddp-tagged", "ddp-untagged", "ddp-multiseg"},
			Build: func(g *Gen) {
				a := g.FullConn(true, true, true, v6)
				a.I2R().Traffic(kib(g, 48), 16000, nil)
				s := a.I2R().Aligned()
				ShuffleWindow(g, s, 8)
				a.I2R().Emit(s)
				b := g.FullConn(true, true, true, v6)
				b.I2R().Traffic(kib(g, 24), 8000, nil)
				s = b.I2R().Random(200, 2500)
				ShuffleWindow(g, s, 6)
				b.I2R().Emit(s)
			},
		},
		{
			Name: "ipv6-link-headers", Clean: true,
			Summary: "IPv6 with 802.1Q tags, a Destination Options extension header and TCP timestamps, alone and together; one FPDU per segment",
			Tags:    []string{"ipv6", "ipv6-ext", "vlan", "tcp-timestamps", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				links := []Link{
					{IPv6: true, VLAN: 200},
					{IPv6: true, DestOpts: true},
					{IPv6: true, Timestamps: true},
					{IPv6: true, VLAN: 4094, DestOpts: true, Timestamps: true},
				}
				var lists [][]Out
				for _, l := range links {
					c := g.FullConn(true, true, true, l)
					c.I2R().Traffic(kib(g, 6), 3000, nil)
					lists = append(lists, Outs(c.I2R(), c.I2R().OnePer()))
				}
				g.EmitAll(g.Merge(lists...))
			},
		},
		{
			Name: "ipv6-jumbo", Clean: true,
			Summary: "IPv6 on a 9000-octet MTU: EMSS 8940, FPDUs up to MULPDU with 18 markers each, one per segment",
			Tags:    []string{"ipv6", "jumbo", "aligned", "markers-both", "crc-on", "ddp-multiseg", "one-per-segment"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{IPv6: true, MTU: 9000})
				c.I2R().Traffic(kib(g, 96), 40000, nil)
				c.I2R().Emit(c.I2R().OnePer())
			},
		},
		{
			Name: "dual-stack", Clean: true,
			Summary: "IPv4 and IPv6 MPA connections on one link (one of each with markers, one of each without), their segments interleaved, one FPDU per segment",
			Tags:    []string{"ipv6", "dual-stack", "markers-both", "markers-none", "crc-on", "one-per-segment", "ddp-tagged", "ddp-untagged"},
			Build: func(g *Gen) {
				var lists [][]Out
				for _, l := range []Link{{}, v6, {}, v6} {
					m := len(lists) < 2
					c := g.FullConn(m, m, true, l)
					c.I2R().Traffic(kib(g, 8), 2500, nil)
					c.R2I().Traffic(kib(g, 4), 2500, nil)
					lists = append(lists, g.bothWays(Outs(c.I2R(), c.I2R().OnePer()), Outs(c.R2I(), c.R2I().OnePer())))
				}
				g.EmitAll(g.Merge(lists...))
			},
		},
		{
			Name: "ipv6-bad-checksums", Clean: true,
			Summary: "IPv6: frames with a bad TCP checksum (over the IPv6 pseudo-header) are dropped; good retransmissions follow",
			Tags:    []string{"ipv6", "ipv6-bad-tcp-checksum", "bad-tcp-checksum", "retransmit", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, v6)
				h := c.I2R()
				h.Traffic(kib(g, 24), 3000, nil)
				for k, s := range h.OnePer() {
					if k%3 == 1 {
						h.Emit([]mpa.Segment{s}, BadTCPChecksum)
					}
					h.Emit([]mpa.Segment{s})
				}
			},
		},
		{
			Name: "tso-sender", Clean: true,
			Summary: "a capture on a sender with TCP segmentation offload: IPv4 and IPv6 connections whose segments of up to 64,000 octets are the MSS-aligned segments the NIC puts on the wire, joined",
			Tags:    []string{"super-frames", "ipv6", "aligned", "markers-both", "crc-on", "ddp-tagged", "ddp-untagged", "ddp-multiseg"},
			Build: func(g *Gen) {
				var lists [][]Out
				for _, l := range []Link{{}, v6} {
					c := g.FullConn(true, true, true, l)
					c.I2R().Traffic(kib(g, 192), 64<<10, nil)
					c.R2I().Traffic(kib(g, 8), 2000, nil)
					lists = append(lists, g.bothWays(Outs(c.I2R(), c.I2R().tsoSegments(64000)), Outs(c.R2I(), c.R2I().Aligned())))
				}
				g.EmitAll(g.Merge(lists...))
			},
		},
	} {
		register(s)
	}
}
