package axi

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Each case is a short cycle sequence that breaks one rule; the checker
// must name it. The first cycles of every case are legal.
func TestCheckerFindsViolations(t *testing.T) {
	aw := func(addr uint64, n int) WriteReq {
		return WriteReq{AWValid: true, AWAddr: addr, AWLen: uint8(n - 1), AWSize: 3, AWBurst: BurstIncr}
	}
	w := func(last bool) WriteReq {
		return WriteReq{WValid: true, WData: make([]byte, 8), WStrb: 0xff, WLast: last}
	}
	both := func(a, b WriteReq) WriteReq {
		a.WValid, a.WData, a.WStrb, a.WLast = b.WValid, b.WData, b.WStrb, b.WLast
		return a
	}
	rdy := WriteResp{AWReady: true, WReady: true}
	none := WriteResp{}
	bresp := func(id uint32) WriteResp { return WriteResp{BValid: true, BID: id} }
	br := WriteReq{BReady: true}
	for _, tc := range []struct {
		name   string
		cycles []WriteCycle
		want   string
	}{
		{"awvalid-dropped", []WriteCycle{{aw(0, 1), none}, {WriteReq{}, none}}, "AWVALID dropped"},
		{"aw-changed", []WriteCycle{{aw(0, 1), none}, {aw(8, 1), none}}, "AW payload changed"},
		{"wvalid-dropped", []WriteCycle{{w(true), none}, {WriteReq{}, none}}, "WVALID dropped"},
		{"w-changed", []WriteCycle{{w(true), none}, {w(false), none}}, "W payload changed"},
		{"4k", []WriteCycle{{aw(4096-16, 3), rdy}}, "crosses a 4 KiB boundary"},
		{"unaligned", []WriteCycle{{aw(4, 1), rdy}}, "not aligned"},
		{"size", []WriteCycle{{WriteReq{AWValid: true, AWSize: 2, AWBurst: BurstIncr}, rdy}}, "AWSIZE"},
		{"fixed", []WriteCycle{{WriteReq{AWValid: true, AWSize: 3}, rdy}}, "not INCR"},
		{"wlast-early", []WriteCycle{{both(aw(0, 2), w(true)), rdy}}, "WLAST true on beat 1 of a burst of 2"},
		{"wlast-missing", []WriteCycle{{both(aw(0, 1), w(false)), rdy}}, "WLAST false on beat 1 of a burst of 1"},
		{"wlast-before-aw", []WriteCycle{{w(false), rdy}, {w(true), rdy}, {aw(0, 3), rdy}}, "had WLAST on beat 2"},
		{"b-without-burst", []WriteCycle{{br, bresp(0)}}, "no burst waiting"},
		{"b-wrong-id", []WriteCycle{{both(aw(0, 1), w(true)), rdy}, {br, bresp(1)}}, "ID 1"},
		{"b-with-last-beat", []WriteCycle{{aw(0, 1), rdy}, {WriteReq{WValid: true, WData: make([]byte, 8), WLast: true, BReady: true},
			WriteResp{WReady: true, BValid: true}}}, "no burst waiting"},
		{"two-b", []WriteCycle{{both(aw(0, 1), w(true)), rdy}, {br, bresp(0)}, {br, bresp(0)}}, "no burst waiting"},
		{"bvalid-dropped", []WriteCycle{{both(aw(0, 1), w(true)), rdy}, {WriteReq{}, bresp(0)}, {WriteReq{}, none}}, "BVALID dropped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewChecker(8)
			var err error
			for i, cy := range tc.cycles {
				err = c.Observe(cy)
				if i < len(tc.cycles)-1 {
					require.NoError(t, err, "cycle %d", i)
				}
			}
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
			require.Equal(t, err, c.Err())
		})
	}
}

// A legal sequence with W ahead of AW, a burst per ID and responses out
// of order passes.
func TestCheckerAcceptsLegal(t *testing.T) {
	c := NewChecker(8)
	d := make([]byte, 8)
	seq := []WriteCycle{
		{WriteReq{WValid: true, WData: d, WLast: false}, WriteResp{WReady: true}},
		{WriteReq{WValid: true, WData: d, WLast: true}, WriteResp{WReady: true}},
		{WriteReq{AWValid: true, AWID: 1, AWLen: 1, AWSize: 3, AWBurst: BurstIncr}, WriteResp{}},
		{WriteReq{AWValid: true, AWID: 1, AWLen: 1, AWSize: 3, AWBurst: BurstIncr}, WriteResp{AWReady: true}},
		{WriteReq{AWValid: true, AWID: 2, AWAddr: 4088, AWSize: 3, AWBurst: BurstIncr, WValid: true, WData: d, WLast: true},
			WriteResp{AWReady: true, WReady: true}},
		{WriteReq{BReady: true}, WriteResp{BValid: true, BID: 2}},
		{WriteReq{BReady: false}, WriteResp{BValid: true, BID: 1, BResp: RespSlvErr}},
		{WriteReq{BReady: true}, WriteResp{BValid: true, BID: 1, BResp: RespSlvErr}},
	}
	for i, cy := range seq {
		require.NoError(t, c.Observe(cy), "cycle %d", i)
	}
	require.Zero(t, c.Pending())
	require.Equal(t, 2, c.Responses)
}
