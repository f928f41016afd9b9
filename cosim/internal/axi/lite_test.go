package axi

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/driver"
	"github.com/mparx/mparx/driver/regblock"
	"github.com/mparx/mparx/golden/cycle"
)

// regFile is a RegTarget: 64 registers at 0x000-0x0fc; other addresses
// answer an error.
type regFile struct{ r [64]uint32 }

func (f *regFile) Read32(addr uint32) (uint32, error) {
	if addr >= 0x100 || addr%4 != 0 {
		return 0, fmt.Errorf("no register at %#x", addr)
	}
	return f.r[addr/4], nil
}

func (f *regFile) Write32(addr, v uint32) error {
	if addr >= 0x100 || addr%4 != 0 {
		return fmt.Errorf("no register at %#x", addr)
	}
	f.r[addr/4] = v
	return nil
}

// liteRig connects a LiteMaster and a LiteSlave in front of t through a
// LiteChecker.
func liteRig(t RegTarget, mc LiteMasterConfig, sc LiteSlaveConfig) (*LiteBus, *LiteChecker) {
	m := NewLiteMaster(mc)
	s := NewLiteSlave(t, sc)
	chk := &LiteChecker{}
	bus := &LiteBus{M: m, Step: func() error {
		q, r := m.Drive(), s.Drive()
		if err := chk.Observe(q, r); err != nil {
			return err
		}
		s.Observe(q)
		m.Observe(r)
		return nil
	}}
	return bus, chk
}

func TestLiteMasterReadsAndWrites(t *testing.T) {
	for _, tc := range []struct {
		name string
		mc   LiteMasterConfig
		sc   LiteSlaveConfig
	}{
		{"ready", LiteMasterConfig{}, LiteSlaveConfig{}},
		{"delays", LiteMasterConfig{Delay: 4, ReadyStall: 0.4, Seed: 1}, LiteSlaveConfig{Stall: 0.5, Seed: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &regFile{}
			bus, chk := liteRig(f, tc.mc, tc.sc)
			rng := rand.New(rand.NewPCG(5, 6))
			var want [64]uint32
			for i := 0; i < 2000; i++ {
				a := uint32(rng.IntN(64)) * 4
				if rng.IntN(2) == 0 {
					v := rng.Uint32()
					require.NoError(t, bus.Write32(a, v))
					want[a/4] = v
				} else {
					v, err := bus.Read32(a)
					require.NoError(t, err)
					require.Equal(t, want[a/4], v, "register %#x", a)
				}
			}
			require.Equal(t, want, f.r)
			require.NoError(t, chk.Err())
		})
	}
}

func TestLiteBusErrors(t *testing.T) {
	bus, _ := liteRig(&regFile{}, LiteMasterConfig{Delay: 2, Seed: 3}, LiteSlaveConfig{Stall: 0.3, Seed: 4})
	err := bus.Write32(0x200, 1)
	var re *RespError
	require.True(t, errors.As(err, &re))
	require.Equal(t, &RespError{Write: true, Addr: 0x200, Resp: RespSlvErr}, re)
	_, err = bus.Read32(0x204)
	require.True(t, errors.As(err, &re))
	require.Equal(t, uint8(RespSlvErr), re.Resp)
	require.Contains(t, err.Error(), "read of 0x204 answered SLVERR")

	// a slave that never answers times out
	m := NewLiteMaster(LiteMasterConfig{})
	dead := &LiteBus{M: m, Step: func() error { m.Drive(); m.Observe(LiteResp{AWReady: true, WReady: true}); return nil }, Timeout: 50}
	require.ErrorIs(t, dead.Write32(0, 0), ErrTimeout)
}

func TestLiteCheckerFindsViolations(t *testing.T) {
	for _, tc := range []struct {
		name string
		seq  [][2]any
		want string
	}{
		{"aw-dropped", [][2]any{{LiteReq{AWValid: true}, LiteResp{}}, {LiteReq{}, LiteResp{}}}, "AWVALID dropped"},
		{"w-changed", [][2]any{{LiteReq{WValid: true, WData: 1}, LiteResp{}}, {LiteReq{WValid: true, WData: 2}, LiteResp{}}}, "WVALID dropped or W payload"},
		{"ar-changed", [][2]any{{LiteReq{ARValid: true}, LiteResp{}}, {LiteReq{ARValid: true, ARAddr: 4}, LiteResp{}}}, "ARVALID"},
		{"b-early", [][2]any{{LiteReq{AWValid: true, BReady: true}, LiteResp{AWReady: true}}, {LiteReq{BReady: true}, LiteResp{BValid: true}}}, "write response 1 after 1 address and 0 data"},
		{"r-early", [][2]any{{LiteReq{RReady: true}, LiteResp{RValid: true}}}, "read response 1 after 0"},
		{"r-dropped", [][2]any{{LiteReq{ARValid: true}, LiteResp{ARReady: true}}, {LiteReq{}, LiteResp{RValid: true}}, {LiteReq{}, LiteResp{}}}, "RVALID dropped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &LiteChecker{}
			var err error
			for _, cy := range tc.seq {
				err = c.Observe(cy[0].(LiteReq), cy[1].(LiteResp))
			}
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

// The driver runs over the AXI4-Lite master model: a Go register block
// behind a LiteSlave with stalls, through the checker.
func TestDriverOverLiteBus(t *testing.T) {
	var sent []cycle.CfgData
	p := driver.Params{DataWidth: 64, ConnCount: 16, STagCount: 64, RQDepth: 4, MaxFrame: 1518, FIFODepth: 512,
		EvtLanes: 1, MaxInflight: 14, Window: 1 << 20, AXIIDWidth: 4, AXIMaxBursts: 16, CounterWidth: 48}
	blk := regblock.New(p, func(op, index int, d cycle.CfgData) error { sent = append(sent, d); return nil })
	bus, chk := liteRig(blk, LiteMasterConfig{Delay: 3, ReadyStall: 0.3, Seed: 8}, LiteSlaveConfig{Stall: 0.3, Seed: 9})
	d, err := driver.Open(bus)
	require.NoError(t, err)
	require.Equal(t, p, d.Params())
	e := cycle.STagEntry{Valid: true, STag: 0x12345678, Stream: 7, Base: 0xdead_beef_0000, Length: 0x10000}
	require.NoError(t, d.WriteSTag(e))
	require.Equal(t, []cycle.CfgData{cycle.EncodeSTag(e)}, sent)
	blk.HostBeat()
	c, err := d.Counter(driver.CntHostBeats)
	require.NoError(t, err)
	require.Equal(t, uint64(1), c)
	require.Error(t, bus.Write32(driver.RegID, 0), "a write to a read-only register answers SLVERR")
	require.NoError(t, chk.Err())
}
