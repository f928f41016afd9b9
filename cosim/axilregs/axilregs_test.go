// Package axilregs verifies rtl/mpa_rx_axil_regs.v, the receiver's
// AXI4-Lite register block, in Verilator: the Go driver runs over the
// AXI4-Lite master model (cosim/internal/axi) with random delays and
// stalls, the receiver's cfg_ready stalls at random, random event beats and
// host-memory pulses feed the counters, and everything is checked against
// the driver's intent and the Go model of the block (driver/regblock).
package axilregs

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/internal/axi"
	"github.com/mparx/mparx/driver"
	"github.com/mparx/mparx/driver/regblock"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

var (
	traceDir = flag.String("trace", "", "write an FST waveform of every simulation into this directory (default: $MPARX_TRACE)")
	seedFlag = flag.Uint64("seed", 20260302, "seed of the random stimulus")
)

// variants: the co-simulation variants (mk/sim.mk) and the parameters
// they report.
var variants = map[string]driver.Params{
	"mpa_rx_axil_regs_w64": {DataWidth: 64, ConnCount: 1024, STagCount: 256, RQDepth: 32, MaxFrame: 9018, FIFODepth: 4096,
		EvtLanes: 1, MaxInflight: 14, Window: 1 << 20, AXIIDWidth: 4, AXIMaxBursts: 16, CounterWidth: 48},
	"mpa_rx_axil_regs_w512": {DataWidth: 512, ConnCount: 1024, STagCount: 256, RQDepth: 32, MaxFrame: 9018, FIFODepth: 512,
		EvtLanes: 2, MaxInflight: 24, Window: 1 << 20, AXIIDWidth: 6, AXIMaxBursts: 32, CounterWidth: 64},
}

type cfgWrite struct {
	op, index int
	data      cycle.CfgData
}

// harness steps the block one cycle at a time: the LiteMaster drives the
// AXI4-Lite inputs, cfg_ready stalls with cfgStall, event beats come with
// probability evtRate (the reference block counts them too), host pulses
// with hostRate.
type harness struct {
	t    *testing.T
	sim  *cosim.Sim
	in   []uint64
	out  []uint64
	rng  *rand.Rand
	p    driver.Params
	m    *axi.LiteMaster
	chk  *axi.LiteChecker
	ref  *regblock.Block
	bus  *axi.LiteBus
	port map[string]cosim.Port

	cfgStall, evtRate, hostRate float64
	bigPlaced                   bool // PLACED events of ULPDU_Length 65535 only (the counters' high words)
	sent                        []cfgWrite
	cycle                       int
}

func newHarness(t *testing.T, variant string, seed uint64) *harness {
	sim, err := cosim.Open(variant, cosim.Name(t.Name()), cosim.TraceDir(*traceDir))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, sim.Close()) })
	sim.Reset(4)
	h := &harness{t: t, sim: sim, in: sim.NewIn(1), out: sim.NewOut(1), rng: rand.New(rand.NewPCG(seed, 77)),
		p: variants[variant], chk: &axi.LiteChecker{}, port: map[string]cosim.Port{}}
	for _, pt := range sim.Ports() {
		h.port[pt.Name] = pt
	}
	h.m = axi.NewLiteMaster(axi.LiteMasterConfig{Delay: 3, ReadyStall: 0.3, Seed: seed})
	h.ref = regblock.New(h.p, nil)
	h.bus = &axi.LiteBus{M: h.m, Step: h.step, Timeout: 2000}
	return h
}

func (h *harness) set(name string, v uint64) { h.port[name].Set(h.in, v) }
func (h *harness) get(name string) uint64    { return h.port[name].Get(h.out) }
func (h *harness) bit(name string) bool      { return h.port[name].Bit(h.out) }

// event returns a random event of any kind (the fields the counters read
// random too).
func (h *harness) event() cycle.Event {
	e := cycle.Event{Kind: 1 + h.rng.IntN(7), Index: h.rng.IntN(4096), Seq: h.rng.Uint32(), End: h.rng.Uint32(),
		Len: h.rng.IntN(65536), Verdict: h.rng.IntN(4), Reason: h.rng.IntN(16), DDPKind: h.rng.IntN(13), QN: h.rng.IntN(4)}
	if h.rng.IntN(2) == 0 {
		e.Ctrl = 0x80 | uint8(h.rng.IntN(128))
	} else {
		e.Ctrl = uint8(h.rng.IntN(128))
	}
	if h.rng.IntN(3) == 0 {
		e.Len = h.rng.IntN(40)
	}
	if h.bigPlaced {
		e = cycle.Event{Kind: cycle.EvPlaced, Len: 65535, Ctrl: 0x80}
	}
	return e
}

// step runs one cycle.
func (h *harness) step() error {
	q := h.m.Drive()
	h.set("s_axil_awaddr", uint64(q.AWAddr))
	h.set("s_axil_awvalid", b2u(q.AWValid))
	h.set("s_axil_wdata", uint64(q.WData))
	h.set("s_axil_wstrb", uint64(q.WStrb))
	h.set("s_axil_wvalid", b2u(q.WValid))
	h.set("s_axil_bready", b2u(q.BReady))
	h.set("s_axil_araddr", uint64(q.ARAddr))
	h.set("s_axil_arvalid", b2u(q.ARValid))
	h.set("s_axil_rready", b2u(q.RReady))
	h.set("cfg_ready", b2u(h.rng.Float64() >= h.cfgStall))
	// an event beat: lanes from lane 0, each with an event
	var lanes []cycle.Word
	if h.rng.Float64() < h.evtRate {
		n := 1 + h.rng.IntN(h.p.EvtLanes)
		for i := 0; i < n; i++ {
			lanes = append(lanes, h.event().Encode())
		}
	}
	data, keep := h.port["evt_tdata"].Slice(h.in), uint64(0)
	clear(data)
	for i, w := range lanes {
		data[2*i], data[2*i+1] = w[0], w[1]
		keep |= 0xffff << (16 * i)
	}
	if len(lanes) == 0 {
		// not a beat: garbage on the data, which must not count
		for i := range data {
			data[i] = h.rng.Uint64()
		}
		keep = h.rng.Uint64() & (1<<(16*h.p.EvtLanes) - 1)
	}
	h.set("evt_tkeep", keep)
	h.set("evt_valid", b2u(len(lanes) > 0))
	host := func(name string) bool {
		on := h.rng.Float64() < h.hostRate
		h.set(name, b2u(on))
		return on
	}
	if host("host_aw") {
		h.ref.HostBurst()
	}
	if host("host_w") {
		h.ref.HostBeat()
	}
	resp := uint8(h.rng.IntN(4))
	h.set("host_err_resp", uint64(resp))
	if host("host_err_valid") {
		h.ref.HostResp(resp)
	}
	if host("host_b_unexpected") {
		h.ref.HostUnexpected()
	}
	h.sim.Step(1, h.in, h.out)
	for _, w := range lanes {
		h.ref.Event(w)
	}
	r := axi.LiteResp{
		AWReady: h.bit("s_axil_awready"), WReady: h.bit("s_axil_wready"), BValid: h.bit("s_axil_bvalid"),
		BResp: uint8(h.get("s_axil_bresp")), ARReady: h.bit("s_axil_arready"), RValid: h.bit("s_axil_rvalid"),
		RData: uint32(h.get("s_axil_rdata")), RResp: uint8(h.get("s_axil_rresp")),
	}
	if err := h.chk.Observe(q, r); err != nil {
		return err
	}
	h.m.Observe(r)
	if h.bit("cfg_valid") && h.port["cfg_ready"].Bit(h.in) {
		var d cycle.CfgData
		copy(d[:], h.port["cfg_data"].Slice(h.out))
		h.sent = append(h.sent, cfgWrite{op: int(h.get("cfg_op")), index: int(h.get("cfg_index")), data: d})
	}
	h.cycle++
	return nil
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// quiet stops the events and runs until the counters settled.
func (h *harness) quiet() {
	h.evtRate, h.hostRate = 0, 0
	for i := 0; i < 8; i++ {
		require.NoError(h.t, h.step())
	}
}

func (h *harness) half() wire.FourTuple {
	return wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{10, 0, byte(h.rng.IntN(256)), byte(h.rng.IntN(256))}), DstIP: wire.AddrFrom4([4]byte{10, 1, 0, 1}),
		SrcPort: uint16(h.rng.Uint32()), DstPort: uint16(h.rng.Uint32())}
}

func forVariants(t *testing.T, f func(t *testing.T, h *harness)) {
	for _, v := range []string{"mpa_rx_axil_regs_w64", "mpa_rx_axil_regs_w512"} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			f(t, newHarness(t, v, *seedFlag))
		})
	}
}

// TestIdentification: the driver opens the block and reads the variant's
// parameters.
func TestIdentification(t *testing.T) {
	forVariants(t, func(t *testing.T, h *harness) {
		d, err := driver.Open(h.bus)
		require.NoError(t, err)
		require.Equal(t, h.p, d.Params())
		require.NoError(t, h.chk.Err())
	})
}

// TestConfiguration: random contexts, STags, receive buffers and MSNs
// through the driver, with the receiver's cfg_ready stalling and events
// flowing; the words on cfg_* are the encoders', in order, each once.
func TestConfiguration(t *testing.T) {
	forVariants(t, func(t *testing.T, h *harness) {
		h.cfgStall, h.evtRate, h.hostRate = 0.6, 0.3, 0.1
		d, err := driver.Open(h.bus)
		require.NoError(t, err)
		var want []cfgWrite
		for i := 0; i < 300; i++ {
			t4 := h.half()
			slot := fastpath.Index(t4, h.p.ConnCount)
			switch h.rng.IntN(5) {
			case 0:
				c := fastpath.Context{Full: h.rng.IntN(2) == 0, SWOwned: h.rng.IntN(4) == 0, RcvNxt: h.rng.Uint32(),
					Params: mpa.Half{Markers: h.rng.IntN(2) == 0, CRC: h.rng.IntN(2) == 0, SeqStart: h.rng.Uint32()},
					Stream: 1 + 0, DDPVersion: uint8(h.rng.IntN(2))}
				if h.rng.IntN(2) == 0 {
					c.Ranges = []fastpath.Range{{Start: h.rng.Uint32(), End: h.rng.Uint32()}}
				}
				require.NoError(t, d.WriteContext(t4, c))
				want = append(want, cfgWrite{cycle.OpContext, slot, cycle.EncodeContext(t4, c)})
			case 1:
				e := cycle.STagEntry{Valid: h.rng.IntN(4) != 0, STag: h.rng.Uint32(), Base: h.rng.Uint64(), Length: h.rng.Uint64()}
				require.NoError(t, d.WriteSTag(e))
				want = append(want, cfgWrite{cycle.OpSTag, int(e.STag>>8) % h.p.STagCount, cycle.EncodeSTag(e)})
			case 2:
				e := cycle.RecvEntry{QN: uint32(h.rng.IntN(4)), Valid: true, MSN: h.rng.Uint32(), Base: h.rng.Uint64(), Length: h.rng.Uint32()}
				require.NoError(t, d.PostRecv(t4, e))
				want = append(want, cfgWrite{cycle.OpPost, slot, cycle.EncodeRecv(e)})
			case 3:
				qn, msn := uint32(h.rng.IntN(4)), h.rng.Uint32()
				require.NoError(t, d.SetMSN(t4, qn, msn))
				want = append(want, cfgWrite{cycle.OpMSN, slot, cycle.EncodeRecv(cycle.RecvEntry{QN: qn, MSN: msn})})
			case 4:
				s := h.rng.IntN(h.p.ConnCount)
				require.NoError(t, d.ClearContext(s))
				want = append(want, cfgWrite{cycle.OpContext, s, cycle.CfgData{}})
			}
		}
		require.Equal(t, want, h.sent)
		sent, busy, err := d.Status()
		require.NoError(t, err)
		require.Equal(t, len(want), sent)
		require.False(t, busy)
		require.NoError(t, h.chk.Err())
	})
}

// TestStaging: staging registers and CFG_INDEX read back what was written,
// byte strobes merge, a command clears the staging registers, an unknown
// operation answers SLVERR and sends nothing.
func TestStaging(t *testing.T) {
	forVariants(t, func(t *testing.T, h *harness) {
		var want [driver.CfgDataWords]uint32
		for i := range want {
			want[i] = h.rng.Uint32()
			require.NoError(t, h.bus.Write32(driver.RegCfgData+4*uint32(i), want[i]))
		}
		// a write with strobes 0101 to word 3
		h.m.StartWrite(driver.RegCfgData+12, 0xaabbccdd, 0x5)
		for !func() bool { _, _, ok := h.m.Result(); return ok }() {
			require.NoError(t, h.step())
		}
		want[3] = want[3]&0xff00ff00 | 0x00bb00dd
		for i := range want {
			v, err := h.bus.Read32(driver.RegCfgData + 4*uint32(i))
			require.NoError(t, err)
			require.Equal(t, want[i], v, "CFG_DATA%d", i)
		}
		require.NoError(t, h.bus.Write32(driver.RegCfgIndex, 0x12345678))
		v, err := h.bus.Read32(driver.RegCfgIndex)
		require.NoError(t, err)
		require.Equal(t, uint32(0x5678), v)
		var re *axi.RespError
		require.True(t, errors.As(h.bus.Write32(driver.RegCfgCmd, 6), &re), "operation 6")
		require.Empty(t, h.sent)
		require.NoError(t, h.bus.Write32(driver.RegCfgCmd, cycle.OpSTag))
		require.Len(t, h.sent, 1)
		var d cycle.CfgData
		for i, w := range want {
			d[i/2] |= uint64(w) << (32 * (i % 2))
		}
		require.Equal(t, cfgWrite{cycle.OpSTag, 0x5678, d}, h.sent[0])
		for i := range want {
			v, err := h.bus.Read32(driver.RegCfgData + 4*uint32(i))
			require.NoError(t, err)
			require.Zero(t, v, "CFG_DATA%d after the command", i)
		}
		v, err = h.bus.Read32(driver.RegCfgCmd)
		require.NoError(t, err)
		require.Equal(t, uint32(cycle.OpSTag), v)
		require.NoError(t, h.chk.Err())
	})
}

// TestErrors: writes to read-only registers and accesses to unmapped
// offsets answer SLVERR; the block keeps working.
func TestErrors(t *testing.T) {
	forVariants(t, func(t *testing.T, h *harness) {
		var re *axi.RespError
		for _, a := range []uint32{driver.RegID, driver.RegDataWidth, driver.RegCfgStatus, 0x054, 0x0b0, 0xffc} {
			require.True(t, errors.As(h.bus.Write32(a, 1), &re), "write %#x", a)
		}
		for _, a := range []uint32{0x038, 0x054, 0x0b0, driver.RegCounters + 8*driver.NumCounters, 0xffc} {
			_, err := h.bus.Read32(a)
			require.True(t, errors.As(err, &re), "read %#x", a)
		}
		_, err := driver.Open(h.bus)
		require.NoError(t, err)
		require.NoError(t, h.chk.Err())
	})
}

// TestCounters: random event beats (one or two lanes, any kind, garbage
// when not a beat) and host pulses; the counters read through the driver
// equal the Go block's; CNT_CTRL clears them; the high words count.
func TestCounters(t *testing.T) {
	forVariants(t, func(t *testing.T, h *harness) {
		d, err := driver.Open(h.bus)
		require.NoError(t, err)
		check := func(what string) {
			h.quiet()
			got, err := d.Counters()
			require.NoError(t, err)
			var want driver.Counters
			for i := range want {
				lo, err := h.ref.Read32(driver.RegCounters + 8*uint32(i))
				require.NoError(t, err)
				hi, err := h.ref.Read32(driver.RegCounters + 8*uint32(i) + 4)
				require.NoError(t, err)
				want[i] = uint64(hi)<<32 | uint64(lo)
			}
			require.Equal(t, want, got, what)
			t.Logf("%s: %v", what, got)
		}
		for round := 0; round < 3; round++ {
			h.evtRate, h.hostRate = 0.7, 0.3
			for i := 0; i < 20000; i++ {
				require.NoError(t, h.step())
			}
			check(fmt.Sprintf("round %d", round))
		}
		require.NoError(t, d.ClearCounters())
		require.NoError(t, h.ref.Write32(driver.RegCntCtrl, 1))
		check("cleared")
		// PLACED events of 65521 payload octets: past 2^32 octets
		h.bigPlaced, h.evtRate = true, 1
		for i := 0; i < 70000; i++ {
			require.NoError(t, h.step())
		}
		check("high words")
		oct, err := d.Counter(driver.CntOctetsPlaced)
		require.NoError(t, err)
		require.Greater(t, oct, uint64(1)<<32)
		require.NoError(t, h.chk.Err())
	})
}
