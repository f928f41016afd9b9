package vecgen

import (
	"encoding/binary"
	"math"
	"net/netip"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"

	"github.com/mparx/mparx/golden/mpa"
)

// The scenarios. Each Build function is deterministic given the Gen's seeded
// random source. Sizes are multiplied by Gen.Scale where it makes sense, so
// that `vecgen gen --scale N` makes larger soak vectors.

// kib returns n KiB times the scale.
func kib(g *Gen, n int) int { return n << 10 * g.scale }

// reCRC recomputes the CRC of an FPDU whose octets were altered.
func reCRC(b []byte) {
	binary.LittleEndian.PutUint32(b[len(b)-4:], mpa.CRC32C(b[:len(b)-4]))
}

// markerOffsets returns the stream offsets of the markers inside FPDU f.
func markerOffsets(h *Half, f mpa.FPDURef) []int {
	var out []int
	for off := f.Off; off < f.Off+f.Len; off += 4 {
		if h.S.Half.IsMarker(h.S.Seq(off)) {
			out = append(out, off)
		}
	}
	return out
}

// ddpTaggedHdr is the DDP tagged header length (a Write's ULPDU is the
// header and its payload).
const ddpTaggedHdr = 14

// gridFPDUs frames RDMA Writes whose FPDUs (markers on) fall so that some
// start on the 512-octet marker grid and hold later markers: ULPDUs of
// 1010, 300, 702, 1010, 2026 and 1010 octets take 1024, 312, 712, 1024,
// 2048 and 1024 octets of the stream from SeqStart, so FPDUs 0, 3, 4 and 5
// begin with a marker and hold one more (FPDU 4 three more); FPDU 1 begins
// with a marker and holds no other, FPDU 2 holds one and does not begin
// with one. The
// 2048-octet FPDU needs a MULPDU above 2026: a 9000-octet MTU.
func gridFPDUs(h *Half) []mpa.FPDURef {
	var out []mpa.FPDURef
	for _, n := range []int{1010, 300, 702, 1010, 2026, 1010} {
		out = append(out, h.WriteMsg(n-ddpTaggedHdr, 0)...)
	}
	return out
}

// firstR2I sends the first I2R segment, then the rest of both halves
// interleaved at random (the Responder sends FPDUs only after it has
// received one, RFC 5044 section 7.1.2 rule 4).
func (g *Gen) bothWays(i2r, r2i []Out) []Out {
	if len(i2r) == 0 {
		return r2i
	}
	return append([]Out{i2r[0]}, g.Merge(i2r[1:], r2i)...)
}

func init() {
	for _, s := range []*Scenario{
		// ---- alignment and segmentation ----
		{
			Name: "aligned", Clean: true,
			Summary: "FPDUs packed whole into segments up to EMSS (1460), markers and CRC on; large RDMA Writes and Sends",
			Tags:    []string{"aligned", "packed", "markers-both", "crc-on", "ddp-tagged", "ddp-untagged", "ddp-multiseg", "marker-first", "pad", "handshake"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				c.I2R().Traffic(kib(g, 256), 64<<10, nil)
				c.I2R().Flush()
				c.R2I().Traffic(kib(g, 8), 2000, nil)
				c.R2I().Flush()
			},
		},
		{
			Name: "aligned-one-per-segment", Clean: true,
			Summary: "one FPDU per TCP segment, markers and CRC on, both directions",
			Tags:    []string{"aligned", "one-per-segment", "markers-both", "crc-on", "ddp-tagged", "ddp-untagged", "ddp-multiseg", "marker-first", "pad"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				c.I2R().Traffic(kib(g, 48), 8000, nil)
				c.R2I().Traffic(kib(g, 8), 3000, nil)
				g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().OnePer()), Outs(c.R2I(), c.R2I().OnePer())))
			},
		},
		{
			Name: "one-per-segment-no-markers", Clean: true,
			Summary: "one FPDU per TCP segment, markers off, CRC on",
			Tags:    []string{"aligned", "one-per-segment", "markers-none", "crc-on", "ddp-tagged", "ddp-untagged", "pad"},
			Build: func(g *Gen) {
				c := g.FullConn(false, false, true, Link{})
				c.I2R().Traffic(kib(g, 48), 6000, func() int { return 1 + g.rng.IntN(1400) })
				c.I2R().Emit(c.I2R().OnePer())
			},
		},
		{
			Name: "packed", Clean: true,
			Summary: "many small FPDUs packed whole into each segment, markers on (markers between and inside FPDUs)",
			Tags:    []string{"packed", "markers-both", "crc-on", "marker-between", "ddp-tagged", "ddp-untagged", "pad"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				c.I2R().Traffic(kib(g, 24), 300, nil)
				c.I2R().Flush()
			},
		},
		{
			Name: "packed-no-markers", Clean: true,
			Summary: "many small FPDUs packed whole into each segment, markers off",
			Tags:    []string{"packed", "markers-none", "crc-on", "ddp-tagged", "ddp-untagged", "pad"},
			Build: func(g *Gen) {
				c := g.FullConn(false, false, true, Link{})
				c.I2R().Traffic(kib(g, 24), 300, nil)
				c.I2R().Flush()
			},
		},
		{
			Name: "resegment-random", Clean: true,
			Summary: "a re-segmenting middlebox cuts the stream at random points (1-3000 octets), markers on and off",
			Tags:    []string{"resegment", "markers-both", "markers-none", "crc-on", "ddp-tagged", "ddp-untagged"},
			Build: func(g *Gen) {
				a := g.FullConn(true, true, true, Link{})
				b := g.FullConn(false, false, true, Link{})
				a.I2R().Traffic(kib(g, 48), 8000, nil)
				b.I2R().Traffic(kib(g, 48), 8000, nil)
				g.EmitAll(g.Merge(Outs(a.I2R(), a.I2R().Random(1, 3000)), Outs(b.I2R(), b.I2R().Random(1, 3000))))
			},
		},
		{
			Name: "resegment-fields", Clean: true,
			Summary: "segments cut inside ULPDU_Length, inside markers, inside pad and inside the CRC field",
			Tags:    []string{"resegment", "cut-length", "cut-marker", "cut-pad", "cut-crc", "markers-both", "markers-none", "crc-on", "pad"},
			Build: func(g *Gen) {
				for _, markers := range []bool{true, false} {
					c := g.FullConn(markers, markers, true, Link{})
					h := c.I2R()
					var fp []mpa.FPDURef
					for k := 0; k < 24*g.scale; k++ {
						// sizes with every pad length, some long enough for inner markers
						size := 1 + g.rng.IntN(1300)
						if k%2 == 0 {
							fp = append(fp, h.SendMsg(0, size, 0)...)
						} else {
							fp = append(fp, h.WriteMsg(size, 0)...)
						}
					}
					from, _ := h.Pending()
					var cuts []int
					for k, f := range fp {
						end := f.Off + f.Len
						crc := end - 4
						padEnd := crc
						if h.S.Half.IsMarker(h.S.Seq(crc - 4)) {
							padEnd -= 4
						}
						pad := mpa.PadLen(f.ULPDULen)
						lenOff := f.Off + int(f.LengthSeq-f.Seq)
						ms := markerOffsets(h, f)
						switch k % 4 {
						case 0:
							cuts = append(cuts, lenOff+1)
						case 1:
							if len(ms) > 0 {
								m := ms[g.rng.IntN(len(ms))]
								cuts = append(cuts, m+1, m+3)
							} else {
								cuts = append(cuts, lenOff+1)
							}
						case 2:
							if pad > 0 {
								cuts = append(cuts, padEnd-pad+g.rng.IntN(pad))
							}
							if pad > 1 {
								cuts = append(cuts, padEnd-1)
							}
						case 3:
							cuts = append(cuts, crc+1+g.rng.IntN(3))
						}
					}
					for i := range cuts {
						cuts[i] -= from
					}
					h.Emit(h.CutAt(cuts))
				}
			},
		},
		{
			Name: "resegment-octet", Clean: true,
			Summary: "every octet of the stream in its own segment, markers on and off",
			Tags:    []string{"resegment", "octet", "cut-length", "cut-marker", "cut-pad", "cut-crc", "markers-both", "markers-none", "crc-on"},
			Build: func(g *Gen) {
				for _, markers := range []bool{true, false} {
					c := g.FullConn(markers, markers, true, Link{})
					h := c.I2R()
					h.SendMsg(0, 700, 0)
					h.WriteMsg(301, 0)
					h.SendMsg(1, 3, 0)
					h.Emit(h.Random(1, 1))
				}
			},
		},
		{
			Name: "reserved-nonzero", Clean: true,
			Summary: "non-zero pad octets, non-zero marker reserved bits and FPDUPTR low bits (all inside a valid CRC): a receiver must ignore them",
			Tags:    []string{"pad-nonzero", "marker-reserved", "fpduptr-low-bits", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				h := c.I2R()
				for k := 0; k < 16*g.scale; k++ {
					h.SendMsg(0, 1+g.rng.IntN(1400), 0)
				}
				for k, f := range h.S.FPDUs[h.fsent:] {
					b := h.FPDUBytes(f)
					crc := len(b) - 4
					padEnd := crc
					if h.S.Half.IsMarker(h.S.Seq(f.Off + crc - 4)) {
						padEnd -= 4
					}
					for i := padEnd - mpa.PadLen(f.ULPDULen); i < padEnd; i++ {
						b[i] = 0xa5
					}
					for _, m := range markerOffsets(h, f) {
						m -= f.Off
						switch k % 3 {
						case 0:
							b[m], b[m+1] = 0xff, 0x5a // reserved bits
						case 1:
							b[m+3] |= 3 // FPDUPTR low bits, treated as zero
						case 2:
							b[m] = 0x80
							b[m+3] |= 1
						}
					}
					reCRC(b)
				}
				h.Emit(h.OnePer())
			},
		},
		// ---- reordering, loss, duplicates, wrap ----
		{
			Name: "out-of-order", Clean: true,
			Summary: "aligned and re-segmented segments arrive out of order within windows of 8; markers locate FPDUs",
			Tags:    []string{"ooo", "ooo-markers", "markers-both", "crc-on", "aligned", "resegment", "ddp-tagged", "ddp-untagged", "ddp-multiseg"},
			Build: func(g *Gen) {
				a := g.FullConn(true, true, true, Link{})
				a.I2R().Traffic(kib(g, 64), 16000, nil)
				s := a.I2R().Aligned()
				ShuffleWindow(g, s, 8)
				a.I2R().Emit(s)
				b := g.FullConn(true, true, true, Link{})
				b.I2R().Traffic(kib(g, 32), 8000, nil)
				s = b.I2R().Random(200, 2500)
				ShuffleWindow(g, s, 6)
				b.I2R().Emit(s)
			},
		},
		{
			Name: "out-of-order-no-markers", Clean: true,
			Summary:  "markers off: segments that each hold exactly one FPDU arrive out of order",
			Tags:     []string{"ooo", "ooo-no-markers", "markers-none", "crc-on", "one-per-segment"},
			NoTshark: "Wireshark dissects only in-order TCP data: out-of-order segments are not handed to the MPA dissector",
			Build: func(g *Gen) {
				c := g.FullConn(false, false, true, Link{})
				c.I2R().Traffic(kib(g, 48), 6000, nil)
				s := c.I2R().OnePer()
				ShuffleWindow(g, s, 6)
				c.I2R().Emit(s)
			},
		},
		{
			Name: "loss-retransmit", Clean: true,
			Summary: "segments lost and retransmitted later on different boundaries, markers on and off",
			Tags:    []string{"loss", "retransmit", "ooo", "ooo-markers", "markers-both", "markers-none", "crc-on"},
			Build: func(g *Gen) {
				for _, markers := range []bool{true, false} {
					c := g.FullConn(markers, markers, true, Link{})
					h := c.I2R()
					h.Traffic(kib(g, 48), 8000, nil)
					segs := h.Aligned()
					var lost []mpa.Segment
					for i, s := range segs {
						if i > 0 && g.rng.IntN(6) == 0 {
							lost = append(lost, s)
							continue
						}
						h.Emit([]mpa.Segment{s})
					}
					// retransmit each lost range cut at new points, sometimes
					// overlapping data already received
					for _, s := range lost {
						off := int(s.Seq - h.S.Half.SeqStart)
						start := max(0, off-g.rng.IntN(3)*100)
						end := min(len(h.S.Data), off+len(s.Data)+g.rng.IntN(2)*150)
						var cuts []int
						if end-start > 1 {
							cuts = append(cuts, start+1+g.rng.IntN(end-start-1))
						}
						h.Emit(h.cut(start, end, cuts, true))
					}
				}
			},
		},
		{
			Name: "duplicates", Clean: true,
			Summary: "duplicated and overlapping segments; each ULPDU must be passed exactly once",
			Tags:    []string{"duplicate", "retransmit", "markers-both", "crc-on"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				h := c.I2R()
				h.Traffic(kib(g, 48), 8000, nil)
				segs := h.Aligned()
				var later []mpa.Segment
				for i, s := range segs {
					h.Emit([]mpa.Segment{s})
					if g.rng.IntN(5) == 0 {
						later = append(later, s)
					}
					if i > 0 && g.rng.IntN(7) == 0 { // overlap: tail of the previous and head of this one
						off := int(segs[i-1].Seq - h.S.Half.SeqStart)
						end := int(s.End() - h.S.Half.SeqStart)
						a := off + len(segs[i-1].Data)/2
						b := a + (end-a)/2
						h.Emit(h.cut(a, b, nil, true))
					}
					if len(later) > 0 && g.rng.IntN(3) == 0 {
						h.Emit(later[:1])
						later = later[1:]
					}
				}
				h.Emit(later)
			},
		},
		{
			Name: "seq-wrap", Clean: true,
			Summary: "TCP sequence numbers wrap at 2^32 during the startup and the stream; markers on (both ways) and off; in order, re-segmented and reordered",
			Tags:    []string{"seq-wrap", "markers-both", "markers-none", "crc-on", "ooo", "ooo-markers", "resegment", "marker-first"},
			Build: func(g *Gen) {
				// Connection a: the Request crosses 2^32; b: SeqStart just
				// below 2^32; c: no markers, wrap mid-stream.
				starts := []uint32{math.MaxUint32 - 10, math.MaxUint32 - 60, math.MaxUint32 - 30000}
				for k, isn := range starts {
					markers := k < 2
					req, rep := Startup(markers, true, markers, true)
					c := g.Conn(ConnOpts{Req: req, Rep: rep, ISN: [2]uint32{isn, isn - 4000}})
					c.I2R().Traffic(kib(g, 40), 9000, nil)
					var s []mpa.Segment
					switch k {
					case 0:
						s = c.I2R().Aligned()
					case 1:
						s = c.I2R().Random(100, 2000)
						ShuffleWindow(g, s, 5)
					case 2:
						s = c.I2R().Random(500, 1460)
					}
					c.R2I().Traffic(kib(g, 6), 3000, nil)
					g.EmitAll(g.bothWays(Outs(c.I2R(), s), Outs(c.R2I(), c.R2I().Aligned())))
				}
			},
		},
		// ---- markers and CRC negotiation ----
		markerDirs("markers-both", true, true),
		markerDirs("markers-initiator-only", true, false),
		markerDirs("markers-responder-only", false, true),
		markerDirs("markers-none", false, false),
		{
			Name: "crc-off", Clean: true,
			Summary: "C=0 in Request and Reply: CRC fields hold arbitrary values and must not be checked",
			Tags:    []string{"crc-off", "markers-none", "markers-both", "one-per-segment"},
			Build: func(g *Gen) {
				for _, markers := range []bool{false, true} {
					c := g.FullConn(markers, markers, false, Link{})
					h := c.I2R()
					h.Traffic(kib(g, 16), 4000, nil)
					for k, f := range h.S.FPDUs[h.fsent:] {
						b := h.FPDUBytes(f)
						if k%4 != 3 { // the rest keep a zero CRC field
							binary.LittleEndian.PutUint32(b[len(b)-4:], g.rng.Uint32())
						}
					}
					h.Emit(h.OnePer())
				}
			},
		},
		crcOneSide("crc-request-only", true, false),
		crcOneSide("crc-reply-only", false, true),
		{
			Name:    "crc-corrupt",
			Summary: "a corrupted CRC field, and a corrupted payload octet, mid-stream: error 2 and nothing passed after it on that half",
			Tags:    []string{"crc-error", "crc-on", "markers-both", "markers-none", "one-per-segment", "after-error", "half-independence"},
			Build: func(g *Gen) {
				for k := 0; k < 3; k++ {
					c := g.FullConn(k != 1, k != 1, true, Link{})
					for _, h := range c.H {
						h.Traffic(kib(g, 12), 2000, nil)
					}
					bad := c.H[0]
					if k == 2 {
						bad = c.H[1] // the Responder's half fails, the Initiator's goes on
					}
					fp := bad.S.FPDUs[bad.fsent:]
					f := fp[len(fp)/2]
					b := bad.FPDUBytes(f)
					if k == 0 {
						b[len(b)-2] ^= 0x10 // CRC field
					} else {
						b[len(b)/2] ^= 0x01 // an octet inside the FPDU
					}
					g.EmitAll(g.bothWays(Outs(c.H[0], c.H[0].OnePer()), Outs(c.H[1], c.H[1].OnePer())))
				}
			},
		},
		{
			Name:    "crc-corrupt-resegmented",
			Summary: "a corrupted CRC in a re-segmented, reordered stream with markers",
			Tags:    []string{"crc-error", "crc-on", "markers-both", "resegment", "ooo", "after-error"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				h := c.I2R()
				h.Traffic(kib(g, 32), 6000, nil)
				fp := h.S.FPDUs[h.fsent:]
				b := h.FPDUBytes(fp[2*len(fp)/3])
				b[len(b)-1] ^= 0x80
				s := h.Random(300, 2000)
				ShuffleWindow(g, s, 4)
				h.Emit(s)
			},
		},
		{
			Name:    "marker-fpduptr-bad",
			Summary: "a marker whose FPDUPTR disagrees with ULPDU_Length (CRC valid): inside an FPDU, at an FPDU start, and in an out-of-order segment; error 3",
			Tags:    []string{"marker-error", "markers-both", "crc-on", "ooo", "ooo-markers", "after-error"},
			Build: func(g *Gen) {
				for k := 0; k < 3; k++ {
					c := g.FullConn(true, true, true, Link{})
					h := c.I2R()
					for m := 0; m < 12*g.scale; m++ {
						h.WriteMsg(1500+g.rng.IntN(3000), 0)
					}
					fp := h.S.FPDUs[h.fsent:]
					var f mpa.FPDURef
					var moff int
					switch k {
					case 0, 2: // a marker inside an FPDU in the middle of the stream
						for _, x := range fp[len(fp)/2:] {
							if ms := markerOffsets(h, x); len(ms) > 0 && ms[0] != x.Off {
								f, moff = x, ms[0]
								break
							}
						}
					case 1: // the marker at the start of the first FPDU
						f, moff = fp[0], fp[0].Off
					}
					ptr := binary.BigEndian.Uint16(h.S.Data[moff+2:])
					binary.BigEndian.PutUint16(h.S.Data[moff+2:], ptr+16)
					reCRC(h.FPDUBytes(f))
					s := h.Aligned()
					if k == 2 {
						ShuffleWindow(g, s, 6)
					}
					h.Emit(s)
				}
			},
		},
		// ---- FPDUPTR where RFC 5044 and draft-01 differ ----
		{
			Name: "fpduptr-first-fpdu", Clean: true,
			Summary: "first FPDUs of 502 (ends on the next marker: it belongs to the next FPDU), 506 (the shortest that holds it, before the CRC) and 1414 octets of ULPDU: FPDUPTR 508 and 1020 from the ULPDU_Length field (RFC 5044 section 4.3), not 512 and 1024",
			Tags:    []string{"fpduptr-rfc5044", "fpduptr-first", "marker-first", "markers-both", "crc-on", "ddp-tagged", "ddp-untagged"},
			Build: func(g *Gen) {
				for _, first := range []int{502, 506, 1414} {
					c := g.FullConn(true, true, true, Link{})
					for _, h := range []*Half{c.I2R(), c.R2I()} {
						h.WriteMsg(first-ddpTaggedHdr, 0)
						h.SendMsg(0, 200, 0)
						h.WriteMsg(1500, 0)
					}
					g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().Aligned()), Outs(c.R2I(), c.R2I().Aligned())))
				}
			},
		},
		{
			Name: "fpduptr-grid-start", Clean: true,
			Summary: "FPDUs that start on a 512-octet marker boundary mid-stream and hold markers (1024 and 2048 octets on the wire), in order, one per segment, and out of order: FPDUPTR from the ULPDU_Length field after the leading marker (RFC 5044 section 4.3)",
			Tags:    []string{"fpduptr-rfc5044", "fpduptr-grid", "marker-first", "markers-both", "crc-on", "ooo", "ooo-markers", "ddp-tagged"},
			Build: func(g *Gen) {
				for k := 0; k < 2; k++ {
					c := g.FullConn(true, true, true, Link{MTU: 9000})
					h := c.I2R()
					gridFPDUs(h)
					if k == 0 {
						h.Flush()
						continue
					}
					s := h.OnePer()
					ShuffleWindow(g, s, 4)
					h.Emit(s)
				}
			},
		},
		{
			Name: "fpduptr-draft01", Clean: true,
			Summary: "a sender that counts FPDUPTR from the FPDU's first octet as draft-ietf-rddp-mpa-01 does (4 more than RFC 5044 after a leading marker): a receiver that interoperates with both accepts it in exactly that case",
			Tags:    []string{"fpduptr-draft01", "fpduptr-first", "fpduptr-grid", "marker-first", "markers-both", "crc-on", "ooo", "ooo-markers", "ddp-tagged"},
			Build: func(g *Gen) {
				for k := 0; k < 2; k++ {
					c := g.FullConn(true, true, true, Link{MTU: 9000})
					h := c.I2R()
					h.S.Form = mpa.PtrDraft01
					gridFPDUs(h)
					if k == 0 {
						h.Flush()
						continue
					}
					s := h.OnePer()
					ShuffleWindow(g, s, 4)
					h.Emit(s)
				}
			},
		},
		{
			Name:    "fpduptr-wrong",
			Summary: "a marker inside an FPDU that begins with a marker holding neither the RFC 5044 nor the draft-01 FPDUPTR (CRC valid): 4 less than RFC 5044 in the first FPDU, 4 more than draft-01 mid-stream, and the two forms mixed in one FPDU; error 3",
			Tags:    []string{"fpduptr-wrong", "marker-error", "fpduptr-first", "fpduptr-grid", "markers-both", "crc-on", "after-error"},
			Build: func(g *Gen) {
				for k := 0; k < 3; k++ {
					c := g.FullConn(true, true, true, Link{MTU: 9000})
					h := c.I2R()
					fp := gridFPDUs(h)
					var f mpa.FPDURef
					var moff int
					var ptr uint16
					switch k {
					case 0: // first FPDU: 508 - 4
						f, moff, ptr = fp[0], fp[0].Off+512, 504
					case 1: // the FPDU at 2048 (on the grid, mid-stream): 512 + 4
						f = fp[3]
						moff, ptr = f.Off+512, 516
					case 2: // the 2048-octet FPDU: RFC 5044 at +512, draft-01 at +1024
						for _, x := range fp {
							if x.Len == 2048 {
								f = x
							}
						}
						moff, ptr = f.Off+1024, 1024
					}
					binary.BigEndian.PutUint16(h.S.Data[moff+2:], ptr)
					reCRC(h.FPDUBytes(f))
					h.Flush()
				}
			},
		},
		// ---- startup ----
		{
			Name:    "startup-bad-key",
			Summary: "startup frames with a wrong key: a garbled Request, a Reply carrying the Request key (Initiator/Initiator), a garbled Reply; error 4, nothing passed",
			Tags:    []string{"startup-key", "startup-initiator-initiator", "after-error"},
			Build: func(g *Gen) {
				req, rep := Startup(true, true, true, true)
				bad := req.Append(nil)
				bad[14] = 'x'
				c := g.Conn(ConnOpts{ReqRaw: bad, NoReply: true})
				c.I2R().SendMsg(0, 100, 0)
				c.I2R().Flush()
				c = g.Conn(ConnOpts{Req: req, RepRaw: mpa.NewStartup(false, true, true, nil).Append(nil)})
				sendAfterStartup(c)
				badRep := rep.Append(nil)
				badRep[0] = 'm'
				c = g.Conn(ConnOpts{Req: req, RepRaw: badRep})
				sendAfterStartup(c)
			},
		},
		{
			Name:    "startup-bad-rev",
			Summary: "Rev 3 in a Request, a Rev 2 Reply to a Rev 1 Request (RFC 6581: a Reply never has a higher Rev than the Request), Rev 0 with a strict receiver: error 4",
			Tags:    []string{"startup-rev", "startup-rev0-strict", "after-error"},
			Build: func(g *Gen) {
				req, rep := Startup(true, true, true, true)
				r2 := req
				r2.Rev = 3
				c := g.Conn(ConnOpts{Req: r2, NoReply: true})
				c.I2R().SendMsg(0, 64, 0)
				c.I2R().Flush()
				p2 := rep
				p2.Rev = 2
				sendAfterStartup(g.Conn(ConnOpts{Req: req, Rep: p2}))
				r0, p0 := req, rep
				r0.Rev, p0.Rev = 0, 0
				c = g.Conn(ConnOpts{Req: r0, NoReply: true})
				c.I2R().SendMsg(0, 64, 0)
				c.I2R().Flush()
				sendAfterStartup(g.Conn(ConnOpts{Req: req, Rep: p0}))
			},
		},
		{
			Name: "startup-rev0-permissive", Clean: true,
			Summary: "an RDMA Consortium (Rev 0) peer and a permissive receiver (RFC 5044 Appendix C.2.4 and C.2.5): markers both ways, DDP version 0",
			Tags:    []string{"startup-rev0-permissive", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				// C.2.4: RDMAC Initiator (Rev 0, M=1, C=1), permissive
				// Responder answers Rev 0, M=1, C=1. C.2.5: permissive IETF
				// Initiator (Rev 1, M=0), RDMAC Responder (Rev 0, M=1).
				reqA, repA := Startup(true, true, true, true)
				reqA.Rev, repA.Rev = 0, 0
				reqB, repB := Startup(false, true, true, true)
				repB.Rev = 0
				for _, p := range [][2]mpa.Startup{{reqA, repA}, {reqB, repB}} {
					c := g.Conn(ConnOpts{Req: p[0], Rep: p[1], Permissive: true})
					c.I2R().Traffic(kib(g, 8), 2000, nil)
					c.R2I().Traffic(kib(g, 4), 2000, nil)
					g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().OnePer()), Outs(c.R2I(), c.R2I().OnePer())))
				}
			},
		},
		{
			Name:    "startup-pd-invalid",
			Summary: "PD_Length 513 (Request and Reply), and PD_Length smaller than the private data sent with the frame: error 4",
			Tags:    []string{"startup-pd-long", "startup-pd-mismatch", "after-error"},
			Build: func(g *Gen) {
				req, _ := Startup(true, true, true, true)
				long := mpa.NewStartup(false, true, true, g.Bytes(513))
				c := g.Conn(ConnOpts{Req: long, NoReply: true})
				c.I2R().SendMsg(0, 64, 0)
				c.I2R().Flush()
				longRep := mpa.NewStartup(true, true, true, g.Bytes(513))
				sendAfterStartup(g.Conn(ConnOpts{Req: req, Rep: longRep}))
				short := mpa.NewStartup(false, true, true, g.Bytes(40))
				short.PDLength = 24 // 16 octets more than PD_Length in the same segment
				c = g.Conn(ConnOpts{Req: short, NoReply: true})
				c.I2R().SendMsg(0, 64, 0)
				c.I2R().Flush()
				shortRep := mpa.NewStartup(true, true, true, g.Bytes(9))
				shortRep.PDLength = 8
				sendAfterStartup(g.Conn(ConnOpts{Req: req, Rep: shortRep}))
			},
		},
		{
			Name:    "startup-truncated",
			Summary: "a Request cut short by a FIN (inside the header, and inside the private data): error 4",
			Tags:    []string{"startup-truncated", "after-error"},
			Build: func(g *Gen) {
				req := mpa.NewStartup(false, true, true, nil).Append(nil)
				g.Conn(ConnOpts{ReqRaw: req[:12], ReqFIN: true, NoReply: true})
				pd := mpa.NewStartup(false, true, true, g.Bytes(100)).Append(nil)
				g.Conn(ConnOpts{ReqRaw: pd[:70], ReqFIN: true, NoReply: true})
				rep := mpa.NewStartup(true, true, true, g.Bytes(30)).Append(nil)
				c := g.Conn(ConnOpts{Req: mpa.NewStartup(false, true, true, nil), RepRaw: rep[:35]})
				c.R2I().FIN()
			},
		},
		{
			Name: "startup-split", Clean: true,
			Summary: "startup frames split over many segments (one octet at a time, and inside PD_Length), then full operation",
			Tags:    []string{"startup-split", "private-data", "markers-both", "crc-on"},
			Build: func(g *Gen) {
				req := mpa.NewStartup(false, true, true, g.Bytes(300))
				rep := mpa.NewStartup(true, true, true, g.Bytes(7))
				var octets []int
				for i := 1; i < req.Len(); i++ {
					octets = append(octets, i)
				}
				c := g.Conn(ConnOpts{Req: req, Rep: rep, ReqCuts: octets, RepCuts: []int{5, 16, 17, 19, 22}})
				sendAfterStartup(c)
				c = g.Conn(ConnOpts{Req: req, Rep: rep, ReqCuts: []int{19, 200}, RepCuts: []int{18}})
				sendAfterStartup(c)
			},
		},
		{
			Name:    "startup-reply-rejected",
			Summary: "a Reply with the Rejected Connection bit set: error 4, no full operation",
			Tags:    []string{"startup-rejected", "after-error"},
			Build: func(g *Gen) {
				req, rep := Startup(true, true, true, true)
				rep.R = true
				rep.PrivateData = []byte("rejected: no resources")
				rep.PDLength = uint16(len(rep.PrivateData))
				sendAfterStartup(g.Conn(ConnOpts{Req: req, Rep: rep}))
			},
		},
		{
			Name: "private-data", Clean: true,
			Summary: "valid startup frames with 0, 255, 256, 257 and 512 octets of private data, Res bits set (ignored), then traffic",
			Tags:    []string{"private-data", "startup-res", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				for _, n := range []int{0, 255, 256, 257, 512} {
					req := mpa.NewStartup(false, true, true, g.Bytes(n))
					rep := mpa.NewStartup(true, true, true, g.Bytes(512-n))
					req.Res, rep.Res = 0x1f, 0x15
					c := g.Conn(ConnOpts{Req: req, Rep: rep})
					c.I2R().Traffic(kib(g, 3), 1500, nil)
					c.R2I().Traffic(kib(g, 2), 1500, nil)
					g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().OnePer()), Outs(c.R2I(), c.R2I().OnePer())))
				}
			},
		},
		// ---- links and traffic mix ----
		{
			Name: "jumbo", Clean: true,
			Summary: "9000-octet MTU: EMSS 8960, FPDUs up to MULPDU with 18 markers each",
			Tags:    []string{"jumbo", "aligned", "markers-both", "crc-on", "ddp-multiseg", "one-per-segment"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{MTU: 9000})
				c.I2R().Traffic(kib(g, 96), 40000, nil)
				c.I2R().Emit(c.I2R().OnePer())
			},
		},
		{
			Name: "link-headers", Clean: true,
			Summary: "802.1Q tags, IPv4 options and TCP timestamps, alone and together",
			Tags:    []string{"vlan", "ip-options", "tcp-timestamps", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				links := []Link{{VLAN: 100}, {IPOptions: true}, {Timestamps: true}, {VLAN: 4094, IPOptions: true, Timestamps: true}}
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
			Name: "mixed-traffic", Clean: true,
			Summary: "an MPA connection among plain TCP, UDP, ICMP, IPv6 and ARP frames",
			Tags:    []string{"non-mpa", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				c.I2R().Traffic(kib(g, 16), 2000, nil)
				segs := Outs(c.I2R(), c.I2R().OnePer())
				plain := g.TCP(Link{})
				for k, s := range segs {
					g.EmitAll([]Out{s})
					switch k % 6 {
					case 0:
						plain.I2R().Raw([]byte("GET /index.html HTTP/1.1\r\nHost: example\r\n\r\n"))
					case 1:
						plain.R2I().Raw(g.Bytes(1200))
					case 2:
						g.emitLayers(
							&layers.Ethernet{SrcMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 1})), DstMAC: layers.EthernetBroadcast, EthernetType: layers.EthernetTypeARP},
							&layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4, HwAddressSize: 6, ProtAddressSize: 4,
								Operation: layers.ARPRequest, SourceHwAddress: mac(netip.AddrFrom4([4]byte{10, 9, 9, 1})), SourceProtAddress: []byte{10, 9, 9, 1},
								DstHwAddress: make([]byte, 6), DstProtAddress: []byte{10, 9, 9, 2}})
					case 3:
						ip6 := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: layers.IPProtocolUDP,
							SrcIP: []byte{0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, DstIP: []byte{0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}}
						g.emitLayers(&layers.Ethernet{SrcMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 3})), DstMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 4})), EthernetType: layers.EthernetTypeIPv6},
							ip6, &layers.UDP{SrcPort: 5000, DstPort: 4791}, gopacket.Payload(g.Bytes(100)))
					case 4:
						ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolUDP, SrcIP: []byte{10, 9, 9, 5}, DstIP: []byte{10, 9, 9, 6}}
						g.emitLayers(&layers.Ethernet{SrcMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 5})), DstMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 6})), EthernetType: layers.EthernetTypeIPv4},
							ip, &layers.UDP{SrcPort: 4791, DstPort: 4791}, gopacket.Payload(g.Bytes(64)))
					case 5:
						ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolICMPv4, SrcIP: []byte{10, 9, 9, 7}, DstIP: []byte{10, 9, 9, 8}}
						g.emitLayers(&layers.Ethernet{SrcMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 7})), DstMAC: mac(netip.AddrFrom4([4]byte{10, 9, 9, 8})), EthernetType: layers.EthernetTypeIPv4},
							ip, &layers.ICMPv4{TypeCode: layers.CreateICMPv4TypeCode(layers.ICMPv4TypeEchoRequest, 0), Id: 1, Seq: uint16(k)}, gopacket.Payload(g.Bytes(32)))
					}
				}
			},
		},
		{
			Name: "many-connections", Clean: true,
			Summary: "72 MPA connections with mixed marker and CRC settings, their segments interleaved",
			Tags:    []string{"many-conns", "markers-both", "markers-none", "markers-one-way", "crc-on", "crc-off", "resegment", "ooo", "ddp-tagged", "ddp-untagged"},
			Build: func(g *Gen) {
				var lists [][]Out
				for k := 0; k < 72; k++ {
					mi, mr, crc := g.rng.IntN(2) == 0, g.rng.IntN(2) == 0, g.rng.IntN(4) != 0
					c := g.FullConn(mi, mr, crc, Link{})
					c.I2R().Traffic(kib(g, 3), 2500, nil)
					var s []mpa.Segment
					switch k % 3 {
					case 0:
						s = c.I2R().Aligned()
					case 1:
						s = c.I2R().Random(50, 1460)
					case 2:
						s = c.I2R().Aligned()
						if mi {
							ShuffleWindow(g, s, 3)
						}
					}
					lists = append(lists, Outs(c.I2R(), s))
				}
				g.EmitAll(g.Merge(lists...))
			},
		},
		{
			Name: "ddp-multisegment", Clean: true,
			Summary: "tagged and untagged DDP messages of many segments, placed out of order and delivered in order",
			Tags:    []string{"ddp-tagged", "ddp-untagged", "ddp-multiseg", "ooo", "ooo-markers", "markers-both", "crc-on"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				h := c.I2R()
				h.WriteMsg(kib(g, 24), 256)
				h.SendMsg(0, kib(g, 12), 200)
				h.SendMsg(1, kib(g, 4), 100)
				h.WriteMsg(kib(g, 8), 1000)
				h.SendMsg(0, 5000, 0)
				s := h.Aligned()
				ShuffleWindow(g, s, 12)
				h.Emit(s)
			},
		},
		// ---- DDP errors ----
		ddpError("ddp-error-unknown-stag", "a tagged segment naming an STag that was never registered",
			func(h *Half) { h.Write(0x7fff_ff00, 0, h.c.g.Bytes(200), 0) }),
		{
			Name:    "ddp-error-foreign-stag",
			Summary: "a tagged segment naming an STag registered to another connection, and one registered to the opposite half connection",
			Tags:    []string{"ddp-error", "ddp-error-stag-stream"},
			Build: func(g *Gen) {
				a := g.FullConn(true, true, true, Link{})
				b := g.FullConn(true, true, true, Link{})
				other := b.I2R().RegisterSTag(4096)
				reverse := a.R2I().RegisterSTag(4096)
				h := a.I2R()
				h.WriteMsg(300, 0)
				h.Write(other, 0, g.Bytes(500), 0)
				h.SendMsg(0, 100, 0)
				h.Write(reverse, 8, g.Bytes(100), 0)
				h.WriteMsg(300, 0)
				h.Emit(h.OnePer())
			},
		},
		ddpError("ddp-error-out-of-bounds", "tagged writes past the end of a registered buffer (wholly and partly)",
			func(h *Half) {
				st := h.RegisterSTag(1000)
				h.Write(st, 900, h.c.g.Bytes(200), 0)
				h.Write(st, 4000, h.c.g.Bytes(10), 0)
			}),
		ddpError("ddp-error-to-wrap", "a tagged write whose TO plus length wraps past 2^64",
			func(h *Half) {
				st := h.RegisterSTag(1000)
				h.Write(st, math.MaxUint64-99, h.c.g.Bytes(200), 0)
			}),
		ddpError("ddp-error-bad-qn", "an untagged segment for queue 5 (RDMAP uses queues 0 to 2)",
			func(h *Half) { h.Send(5, h.c.g.Bytes(100), 0) }),
		ddpError("ddp-error-no-buffer", "Sends for MSNs with no posted receive buffer (the next MSN, and one far out of range)",
			func(h *Half) {
				h.Send(2, h.c.g.Bytes(100), 0) // queue 2 has no buffers posted
				d := DDP{Last: true, DV: h.DV, RDMAP: h.rdmap(rdmapSend), QN: 0, MSN: 1 << 20}
				h.Segment(d, h.c.g.Bytes(50))
			}),
		ddpError("ddp-error-mo-bounds", "untagged segments whose MO, or MO plus length, lie past the posted buffer",
			func(h *Half) {
				h.PostRecv(1, 100)
				h.Send(1, h.c.g.Bytes(300), 0)
				msn := h.PostRecv(1, 100)
				h.msn[1] = msn + 1
				d := DDP{Last: true, DV: h.DV, RDMAP: h.rdmap(rdmapSend), QN: 1, MSN: msn, MO: 200}
				h.Segment(d, h.c.g.Bytes(10))
			}),
		ddpError("ddp-error-version", "DDP segments with the wrong DDP version (2 and 0 on an RFC 5044 connection)",
			func(h *Half) {
				st := h.RegisterSTag(256)
				h.Segment(DDP{Tagged: true, Last: true, DV: 2, RDMAP: rdmapWrite, STag: st}, h.c.g.Bytes(100))
				msn := h.PostRecv(0, 256)
				h.msn[0] = msn + 1
				h.Segment(DDP{Last: true, DV: 0, RDMAP: rdmapSend, QN: 0, MSN: msn}, h.c.g.Bytes(100))
			}),
		// ---- teardown and damaged frames ----
		{
			Name:    "fin-mid-message",
			Summary: "a FIN after some segments of a multi-segment message (on an FPDU boundary, and inside an FPDU): error 1",
			Tags:    []string{"fin", "after-error", "markers-both", "crc-on", "ddp-multiseg"},
			Build: func(g *Gen) {
				for k := 0; k < 2; k++ {
					c := g.FullConn(true, true, true, Link{})
					h := c.I2R()
					h.SendMsg(0, 100, 0)
					h.WriteMsg(6000, 0)
					segs := h.OnePer()
					keep := segs[:4]
					if k == 1 {
						keep = append(keep[:3:3], mpa.Segment{Seq: segs[3].Seq, Data: segs[3].Data[:500]})
					}
					h.Emit(keep)
					h.nxt = keep[len(keep)-1].End()
					h.FIN()
				}
			},
		},
		{
			Name:    "rst-mid-message",
			Summary: "a RST in the middle of a multi-segment message, and a RST from the other side: error 1, the connection closes",
			Tags:    []string{"rst", "after-error", "markers-both", "crc-on", "ddp-multiseg"},
			Build: func(g *Gen) {
				for k := 0; k < 2; k++ {
					c := g.FullConn(true, true, true, Link{})
					h := c.I2R()
					h.WriteMsg(6000, 0)
					segs := h.OnePer()
					h.Emit(segs[:2])
					if k == 0 {
						h.nxt = segs[1].End()
						h.RST()
					} else {
						c.R2I().RST()
					}
					h.Emit(segs[2:]) // arrives after the RST: ignored
				}
			},
		},
		{
			Name: "bad-checksums", Clean: true,
			Summary: "frames with a bad IPv4 header checksum or a bad TCP checksum are dropped; good retransmissions follow",
			Tags:    []string{"bad-ip-checksum", "bad-tcp-checksum", "retransmit", "markers-both", "crc-on", "one-per-segment"},
			Build: func(g *Gen) {
				c := g.FullConn(true, true, true, Link{})
				h := c.I2R()
				h.Traffic(kib(g, 24), 3000, nil)
				for k, s := range h.OnePer() {
					switch k % 5 {
					case 1:
						h.Emit([]mpa.Segment{s}, BadIPChecksum)
					case 3:
						h.Emit([]mpa.Segment{s}, BadTCPChecksum)
					case 4:
						h.Emit([]mpa.Segment{s}, BadIPChecksum, BadTCPChecksum)
					}
					h.Emit([]mpa.Segment{s})
				}
			},
		},
		{
			Name: "spec-figures", Clean: true,
			Summary: "the example FPDUs of the MPA specification (draft-ietf-rddp-mpa-01 Figures 5 and 6) on Rev 0 connections",
			Tags:    []string{"spec-figure", "startup-rev0-permissive", "markers-both", "crc-on", "marker-first", "one-per-segment"},
			Build: func(g *Gen) {
				req, rep := Startup(true, true, true, true)
				req.Rev, rep.Rev = 0, 0
				a := g.Conn(ConnOpts{Req: req, Rep: rep, Permissive: true})
				a.I2R().PostRecv(0, 24)
				a.I2R().Send(0, make([]byte, 24), 0) // Figure 5
				a.I2R().Emit(a.I2R().OnePer())
				b := g.Conn(ConnOpts{Req: req, Rep: rep, Permissive: true})
				b.I2R().PostRecv(0, 464)
				b.I2R().PostRecv(0, 24)
				b.I2R().Send(0, g.Bytes(464), 0)
				b.I2R().Send(0, make([]byte, 24), 0) // Figure 6
				b.I2R().Emit(b.I2R().OnePer())
			},
		},
	} {
		register(s)
	}
}

// sendAfterStartup sends FPDUs both ways after a startup (that may have
// failed).
func sendAfterStartup(c *Conn) {
	c.I2R().SendMsg(0, 120, 0)
	c.I2R().WriteMsg(700, 0)
	c.R2I().SendMsg(0, 80, 0)
	c.I2R().Flush()
	c.R2I().Flush()
}

func markerDirs(name string, i2r, r2i bool) *Scenario {
	tag := map[[2]bool]string{{true, true}: "markers-both", {true, false}: "markers-one-way", {false, true}: "markers-one-way", {false, false}: "markers-none"}[[2]bool{i2r, r2i}]
	return &Scenario{
		Name: name, Clean: true,
		Summary: "markers negotiated " + map[string]string{
			"markers-both": "in both directions", "markers-none": "in neither direction",
			"markers-initiator-only": "only in the Initiator's FPDUs (M=1 in the Reply only)",
			"markers-responder-only": "only in the Responder's FPDUs (M=1 in the Request only)",
		}[name] + "; traffic both ways, one FPDU per segment",
		Tags: markerTags(tag, i2r || r2i),
		Build: func(g *Gen) {
			c := g.FullConn(i2r, r2i, true, Link{})
			c.I2R().Traffic(kib(g, 12), 3000, nil)
			c.R2I().Traffic(kib(g, 12), 3000, nil)
			g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().OnePer()), Outs(c.R2I(), c.R2I().OnePer())))
		},
	}
}

func markerTags(tag string, markers bool) []string {
	t := []string{tag, "crc-on", "one-per-segment", "ddp-tagged", "ddp-untagged"}
	if markers {
		t = append(t, "marker-first")
	}
	return t
}

func crcOneSide(name string, reqC, repC bool) *Scenario {
	side := "Request"
	if repC {
		side = "Reply"
	}
	return &Scenario{
		Name:    name,
		Summary: "C=1 only in the " + side + ": CRCs are generated and checked both ways; the last FPDU each way has a bad CRC (error 2)",
		Tags:    []string{"crc-one-side", "crc-on", "crc-error", "markers-none", "one-per-segment"},
		Build: func(g *Gen) {
			req, rep := Startup(false, reqC, false, repC)
			c := g.Conn(ConnOpts{Req: req, Rep: rep})
			for _, h := range c.H {
				h.Traffic(kib(g, 6), 2000, nil)
				fp := h.S.FPDUs[h.fsent:]
				b := h.FPDUBytes(fp[len(fp)-1])
				b[len(b)-4] ^= 0xff
			}
			g.EmitAll(g.bothWays(Outs(c.I2R(), c.I2R().OnePer()), Outs(c.R2I(), c.R2I().OnePer())))
		},
	}
}

// ddpError builds a scenario where a connection carries valid messages, then
// the faulty segments that bad adds, then valid messages again.
func ddpError(name, summary string, bad func(h *Half)) *Scenario {
	return &Scenario{
		Name: name, Summary: summary,
		Tags: []string{"ddp-error", name[len("ddp-"):], "markers-both", "crc-on", "one-per-segment"},
		Build: func(g *Gen) {
			c := g.FullConn(true, true, true, Link{})
			h := c.I2R()
			h.WriteMsg(400, 0)
			h.SendMsg(0, 150, 0)
			bad(h)
			h.SendMsg(0, 150, 0)
			h.WriteMsg(400, 0)
			h.Emit(h.OnePer())
		},
	}
}
