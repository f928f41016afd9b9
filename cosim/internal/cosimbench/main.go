// Command cosimbench measures the co-simulation speed of the crc32c variants:
// the batched cgo harness (package cosim) against the same Verilated model
// stepped by a plain C++ loop, in one run, and prints cycles per second and
// their ratio. `make bench-cosim` runs it.
//
// Every run applies the same input records: 4 reset cycles, then a stream of
// 16-beat messages of random data with every lane kept, tvalid high and
// m_axis_tready high. The plain loop reads them from one buffer; the Go side
// copies each batch into its input records (as a test fills its inputs),
// steps the batch and reads every cycle's outputs. Both compute the same
// checksum of the outputs, which must agree.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"time"

	"github.com/mparx/mparx/cosim"
	"github.com/mparx/mparx/cosim/crc32c"
)

func stimulus(s *cosim.Sim, n, width int) []uint64 {
	iw := s.InWords()
	in := s.NewIn(n)
	rst, tvalid, tlast, tkeep, tdata, mready := s.Port("rst"), s.Port("s_axis_tvalid"), s.Port("s_axis_tlast"),
		s.Port("s_axis_tkeep"), s.Port("s_axis_tdata"), s.Port("m_axis_tready")
	rng := rand.New(rand.NewPCG(1, uint64(width)))
	for c := 0; c < n; c++ {
		r := in[c*iw : (c+1)*iw]
		mready.Set(r, 1)
		if c < 4 {
			rst.Set(r, 1)
			continue
		}
		tvalid.Set(r, 1)
		tlast.SetBool(r, c%16 == 15)
		tkeep.Set(r, ^uint64(0))
		for i := range tdata.Slice(r) {
			tdata.Slice(r)[i] = rng.Uint64()
		}
	}
	return in
}

type result struct {
	dur time.Duration
	sum uint64
}

// batched steps the stimulus through s in batches of b cycles.
func batched(s *cosim.Sim, in []uint64, n, b int) result {
	iw, ow := s.InWords(), s.OutWords()
	buf, out := s.NewIn(b), s.NewOut(b)
	var sum uint64
	t0 := time.Now()
	for c := 0; c < n; c += b {
		k := min(b, n-c)
		copy(buf, in[c*iw:(c+k)*iw])
		s.Step(k, buf, out)
		for i := 0; i < k; i++ {
			sum += out[i*ow]
		}
	}
	return result{time.Since(t0), sum}
}

// lockstep steps the stimulus through the RTL and the Go model together.
func lockstep(s *cosim.Sim, width int, in []uint64, n, b int) (result, error) {
	ls, err := cosim.NewLockstep(s, crc32c.NewModel(&s.Layout, width), cosim.CompareWhen("m_axis_tdata", "m_axis_tvalid"))
	if err != nil {
		return result{}, err
	}
	iw, ow := s.InWords(), s.OutWords()
	buf := s.NewIn(b)
	var sum uint64
	t0 := time.Now()
	for c := 0; c < n; c += b {
		k := min(b, n-c)
		copy(buf, in[c*iw:(c+k)*iw])
		if err := ls.Step(k, buf); err != nil {
			return result{}, err
		}
		out := ls.Outputs()
		for i := 0; i < k; i++ {
			sum += out[i*ow]
		}
	}
	return result{time.Since(t0), sum}, nil
}

// keepBest records x in *r when it is the fastest so far.
func keepBest(r *result, x result) {
	if r.dur == 0 || x.dur < r.dur {
		*r = x
	}
}

func rate(n int, r result) float64 { return float64(n) / r.dur.Seconds() }

func run() error {
	cycles := flag.Int("cycles", 1<<19, "cycles per run")
	batch := flag.Int("batch", 1024, "cycles per cgo call")
	runs := flag.Int("runs", 5, "runs per measurement (the best is kept)")
	flag.Parse()

	runtime.LockOSThread()
	n := *cycles
	fmt.Printf("co-simulation speed of crc32c: %d cycles per run, best of %d, cycles/s (M = 1e6)\n", n, *runs)
	fmt.Printf("%-12s %10s %12s %6s %12s %6s %12s %6s\n", "variant", "C++ loop",
		fmt.Sprintf("cgo %d/call", *batch), "ratio", "cgo 1/call", "ratio", "lockstep", "ratio")
	for _, w := range crc32c.Widths {
		s, err := cosim.Open(crc32c.Variant(w))
		if err != nil {
			return err
		}
		in := stimulus(s, n, w)
		n1 := n / 8
		// The four ways are interleaved run by run, and each keeps its best
		// run, so that load from other processes hits them alike.
		var plain, cgo, one, ls result
		for r := 0; r < *runs; r++ {
			d, sum, err := s.PlainLoop(n, in)
			if err != nil {
				return err
			}
			keepBest(&plain, result{d, sum})
			for _, m := range []struct {
				dst *result
				f   func(*cosim.Sim) (result, error)
			}{
				{&cgo, func(si *cosim.Sim) (result, error) { return batched(si, in, n, *batch), nil }},
				{&one, func(si *cosim.Sim) (result, error) { return batched(si, in, n1, 1), nil }},
				{&ls, func(si *cosim.Sim) (result, error) { return lockstep(si, w, in, n, *batch) }},
			} {
				// A fresh instance per run, so that every run starts from reset.
				si, err := cosim.Open(crc32c.Variant(w))
				if err != nil {
					return err
				}
				x, err := m.f(si)
				if cerr := si.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return err
				}
				keepBest(m.dst, x)
			}
		}
		if cgo.sum != plain.sum || ls.sum != plain.sum {
			return fmt.Errorf("%s: output checksums differ: C++ %x, cgo %x, lockstep %x", s.Variant(), plain.sum, cgo.sum, ls.sum)
		}
		p := rate(n, plain)
		fmt.Printf("%-12s %9.2fM %11.2fM %6.2f %11.2fM %6.2f %11.2fM %6.2f\n", s.Variant(), p/1e6,
			rate(n, cgo)/1e6, rate(n, cgo)/p, rate(n1, one)/1e6, rate(n1, one)/p, rate(n, ls)/1e6, rate(n, ls)/p)
		if err := s.Close(); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cosimbench:", err)
		os.Exit(1)
	}
}
