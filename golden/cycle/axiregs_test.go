package cycle

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// testRegMap is a register map with two read-only words and a counter
// window of 26 counters at 0x100.
var testRegMap = RegMap{CfgData: 0x80, CfgDataWords: 2, CfgIndex: 0x40, CfgCmd: 0x44, CfgOps: 5, CfgStatus: 0x48,
	CntCtrl: 0x4c, HostFault: 0x50, Counters: 0x100, CounterWidth: 64,
	Fixed: map[uint32]uint32{0x000: 0x4d505258, 0x004: 7},
	Cnt: CounterMap{N: 26, FramesPlace: 0, ExcNotTCP: 4, DropFCS: 13, FPDUsPlaced: 17, FPDUsDelivered: 18,
		DDPErrors: 19, OctetsPlaced: 20, HostBursts: 21, HostBeats: 22, HostSlvErr: 23, HostDecErr: 24, HostBUnexpected: 25}}

// The register block's read channel and counters keep the timing contract
// (docs/axi.md): the read data follows the address by a cycle with the
// register's value in the address's cycle, the next address is taken the
// cycle after the R handshake, an AW handshake in cycle t is counted in
// reads from t + 3, a CNT_CTRL clear taken in cycle t zeroes the counters
// at the end of t + 1, unmapped words answer SLVERR.
func TestRegsTiming(t *testing.T) {
	for _, tc := range []struct {
		name   string
		aw     int    // the cycle of an AW handshake (-1: none)
		clr    int    // the cycle a CNT_CTRL clear is taken (-1: none)
		read   int    // the cycle the read address is presented
		addr   uint32 // what it reads
		rdata  uint32
		rresp  uint8
		rvalid int // the cycle RVALID rises
	}{
		{"fixed word", -1, -1, 0, 0x000, 0x4d505258, 0, 1},
		{"address bits 1:0 ignored", -1, -1, 2, 0x006, 7, 0, 3},
		{"unmapped", -1, -1, 0, 0x03c, 0, 2, 1},
		{"counter before its event is counted", 5, -1, 7, 0x100 + 8*21, 0, 0, 8},
		{"counter from three cycles after its event", 5, -1, 8, 0x100 + 8*21, 1, 0, 9},
		{"high word of the counter", 5, -1, 8, 0x100 + 8*21 + 4, 0, 0, 9},
		{"past the counters", -1, -1, 0, 0x100 + 8*26, 0, 2, 1},
		{"clear one cycle on: still counted", 2, 4, 5, 0x100 + 8*21, 1, 0, 6},
		{"clear two cycles on: zero", 2, 4, 6, 0x100 + 8*21, 0, 0, 7},
		{"event of the clear's cycle kept", 4, 4, 7, 0x100 + 8*21, 1, 0, 8},
		{"event of the cycle before the clear lost", 3, 4, 8, 0x100 + 8*21, 0, 0, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRegs(testRegMap)
			rose := -1
			var data uint32
			var resp uint8
			for c := 0; c < 12; c++ {
				if r.rv && rose < 0 {
					rose, data, resp = c, r.rdata, r.rresp
				}
				var l Lite
				l.RReady = true
				l.ARValid, l.ARAddr = c == tc.read, tc.addr
				wr := c == tc.clr
				if wr {
					l.AWValid, l.WValid, l.AWAddr, l.WData, l.WStrb = true, true, testRegMap.CntCtrl, 1, 0xf
				}
				r.edge(testRegMap, l, wr, false, regIn{aw: c == tc.aw})
			}
			require.Equal(t, tc.rvalid, rose, "RVALID")
			require.Equal(t, tc.rdata, data, "RDATA")
			require.Equal(t, tc.rresp, resp, "RRESP")
		})
	}
}

// Back to back: with RREADY always high a second address presented in the
// cycle after the first read's R handshake is taken at once.
func TestRegsBackToBack(t *testing.T) {
	r := newRegs(testRegMap)
	l := Lite{ARValid: true, ARAddr: 0x000, RReady: true}
	require.False(t, r.rv)
	r.edge(testRegMap, l, false, false, regIn{}) // cycle 0: address taken
	require.True(t, r.rv)
	l.ARAddr = 0x004
	r.edge(testRegMap, l, false, false, regIn{}) // cycle 1: R handshake; ARREADY low
	require.False(t, r.rv)
	r.edge(testRegMap, l, false, false, regIn{}) // cycle 2: the second address taken
	require.True(t, r.rv)
	require.Equal(t, uint32(7), r.rdata)
}

// Count: which counter an event lane moves and by how much.
func TestCounterMapCount(t *testing.T) {
	m := testRegMap.Cnt
	for _, tc := range []struct {
		name string
		e    Event
		want map[int]uint64
	}{
		{"verdict place", Event{Kind: EvVerdict, Verdict: VPlace}, map[int]uint64{0: 1}},
		{"exception reason 9", Event{Kind: EvVerdict, Verdict: VException, Reason: 9}, map[int]uint64{1: 1, 12: 1}},
		{"exception reason 0", Event{Kind: EvVerdict, Verdict: VException}, map[int]uint64{1: 1}},
		{"drop code 3", Event{Kind: EvDrop, Verdict: 3}, map[int]uint64{16: 1}},
		{"placed tagged", Event{Kind: EvPlaced, Len: 114, Ctrl: 0x80}, map[int]uint64{17: 1, 20: 100}},
		{"placed untagged", Event{Kind: EvPlaced, Len: 118}, map[int]uint64{17: 1, 20: 100}},
		{"placed header only", Event{Kind: EvPlaced, Len: 18}, map[int]uint64{17: 1}},
		{"delivered", Event{Kind: EvDelivered}, map[int]uint64{18: 1}},
		{"ddp error", Event{Kind: EvDDPError}, map[int]uint64{19: 1}},
		{"advanced", Event{Kind: EvAdvanced}, map[int]uint64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[int]uint64{}
			m.Count(tc.e.Encode(), func(i int, n uint64) { got[i] += n })
			require.Equal(t, tc.want, got)
		})
	}
}

// Reading a counter's low word latches its high word, which a later
// high-word read returns even after the counter moved; CounterWidth keeps
// the low bits only.
func TestRegsHighWord(t *testing.T) {
	for _, tc := range []struct {
		name   string
		width  int
		lo, hi uint32
	}{
		{"64 bits", 64, 2, 3},
		{"33 bits", 33, 2, 1},
		{"32 bits", 32, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testRegMap
			m.CounterWidth = tc.width
			r := newRegs(m)
			r.cnt[21] = 0x3_0000_0002
			read := func(addr uint32) uint32 {
				r.edge(m, Lite{ARValid: true, ARAddr: addr, RReady: true}, false, false, regIn{})
				v := r.rdata
				r.edge(m, Lite{RReady: true}, false, false, regIn{})
				return v
			}
			require.Equal(t, tc.lo, read(0x100+8*21))
			r.cnt[21] = 0
			require.Equal(t, tc.hi, read(0x100+8*21+4), "the high word latched by the low word's read")
		})
	}
}
