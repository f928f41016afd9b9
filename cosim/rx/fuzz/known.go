package fuzz

import (
	"regexp"
)

// Known is a disagreement between the RTL and the model that the fuzzer
// found and that is not fixed yet, so that a campaign keeps looking for
// other bugs: Fuzz withholds the frames that Match from its streams before
// running them when Static is set (a frame that matches always fails), and
// otherwise, when a stream fails on a frame that matches, takes that frame
// out and runs the stream again. Either way it counts them. The saved
// cases in testdata (with "open" set) keep the bug reproduced by the replay
// test until it is fixed.
//
// A known bug of the models rather than of the RTL is named by Err instead:
// rx.Run checks that the model's hardware and software together report
// what the golden receiver does only after the RTL agreed with the model on
// every frame, so such a stream has passed the differential check; Fuzz
// counts it and goes on.
type Known struct {
	Name   string
	Static bool
	Match  func(b []byte) bool
	Err    *regexp.Regexp // a stream-level error (no frame named) of this bug
}

// KnownBugs are the open bugs: none at present. The cases in testdata
// whose "fixed" field is set are bugs found and fixed; the field names the
// rule each one checks.
var KnownBugs = []Known{}

// knownBug returns the name of the non-static known bug that frame b
// matches, or "".
func knownBug(b []byte) string {
	for _, k := range KnownBugs {
		if !k.Static && k.Match != nil && k.Match(b) {
			return k.Name
		}
	}
	return ""
}

// knownStreamBug returns the name of the known bug whose stream-level
// error err is, or "".
func knownStreamBug(err error) string {
	for _, k := range KnownBugs {
		if k.Err != nil && k.Err.MatchString(err.Error()) {
			return k.Name
		}
	}
	return ""
}

// withhold removes the frames that match a static known bug from s and
// counts them by bug name.
func withhold(s []Frame, n map[string]int) []Frame {
	out := s[:0:0]
	for _, f := range s {
		held := false
		for _, k := range KnownBugs {
			if k.Static && k.Match != nil && k.Match(f.Data) {
				n[k.Name]++
				held = true
				break
			}
		}
		if !held {
			out = append(out, f)
		}
	}
	return out
}
