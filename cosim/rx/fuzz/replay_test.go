package fuzz

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/vecgen/vector"
)

// Every stream the fuzzer saved in testdata is a regression test: replayed
// through the RTL (mpa_rx alone, or the IP core with the case's host
// memory when it has one) and the models at every width, it must pass; a case
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
			for _, width := range rx.Widths {
				_, err := RunStreamOn(v, width, s, c.Slave)
				switch {
				case c.Open == "":
					require.NoError(t, err, "w%d", width)
				case width == c.Width:
					require.Error(t, err, "open bug %q no longer fails: fixed? clear \"open\" in %s.json and its entry in KnownBugs", c.Open, name)
					// the same frame fails, and a known bug names it (or, for a
					// stream-level error, the error)
					k := failingFrame(errors.New(c.Error))
					require.Equal(t, k, failingFrame(err), "case %s failed at frame %d, now: %v", name, k, err)
					var known []string
					for _, b := range KnownBugs {
						if (k >= 0 && b.Match != nil && b.Match(s[k].Data)) || (k < 0 && b.Err != nil && b.Err.MatchString(err.Error())) {
							known = append(known, b.Name)
						}
					}
					require.NotEmpty(t, known, "no KnownBugs entry matches %s: %v", name, err)
					t.Logf("w%d: open bug %s still fails: %v", width, known, err)
				default:
					t.Logf("w%d: %v", width, fmt.Sprint(err))
				}
			}
		})
	}
}
