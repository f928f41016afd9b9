package rxfuzz

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/rxtop"
	"github.com/mparx/mparx/vecgen/vector"
)

// Every stream the fuzzer saved in testdata is a regression test: replayed
// through the RTL and the models at every width, it must pass; a case
// marked Open (a bug found and not fixed yet) must still fail at the width
// it was found at, and its known bug must still match one of its frames.
func TestReplay(t *testing.T) {
	pcaps, err := filepath.Glob(filepath.Join("testdata", "*.pcap"))
	require.NoError(t, err)
	require.NotEmpty(t, pcaps)
	for _, p := range pcaps {
		name := strings.TrimSuffix(filepath.Base(p), ".pcap")
		t.Run(name, func(t *testing.T) {
			c, frames, err := LoadCase("testdata", name)
			require.NoError(t, err)
			require.Len(t, c.Classes, len(frames))
			v, err := vector.Load(filepath.Join(vectorsDir, c.Vector))
			require.NoError(t, err)
			s := make([]Frame, len(frames))
			for i, f := range frames {
				s[i] = Frame{Data: f.Data, Class: c.Classes[i], Orig: c.Origs[i]}
			}
			for _, width := range rxtop.Widths {
				_, err := RunStream(v, width, s)
				switch {
				case c.Open == "":
					require.NoError(t, err, "w%d", width)
				case width == c.Width:
					require.Error(t, err, "open bug %q no longer fails: fixed? clear \"open\" in %s.json and its entry in KnownBugs", c.Open, name)
					var known []string
					for _, k := range KnownBugs {
						if (k.Match != nil && withheldAny(k, s)) || (k.Err != nil && k.Err.MatchString(err.Error())) {
							known = append(known, k.Name)
						}
					}
					require.NotEmpty(t, known, "no KnownBugs entry matches a frame of %s", name)
					t.Logf("w%d: open bug %s still fails: %v", width, known, err)
				default:
					t.Logf("w%d: %v", width, fmt.Sprint(err))
				}
			}
		})
	}
}

func withheldAny(k Known, s []Frame) bool {
	for _, f := range s {
		if k.Match(f.Data) {
			return true
		}
	}
	return false
}
