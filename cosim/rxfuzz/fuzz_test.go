package rxfuzz

import (
	"flag"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/rxtop"
	"github.com/mparx/mparx/vecgen/vector"
)

var (
	fuzzFrames   = flag.Int("frames", 100000, "TestFuzz: mutated frames per DATA_WIDTH")
	fuzzDuration = flag.Duration("duration", 0, "TestFuzz: run this long per DATA_WIDTH instead of -frames")
	fuzzSeed     = flag.Uint64("seed", 1, "TestFuzz: campaign seed (0: random, printed)")
	fuzzOut      = flag.String("out", "testdata", "TestFuzz: directory for failing streams")
)

const vectorsDir = "../../vectors"

func loadVectors(t testing.TB) []*vector.Vector {
	vs, err := vector.LoadAll(vectorsDir)
	require.NoError(t, err)
	require.NotEmpty(t, vs)
	return vs
}

func TestFuzz(t *testing.T) {
	vs := loadVectors(t)
	for _, width := range rxtop.Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			res, err := Fuzz(Config{Width: width, Seed: *fuzzSeed, Vectors: vs, Frames: *fuzzFrames,
				Duration: *fuzzDuration, OutDir: *fuzzOut, Log: t.Logf, MaxStream: 400})
			require.NoError(t, err)
			t.Logf("w%d: %d streams, %d frames (%d mutated), %d cycles, %v", width, res.Streams, res.Frames,
				res.Counts.Mutated(), res.Cycles, res.Elapsed.Round(time.Millisecond))
			for _, c := range res.Counts.Sorted() {
				var os []string
				for o, n := range res.Outcomes[c] {
					os = append(os, fmt.Sprintf("%s %d", o, n))
				}
				sort.Strings(os)
				t.Logf("  %-13s %7d  %s", c, res.Counts[c], strings.Join(os, ", "))
			}
			require.Empty(t, res.Failures)
		})
	}
	_ = filepath.Join
}
