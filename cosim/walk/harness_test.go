package walk

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
)

var (
	traceDir = flag.String("trace", "", "write an FST waveform of every simulation into this directory (default: $MPARX_TRACE)")
	seedFlag = flag.Uint64("seed", 20260301, "seed of the random stimulus")
	segs     = flag.Int("segs", 4000, "random segments per test at DATA_WIDTH 64 and 128")
	segsWide = flag.Int("segswide", 2000, "random segments per test at DATA_WIDTH 256 and 512")
)

// batchCycles is the number of cycles per cgo call.
const batchCycles = 4096

// frameRun is a frame in flight: its stimulus and what the reference
// expects from it.
type frameRun struct {
	id      int
	f       Frame
	recs    []Record
	sum     Summary
	last    uint64 // cycle of its w_last beat
	sent    bool   // the w_last beat was applied
	strict  bool   // all its records must be popped by its sum_valid
	cumRecs int    // records expected up to and including this frame (strict runs)
}

// beat is one beat of a frame queued for the input, after gap idle cycles;
// a beat with reset set instead resets the model (rst for 3 cycles).
type beat struct {
	gap   int
	fr    *frameRun
	index int
	reset bool
}

// expRec is an expected record and the frame it belongs to.
type expRec struct {
	frame int
	rec   Record
}

// harness drives one mpa_rx_walk variant cycle by cycle from Go: the word
// view, the frame parameters and rec_ready come from the input records (the
// walker never stalls, so no cosim source is needed), and every output is
// checked against Expect: each summary at exactly Latency cycles after its
// frame's w_last beat, each popped record in order.
type harness struct {
	t     testing.TB
	width int
	wpb   int
	lat   int
	seed  uint64
	sim   *cosim.Sim
	rng   *rand.Rand
	in    []uint64
	out   []uint64

	segSeq, seqStart, markersOn, crcOn cosim.Port
	wValid, wData, wPmask, wLast       cosim.Port
	recValid, recReady                 cosim.Port
	recLseq, recUlen, recCtrl, recUlp  cosim.Port
	recHdr, recFirst, recLast          cosim.Port
	sumValid, sumWhole, sumSmall       cosim.Port
	sumGrid, sumCRC, sumMarker         cosim.Port
	sumFirstMarker, sumAnyL, sumNFPDU  cosim.Port
	sumOK, sumNRec                     cosim.Port
	sumNRFC, sumNDraft                 cosim.Port

	// readyProb is the probability of rec_ready high in a cycle.
	readyProb float64
	// overflowOK allows record FIFO overflow (sum_ok = 0); otherwise every
	// summary must report every record stored.
	overflowOK bool

	beats   []beat
	frames  []*frameRun // sent or queued, summary not seen yet, in order
	nframes int
	cumRecs int
	popped  int
	exp     []expRec
	got     []Record
	cut     *frameRun // the frame cut off by the next reset

	// Statistics for the log.
	summaries, records, dropped, whole, crcBad, markerBad, small, grid int
	nrfc, ndraft                                                       int // FPDUs counted by FPDUPTR form
	cov                                                                coverage
}

// coverage counts stimulus features that exercise particular RTL paths.
type coverage struct {
	multi      int // beats holding two or more ULPDU_Length words
	kmax       int // beats holding KMAX of them (the chain's longest)
	leading    int // FPDUs that start with a marker
	straddle   int // ... in the last word of a beat (ULPDU_Length in the next)
	hdrMarker  int // records whose header words skip a marker
	firstLanes int // bitmask of the payload's first word lane
}

func (c coverage) String() string {
	return fmt.Sprintf("beats with >=2 FPDUs %d, with KMAX %d; leading markers %d (at a beat end %d); header skips a marker %d",
		c.multi, c.kmax, c.leading, c.straddle, c.hdrMarker)
}

// measure adds a frame's features to the coverage counts.
func (h *harness) measure(f Frame, recs []Record) {
	hf := f.Half()
	perBeat := map[int]int{}
	for _, r := range recs {
		l := f.P0 + int(r.LseqW)
		perBeat[l/h.wpb]++
		if hf.IsMarker(f.SegSeq + 4*uint32(r.LseqW) - 4) {
			h.cov.leading++
			if (l-1)%h.wpb == h.wpb-1 {
				h.cov.straddle++
			}
		}
		for k := 1; k <= 4; k++ {
			if hf.IsMarker(f.SegSeq + 4*uint32(int(r.LseqW)+k)) {
				h.cov.hdrMarker++
			}
		}
	}
	kmax := (h.wpb + 4) / 5
	for _, n := range perBeat {
		if n >= 2 {
			h.cov.multi++
		}
		if n == kmax {
			h.cov.kmax++
		}
	}
	if f.NPay > 0 {
		h.cov.firstLanes |= 1 << (f.P0 % h.wpb)
	}
}

func newHarness(t testing.TB, width int, seed uint64) *harness {
	t.Helper()
	sim, err := cosim.Open(Variant(width), cosim.Name(t.Name()), cosim.TraceDir(*traceDir))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sim.Close()) })
	sim.Reset(4)
	h := &harness{
		t:         t,
		width:     width,
		wpb:       width / 32,
		lat:       Latency(width),
		seed:      seed,
		sim:       sim,
		rng:       rand.New(rand.NewPCG(seed, uint64(width))),
		in:        sim.NewIn(batchCycles),
		out:       sim.NewOut(batchCycles),
		readyProb: 1,
	}
	for _, p := range []struct {
		port *cosim.Port
		name string
	}{
		{&h.segSeq, "seg_seq"}, {&h.seqStart, "seq_start"}, {&h.markersOn, "markers_on"}, {&h.crcOn, "crc_on"},
		{&h.wValid, "w_valid"}, {&h.wData, "w_data"}, {&h.wPmask, "w_pmask"}, {&h.wLast, "w_last"},
		{&h.recValid, "rec_valid"}, {&h.recReady, "rec_ready"}, {&h.recLseq, "rec_lseq_w"},
		{&h.recUlen, "rec_ulen"}, {&h.recCtrl, "rec_ctrl"}, {&h.recUlp, "rec_ulp"}, {&h.recHdr, "rec_hdr"},
		{&h.recFirst, "rec_first"}, {&h.recLast, "rec_last"},
		{&h.sumValid, "sum_valid"}, {&h.sumWhole, "sum_whole"}, {&h.sumSmall, "sum_small"},
		{&h.sumGrid, "sum_grid"}, {&h.sumCRC, "sum_crc_ok"}, {&h.sumMarker, "sum_marker_ok"},
		{&h.sumFirstMarker, "sum_first_marker"}, {&h.sumAnyL, "sum_any_l"}, {&h.sumNFPDU, "sum_nfpdu"},
		{&h.sumOK, "sum_ok"}, {&h.sumNRec, "sum_nrec"}, {&h.sumNRFC, "sum_nrfc"}, {&h.sumNDraft, "sum_ndraft"},
	} {
		port, ok := sim.LookupPort(p.name)
		require.True(t, ok, "port %s", p.name)
		*p.port = port
	}
	return h
}

// queue adds a frame after interGap idle cycles, with idle cycles inside
// it (before each beat with probability gapProb, 1 to 3 cycles).
func (h *harness) queue(f Frame, interGap int, gapProb float64, strict bool) *frameRun {
	h.t.Helper()
	require.Zero(h.t, len(f.Words)%h.wpb, "frame words must fill whole beats")
	recs, sum := Expect(f)
	h.measure(f, recs)
	fr := &frameRun{id: h.nframes, f: f, recs: recs, sum: sum, strict: strict}
	h.nframes++
	h.cumRecs += len(recs)
	fr.cumRecs = h.cumRecs
	n := len(f.Words) / h.wpb
	for b := 0; b < n; b++ {
		gap := 0
		if b == 0 {
			gap = interGap
		} else if gapProb > 0 && h.rng.Float64() < gapProb {
			gap = 1 + h.rng.IntN(3)
		}
		h.beats = append(h.beats, beat{gap: gap, fr: fr, index: b})
	}
	h.frames = append(h.frames, fr)
	return fr
}

// cutAndReset drops the last beats of the frame queued last, keeping
// keep of them, and queues a reset (rst for 3 cycles) after gap idle
// cycles: the frame never ends and expects nothing.
func (h *harness) cutAndReset(keep, gap int) {
	h.t.Helper()
	fr := h.frames[len(h.frames)-1]
	n := len(fr.f.Words) / h.wpb
	require.Less(h.t, keep, n)
	h.beats = h.beats[:len(h.beats)-n+keep]
	h.frames = h.frames[:len(h.frames)-1]
	h.cumRecs -= len(fr.recs)
	h.beats = append(h.beats, beat{gap: gap, fr: fr, reset: true})
}

// step runs one batch (shorter when a reset is due) and checks its outputs.
func (h *harness) step() {
	h.t.Helper()
	iw, ow := h.sim.InWords(), h.sim.OutWords()
	clear(h.in)
	start := h.sim.Cycle()
	n := 0
	var reset bool
	for ; n < batchCycles; n++ {
		r := h.in[n*iw : (n+1)*iw]
		h.recReady.SetBool(r, h.readyProb >= 1 || h.rng.Float64() < h.readyProb)
		if len(h.beats) == 0 {
			continue
		}
		bt := &h.beats[0]
		if bt.gap > 0 {
			bt.gap--
			h.params(r, bt.fr)
			continue
		}
		if bt.reset {
			h.cut = bt.fr
			h.beats = h.beats[1:]
			reset = true
			break
		}
		fr := bt.fr
		h.params(r, fr)
		h.wValid.SetBool(r, true)
		words := fr.f.Words[bt.index*h.wpb : (bt.index+1)*h.wpb]
		d := h.wData.Slice(r)
		for j, w := range words {
			d[j/2] |= uint64(w) << (32 * (j % 2))
		}
		var pm uint64
		for j := range words {
			if k := bt.index*h.wpb + j; k >= fr.f.P0 && k < fr.f.P0+fr.f.NPay {
				pm |= 1 << j
			}
		}
		h.wPmask.Set(r, pm)
		if (bt.index+1)*h.wpb == len(fr.f.Words) {
			h.wLast.SetBool(r, true)
			fr.last, fr.sent = start+uint64(n), true
		}
		h.beats = h.beats[1:]
	}
	h.sim.Step(n, h.in, h.out)
	for c := 0; c < n; c++ {
		h.check(start+uint64(c), h.in[c*iw:(c+1)*iw], h.out[c*ow:(c+1)*ow])
	}
	if reset {
		h.sim.Reset(3)
		require.True(h.t, len(h.frames) == 0 || !h.frames[0].sent, "seed %d: reset with summaries pending", h.seed)
		require.Empty(h.t, h.exp, "seed %d: reset with records pending", h.seed)
		// Records of the cut frame that came out before the reset.
		require.LessOrEqual(h.t, len(h.got), len(h.cut.recs))
		for i, r := range h.got {
			require.Equal(h.t, h.cut.recs[i].LseqW, r.LseqW)
			require.Equal(h.t, h.cut.recs[i].ULen, r.ULen)
		}
		h.got = h.got[:0]
	}
}

func (h *harness) params(r []uint64, fr *frameRun) {
	h.segSeq.Set(r, uint64(fr.f.SegSeq))
	h.seqStart.Set(r, uint64(fr.f.SeqStart))
	h.markersOn.SetBool(r, fr.f.Markers)
	h.crcOn.SetBool(r, fr.f.CRC)
}

func (h *harness) fail(cycle uint64, format string, args ...any) {
	h.t.Helper()
	h.t.Fatalf("%s seed %d cycle %d: %s", Variant(h.width), h.seed, cycle, fmt.Sprintf(format, args...))
}

// check compares one cycle's outputs with the expectations.
func (h *harness) check(cycle uint64, in, out []uint64) {
	h.t.Helper()
	if len(h.frames) > 0 && h.frames[0].sent && h.frames[0].last+uint64(h.lat) < cycle {
		h.fail(cycle, "frame %d: no sum_valid %d cycles after its last beat at %d", h.frames[0].id, h.lat, h.frames[0].last)
	}
	if h.recValid.Bit(out) && h.recReady.Bit(in) {
		hdr := h.recHdr.Slice(out)
		h.got = append(h.got, Record{
			LseqW: uint16(h.recLseq.Get(out)),
			ULen:  uint16(h.recUlen.Get(out)),
			Ctrl:  uint8(h.recCtrl.Get(out)),
			ULP:   uint8(h.recUlp.Get(out)),
			Hdr:   [4]uint32{uint32(hdr[1] >> 32), uint32(hdr[1]), uint32(hdr[0] >> 32), uint32(hdr[0])},
			First: h.recFirst.Bit(out),
			Last:  h.recLast.Bit(out),
		})
		h.popped++
	}
	if h.sumValid.Bit(out) {
		if len(h.frames) == 0 || !h.frames[0].sent {
			h.fail(cycle, "sum_valid with no frame pending")
		}
		fr := h.frames[0]
		h.frames = h.frames[1:]
		if cycle != fr.last+uint64(h.lat) {
			h.fail(cycle, "frame %d: sum_valid %d cycles after its last beat, want %d", fr.id, cycle-fr.last, h.lat)
		}
		got := Summary{
			Whole:       h.sumWhole.Bit(out),
			Small:       h.sumSmall.Bit(out),
			Grid:        h.sumGrid.Bit(out),
			CRCOK:       h.sumCRC.Bit(out),
			MarkerOK:    h.sumMarker.Bit(out),
			FirstMarker: h.sumFirstMarker.Bit(out),
			AnyL:        h.sumAnyL.Bit(out),
			NFPDU:       int(h.sumNFPDU.Get(out)),
			NRFC:        int(h.sumNRFC.Get(out)),
			NDraft:      int(h.sumNDraft.Get(out)),
		}
		if got != fr.sum {
			h.fail(cycle, "frame %d: summary\n got  %+v\n want %+v\n%s", fr.id, got, fr.sum, h.describe(fr))
		}
		nrec, ok := int(h.sumNRec.Get(out)), h.sumOK.Bit(out)
		if nrec > len(fr.recs) || ok != (nrec == len(fr.recs)) {
			h.fail(cycle, "frame %d: sum_nrec %d sum_ok %v with %d records", fr.id, nrec, ok, len(fr.recs))
		}
		if !ok && !h.overflowOK {
			h.fail(cycle, "frame %d: record FIFO overflow: %d of %d records stored", fr.id, nrec, len(fr.recs))
		}
		for _, r := range fr.recs[:nrec] {
			h.exp = append(h.exp, expRec{frame: fr.id, rec: r})
		}
		if fr.strict && h.popped < fr.cumRecs {
			h.fail(cycle, "frame %d: %d of its records not out by its sum_valid", fr.id, fr.cumRecs-h.popped)
		}
		h.summaries++
		h.dropped += len(fr.recs) - nrec
		h.count(fr.sum)
	}
	n := min(len(h.got), len(h.exp))
	for i := 0; i < n; i++ {
		if h.got[i] != h.exp[i].rec {
			fr := h.exp[i].frame
			h.fail(cycle, "frame %d: record\n got  %v\n want %v", fr, h.got[i], h.exp[i].rec)
		}
	}
	h.records += n
	h.got, h.exp = h.got[n:], h.exp[n:]
}

func (h *harness) count(s Summary) {
	if s.Whole {
		h.whole++
	}
	if !s.CRCOK {
		h.crcBad++
	}
	if !s.MarkerOK {
		h.markerBad++
	}
	h.nrfc += s.NRFC
	h.ndraft += s.NDraft
	if s.Small {
		h.small++
	}
	if !s.Grid {
		h.grid++
	}
}

// describe prints a frame's parameters and expected records for a failure.
func (h *harness) describe(fr *frameRun) string {
	var sb strings.Builder
	f := fr.f
	fmt.Fprintf(&sb, "seg_seq %#x seq_start %#x markers %v crc %v P0 %d npay %d words %d\n",
		f.SegSeq, f.SeqStart, f.Markers, f.CRC, f.P0, f.NPay, len(f.Words))
	for i, r := range fr.recs {
		if i == 8 {
			fmt.Fprintf(&sb, " ... %d records\n", len(fr.recs))
			break
		}
		fmt.Fprintf(&sb, " %v\n", r)
	}
	return sb.String()
}

// flowIfFull runs batches while more than a batch worth of beats is queued.
func (h *harness) flowIfFull() {
	for len(h.beats) > batchCycles {
		h.step()
	}
}

// drain runs until everything queued has been checked, then one more
// batch, with rec_ready high, in which nothing may come out.
func (h *harness) drain() {
	h.t.Helper()
	h.readyProb = 1
	for i := 0; len(h.beats) > 0 || len(h.frames) > 0 || len(h.exp) > 0; i++ {
		if i > 10000 {
			h.t.Fatalf("seed %d: not drained: %d beats, %d summaries, %d records pending", h.seed, len(h.beats), len(h.frames), len(h.exp))
		}
		h.step()
	}
	h.step()
	if len(h.got) > 0 {
		h.fail(h.sim.Cycle(), "%d records more than expected, the first %v", len(h.got), h.got[0])
	}
}

func (h *harness) logStats() {
	h.t.Logf("%s: %d frames, %d records (%d dropped), %d cycles; whole %d, CRC bad %d, marker bad %d, small %d, off grid %d, FPDUPTR forms RFC 5044 %d draft-01 %d",
		Variant(h.width), h.summaries, h.records, h.dropped, h.sim.Cycle(), h.whole, h.crcBad, h.markerBad, h.small, h.grid, h.nrfc, h.ndraft)
	h.t.Logf("%s: %v", Variant(h.width), h.cov)
}
