package axiwr

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/internal/axi"
)

var (
	// After -args: `go test -trace` is Go's execution tracer.
	traceDir = flag.String("trace", "", "write an FST waveform of every simulation into this directory (default: $MPARX_TRACE)")
	seedFlag = flag.Uint64("seed", 20260301, "seed of the random stimulus")
	nDescs   = flag.Int("descs", 1000, "descriptors per random run")
)

// maxBursts is MAX_BURSTS of each variant (mk/sim.mk).
var maxBursts = map[int]int{64: 16, 128: 32, 256: 32, 512: 32}

// config is one bench run.
type config struct {
	width int
	// ahead: a frame's writes are presented only after its descriptors
	// and flush were taken (and 8 cycles more), so the write side never
	// waits for a burst to be closed and the bursts are exactly Plan.
	ahead   bool
	mem     axi.MemoryConfig
	descs   int
	gap     float64 // probability of idle cycles before a write or a descriptor
	long    bool    // only long descriptors (1 to 3 KiB), one flush each
	errors  bool    // the slave answers some bursts with errors
	seed    uint64
	maxTime int // cycles
}

// entry is a descriptor entry of the stimulus with the frame it closes.
type entry struct {
	d     Desc
	desc  int // index among the non-empty descriptors, -1 for a flush entry
	frame int
}

// write is one host write of the stimulus.
type write struct {
	addr uint64
	data []byte
	strb uint64
}

type awSeen struct {
	addr  uint64
	beats int
	id    uint32
}

type harness struct {
	t   *testing.T
	cfg config
	k   int
	rng *rand.Rand
	sim *cosim.Sim

	descSrc, wrSrc *cosim.Source
	in, out        []uint64
	pt             ports
	wdata          []byte

	mem  *axi.Memory
	chk  *axi.Checker
	lock *wrLock // the cycle model in lockstep

	// stimulus
	entries   []entry
	descs     []Desc // the non-empty ones, in order
	starts    []uint64
	frameWr   [][]write // writes of each frame
	lastEntry []int     // each frame's last entry
	want      map[uint64]byte
	released  int // frames whose writes are queued
	relAt     []int
	nWrites   int

	// observed
	cycle      int
	aws        []awSeen
	idq        map[uint32][]int // bursts per ID waiting for their response
	bDone      []bool
	bResp      []uint8
	pending    []pendingBeat
	beatBurst  int
	beatIdx    int
	burstDescs [][2]int       // per burst: first and last descriptor with octets in it
	carried    map[uint64]int // octet -> burst that carried it
	cpl        int
	cplJ       int // the first burst whose count may be the next cpl_count
	cplSeen    []int
	errs       [][3]int // cpl_err pulses: first, last, resp
	wrTaken    int
	firstWr    int
	lastWr     int
}

func newHarness(t *testing.T, cfg config) *harness {
	t.Helper()
	sim, err := cosim.Open(Variant(cfg.width), cosim.Name(t.Name()), cosim.TraceDir(*traceDir))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sim.Close()) })
	sim.Reset(4)
	h := &harness{t: t, cfg: cfg, k: cfg.width / 8, sim: sim, rng: rand.New(rand.NewPCG(cfg.seed, uint64(cfg.width))),
		in: sim.NewIn(1), out: sim.NewOut(1), idq: map[uint32][]int{},
		carried: map[uint64]int{}, want: map[uint64]byte{}, firstWr: -1}
	h.lookupPorts()
	h.descSrc, err = sim.AddSource("s_desc_valid", "s_desc_ready", "s_desc_addr", "s_desc_len", "s_desc_flush")
	require.NoError(t, err)
	h.wrSrc, err = sim.AddSource("s_wr_valid", "s_wr_ready", "s_wr_addr", "s_wr_data", "s_wr_strb")
	require.NoError(t, err)
	mc := cfg.mem
	mc.DataBytes, mc.Seed = h.k, cfg.seed
	h.mem = axi.NewMemory(mc)
	h.chk = axi.NewChecker(h.k)
	h.lock = newWrLock(sim, cfg.width)
	return h
}

// generate makes the stimulus: messages at increasing, non-overlapping
// host addresses (some starting in the word, or right after the word,
// where the previous one ended), each a run of contiguous descriptors,
// grouped into frames closed by a flush flag or a flush entry.
func (h *harness) generate() {
	rng := h.rng
	addr := uint64(0x10000) + uint64(rng.IntN(4096))
	frame := 0
	for len(h.descs) < h.cfg.descs {
		switch rng.IntN(4) {
		case 0: // right after the previous message
		case 1: // in its last word, if it ended inside one
		default:
			addr += uint64(rng.IntN(3 * 4096))
		}
		for m := 1 + rng.IntN(8); m > 0 && len(h.descs) < h.cfg.descs; m-- {
			var n int
			switch r := rng.IntN(20); {
			case h.cfg.long:
				n = 1024 + rng.IntN(2048)
			case r < 5:
				n = 1 + rng.IntN(16)
			case r < 12:
				n = 17 + rng.IntN(200)
			case r < 18:
				n = 200 + rng.IntN(1800)
			default:
				n = 2000 + rng.IntN(18000)
			}
			d := Desc{Addr: addr, Len: n}
			flushEntry := false
			if h.cfg.long || rng.IntN(2) == 0 {
				d.Flush = true
			} else if rng.IntN(3) == 0 {
				flushEntry = true
			}
			h.entries = append(h.entries, entry{d: d, desc: len(h.descs), frame: frame})
			h.descs = append(h.descs, d)
			h.starts = append(h.starts, addr)
			addr += uint64(n)
			if flushEntry {
				h.entries = append(h.entries, entry{d: Desc{}, desc: -1, frame: frame})
			}
			if d.Flush || flushEntry {
				frame++
			}
		}
	}
	if !h.entries[len(h.entries)-1].d.Flush && h.entries[len(h.entries)-1].desc >= 0 {
		h.entries = append(h.entries, entry{d: Desc{}, desc: -1, frame: frame})
	}
	nframes := h.entries[len(h.entries)-1].frame + 1
	h.frameWr = make([][]write, nframes)
	h.lastEntry = make([]int, nframes)
	for i, e := range h.entries {
		h.lastEntry[e.frame] = i
		if e.desc < 0 {
			continue
		}
		h.frameWr[e.frame] = append(h.frameWr[e.frame], h.writes(e.d)...)
	}
	for _, w := range h.frameWr {
		h.nWrites += len(w)
	}
}

// writes returns the host writes of a descriptor: one per aligned word,
// strobes on its octets, random data (random also in the other lanes).
func (h *harness) writes(d Desc) []write {
	k := uint64(h.k)
	var out []write
	for w := d.Addr / k; w <= (d.Addr+uint64(d.Len)-1)/k; w++ {
		wr := write{addr: w * k, data: make([]byte, k)}
		for l := uint64(0); l < k; l++ {
			a := w*k + l
			wr.data[l] = byte(h.rng.Uint32())
			if a >= d.Addr && a < d.Addr+uint64(d.Len) {
				wr.strb |= 1 << l
				h.want[a] = wr.data[l]
			}
		}
		out = append(out, wr)
	}
	return out
}

func (h *harness) gap() int {
	if h.cfg.gap > 0 && h.rng.Float64() < h.cfg.gap {
		return 1 + h.rng.IntN(6)
	}
	return 0
}

func (h *harness) pushDescs() {
	for _, e := range h.entries {
		f := uint64(0)
		if e.d.Flush {
			f = 1
		}
		h.descSrc.Push(h.gap(), []uint64{e.d.Addr, uint64(e.d.Len), f})
	}
}

func (h *harness) pushWrites(f int) {
	rec := make([]uint64, h.wrSrc.PayloadWords())
	for _, w := range h.frameWr[f] {
		rec[0] = w.addr
		clear(rec[1:])
		for i, b := range w.data {
			rec[1+i/8] |= uint64(b) << (8 * (i % 8))
		}
		rec[len(rec)-1] = w.strb
		h.wrSrc.Push(h.gap(), rec)
	}
}

// release queues the writes of the frames whose descriptor entries were
// all taken at least 8 cycles ago (ahead), or all of them at once.
func (h *harness) release() {
	if !h.cfg.ahead {
		for h.released < len(h.frameWr) {
			h.pushWrites(h.released)
			h.released++
		}
		return
	}
	taken := int(h.descSrc.Accepted())
	for h.released < len(h.frameWr) && taken > h.lastEntry[h.released] {
		if h.relAt == nil {
			h.relAt = make([]int, len(h.frameWr))
		}
		if h.relAt[h.released] == 0 {
			h.relAt[h.released] = h.cycle + 8
		}
		if h.cycle < h.relAt[h.released] {
			return
		}
		h.pushWrites(h.released)
		h.released++
	}
}

// ports are the model's ports the bench reads or drives every cycle.
type ports struct {
	awready, wready, bvalid, bid, bresp                   cosim.Port
	awvalid, awid, awaddr, awlen, awsize, awburst, awlock cosim.Port
	awcache, awprot, wvalid, wdata, wstrb, wlast, bready  cosim.Port
	wrValid, wrReady, unexpected, cplCount                cosim.Port
	errValid, errFirst, errLast, errResp                  cosim.Port
}

func (h *harness) lookupPorts() {
	l := &h.sim.Layout
	h.pt = ports{
		awready: l.Port("m_axi_awready"), wready: l.Port("m_axi_wready"), bvalid: l.Port("m_axi_bvalid"),
		bid: l.Port("m_axi_bid"), bresp: l.Port("m_axi_bresp"),
		awvalid: l.Port("m_axi_awvalid"), awid: l.Port("m_axi_awid"), awaddr: l.Port("m_axi_awaddr"),
		awlen: l.Port("m_axi_awlen"), awsize: l.Port("m_axi_awsize"), awburst: l.Port("m_axi_awburst"),
		awlock: l.Port("m_axi_awlock"), awcache: l.Port("m_axi_awcache"), awprot: l.Port("m_axi_awprot"),
		wvalid: l.Port("m_axi_wvalid"), wdata: l.Port("m_axi_wdata"), wstrb: l.Port("m_axi_wstrb"),
		wlast: l.Port("m_axi_wlast"), bready: l.Port("m_axi_bready"),
		wrValid: l.Port("s_wr_valid"), wrReady: l.Port("s_wr_ready"), unexpected: l.Port("b_unexpected"),
		cplCount: l.Port("cpl_count"), errValid: l.Port("cpl_err_valid"), errFirst: l.Port("cpl_err_first"),
		errLast: l.Port("cpl_err_last"), errResp: l.Port("cpl_err_resp"),
	}
}

// step runs one cycle and checks it.
func (h *harness) step() {
	t := h.t
	r := h.mem.Drive()
	p, o := &h.pt, h.out
	p.awready.SetBool(h.in, r.AWReady)
	p.wready.SetBool(h.in, r.WReady)
	p.bvalid.SetBool(h.in, r.BValid)
	p.bid.Set(h.in, uint64(r.BID))
	p.bresp.Set(h.in, uint64(r.BResp))
	h.sim.Step(1, h.in, h.out)
	if err := h.lock.step(h.cycle, h.in, h.out); err != nil {
		t.Fatalf("seed %d: %v", h.cfg.seed, err)
	}
	h.wdata = p.wdata.AppendBytes(h.wdata[:0], o)
	q := axi.WriteReq{
		AWValid: p.awvalid.Bit(o), AWID: uint32(p.awid.Get(o)), AWAddr: p.awaddr.Get(o),
		AWLen: uint8(p.awlen.Get(o)), AWSize: uint8(p.awsize.Get(o)), AWBurst: uint8(p.awburst.Get(o)),
		AWLock: p.awlock.Bit(o), AWCache: uint8(p.awcache.Get(o)), AWProt: uint8(p.awprot.Get(o)),
		WValid: p.wvalid.Bit(o), WData: h.wdata, WStrb: p.wstrb.Get(o), WLast: p.wlast.Bit(o), BReady: p.bready.Bit(o),
	}
	cy := axi.WriteCycle{Req: q, Resp: r}
	if err := h.chk.Observe(cy); err != nil {
		t.Fatalf("seed %d: %v", h.cfg.seed, err)
	}
	h.mem.Observe(q)
	if p.unexpected.Bit(o) {
		t.Fatalf("cycle %d: b_unexpected with a well-behaved slave", h.cycle)
	}
	if p.wrValid.Bit(h.in) && p.wrReady.Bit(o) {
		if h.firstWr < 0 {
			h.firstWr = h.cycle
		}
		h.lastWr = h.cycle
		h.wrTaken++
	}
	if cy.AW() {
		if q.AWCache != 3 || q.AWProt != 2 || q.AWLock {
			t.Fatalf("cycle %d: AWCACHE %d AWPROT %d AWLOCK %v, want 3, 2, false", h.cycle, q.AWCache, q.AWProt, q.AWLock)
		}
		h.idq[q.AWID] = append(h.idq[q.AWID], len(h.aws))
		h.aws = append(h.aws, awSeen{addr: q.AWAddr, beats: int(q.AWLen) + 1, id: q.AWID})
		h.bDone = append(h.bDone, false)
		h.bResp = append(h.bResp, 0)
		h.burstDescs = append(h.burstDescs, [2]int{-1, -1})
	}
	if cy.W() {
		h.pending = append(h.pending, pendingBeat{data: slices.Clone(q.WData), strb: q.WStrb, last: q.WLast})
	}
	for len(h.pending) > 0 && h.beatBurst < len(h.aws) {
		h.beat(h.pending[0])
		h.pending = h.pending[1:]
	}
	if cy.B() {
		j := h.idq[r.BID][0]
		h.idq[r.BID] = h.idq[r.BID][1:]
		h.bDone[j], h.bResp[j] = true, r.BResp
	}
	h.completions()
	h.cycle++
}

// pendingBeat is a W beat taken, waiting for its burst's AW.
type pendingBeat struct {
	data []byte
	strb uint64
	last bool
}

// beat takes a W beat whose burst's AW was seen: its lanes without strobe
// must be zero; each strobed octet must be the stimulus's and carried
// once; the burst's descriptors are recorded.
func (h *harness) beat(q pendingBeat) {
	t := h.t
	j := h.beatBurst
	base := h.aws[j].addr + uint64(h.beatIdx*h.k)
	for l := 0; l < h.k; l++ {
		if q.strb>>l&1 == 0 {
			if q.data[l] != 0 {
				t.Fatalf("cycle %d: lane %d without strobe holds %#02x", h.cycle, l, q.data[l])
			}
			continue
		}
		a := base + uint64(l)
		w, ok := h.want[a]
		if !ok {
			t.Fatalf("cycle %d: octet %#x written, no descriptor holds it", h.cycle, a)
		}
		if w != q.data[l] {
			t.Fatalf("cycle %d: octet %#x is %#02x, want %#02x", h.cycle, a, q.data[l], w)
		}
		if _, dup := h.carried[a]; dup {
			t.Fatalf("cycle %d: octet %#x written twice", h.cycle, a)
		}
		h.carried[a] = j
		d := sort.Search(len(h.starts), func(i int) bool { return h.starts[i] > a }) - 1
		bd := &h.burstDescs[j]
		if bd[0] < 0 {
			bd[0] = d
		}
		if d < bd[1] {
			t.Fatalf("descriptors out of order in burst %d", j)
		}
		bd[1] = d
	}
	h.beatIdx++
	if q.last {
		h.beatBurst, h.beatIdx = j+1, 0
	}
}

// completed returns the descriptors whose octets are all in bursts up to
// and including j (in order: the count of a prefix).
func (h *harness) completed(j int) int {
	if j < 0 {
		return 0
	}
	n := h.burstDescs[j][1] // descriptors before the last one with octets in j are done
	// the last one is done if none of its octets is in a later burst: its
	// last octet was carried by a burst <= j
	last := h.descs[n]
	if b, ok := h.carried[last.Addr+uint64(last.Len)-1]; ok && b <= j {
		n++
	}
	return n
}

// completions checks cpl_count and the error pulses against the bursts
// answered so far.
func (h *harness) completions() {
	t := h.t
	// the bursts answered in order, a prefix
	prefix := -1
	for prefix+1 < len(h.bDone) && h.bDone[prefix+1] {
		prefix++
	}
	p, o := &h.pt, h.out
	c := int(p.cplCount.Get(o))
	if c != h.cpl%65536 {
		// it moved: to the count of some burst of the answered prefix
		ok := false
		for j := h.cplJ; j <= prefix; j++ {
			if h.completed(j)%65536 == c {
				ok = true
				h.cpl, h.cplJ = h.completed(j), j
				break
			}
		}
		if !ok {
			t.Fatalf("cycle %d: cpl_count %d is no burst's count (answered prefix %d)", h.cycle, c, prefix)
		}
		h.cplSeen = append(h.cplSeen, h.cpl)
	}
	if h.cpl > h.completed(prefix) {
		t.Fatalf("cycle %d: cpl_count %d ahead of the responses (%d)", h.cycle, h.cpl, h.completed(prefix))
	}
	if p.errValid.Bit(o) {
		h.errs = append(h.errs, [3]int{int(p.errFirst.Get(o)), int(p.errLast.Get(o)), int(p.errResp.Get(o))})
	}
}

// run drives the stimulus to the end and checks the results.
func (h *harness) run() {
	t := h.t
	h.generate()
	h.pushDescs()
	limit := h.cfg.maxTime
	if limit == 0 {
		limit = 20_000_000
	}
	for {
		h.release()
		done := h.released == len(h.frameWr) && h.wrSrc.Pending() == 0 && h.descSrc.Pending() == 0 &&
			h.mem.Idle() && h.chk.Pending() == 0 && h.cpl == len(h.descs)
		if done {
			break
		}
		if h.cycle >= limit {
			t.Fatalf("seed %d: not done: %d of %d writes taken, %d descriptors complete of %d, %d bursts",
				h.cfg.seed, h.wrTaken, h.nWrites, h.cpl, len(h.descs), len(h.aws))
		}
		h.step()
	}
	h.check()
}

func (h *harness) check() {
	t := h.t
	require.Equal(t, h.nWrites, h.wrTaken, "writes taken")
	require.Equal(t, len(h.want), len(h.carried), "octets carried")
	// memory: every octet of a burst answered OKAY, nothing else
	n := 0
	h.mem.Written(func(a uint64, v byte) {
		n++
		j, ok := h.carried[a]
		switch {
		case !ok:
			t.Fatalf("octet %#x in memory, never written", a)
		case h.bResp[j] != axi.RespOkay:
			t.Fatalf("octet %#x of burst %d answered %d is in memory", a, j, h.bResp[j])
		case h.want[a] != v:
			t.Fatalf("octet %#x is %#02x in memory, want %#02x", a, v, h.want[a])
		}
	})
	okOctets := 0
	for _, j := range h.carried {
		if h.bResp[j] == axi.RespOkay {
			okOctets++
		}
	}
	require.Equal(t, okOctets, n, "octets in memory")
	// IDs: the burst's sequence number modulo the IDs in use
	nid := min(1<<h.pt.awid.Width, maxBursts[h.cfg.width])
	for j, a := range h.aws {
		require.Equal(t, uint32(j%nid), a.id, "burst %d ID", j)
	}
	// error pulses: one per burst answered SLVERR or DECERR, in order
	var want [][3]int
	for j, r := range h.bResp {
		if r != axi.RespOkay {
			want = append(want, [3]int{h.completed(j-1) % 65536, h.burstDescs[j][1] % 65536, int(r)})
		}
	}
	require.Equal(t, want, h.errs, "error pulses")
	if h.cfg.ahead {
		var got []Burst
		for _, a := range h.aws {
			got = append(got, Burst{Addr: a.addr, Beats: a.beats})
		}
		require.Equal(t, Plan(h.entriesDescs(), h.k), got, "bursts")
	}
	st := h.mem.Stats()
	t.Logf("width %d: %d descriptors, %d writes, %d bursts (%.1f beats each), %d SLVERR, %d DECERR, most outstanding %d, %d cycles",
		h.cfg.width, len(h.descs), h.nWrites, st.Bursts, float64(st.Beats)/float64(st.Bursts), st.SlvErrs, st.DecErrs, st.MaxOpen, h.cycle)
}

func (h *harness) entriesDescs() []Desc {
	out := make([]Desc, len(h.entries))
	for i, e := range h.entries {
		out[i] = e.d
	}
	return out
}

// TestRandomStreams runs random descriptor and write streams through the
// master against the slave model, with the writes behind their
// descriptors (the burst plan is then exactly Plan) or independent of
// them, with and without stalls, latency, reordering and errors.
func TestRandomStreams(t *testing.T) {
	slow := axi.MemoryConfig{Latency: 30, Jitter: 60, AWStall: 0.3, WStall: 0.2, BStall: 0.3, Reorder: true}
	for _, tc := range []struct {
		name string
		cfg  config
	}{
		{"ahead-ready", config{ahead: true}},
		{"ahead-stalls", config{ahead: true, mem: slow, gap: 0.1}},
		{"free-stalls", config{mem: slow, gap: 0.3}},
		{"free-wait-aw", config{mem: axi.MemoryConfig{WaitAW: true, WStall: 0.5, Latency: 5, MaxBursts: 3}, gap: 0.05}},
		{"errors", config{ahead: true, mem: axi.MemoryConfig{Latency: 10, Jitter: 20, Reorder: true, SlvErr: 0.05, DecErr: 0.05, BStall: 0.2}}},
	} {
		for _, w := range Widths {
			t.Run(fmt.Sprintf("%s/w%d", tc.name, w), func(t *testing.T) {
				t.Parallel()
				cfg := tc.cfg
				cfg.width, cfg.descs, cfg.seed = w, *nDescs, *seedFlag+uint64(w)
				h := newHarness(t, cfg)
				h.run()
			})
		}
	}
}

// TestThroughput: long descriptors, writes back to back, an always-ready
// slave whose responses come 64 cycles after the last beat: the master
// takes a write every cycle.
func TestThroughput(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, config{width: w, ahead: true, long: true, descs: 400, seed: *seedFlag, mem: axi.MemoryConfig{Latency: 64}})
			h.run()
			util := float64(h.wrTaken) / float64(h.lastWr-h.firstWr+1)
			t.Logf("width %d: input utilisation %.3f (%d writes in %d cycles)", w, util, h.wrTaken, h.lastWr-h.firstWr+1)
			require.Equal(t, 1.0, util)
		})
	}
}

// TestUnexpectedB: a response when no burst waits for one (the master
// idle after reset; IDs in use and one above them) pulses b_unexpected two
// cycles later and changes no completion; a run on the same instance then
// completes as usual.
func TestUnexpectedB(t *testing.T) {
	for _, w := range []int{64, 512} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			h := newHarness(t, config{width: w, ahead: true, descs: 200, seed: *seedFlag,
				mem: axi.MemoryConfig{Latency: 10, Reorder: true}})
			nid := min(1<<h.pt.awid.Width, maxBursts[w])
			p := &h.pt
			for _, id := range []uint64{0, uint64(nid - 1), uint64(1<<h.pt.awid.Width - 1)} {
				var pulses []int
				for c := 0; c < 6; c++ {
					p.awready.SetBool(h.in, true)
					p.wready.SetBool(h.in, true)
					p.bvalid.SetBool(h.in, c == 0)
					p.bid.Set(h.in, id)
					p.bresp.Set(h.in, axi.RespSlvErr)
					h.sim.Step(1, h.in, h.out)
					require.NoError(t, h.lock.step(-1, h.in, h.out))
					if p.unexpected.Bit(h.out) {
						pulses = append(pulses, c)
					}
					require.Zero(t, p.cplCount.Get(h.out))
					require.False(t, p.errValid.Bit(h.out))
				}
				require.Equal(t, []int{2}, pulses, "ID %d", id)
			}
			h.run()
		})
	}
}
