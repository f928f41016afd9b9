package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Outcome names what the receiver did with a frame, as the functional model
// decided it (the RTL decided every frame the same way, or the run failed):
// "place", "ignore", "drop:<cause>" or "exc:<reason>".
func Outcome(res fastpath.Result) string {
	switch res.Verdict {
	case fastpath.Exception:
		return "exc:" + ReasonName(res.Reason)
	case fastpath.Drop:
		for _, e := range res.Events {
			if e.Kind == fastpath.Dropped {
				return "drop:" + replay.DropName(e.Err)
			}
		}
		return "drop"
	}
	return res.Verdict.String()
}

var reasonNames = map[fastpath.Reason]string{
	fastpath.NotTCP: "NOT_TCP", fastpath.NoConn: "NO_CONN", fastpath.NotFull: "NOT_FULL",
	fastpath.Flags: "FLAGS", fastpath.SWOwned: "SW_OWNED", fastpath.Unaligned: "UNALIGNED",
	fastpath.OutOfOrder: "OOO", fastpath.RangesFull: "RANGES_FULL", fastpath.MPACheck: "MPA_CHECK", fastpath.IPv6Ext: "IPV6_EXT",
}

// ReasonName returns the name of an exception reason (docs/design.md).
func ReasonName(r fastpath.Reason) string {
	if n, ok := reasonNames[r]; ok {
		return n
	}
	return strconv.Itoa(int(r))
}

// Tally counts outcomes per class: Tally[class][outcome].
type Tally map[Class]map[string]int

func (t Tally) add(c Class, outcome string) {
	if t[c] == nil {
		t[c] = map[string]int{}
	}
	t[c][outcome]++
}

// Merge adds u into t.
func (t Tally) Merge(u Tally) {
	for c, m := range u {
		for o, n := range m {
			if t[c] == nil {
				t[c] = map[string]int{}
			}
			t[c][o] += n
		}
	}
}

// Outcomes runs the functional model (hardware and software) over the
// stream and tallies what the hardware did with each frame by class.
func Outcomes(v *vector.Vector, s []Frame) (Tally, error) {
	sys, err := replay.NewSystem(&v.Setup, replay.Hardware{Slots: rx.Slots, IPv4Only: !cycle.ParsesIPv6})
	if err != nil {
		return nil, err
	}
	t := Tally{}
	for _, f := range s {
		t.add(f.Class, Outcome(sys.Frame(f.Data)))
	}
	return t, nil
}

// WithFrames returns a copy of v whose frames are the stream's, stamped
// vector.Epoch + i*vector.FrameGap.
func WithFrames(v *vector.Vector, s []Frame) *vector.Vector {
	d := *v
	d.Frames = make([]vector.Frame, len(s))
	for i, f := range s {
		d.Frames[i] = vector.Frame{Time: vector.Epoch.Add(time.Duration(i) * vector.FrameGap), Data: f.Data}
	}
	d.Expected, d.Buffers = nil, nil
	return &d
}

// RunStream runs a stream of v's connections through the RTL of the given
// width and the models (rx.RunWith, on mpa_rx alone: frame by frame, verdicts, events,
// exception frames, and the hardware and software union against the golden
// receiver). Liveness: rx.Drain fails a frame with rx.ErrStuck when
// its beats are not all taken, or it has no outcome, within 200,000 cycles;
// every frame is at most MaxFrame octets, so with the receiver idle before
// it (frame by frame) that is far beyond any legitimate stall (see
// StallBound for the bound under load, checked by Burst).
func RunStream(v *vector.Vector, width int, s []Frame) (rx.Report, error) {
	return RunStreamOn(v, width, s, nil)
}

// RunStreamOn is RunStream on mpa_rx alone (slave nil) or on the IP core
// (rx.RunTop: mpa_rx_axi_top with host memory the AXI4 slave *slave, the
// configuration only through the driver over AXI4-Lite, the AXI4 and
// AXI4-Lite checkers in every cycle, every PLACED event checked against
// the bursts not yet answered and the octets in host memory).
func RunStreamOn(v *vector.Vector, width int, s []Frame, slave *rx.Slave) (rx.Report, error) {
	if slave != nil {
		return rx.RunTop(WithFrames(v, s), width, *slave, rx.Hooks{})
	}
	return rx.RunWith(WithFrames(v, s), width, rx.Hooks{})
}

var frameRE = regexp.MustCompile(`^frame (\d+)\b`)

// failingFrame returns the stream index an rx.Run error names, or -1.
func failingFrame(err error) int {
	m := frameRE.FindStringSubmatch(err.Error())
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// Shrink returns a short stream that still fails on mpa_rx alone (slave
// nil) or on the IP core with host memory *slave (RunStreamOn), and its
// error: the frame
// the error names alone when that fails by itself, else the shortest prefix
// of s (from the stream's start): the prefix up to the frame the error
// names when that reproduces (and of it only the intact frames and the
// failing one, when that is enough), else a binary search over prefix
// lengths.
func Shrink(v *vector.Vector, width int, s []Frame, err error, slave *rx.Slave) ([]Frame, error) {
	fails := func(n int) error {
		_, err := RunStreamOn(v, width, s[:n], slave)
		return err
	}
	if k := failingFrame(err); k >= 0 && k < len(s) {
		if _, e := RunStreamOn(v, width, s[k:k+1], slave); e != nil {
			return s[k : k+1], e
		}
		if e := fails(k + 1); e != nil {
			// without the other mutated frames, when it still fails
			var t []Frame
			for _, f := range s[:k] {
				if f.Class == Intact {
					t = append(t, f)
				}
			}
			t = append(t, s[k])
			if len(t) < k+1 {
				if _, e2 := RunStreamOn(v, width, t, slave); e2 != nil {
					return t, e2
				}
			}
			return s[:k+1], e
		}
	}
	lo, hi := 0, len(s) // s[:lo] passes, s[:hi] fails
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fails(mid) != nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	if e := fails(hi); e != nil {
		return s[:hi], e
	}
	return s, err
}

// Case is the description of a saved failing stream (testdata/<name>.json
// beside <name>.pcap).
type Case struct {
	Vector  string  `json:"vector"` // the vector directory name (its setup.json)
	Width   int     `json:"width"`  // DATA_WIDTH that failed
	Seed    uint64  `json:"seed"`   // stream seed (Mutator) that made it
	Classes []Class `json:"classes"`
	Origs   []int   `json:"origs"` // vector frame each frame came from
	Error   string  `json:"error"`
	// Open, when set, names an RTL or model bug not fixed yet: the replay
	// test then requires the stream still to fail (and says to clear Open
	// when it passes).
	Open string `json:"open,omitempty"`
	// Fixed, when set, says which bug the case found and that it is fixed:
	// the case must pass.
	Fixed string `json:"fixed,omitempty"`
	// Slave, when set, is the host memory of a stream that failed on the
	// IP core (Config.Slaves): the case is replayed on the IP core.
	Slave *rx.Slave `json:"slave,omitempty"`
}

// Save writes the stream as dir/<name>.pcap and its case as
// dir/<name>.json.
func Save(dir, name string, v *vector.Vector, s []Frame, c Case) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	c.Classes, c.Origs = nil, nil
	for _, f := range s {
		c.Classes = append(c.Classes, f.Class)
		c.Origs = append(c.Origs, f.Orig)
	}
	f, err := os.Create(filepath.Join(dir, name+".pcap"))
	if err != nil {
		return err
	}
	if err := vector.WritePcap(f, WithFrames(v, s).Frames); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644)
}

// LoadCase reads dir/<name>.json and dir/<name>.pcap.
func LoadCase(dir, name string) (Case, []vector.Frame, error) {
	var c Case
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return c, nil, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, nil, fmt.Errorf("%s.json: %w", name, err)
	}
	f, err := os.Open(filepath.Join(dir, name+".pcap"))
	if err != nil {
		return c, nil, err
	}
	defer f.Close()
	frames, err := vector.ReadPcap(f)
	return c, frames, err
}

// Config is one fuzzing campaign at one width.
type Config struct {
	Width   int
	Seed    uint64
	Vectors []*vector.Vector
	// Frames is the number of mutated frames to run (0: no limit);
	// Duration, when not zero, stops the campaign after the stream that
	// passes it.
	Frames   int
	Duration time.Duration
	Rate     float64 // mutated frames per vector frame (default 1)
	// MaxStream, when not zero, uses only the first MaxStream frames of a
	// vector per stream, so that one stream (and a failing case) stays short.
	MaxStream int
	// Slaves, when not empty, runs the streams through the IP core
	// (mpa_rx_axi_top) instead of mpa_rx alone: stream k with host memory
	// Slaves[k % len(Slaves)], seeded with the stream's seed.
	Slaves []rx.Slave
	// OutDir receives failing streams (empty: not saved).
	OutDir string
	// MaxFailures stops the campaign after that many failures (default 1).
	MaxFailures int
	Log         func(format string, args ...any)
}

// Failure is a failing stream.
type Failure struct {
	Name  string // file name (without extension) under OutDir
	Case  Case
	Frame int // index of the frame the error names (-1: none)
	Class Class
	Orig  int
}

// Result sums up a campaign.
type Result struct {
	Streams  int
	Frames   int // frames run, intact ones included
	Counts   Counts
	Outcomes Tally
	Cycles   uint64
	Elapsed  time.Duration
	Failures []Failure
	// Withheld counts the frames left out because they match a known bug
	// (KnownBugs), by bug name.
	Withheld map[string]int
}

// StreamSeed derives the seed of stream k of vector name from a campaign
// seed and width.
func StreamSeed(seed uint64, width int, name string, k int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%s/%d", seed, width, name, k)
	return h.Sum64()
}

// Fuzz runs a campaign: round after round over the vectors, one mutated
// stream per vector per round, until Frames mutated frames ran or Duration
// passed. Every failing stream is shrunk and saved.
func Fuzz(cfg Config) (Result, error) {
	res := Result{Counts: Counts{}, Outcomes: Tally{}, Withheld: map[string]int{}}
	if cfg.Rate == 0 {
		cfg.Rate = 1
	}
	if cfg.MaxFailures == 0 {
		cfg.MaxFailures = 1
	}
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	// The frames the link carried: the mutations start from those.
	vs := make([]*vector.Vector, len(cfg.Vectors))
	for i, v := range cfg.Vectors {
		vs[i] = replay.OnTheWire(v, rx.MaxFrame)
	}
	cfg.Vectors = vs
	infos := make([][]FrameInfo, len(cfg.Vectors))
	for i, v := range cfg.Vectors {
		fi, err := Analyze(v, rx.Slots)
		if err != nil {
			return res, fmt.Errorf("%s: %w", v.Setup.Name, err)
		}
		infos[i] = fi
	}
	start := time.Now()
	done := func() bool {
		return (cfg.Frames > 0 && res.Counts.Mutated() >= cfg.Frames) ||
			(cfg.Duration > 0 && time.Since(start) >= cfg.Duration)
	}
	for round := 0; !done(); round++ {
		for i, v := range cfg.Vectors {
			if done() {
				break
			}
			frames, fi := v.Frames, infos[i]
			if cfg.MaxStream > 0 && len(frames) > cfg.MaxStream {
				frames, fi = frames[:cfg.MaxStream], fi[:cfg.MaxStream]
			}
			seed := StreamSeed(cfg.Seed, cfg.Width, v.Setup.Name, round)
			m := NewMutator(seed, cfg.Width/8)
			m.Rate = cfg.Rate
			m.Live = round%2 == 1
			s := withhold(m.Stream(frames, fi), res.Withheld)
			var slave *rx.Slave
			if len(cfg.Slaves) > 0 {
				sl := cfg.Slaves[res.Streams%len(cfg.Slaves)]
				sl.Seed = seed
				slave = &sl
			}
			rep, err := RunStreamOn(v, cfg.Width, s, slave)
			for tries := 0; err != nil && tries < 50; tries++ {
				// a failure on a frame of a known open bug: take it out, run again
				k := failingFrame(err)
				if k < 0 || k >= len(s) {
					break
				}
				bug := knownBug(s[k].Data)
				if bug == "" {
					break
				}
				res.Withheld[bug]++
				s = append(s[:k:k], s[k+1:]...)
				rep, err = RunStreamOn(v, cfg.Width, s, slave)
			}
			tally, terr := Outcomes(v, s)
			if terr != nil {
				return res, terr
			}
			res.Streams++
			res.Frames += len(s)
			res.Counts.Add(s)
			res.Outcomes.Merge(tally)
			res.Cycles += rep.Cycles
			if err == nil {
				continue
			}
			if failingFrame(err) < 0 {
				if bug := knownStreamBug(err); bug != "" {
					res.Withheld[bug+" (streams)"]++
					continue
				}
			}
			if errors.Is(err, rx.ErrStuck) {
				logf("%s w%d seed %#x: %v", v.Setup.Name, cfg.Width, seed, err)
			}
			min, merr := Shrink(v, cfg.Width, s, err, slave)
			name := fmt.Sprintf("%s-w%d-%016x", v.Setup.Name, cfg.Width, seed)
			if slave != nil {
				name = fmt.Sprintf("%s-top-w%d-%016x", v.Setup.Name, cfg.Width, seed)
			}
			k := failingFrame(merr)
			if k < 0 {
				// a stream-level error of a known bug once shrunk (the
				// whole stream may have failed differently first)
				if bug := knownStreamBug(merr); bug != "" {
					logf("%s w%d seed %#x: known bug %s (stream error %v, shrunk to %d frames: %v)",
						v.Setup.Name, cfg.Width, seed, bug, err, len(min), merr)
					res.Withheld[bug+" (streams)"]++
					continue
				}
			}
			fail := Failure{Name: name, Frame: k, Case: Case{Vector: v.Setup.Name, Width: cfg.Width, Seed: seed, Error: merr.Error(), Slave: slave}}
			if k >= 0 && k < len(min) {
				fail.Class, fail.Orig = min[k].Class, min[k].Orig
			}
			logf("FAIL %s: %d of %d frames reproduce it; frame %d (%s of vector frame %d): %v",
				name, len(min), len(s), k, fail.Class, fail.Orig, merr)
			if cfg.OutDir != "" {
				if err := Save(cfg.OutDir, name, v, min, fail.Case); err != nil {
					return res, err
				}
			}
			res.Failures = append(res.Failures, fail)
			if len(res.Failures) >= cfg.MaxFailures {
				res.Elapsed = time.Since(start)
				return res, nil
			}
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
