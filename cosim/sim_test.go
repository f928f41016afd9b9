package cosim_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/crc32c"
)

func open(t testing.TB, variant string, opts ...cosim.Option) *cosim.Sim {
	t.Helper()
	s, err := cosim.Open(variant, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestVariants(t *testing.T) {
	v := cosim.Variants()
	for _, w := range crc32c.Widths {
		assert.Contains(t, v, crc32c.Variant(w))
	}
}

func TestOpenUnknownVariant(t *testing.T) {
	_, err := cosim.Open("no_such_top_w1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown variant no_such_top_w1")
	assert.Contains(t, err.Error(), "crc32c_w64")
}

func TestPortLayout(t *testing.T) {
	tests := []struct {
		width int
		in    int // input words: rst, tvalid, tlast, m_axis_tready, tkeep, tdata
		out   int
	}{
		{64, 5 + 1, 3},
		{128, 5 + 2, 3},
		{256, 5 + 4, 3},
		{512, 5 + 8, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.width), func(t *testing.T) {
			s := open(t, crc32c.Variant(tt.width))
			assert.Equal(t, tt.in, s.InWords())
			assert.Equal(t, tt.out, s.OutWords())
			_, hasClk := s.LookupPort("clk")
			assert.False(t, hasClk, "the clock is driven by Step, not a record port")
			d := s.Port("s_axis_tdata")
			assert.Equal(t, cosim.Port{Name: "s_axis_tdata", Dir: cosim.In, Width: tt.width, Offset: d.Offset, Words: tt.width / 64}, d)
			assert.Equal(t, 32, s.Port("m_axis_tdata").Width)
			assert.Equal(t, cosim.Out, s.Port("s_axis_tready").Dir)
			// Ports tile their records without overlap.
			used := map[cosim.Dir][]bool{cosim.In: make([]bool, s.InWords()), cosim.Out: make([]bool, s.OutWords())}
			for _, p := range s.Ports() {
				assert.Equal(t, (p.Width+63)/64, p.Words, p.Name)
				for i := p.Offset; i < p.Offset+p.Words; i++ {
					assert.False(t, used[p.Dir][i], "%s overlaps", p.Name)
					used[p.Dir][i] = true
				}
			}
			for d, u := range used {
				assert.NotContains(t, u, false, "%s record has holes", d)
			}
		})
	}
}

func TestPortAccessors(t *testing.T) {
	p := cosim.Port{Name: "d", Dir: cosim.In, Width: 72, Offset: 1, Words: 2}
	rec := make([]uint64, 4)
	p.SetBytes(rec, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	assert.Equal(t, []uint64{0, 0x0807060504030201, 0x09, 0}, rec)
	assert.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, p.AppendBytes(nil, rec))
	assert.Equal(t, "090807060504030201", p.Format(rec))
	p.Set(rec, 0xabc)
	assert.Equal(t, []uint64{0, 0xabc, 0, 0}, rec)
	q := cosim.Port{Name: "k", Width: 5, Offset: 3, Words: 1}
	q.Set(rec, 0xff)
	assert.Equal(t, uint64(0x1f), q.Get(rec))
	assert.Equal(t, "1f", q.Format(rec))
	assert.True(t, q.Bit(rec))
}

// TestSourceHandshake checks the stream source against the AXI4-Stream
// rules on the applied records: idle cycles before a beat, a beat held
// unchanged while tready is low, every pushed beat accepted exactly once.
// It also sees crc32c's latency and backpressure from outside.
func TestSourceHandshake(t *testing.T) {
	s := open(t, crc32c.Variant(64))
	s.Reset(2)
	src, err := s.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast")
	require.NoError(t, err)
	require.Equal(t, 3, src.PayloadWords())
	// Ten one-beat messages: the first after 2 idle cycles, then every
	// other one after 1.
	for i := 0; i < 10; i++ {
		gap := i % 2
		if i == 0 {
			gap = 2
		}
		src.Push(gap, []uint64{uint64(i) * 0x0101010101010101, 0xff, 1})
	}
	assert.Equal(t, 10, src.Pending())
	const n = 40
	in, out := s.NewIn(n), s.NewOut(n)
	iw, ow := s.InWords(), s.OutWords()
	valid, last, data := s.Port("s_axis_tvalid"), s.Port("s_axis_tlast"), s.Port("s_axis_tdata")
	ready, mvalid, mready := s.Port("s_axis_tready"), s.Port("m_axis_tvalid"), s.Port("m_axis_tready")
	for c := 0; c < n; c++ {
		mready.SetBool(in[c*iw:], c >= 20) // no output taken before cycle 20
	}
	s.Step(n, in, out)
	rec := func(c int) ([]uint64, []uint64) { return in[c*iw : (c+1)*iw], out[c*ow : (c+1)*ow] }

	i0, _ := rec(0)
	i1, _ := rec(1)
	i2, o2 := rec(2)
	assert.False(t, valid.Bit(i0))
	assert.False(t, valid.Bit(i1))
	require.True(t, valid.Bit(i2) && ready.Bit(o2) && last.Bit(i2), "first beat after two idle cycles")
	// The first CRC appears Latency cycles after its tlast handshake and,
	// not taken, stalls the engine.
	firstOut := -1
	accepted := 0
	for c := 0; c < n; c++ {
		ic, oc := rec(c)
		if firstOut < 0 && mvalid.Bit(oc) {
			firstOut = c
		}
		if valid.Bit(ic) && ready.Bit(oc) {
			accepted++
		}
		if c+1 < n && valid.Bit(ic) && !ready.Bit(oc) {
			in2, _ := rec(c + 1)
			require.True(t, valid.Bit(in2), "cycle %d: valid dropped before the handshake", c)
			require.Equal(t, data.Get(ic), data.Get(in2), "cycle %d: data changed before the handshake", c)
		}
		if c >= firstOut && firstOut >= 0 && c < 20 {
			assert.False(t, ready.Bit(oc), "cycle %d: engine must stall while its output is not taken", c)
		}
	}
	assert.Equal(t, 2+crc32c.Latency(64), firstOut)
	assert.Equal(t, 10, accepted)
	assert.Equal(t, uint64(10), src.Accepted())
	assert.Equal(t, 0, src.Pending())
	assert.Equal(t, uint64(2+n), s.Cycle())
}

// corrupt wraps a model and flips a bit of its m_axis_tdata on the k-th
// valid output, so that the lockstep must stop exactly there.
type corrupt struct {
	m      cosim.Model
	mvalid cosim.Port
	mdata  cosim.Port
	k      int
	steps  int
	at     int // step index of the corrupted output
}

func (c *corrupt) Step(in, out []uint64) {
	c.m.Step(in, out)
	if c.mvalid.Bit(out) {
		c.k--
		if c.k == 0 {
			c.mdata.Set(out, c.mdata.Get(out)^0x10)
			c.at = c.steps
		}
	}
	c.steps++
}

func TestLockstepReportsMismatch(t *testing.T) {
	s := open(t, crc32c.Variant(128), cosim.Name(t.Name()))
	s.Reset(3)
	model := &corrupt{m: crc32c.NewModel(&s.Layout, 128), mvalid: s.Port("m_axis_tvalid"), mdata: s.Port("m_axis_tdata"), k: 3}
	ls, err := cosim.NewLockstep(s, model, cosim.CompareWhen("m_axis_tdata", "m_axis_tvalid"))
	require.NoError(t, err)
	src, err := s.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast")
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 8; i++ {
		src.Push(rng.IntN(3), []uint64{rng.Uint64(), rng.Uint64(), 0xffff, uint64(i % 2)})
	}
	in := s.NewIn(64)
	mready := s.Port("m_axis_tready")
	for c := 0; c < 64; c++ {
		mready.Set(in[c*s.InWords():], 1)
	}
	err = ls.Step(64, in)
	var mm *cosim.Mismatch
	require.True(t, errors.As(err, &mm), "want a *Mismatch, got %v", err)
	assert.Equal(t, "crc32c_w128", mm.Variant)
	assert.Equal(t, "m_axis_tdata", mm.Port)
	assert.Equal(t, uint64(3+model.at), mm.Cycle)
	assert.NotEqual(t, mm.Expected, mm.Actual)
	assert.Contains(t, mm.Context, fmt.Sprintf(">> %d in: ", mm.Cycle))
	assert.Contains(t, mm.Context, "s_axis_tdata=")
	assert.Contains(t, mm.Context, "beats accepted on source 0 (s_axis_tvalid/s_axis_tready)")
	assert.Empty(t, mm.Trace)
	assert.Contains(t, err.Error(), "MPARX_TRACE")
	// The lockstep is spent.
	assert.Equal(t, err, ls.Step(1, s.NewIn(1)))
}

func TestLockstepOptions(t *testing.T) {
	s := open(t, crc32c.Variant(64))
	m := crc32c.NewModel(&s.Layout, 64)
	_, err := cosim.NewLockstep(s, m, cosim.CompareWhen("m_axis_tdata", "s_axis_tvalid"))
	assert.Error(t, err, "qualifier must be an output")
	_, err = cosim.NewLockstep(s, m, cosim.CompareWhen("s_axis_tdata", "m_axis_tvalid"))
	assert.Error(t, err, "compared port must be an output")
	_, err = cosim.NewLockstep(s, m, cosim.Ignore("nope"))
	assert.Error(t, err)
}

func TestTraceFiles(t *testing.T) {
	dir := t.TempDir()
	run := func(s *cosim.Sim) {
		s.Reset(2)
		in, out := s.NewIn(100), s.NewOut(100)
		s.Step(100, in, out)
		require.NoError(t, s.Close())
	}
	s, err := cosim.Open(crc32c.Variant(256), cosim.Name("Test/trace one"), cosim.TraceDir(dir))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "Test_trace_one.fst"), s.TracePath())
	run(s)

	t.Setenv("MPARX_TRACE", filepath.Join(dir, "env"))
	t.Setenv("MPARX_TRACE_FROM", "50")
	s, err = cosim.Open(crc32c.Variant(64), cosim.Name("from env"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "env", "from_env.fst"), s.TracePath())
	run(s)

	for _, f := range []string{filepath.Join(dir, "Test_trace_one.fst"), filepath.Join(dir, "env", "from_env.fst")} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.Greater(t, len(b), 100, f)
		assert.Equal(t, byte(0), b[0], "%s: an FST file starts with a header block (type 0)", f)
	}
	t.Setenv("MPARX_TRACE_FROM", "x")
	_, err = cosim.Open(crc32c.Variant(64))
	assert.ErrorContains(t, err, "MPARX_TRACE_FROM")
}

// TestStepMatchesPlainLoop runs the same records through the batched cgo
// path and through the benchmark's plain C++ loop: same model, same outputs.
func TestStepMatchesPlainLoop(t *testing.T) {
	s := open(t, crc32c.Variant(512))
	const n = 3000
	in := s.NewIn(n)
	rng := rand.New(rand.NewPCG(3, 4))
	iw := s.InWords()
	for c := 0; c < n; c++ {
		r := in[c*iw : (c+1)*iw]
		s.Port("rst").SetBool(r, c < 2)
		s.Port("s_axis_tvalid").SetBool(r, rng.IntN(4) != 0)
		s.Port("s_axis_tlast").SetBool(r, rng.IntN(5) == 0)
		s.Port("s_axis_tkeep").Set(r, ^uint64(0))
		s.Port("m_axis_tready").SetBool(r, rng.IntN(3) != 0)
		for i := range s.Port("s_axis_tdata").Slice(r) {
			s.Port("s_axis_tdata").Slice(r)[i] = rng.Uint64()
		}
	}
	_, plain, err := s.PlainLoop(n, in)
	require.NoError(t, err)
	out := s.NewOut(n)
	s.Step(n, append([]uint64(nil), in...), out)
	var sum uint64
	for c := 0; c < n; c++ {
		sum += out[c*s.OutWords()]
	}
	assert.Equal(t, plain, sum)
	assert.NotZero(t, sum)
}

func TestStepChecksRecordSizes(t *testing.T) {
	s := open(t, crc32c.Variant(64))
	assert.Panics(t, func() { s.Step(2, s.NewIn(1), s.NewOut(2)) })
	assert.True(t, strings.HasPrefix(s.Variant(), "crc32c"))
}

// BenchmarkStep measures the batched cgo path per cycle (see make
// bench-cosim for the comparison with a plain C++ loop).
func BenchmarkStep(b *testing.B) {
	for _, w := range crc32c.Widths {
		b.Run(fmt.Sprint(w), func(b *testing.B) {
			s := open(b, crc32c.Variant(w))
			const batch = 1024
			in, out := s.NewIn(batch), s.NewOut(batch)
			for c := 0; c < batch; c++ {
				r := in[c*s.InWords():]
				s.Port("s_axis_tvalid").Set(r, 1)
				s.Port("s_axis_tkeep").Set(r, ^uint64(0))
				s.Port("s_axis_tlast").SetBool(r, c%16 == 15)
				s.Port("m_axis_tready").Set(r, 1)
			}
			b.ResetTimer()
			for done := 0; done < b.N; done += batch {
				s.Step(min(batch, b.N-done), in, out)
			}
		})
	}
}

// TestMismatchNamesTrace: with tracing on, the report names the waveform,
// which already holds the failing cycle.
func TestMismatchNamesTrace(t *testing.T) {
	s := open(t, crc32c.Variant(64), cosim.Name("mismatch"), cosim.TraceDir(t.TempDir()))
	s.Reset(2)
	model := &corrupt{m: crc32c.NewModel(&s.Layout, 64), mvalid: s.Port("m_axis_tvalid"), mdata: s.Port("m_axis_tdata"), k: 1}
	ls, err := cosim.NewLockstep(s, model, cosim.CompareWhen("m_axis_tdata", "m_axis_tvalid"))
	require.NoError(t, err)
	src, err := s.AddSource("s_axis_tvalid", "s_axis_tready", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast")
	require.NoError(t, err)
	src.Push(0, []uint64{0x0123456789abcdef, 0x0f, 1})
	in := s.NewIn(32)
	for c := 0; c < 32; c++ {
		s.Port("m_axis_tready").Set(in[c*s.InWords():], 1)
	}
	var mm *cosim.Mismatch
	require.ErrorAs(t, ls.Step(32, in), &mm)
	assert.Equal(t, s.TracePath(), mm.Trace)
	assert.Contains(t, mm.Error(), "trace: "+s.TracePath())
	fi, err := os.Stat(mm.Trace)
	require.NoError(t, err)
	assert.Greater(t, fi.Size(), int64(0))
}
