package walk

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
)

// gen makes MPA streams, segments and frames.
type gen struct {
	rng  *rand.Rand
	data *rand.ChaCha8
	wpb  int
}

func newGen(seed uint64, width int) *gen {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	key[8] = byte(width)
	return &gen{rng: rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(width))), data: rand.NewChaCha8(key), wpb: width / 32}
}

// half returns a random half connection configuration, SeqStart often
// close below 2^32 so that segments wrap.
func (g *gen) half() mpa.Half {
	h := mpa.Half{Markers: g.rng.IntN(2) == 0, CRC: g.rng.IntN(4) != 0}
	if g.rng.IntN(2) == 0 {
		h.SeqStart = -uint32(1 + g.rng.IntN(40000))
	} else {
		h.SeqStart = g.rng.Uint32()
	}
	return h
}

// ulpdu returns a ULPDU of n octets that starts like a DDP header (control
// octet with T and L random, DV 1).
func (g *gen) ulpdu(n int) []byte {
	u := make([]byte, n)
	_, _ = g.data.Read(u)
	if n > 0 {
		u[0] = byte(g.rng.IntN(2))<<7 | byte(g.rng.IntN(2))<<6 | 1
	}
	return u
}

// size draws a ULPDU length: mostly 14..3000 (often short), a few under 14
// when small is set, all 14..30 (half of them 14) when dense is set.
func (g *gen) size(small, dense bool) int {
	switch {
	case small && g.rng.IntN(8) == 0:
		return g.rng.IntN(14)
	case dense && g.rng.IntN(2) == 0:
		return 14 // 20-octet FPDUs: the most per beat
	case dense:
		return 14 + g.rng.IntN(17)
	case g.rng.IntN(3) == 0:
		return 14 + g.rng.IntN(60)
	default:
		return 14 + g.rng.IntN(3000-14+1)
	}
}

// form draws the FPDUPTR form a sender uses: RFC 5044 mostly, draft-01 in
// a quarter of the streams.
func (g *gen) form() mpa.PtrForm {
	if g.rng.IntN(4) == 0 {
		return mpa.PtrDraft01
	}
	return mpa.PtrRFC5044
}

// stream frames n ULPDUs.
func (g *gen) stream(h mpa.Half, n int, small, dense bool) *mpa.Stream {
	st := mpa.NewStream(h)
	st.Form = g.form()
	for i := 0; i < n; i++ {
		st.Add(g.ulpdu(g.size(small, dense)))
	}
	return st
}

// onMarkers frames n ULPDUs of 502 octets with markers on: each FPDU is
// then a marker and 508 octets, so every FPDU starts with a marker (and the
// marker after each CRC belongs to the next FPDU).
func (g *gen) onMarkers(h mpa.Half, n int) *mpa.Stream {
	h.Markers = true
	st := mpa.NewStream(h)
	st.Form = g.form()
	for i := 0; i < n; i++ {
		if g.rng.IntN(3) == 0 {
			st.Add(g.ulpdu(1010)) // a marker, 1020 octets with a second marker inside
		} else {
			st.Add(g.ulpdu(502))
		}
	}
	return st
}

// segments cuts a stream by a random policy: aligned to an EMSS, one FPDU
// per segment, random lengths, or cuts at random octets (inside
// ULPDU_Length, markers and CRC fields too).
func (g *gen) segments(st *mpa.Stream) []mpa.Segment {
	switch g.rng.IntN(5) {
	case 0, 1:
		return st.Aligned(128 + g.rng.IntN(9000-128+1))
	case 2:
		return st.OnePerSegment()
	case 3:
		return st.Random(g.rng, 1, 1+g.rng.IntN(4000))
	default:
		var cuts []int
		for i := g.rng.IntN(8); i >= 0; i-- {
			cuts = append(cuts, g.rng.IntN(len(st.Data)+1))
		}
		return st.CutAt(cuts)
	}
}

// corrupt copies a segment's data and, sometimes, damages it: a CRC octet
// of an FPDU inside it, a marker's FPDUPTR, or any octet.
func (g *gen) corrupt(st *mpa.Stream, seg mpa.Segment) []byte {
	d := append([]byte(nil), seg.Data...)
	if len(d) == 0 || g.rng.IntN(4) != 0 {
		return d
	}
	segOff := int(seg.Seq - st.Half.SeqStart)
	switch g.rng.IntN(3) {
	case 0: // a CRC octet of an FPDU that ends in the segment
		for _, f := range st.FPDUs {
			if end := f.Off + f.Len - segOff; end >= 4 && end <= len(d) && g.rng.IntN(2) == 0 {
				d[end-1-g.rng.IntN(4)] ^= byte(1 << g.rng.IntN(8))
				return d
			}
		}
	case 1: // the FPDUPTR of a marker (low two bits flipped too: ignored)
		if !st.Half.Markers {
			break
		}
		for off := 0; off+4 <= len(d); off++ {
			if st.Half.IsMarker(seg.Seq+uint32(off)) && g.rng.IntN(2) == 0 {
				d[off+2+g.rng.IntN(2)] ^= byte(1 << g.rng.IntN(8))
				return d
			}
		}
	}
	d[g.rng.IntN(len(d))] ^= byte(1 << g.rng.IntN(8))
	return d
}

// frame places a payload in a frame's word view: it starts at word P0 (any
// word lane of its beat), random filler around it and after its last
// octet, whole beats.
func (g *gen) frame(h mpa.Half, seq uint32, payload []byte) Frame {
	return g.frameAt(h, seq, payload, 14+g.rng.IntN(g.wpb+10))
}

// frameAt is frame with the payload at word p0.
func (g *gen) frameAt(h mpa.Half, seq uint32, payload []byte, p0 int) Frame {
	npay := (len(payload) + 3) / 4
	nw := p0 + npay + g.rng.IntN(2*g.wpb+1)
	nw = (nw + g.wpb - 1) / g.wpb * g.wpb
	words := make([]uint32, nw)
	for i := range words {
		words[i] = g.rng.Uint32()
	}
	var w [4]byte
	for k := 0; k < npay; k++ {
		binary.LittleEndian.PutUint32(w[:], words[p0+k])
		copy(w[:], payload[4*k:])
		words[p0+k] = binary.LittleEndian.Uint32(w[:])
	}
	return Frame{Words: words, P0: p0, NPay: npay, SegSeq: seq, SeqStart: h.SeqStart, Markers: h.Markers, CRC: h.CRC}
}

// emptyFrame is a frame without payload.
func (g *gen) emptyFrame() Frame {
	h := g.half()
	f := g.frame(h, g.rng.Uint32(), nil)
	return f
}

// randomSegments queues n segments of random streams (with small and
// dense ULPDUs, corrupted octets and empty frames among them), with idle
// cycles as gapProb says and back-to-back frames half of the time.
func randomSegments(h *harness, g *gen, n int, gapProb float64, strict bool) {
	for done := 0; done < n; {
		hf := g.half()
		small := g.rng.IntN(4) == 0
		dense := g.rng.IntN(4) == 0
		var st *mpa.Stream
		if g.rng.IntN(8) == 0 {
			st = g.onMarkers(hf, 1+g.rng.IntN(20))
			hf = st.Half
		} else {
			st = g.stream(hf, 1+g.rng.IntN(60), small, dense)
		}
		for _, seg := range g.segments(st) {
			var f Frame
			if g.rng.IntN(40) == 0 {
				f = g.emptyFrame()
			} else {
				f = g.frame(hf, seg.Seq, g.corrupt(st, seg))
			}
			gap := 0
			if g.rng.IntN(2) == 0 {
				gap = g.rng.IntN(8)
			}
			h.queue(f, gap, gapProb, strict)
			h.flowIfFull()
			done++
			if done == n {
				break
			}
		}
	}
}

func segments(width int) int {
	if width <= 128 {
		return *segs
	}
	return *segsWide
}

// TestRandomSegments runs random segments back to back and with idle
// cycles, with rec_ready always high: at 64 and 128 bits every record must
// then be out of the FIFO by its frame's sum_valid; at 256 and 512 bits
// dense FPDUs come faster than one record per cycle, so the FIFO may fill
// up and drop records (checked for consistency with sum_ok and sum_nrec).
func TestRandomSegments(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + uint64(w)
			h := newHarness(t, w, seed)
			h.overflowOK = w > 128
			randomSegments(h, newGen(seed, w), segments(w), 0.1, w <= 128)
			h.drain()
			h.logStats()
			require.NotZero(t, h.whole)
			require.NotZero(t, h.crcBad)
			require.NotZero(t, h.markerBad)
			require.NotZero(t, h.small)
			require.NotZero(t, h.grid)
			require.NotZero(t, h.nrfc)
			require.NotZero(t, h.ndraft)
			require.NotZero(t, h.cov.leading)
			require.NotZero(t, h.cov.straddle)
			require.NotZero(t, h.cov.hdrMarker)
			require.Equal(t, 1<<h.wpb-1, h.cov.firstLanes, "payload at every first word lane")
			if h.wpb >= 8 {
				require.NotZero(t, h.cov.multi)
				require.NotZero(t, h.cov.kmax)
			}
		})
	}
}

// TestBackpressure runs random segments with rec_ready low half of the
// time: records come out late and, when the FIFO fills up, are dropped
// frame by frame (sum_ok, sum_nrec), and the FIFO stays in order.
func TestBackpressure(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 1000 + uint64(w)
			h := newHarness(t, w, seed)
			h.overflowOK = true
			h.readyProb = 0.5
			randomSegments(h, newGen(seed, w), segments(w)/3, 0.3, false)
			h.drain()
			h.logStats()
		})
	}
}

// TestSparseTiming runs frames with idle cycles between them and rec_ready
// high at every width: each frame's records must be out of the FIFO by its
// sum_valid.
func TestSparseTiming(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 2000 + uint64(w)
			h := newHarness(t, w, seed)
			g := newGen(seed, w)
			for i := 0; i < 200; i++ {
				hf := g.half()
				st := g.stream(hf, 1+g.rng.IntN(3), false, false)
				for _, seg := range st.OnePerSegment() {
					h.queue(g.frame(hf, seg.Seq, seg.Data), h.lat+10, 0, true)
				}
				h.flowIfFull()
			}
			h.drain()
			h.logStats()
			require.Equal(t, h.summaries, h.whole)
		})
	}
}

// TestOverflow fills the record FIFO with rec_ready low: exactly Capacity
// records are stored, the frame that does not fit keeps the first ones
// (sum_ok 0, sum_nrec), later frames store none; once read out, the FIFO
// carries on in order.
func TestOverflow(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 3000 + uint64(w)
			h := newHarness(t, w, seed)
			h.overflowOK = true
			g := newGen(seed, w)
			capacity := Capacity(w, MaxFPDUs)
			for round := 0; round < 2; round++ {
				h.readyProb = 0
				stored, total, dropped := 0, 0, h.dropped
				var runs []*frameRun
				for total < capacity+300 {
					hf := g.half()
					hf.Markers = false
					st := g.stream(hf, 60, false, true)
					for _, seg := range st.Aligned(1460) {
						fr := h.queue(g.frame(hf, seg.Seq, seg.Data), g.rng.IntN(3), 0.05, false)
						runs = append(runs, fr)
						total += len(fr.recs)
						h.flowIfFull()
					}
				}
				// Let everything through the walker, then check the counts
				// of the stored records before reading them.
				for len(h.beats) > 0 || len(h.frames) > 0 {
					h.step()
				}
				require.Empty(t, h.got)
				for _, fr := range runs {
					stored += min(len(fr.recs), max(0, capacity-stored))
				}
				require.Equal(t, capacity, stored)
				require.Len(t, h.exp, capacity, "records stored")
				require.Equal(t, total-capacity, h.dropped-dropped)
				h.drain()
				// Normal traffic afterwards.
				randomSegments(h, g, 50, 0.1, false)
				h.drain()
			}
			h.logStats()
		})
	}
}

// figure builds the FPDU of draft-01 Figures 5 and 6 (NOTES.md): an
// untagged DDP Send (L set, queue 0, MO 0) with the given MSN and 24 zero
// octets, as the next FPDU of st.
func figure(st *mpa.Stream, msn uint32) mpa.FPDURef {
	u := []byte{0x40, 0x03, 0, 0, 0, 0}
	u = binary.BigEndian.AppendUint32(u, 0)
	u = binary.BigEndian.AppendUint32(u, msn)
	u = binary.BigEndian.AppendUint32(u, 0)
	u = append(u, make([]byte, 24)...)
	return st.Add(u)
}

// TestDraftFigures sends the two reference FPDUs of draft-01 at every word
// lane: Figure 5 (the stream's first FPDU, with its leading marker) and
// Figure 6 (the second FPDU, at stream offset 0x1ec after a 492-octet one,
// with a marker 0x14 octets in), whole, with each CRC octet damaged, with
// FPDUPTR wrong, and with FPDUPTR's two ignored low bits changed (the CRC
// covers markers, so every change but none fails the CRC). The CRC octets
// are checked against the ones the draft prints.
func TestDraftFigures(t *testing.T) {
	hf := mpa.Half{Markers: true, CRC: true}
	st5 := mpa.NewStream(hf)
	f5 := figure(st5, 1)
	st6 := mpa.NewStream(hf)
	st6.Add(make([]byte, 482)) // 4 (marker) + 2 + 482 + 4 = 492 octets
	f6 := figure(st6, 2)
	require.Equal(t, 0x1ec, f6.Off)
	require.Equal(t, []byte{0x4c, 0x86, 0xb3, 0x84}, st5.Data[f5.Off+f5.Len-4:f5.Off+f5.Len])
	require.Equal(t, []byte{0xa1, 0x9c, 0xd1, 0x03}, st6.Data[f6.Off+f6.Len-4:f6.Off+f6.Len])
	require.Equal(t, []byte{0, 0, 0, 0x14}, st6.Data[0x200:0x204])
	figs := []struct {
		fpdu   []byte
		seq    uint32
		msn    uint32
		marker int // offset of the marker in the FPDU
	}{
		{st5.Data[f5.Off : f5.Off+f5.Len], f5.Seq, 1, 0},
		{st6.Data[f6.Off : f6.Off+f6.Len], f6.Seq, 2, 0x14},
	}

	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 4000 + uint64(w)
			h := newHarness(t, w, seed)
			g := newGen(seed, w)
			for _, fig := range figs {
				for lane := 0; lane < h.wpb; lane++ {
					for damage := -1; damage < 6; damage++ {
						d := append([]byte(nil), fig.fpdu...)
						switch {
						case damage >= 0 && damage < 4:
							d[len(d)-4+damage] ^= 0x10
						case damage == 4:
							d[fig.marker+3] ^= 0x08
						case damage == 5:
							d[fig.marker+3] ^= 0x02
						}
						run := h.queue(g.frameAt(hf, fig.seq, d, 16+lane), g.rng.IntN(3), 0, false)
						require.Len(t, run.recs, 1)
						require.True(t, run.sum.Whole)
						require.True(t, run.sum.FirstMarker)
						require.True(t, run.sum.AnyL)
						require.Equal(t, damage < 0, run.sum.CRCOK, "damage %d", damage)
						require.Equal(t, damage != 4, run.sum.MarkerOK, "damage %d", damage)
						require.Equal(t, fig.msn, run.recs[0].Hdr[2], "MSN")
						require.Equal(t, uint16(42), run.recs[0].ULen)
					}
				}
			}
			h.drain()
			h.logStats()
		})
	}
}

// TestReset resets the walker in the middle of a frame: the frame leaves
// nothing behind and the following frames come out right.
func TestReset(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 5000 + uint64(w)
			h := newHarness(t, w, seed)
			g := newGen(seed, w)
			for i := 0; i < 20; i++ {
				randomSegments(h, g, 5, 0.1, false)
				// A frame cut off after a few beats, then reset.
				hf := g.half()
				st := g.stream(hf, 20, false, true)
				f := g.frame(hf, st.Half.SeqStart, st.Data)
				h.queue(f, h.lat+600, 0, false)
				h.cutAndReset(1+g.rng.IntN(len(f.Words)/h.wpb-1), g.rng.IntN(4))
				randomSegments(h, g, 5, 0.1, false)
			}
			h.drain()
			h.logStats()
		})
	}
}

// TestLargeFPDUs sends FPDUs with ULPDUs of 60000 to 65535 octets (up to
// 16386 words of content and 129 markers), whole and followed by a short
// FPDU, at every marker grid phase of the ULPDU_Length word in turn: the
// FPDU's end comes from the marker count floor((c - r - 1)/127) + 1, whose
// correction terms only matter for the longest ULPDUs.
func TestLargeFPDUs(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 6000 + uint64(w)
			h := newHarness(t, w, seed)
			g := newGen(seed, w)
			n := 24
			if w == 64 {
				n = 12
			}
			for i := 0; i < n; i++ {
				hf := g.half()
				hf.Markers = i < 8 || i%4 != 3
				// The big FPDU starts k words after SeqStart, behind a first
				// FPDU of k words (its leading marker, c content words and,
				// past 128 words, a second marker): the ULPDU_Length word is
				// then 1 to 127 words past a marker (128: it starts with
				// one, the word after it is 1 past it).
				k := 3 + g.rng.IntN(125)
				if i < 4 {
					k = []int{128, 130, 126, 127}[i]
				}
				c := k - 1
				if k > 128 {
					c--
				}
				st := mpa.NewStream(hf)
				st.Add(g.ulpdu(4*(c-1) - 2))
				ulen := 65531 + g.rng.IntN(5)
				if i >= 8 {
					ulen = 60000 + g.rng.IntN(65536-60000)
				}
				big := st.Add(g.ulpdu(ulen))
				if hf.Markers {
					require.Equal(t, 4*k, big.Off)
				}
				st.Add(g.ulpdu(14 + g.rng.IntN(30)))
				seg := st.CutAt([]int{big.Off})[1]
				run := h.queue(g.frame(hf, seg.Seq, seg.Data), 2, 0, false)
				require.True(t, run.sum.Whole)
				require.Equal(t, 2, run.sum.NFPDU)
				h.flowIfFull()
			}
			h.drain()
			h.logStats()
		})
	}
}

// TestFPDUPTRForms sends FPDUs that begin with a marker and hold later
// ones (the first FPDU of a stream, and FPDUs that start on the marker
// grid mid-stream), each frame in one FPDUPTR form, at every width: the
// RFC 5044 value and the draft-01 value (4 more) pass and are counted by
// form; 4 less than RFC 5044, a mix of the two forms in one FPDU, and the
// draft-01 value in an FPDU without a leading marker fail the marker
// check. The expected counts are the FPDUs that start on the grid and span
// another marker, counted here from the stream layout.
func TestFPDUPTRForms(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + 7000 + uint64(w)
			h := newHarness(t, w, seed)
			g := newGen(seed, w)
			for i := 0; i < 60; i++ {
				hf := g.half()
				hf.Markers, hf.CRC = true, i%2 == 0
				st := mpa.NewStream(hf)
				st.Form = []mpa.PtrForm{mpa.PtrRFC5044, mpa.PtrDraft01}[i%2]
				for j := 0; j < 6; j++ {
					// 1010: 1024 octets on the wire, every FPDU on the
					// grid; 2026: 2048; 1200: off the grid after it.
					st.Add(g.ulpdu([]int{1010, 2026, 1200, 1010, 1010, 300}[(i+j)%6]))
				}
				lead := 0
				for _, f := range st.FPDUs {
					if (f.Seq-hf.SeqStart)%512 == 0 && f.Len > 516 {
						lead++
					}
				}
				d := append([]byte(nil), st.Data...)
				wantOK := true
				switch damage := i % 8; damage {
				case 2, 3: // 4 less than RFC 5044 in the first FPDU's second marker
					binary.BigEndian.PutUint16(d[512+2:], 504)
					wantOK = false
				case 4, 5: // draft-01 value where no leading marker: the first FPDU off the grid
					for _, f := range st.FPDUs {
						if m := hf.NextMarker(f.Seq); (f.Seq-hf.SeqStart)%512 != 0 && int(m-f.Seq)+8 <= f.Len {
							moff := f.Off + int(m-f.Seq)
							binary.BigEndian.PutUint16(d[moff+2:], uint16(m-f.Seq)+4)
							wantOK = false
							break
						}
					}
				}
				if i%8 == 6 { // mix: an FPDU of 2048 octets, second marker in the other form
					for _, f := range st.FPDUs {
						if (f.Seq-hf.SeqStart)%512 == 0 && f.Len > 1028 {
							moff := f.Off + 1024
							v := binary.BigEndian.Uint16(d[moff+2:])
							if st.Form == mpa.PtrDraft01 {
								v -= 4
							} else {
								v += 4
							}
							binary.BigEndian.PutUint16(d[moff+2:], v)
							wantOK = false
							break
						}
					}
				}
				run := h.queue(g.frame(hf, st.Seq(0), d), 1, 0, false)
				require.True(t, run.sum.Whole)
				require.Equal(t, wantOK, run.sum.MarkerOK, "frame %d", i)
				if wantOK {
					if st.Form == mpa.PtrDraft01 {
						require.Equal(t, lead, run.sum.NDraft, "frame %d", i)
						require.Zero(t, run.sum.NRFC)
					} else {
						require.Equal(t, lead, run.sum.NRFC, "frame %d", i)
						require.Zero(t, run.sum.NDraft)
					}
				}
				h.flowIfFull()
			}
			h.drain()
			h.logStats()
			require.NotZero(t, h.nrfc)
			require.NotZero(t, h.ndraft)
		})
	}
}
