package vecgen

import (
	"fmt"
	"sort"

	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Scenario is a named vector recipe.
type Scenario struct {
	Name    string
	Summary string
	// Tags name the features exercised; COVERAGE.md maps requirements to
	// vectors through them.
	Tags []string
	// Clean: nothing in the traffic is faulty, so a receiver must pass
	// every ULPDU the scenario framed exactly once (checked by a test).
	Clean bool
	// NoTshark, when not empty, says why the vector is left out of the
	// Wireshark check although each segment carries one FPDU.
	NoTshark string
	Build    func(g *Gen)
}

var registry = map[string]*Scenario{}

func register(s *Scenario) {
	if _, dup := registry[s.Name]; dup {
		panic("vecgen: duplicate scenario " + s.Name)
	}
	registry[s.Name] = s
}

// Scenarios returns every scenario, sorted by name.
func Scenarios() []*Scenario {
	out := make([]*Scenario, 0, len(registry))
	for _, s := range registry {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the scenario with the given name.
func Lookup(name string) (*Scenario, bool) {
	s, ok := registry[name]
	return s, ok
}

// DefaultSeed is the seed of the committed vectors.
const DefaultSeed = 1

// Options control one generation.
type Options struct {
	Seed  uint64
	Scale int
	// Progress, when set, is called every 100,000 frames with the count.
	Progress func(frames int)
	// NoIntended skips recording what the scenario sent (Built.Intended),
	// which only tests need.
	NoIntended bool
}

// Built is a generated vector before its expected results are computed,
// together with what the scenario intended (for tests).
type Built struct {
	Vector   *vector.Vector
	Intended []Intended
	Scenario *Scenario
	gen      *Gen
}

// Build runs a scenario and returns its frames and setup (Expected and
// Buffers are left empty).
func Build(s *Scenario, o Options) *Built {
	g := newGen(s.Name, o.Seed, o.Scale)
	g.progress = o.Progress
	g.noIntent = o.NoIntended
	s.Build(g)
	g.setup.Summary = s.Summary
	g.setup.Tags = append([]string{}, s.Tags...)
	g.setup.OneFPDUPerSegment = !g.notOnePer
	if g.setup.STags == nil {
		g.setup.STags = []vector.STag{}
	}
	if g.setup.Recvs == nil {
		g.setup.Recvs = []vector.Recv{}
	}
	if g.setup.Conns == nil {
		g.setup.Conns = []vector.Conn{}
	}
	if err := g.setup.Validate(); err != nil {
		panic(fmt.Sprintf("vecgen: scenario %s: %v", s.Name, err))
	}
	return &Built{Vector: &vector.Vector{Setup: g.setup, Frames: g.frames}, Intended: g.intended, Scenario: s, gen: g}
}

// Generate builds a scenario and computes its expected results with the
// golden receiver.
func Generate(s *Scenario, o Options) (*Built, error) {
	b := Build(s, o)
	recs, bufs, err := replay.Expected(&b.Vector.Setup, b.Vector.Frames)
	if err != nil {
		return nil, fmt.Errorf("vecgen: scenario %s: %w", s.Name, err)
	}
	b.Vector.Expected, b.Vector.Buffers = recs, bufs
	return b, nil
}
