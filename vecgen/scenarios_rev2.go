package vecgen

import (
	"github.com/mparx/mparx/golden/mpa"
)

// Enhanced MPA (RFC 6581, Rev 2) scenarios. The Rev 2 decisions they pin
// are in golden/mpa (Negotiate, CheckRTR) and golden/rx (the RTR phase).

// enh returns an enhanced header with the given depths, peer-to-peer flag
// and RTR flags.
func enh(ird, ord uint16, p2p bool, rtrs ...mpa.RTR) mpa.EnhancedHeader {
	e := mpa.EnhancedHeader{IRD: ird, ORD: ord, P2P: p2p}
	for _, r := range rtrs {
		e = e.WithRTR(r)
	}
	return e
}

// p2pConn opens a peer-to-peer connection whose Request offers the RTR
// types offered and whose Reply picks pick, sends the RTR as the Initiator's
// first FPDU in a segment of its own, then traffic both ways (the Responder
// begins with a Read Response when the RTR is a Read Request), one FPDU per
// segment so that Wireshark's dissector can follow them.
func (g *Gen) p2pConn(reqM, repM bool, offered []mpa.RTR, pick mpa.RTR) *Conn {
	req := mpa.NewEnhancedStartup(false, reqM, true, enh(16, 8, true, offered...), g.Bytes(24))
	rep := mpa.NewEnhancedStartup(true, repM, true, enh(8, 16, true, pick), g.Bytes(8))
	c := g.Conn(ConnOpts{Req: req, Rep: rep})
	i, r := c.I2R(), c.R2I()
	sink := i.RTR(pick)
	i.Flush()
	if pick == mpa.RTRRead {
		r.ReadResponse(sink)
	}
	i.Traffic(kib(g, 6), 2500, nil)
	r.Traffic(kib(g, 6), 2500, nil)
	g.EmitAll(g.Merge(Outs(i, i.OnePer()), Outs(r, r.OnePer())))
	return c
}

func init() {
	for _, s := range []*Scenario{
		{
			Name: "rev2-enhanced", Clean: true,
			Summary: "MPA Rev 2 (RFC 6581) on both ends, client-server: enhanced headers with IRD/ORD and ULP private data after them; one startup split inside the enhanced header; RTR flags without A (ignored); a Rev 2 pair without the enhanced header",
			Tags:    []string{"rev2", "rev2-ird-ord", "rev2-private-data", "rev2-client-server", "startup-split", "markers-both", "crc-on"},
			Build: func(g *Gen) {
				req := mpa.NewEnhancedStartup(false, true, true, enh(32, 16, false), g.Bytes(40))
				rep := mpa.NewEnhancedStartup(true, true, true, enh(16, 32, false), g.Bytes(12))
				c := g.Conn(ConnOpts{Req: req, Rep: rep})
				c.I2R().Traffic(kib(g, 16), 3000, nil)
				c.R2I().Traffic(kib(g, 8), 3000, nil)
				g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().Aligned()), Outs(c.R2I(), c.R2I().Aligned())))

				req = mpa.NewEnhancedStartup(false, false, true, enh(mpa.MaxDepth, 1, false, mpa.RTRWrite, mpa.RTRRead), nil)
				rep = mpa.NewEnhancedStartup(true, false, true, enh(1, mpa.MaxDepth, false), g.Bytes(100))
				c = g.Conn(ConnOpts{Req: req, Rep: rep, ReqCuts: []int{17, 20, 22}, RepCuts: []int{21, 23, 60}})
				sendAfterStartup(c)

				plain := func(reply bool) mpa.Startup {
					s := mpa.NewStartup(reply, false, true, g.Bytes(6))
					s.Rev = mpa.RevEnhanced
					return s
				}
				sendAfterStartup(g.Conn(ConnOpts{Req: plain(false), Rep: plain(true)}))
			},
		},
		{
			Name: "rev2-fallback-rev1", Clean: true,
			Summary: "enhanced Rev 2 Requests (client-server, and peer-to-peer offering Write and Read RTRs) answered with Rev 1 Replies: the connections run RFC 5044 Rev 1 (no IRD/ORD, no RTR), the Replies' private data is the ULP's",
			Tags:    []string{"rev2", "rev2-fallback", "markers-one-way", "crc-on"},
			Build: func(g *Gen) {
				for _, p2p := range []bool{false, true} {
					req := mpa.NewEnhancedStartup(false, p2p, true, enh(8, 8, p2p, mpa.RTRWrite, mpa.RTRRead), g.Bytes(16))
					rep := mpa.NewStartup(true, false, true, g.Bytes(10))
					c := g.Conn(ConnOpts{Req: req, Rep: rep})
					c.I2R().Traffic(kib(g, 8), 2000, nil)
					c.R2I().Traffic(kib(g, 4), 2000, nil)
					g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().Aligned()), Outs(c.R2I(), c.R2I().Aligned())))
				}
			},
		},
		{
			Name: "rev2-p2p-send", Clean: true,
			Summary: "peer-to-peer Rev 2: the Request offers a zero-length Send RTR, the Reply picks it; the Initiator's first FPDU is the RTR, then traffic both ways; markers both ways",
			Tags:    []string{"rev2", "rev2-p2p", "rtr-send", "rev2-ird-ord", "markers-both", "crc-on", "one-per-segment"},
			Build:   func(g *Gen) { g.p2pConn(true, true, []mpa.RTR{mpa.RTRSend}, mpa.RTRSend) },
		},
		{
			Name: "rev2-p2p-write", Clean: true,
			Summary: "peer-to-peer Rev 2: the Request offers Write and Read RTRs, the Reply picks the zero-length RDMA Write; the RTR first, then traffic both ways; no markers",
			Tags:    []string{"rev2", "rev2-p2p", "rtr-write", "rev2-ird-ord", "markers-none", "crc-on", "one-per-segment"},
			Build:   func(g *Gen) { g.p2pConn(false, false, []mpa.RTR{mpa.RTRWrite, mpa.RTRRead}, mpa.RTRWrite) },
		},
		{
			Name: "rev2-p2p-read", Clean: true,
			Summary: "peer-to-peer Rev 2: the Request offers Write and Read RTRs, the Reply picks the zero-length RDMA Read Request; the RTR first, the Responder answers with a zero-length Read Response, then traffic both ways; markers from the Initiator only",
			Tags:    []string{"rev2", "rev2-p2p", "rtr-read", "rev2-ird-ord", "markers-one-way", "crc-on", "one-per-segment"},
			Build:   func(g *Gen) { g.p2pConn(false, true, []mpa.RTR{mpa.RTRWrite, mpa.RTRRead}, mpa.RTRRead) },
		},
		{
			Name:    "rev2-malformed",
			Summary: "invalid enhanced startups, error 4: a Request whose PD_Length (2) cannot hold the enhanced header; a Rev 2 enhanced Reply to a Rev 1 Request; an enhanced Reply with PD_Length 3; a peer-to-peer Reply naming two RTR types",
			Tags:    []string{"rev2", "rev2-malformed", "after-error"},
			Build: func(g *Gen) {
				short := mpa.Startup{C: true, Res: mpa.FlagEnhanced, Rev: mpa.RevEnhanced, PDLength: 2, PrivateData: []byte{0, 8}}
				c := g.Conn(ConnOpts{Req: short, NoReply: true})
				c.I2R().SendMsg(0, 64, 0)
				c.I2R().Flush()

				rep := mpa.NewEnhancedStartup(true, false, true, enh(4, 4, false), nil)
				sendAfterStartup(g.Conn(ConnOpts{Req: mpa.NewStartup(false, false, true, nil), Rep: rep}))

				req := mpa.NewEnhancedStartup(false, false, true, enh(4, 4, false), nil)
				shortRep := mpa.Startup{Reply: true, C: true, Res: mpa.FlagEnhanced, Rev: mpa.RevEnhanced, PDLength: 3, PrivateData: []byte{0, 4, 0}}
				sendAfterStartup(g.Conn(ConnOpts{Req: req, Rep: shortRep}))

				req = mpa.NewEnhancedStartup(false, false, true, enh(4, 4, true, mpa.RTRWrite, mpa.RTRRead), nil)
				rep = mpa.NewEnhancedStartup(true, false, true, enh(4, 4, true, mpa.RTRWrite, mpa.RTRRead), nil)
				c = g.Conn(ConnOpts{Req: req, Rep: rep})
				c.I2R().RTR(mpa.RTRWrite)
				sendAfterStartup(c)
			},
		},
		{
			Name:    "rev2-rtr-errors",
			Summary: "peer-to-peer rule violations: a Reply picking an RTR type the Request did not offer, and one not setting A (error 7 at the Reply); an Initiator whose first FPDU is a Send where a Write RTR was agreed (error 7 at that FPDU); a Responder sending before the Read RTR arrived (error 4 at its first octet)",
			Tags:    []string{"rev2", "rev2-p2p", "rtr-mismatch", "rtr-early-responder", "after-error"},
			Build: func(g *Gen) {
				req := mpa.NewEnhancedStartup(false, false, true, enh(4, 4, true, mpa.RTRWrite), nil)
				for _, rep := range []mpa.Startup{
					mpa.NewEnhancedStartup(true, false, true, enh(4, 4, true, mpa.RTRSend), nil),
					mpa.NewEnhancedStartup(true, false, true, enh(4, 4, false), nil),
				} {
					c := g.Conn(ConnOpts{Req: req, Rep: rep})
					c.I2R().RTR(mpa.RTRWrite)
					sendAfterStartup(c)
				}

				rep := mpa.NewEnhancedStartup(true, false, true, enh(4, 4, true, mpa.RTRWrite), nil)
				c := g.Conn(ConnOpts{Req: req, Rep: rep})
				c.I2R().SendMsg(0, 32, 0)
				sendAfterStartup(c)

				req = mpa.NewEnhancedStartup(false, true, true, enh(4, 4, true, mpa.RTRRead), nil)
				rep = mpa.NewEnhancedStartup(true, true, true, enh(4, 4, true, mpa.RTRRead), nil)
				c = g.Conn(ConnOpts{Req: req, Rep: rep})
				c.R2I().SendMsg(0, 80, 0)
				c.R2I().Flush()
				sink := c.I2R().RTR(mpa.RTRRead)
				c.I2R().Flush()
				c.R2I().ReadResponse(sink)
				c.R2I().Flush()
			},
		},
	} {
		register(s)
	}
}
