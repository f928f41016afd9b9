package driver_test

import (
	"errors"
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/driver"
	"github.com/mparx/mparx/driver/regblock"
	"github.com/mparx/mparx/driver/regmap"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

var params = driver.Params{DataWidth: 512, ConnCount: 1024, STagCount: 256, RQDepth: 32, MaxFrame: 9018, FIFODepth: 512,
	EvtLanes: 2, MaxInflight: 24, Window: 1 << 20, AXIIDWidth: 6, AXIMaxBursts: 32, CounterWidth: 64}

type cfgWrite struct {
	op, index int
	data      cycle.CfgData
}

func open(t *testing.T) (*driver.Driver, *regblock.Block, *[]cfgWrite) {
	t.Helper()
	var got []cfgWrite
	b := regblock.New(params, func(op, index int, d cycle.CfgData) error {
		got = append(got, cfgWrite{op, index, d})
		return nil
	})
	d, err := driver.Open(b)
	require.NoError(t, err)
	return d, b, &got
}

func tuple(s string) wire.FourTuple {
	ap := netip.MustParseAddrPort(s)
	return wire.FourTuple{SrcIP: wire.AddrFrom4(ap.Addr().As4()), DstIP: wire.AddrFrom4([4]byte{10, 0, 0, 2}), SrcPort: ap.Port(), DstPort: 5000}
}

func TestOpenReadsParams(t *testing.T) {
	d, _, _ := open(t)
	require.Equal(t, params, d.Params())
	require.Equal(t, uint32(driver.Version), d.Version())
}

// The op codes of the map, of the configuration port's encoders and of
// the driver are one set.
func TestOpCodes(t *testing.T) {
	require.Equal(t, []int{regmap.OpContext, regmap.OpSTag, regmap.OpPost, regmap.OpMSN, regmap.OpAddr6},
		[]int{cycle.OpContext, cycle.OpSTag, cycle.OpPost, cycle.OpMSN, cycle.OpAddr6})
	require.Equal(t, regmap.NumOps, cycle.OpAddr6+1)
}

// Every write sends the encoder's word to the slot or index the receiver
// computes, and leaves the staging registers zero.
func TestConfigWrites(t *testing.T) {
	d, b, got := open(t)
	tp := tuple("10.0.0.1:4000")
	ctx := fastpath.Context{Full: true, Params: mpa.Half{Markers: true, CRC: true, SeqStart: 77}, RcvNxt: 1234,
		Stream: 99, DDPVersion: 1, Ranges: []fastpath.Range{{Start: 2000, End: 3000}}}
	stag := cycle.STagEntry{Valid: true, STag: 0xabcd12_34, Stream: 99, Base: 0x1234_5678_9abc_def0, Length: 1 << 40}
	post := cycle.RecvEntry{QN: 2, Valid: true, MSN: 7, Stream: 99, Base: 0xfeed_0000, Length: 4096}
	require.NoError(t, d.WriteContext(tp, ctx))
	require.NoError(t, d.WriteSTag(stag))
	require.NoError(t, d.PostRecv(tp, post))
	require.NoError(t, d.SetMSN(tp, 1, 42))
	require.NoError(t, d.ClearContext(5))
	slot := fastpath.Index(tp, params.ConnCount)
	require.Equal(t, []cfgWrite{
		{cycle.OpContext, slot, cycle.EncodeContext(tp, ctx)},
		{cycle.OpSTag, 0xabcd12 % params.STagCount, cycle.EncodeSTag(stag)},
		{cycle.OpPost, slot, cycle.EncodeRecv(post)},
		{cycle.OpMSN, slot, cycle.EncodeRecv(cycle.RecvEntry{QN: 1, MSN: 42})},
		{cycle.OpContext, 5, cycle.CfgData{}},
	}, *got)
	for i := 0; i < driver.CfgDataWords; i++ {
		v, err := b.Read32(driver.RegCfgData + 4*uint32(i))
		require.NoError(t, err)
		require.Zero(t, v, "staging word %d after a command", i)
	}
	sent, busy, err := d.Status()
	require.NoError(t, err)
	require.Equal(t, 5, sent)
	require.False(t, busy)
	// round trip through the decoders
	require.Equal(t, cycle.Entry{Valid: true, Tuple: tp, Ctx: ctx}, cycle.DecodeContext((*got)[0].data))
}

// An IPv6 context is two words: the addresses, then the context with
// CTX_V6, both to the half connection's slot; the model's decoder takes
// the tuple back from the two.
func TestWriteContextIPv6(t *testing.T) {
	d, _, got := open(t)
	tp := wire.FourTuple{SrcIP: wire.Addr(netip.MustParseAddr("2001:db8::1").As16()),
		DstIP: wire.Addr(netip.MustParseAddr("2001:db8::2").As16()), SrcPort: 4000, DstPort: 5000}
	ctx := fastpath.Context{Full: true, RcvNxt: 99}
	require.NoError(t, d.WriteContext(tp, ctx))
	require.Len(t, *got, 2)
	slot := fastpath.Index(tp, params.ConnCount)
	require.Equal(t, cfgWrite{cycle.OpAddr6, slot, cycle.EncodeAddr6(tp.SrcIP, tp.DstIP)}, (*got)[0])
	require.Equal(t, cycle.OpContext, (*got)[1].op)
	require.Equal(t, slot, (*got)[1].index)
	src, dst := cycle.DecodeAddr6((*got)[0].data)
	require.Equal(t, cycle.Entry{Valid: true, Tuple: tp, Ctx: ctx}, cycle.DecodeContext6((*got)[1].data, src, dst))
}

// Apply makes the writes of the software model through the same encoders.
func TestApply(t *testing.T) {
	d, _, got := open(t)
	tp := tuple("10.0.0.9:4001")
	ops := []fastpath.Op{
		{Kind: fastpath.OpContext, Half: tp, Ctx: fastpath.Context{Full: true, RcvNxt: 5}},
		{Kind: fastpath.OpSTag, STag: 0x100, Stream: 3, Base: 0x1000, Len: 64, Valid: true},
		{Kind: fastpath.OpPost, Half: tp, QN: 1, MSN: 2, Stream: 3, Base: 0x2000, Len: 100, Valid: true},
		{Kind: fastpath.OpMSN, Half: tp, QN: 3, MSN: 9},
	}
	for _, o := range ops {
		require.NoError(t, d.Apply(o))
	}
	require.Len(t, *got, 4)
	require.Equal(t, cycle.STagEntry{Valid: true, STag: 0x100, Stream: ddp.StreamID(3), Base: 0x1000, Length: 64}, cycle.DecodeSTag((*got)[1].data))
	require.Equal(t, 1, (*got)[1].index)
	require.Equal(t, cycle.RecvEntry{QN: 1, Valid: true, MSN: 2, Stream: 3, Base: 0x2000, Length: 100}, cycle.DecodeRecv((*got)[2].data))
	require.Equal(t, cycle.RecvEntry{QN: 3, MSN: 9}, cycle.DecodeRecv((*got)[3].data))
	require.Error(t, d.Apply(fastpath.Op{Kind: 9}))
}

// The counters count events as docs/regmap.md says; the high word is
// latched by the low word's read.
func TestCounters(t *testing.T) {
	d, b, _ := open(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var want driver.Counters
	for i := 0; i < 5000; i++ {
		e := cycle.Event{Kind: 1 + rng.IntN(7), Verdict: rng.IntN(4), Reason: rng.IntN(10), Len: rng.IntN(2000)}
		if rng.IntN(2) == 0 {
			e.Ctrl = 0x80
		}
		switch e.Kind {
		case cycle.EvVerdict:
			want[driver.CntFramesPlace+e.Verdict]++
			if e.Verdict == cycle.VException && e.Reason >= 1 {
				want[driver.CntExcNotTCP+e.Reason-1]++
			}
		case cycle.EvDrop:
			want[driver.CntDropFCS+e.Verdict]++
		case cycle.EvPlaced:
			want[driver.CntFPDUsPlaced]++
			h := 18
			if e.Ctrl != 0 {
				h = 14
			}
			want[driver.CntOctetsPlaced] += uint64(max(e.Len-h, 0))
		case cycle.EvDelivered:
			want[driver.CntFPDUsDelivered]++
		case cycle.EvDDPError:
			want[driver.CntDDPErrors]++
		}
		b.Event(e.Encode())
	}
	for i := 0; i < 300; i++ {
		b.HostBurst()
		b.HostBeat()
		b.HostBeat()
	}
	b.HostResp(2)
	b.HostResp(3)
	b.HostResp(3)
	b.HostResp(0)
	b.HostUnexpected()
	want[driver.CntHostBursts], want[driver.CntHostBeats] = 300, 600
	want[driver.CntHostSlvErr], want[driver.CntHostDecErr], want[driver.CntHostBUnexpected] = 1, 2, 1
	got, err := d.Counters()
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.Equal(t, want[driver.CntFPDUsPlaced], got.Map()["FPDUS_PLACED"])
	require.NoError(t, d.ClearCounters())
	got, err = d.Counters()
	require.NoError(t, err)
	require.Equal(t, driver.Counters{}, got)
	_, err = d.Counter(driver.NumCounters)
	require.Error(t, err)
}

// Bad identification and bus errors come back as errors.
func TestErrors(t *testing.T) {
	_, err := driver.Open(badID{})
	require.ErrorIs(t, err, driver.ErrNotReceiver)
	_, err = driver.Open(failing{})
	require.ErrorContains(t, err, "identification")

	d, b, _ := open(t)
	require.Error(t, d.Config(cycle.OpAddr6+1, 0, cycle.CfgData{}))
	require.Error(t, d.Config(0, 1<<16, cycle.CfgData{}))
	var se *regblock.ErrSlvErr
	require.True(t, errors.As(b.Write32(driver.RegID, 1), &se), "write to a read-only register")
	_, err = b.Read32(0xffc)
	require.True(t, errors.As(err, &se), "read of an unmapped offset")
	require.Error(t, b.Write32(driver.RegCfgCmd, 7), "operation 7")
}

type badID struct{}

func (badID) Read32(uint32) (uint32, error) { return 0xdeadbeef, nil }
func (badID) Write32(uint32, uint32) error  { return nil }

type failing struct{}

func (failing) Read32(uint32) (uint32, error) { return 0, errors.New("bus down") }
func (failing) Write32(uint32, uint32) error  { return errors.New("bus down") }
