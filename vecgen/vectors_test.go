package vecgen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// vectorsDir is the committed vector set.
var vectorsDir = filepath.Join("..", "vectors")

// generated caches one generation of every scenario at the committed seed
// and scale (expected results included).
var generated = map[string]*Built{}

func gen(t testing.TB, s *Scenario) *Built {
	t.Helper()
	if b, ok := generated[s.Name]; ok {
		return b
	}
	b, err := Generate(s, Options{Seed: DefaultSeed, Scale: 1})
	require.NoError(t, err)
	generated[s.Name] = b
	return b
}

// TestCommittedVectors fails when the committed vectors differ from a fresh
// generation: run `make vectors` and commit the result.
func TestCommittedVectors(t *testing.T) {
	const fix = "the committed vectors differ from a fresh generation: run `make vectors` and commit vectors/"
	var want []string
	for _, s := range Scenarios() {
		want = append(want, s.Name)
		files, err := vector.Files(gen(t, s).Vector)
		require.NoError(t, err)
		dir := filepath.Join(vectorsDir, s.Name)
		ents, err := os.ReadDir(dir)
		require.NoError(t, err, "%s: %s", s.Name, fix)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		var wantNames []string
		for n := range files {
			wantNames = append(wantNames, n)
		}
		sort.Strings(wantNames)
		assert.Equal(t, wantNames, names, "%s: %s", s.Name, fix)
		for n, b := range files {
			disk, err := os.ReadFile(filepath.Join(dir, n))
			if assert.NoError(t, err, "%s/%s: %s", s.Name, n, fix) {
				assert.True(t, bytes.Equal(b, disk), "%s/%s: %s", s.Name, n, fix)
			}
		}
	}
	dirs, err := vector.Dirs(vectorsDir)
	require.NoError(t, err)
	var got []string
	for _, d := range dirs {
		got = append(got, filepath.Base(d))
	}
	assert.Equal(t, want, got, "stale or missing vector directories: %s", fix)

	md, err := CoverageMarkdown()
	require.NoError(t, err)
	disk, err := os.ReadFile(filepath.Join(vectorsDir, CoverageFile))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(md, disk), "%s: %s", CoverageFile, fix)
}

// TestCommittedVectorsLoad loads every committed vector with the shared
// loader and re-runs the golden receiver over it.
func TestCommittedVectorsLoad(t *testing.T) {
	vs, err := vector.LoadAll(vectorsDir)
	require.NoError(t, err)
	require.Len(t, vs, len(Scenarios()))
	var total int64
	for _, v := range vs {
		require.NoError(t, replay.Check(v))
		specs, err := replay.ConnSpecs(&v.Setup)
		require.NoError(t, err)
		assert.Len(t, specs, len(v.Setup.Conns))
		for _, f := range v.Frames {
			total += int64(len(f.Data))
		}
	}
	assert.Less(t, total, int64(20<<20), "the committed set stays under 20 MB")
}

type ulpduKey struct {
	src, dst string
	seq      uint32
	sum      string
}

// TestGoldenPassesWhatWasSent checks the golden results against what each
// scenario framed, independently of the receiver's internals: every ULPDU the
// receiver passes is one the scenario sent, none is passed twice, and in a
// clean scenario every ULPDU sent is passed.
func TestGoldenPassesWhatWasSent(t *testing.T) {
	for _, s := range Scenarios() {
		t.Run(s.Name, func(t *testing.T) {
			b := gen(t, s)
			sent := map[ulpduKey]int{}
			for _, in := range b.Intended {
				sum := sha256.Sum256(in.ULPDU)
				sent[ulpduKey{in.Half.String(), in.Peer.String(), in.Seq, hex.EncodeToString(sum[:])}]++
			}
			passed := map[ulpduKey]int{}
			for _, r := range b.Vector.Events() {
				if r.Type != "ulpdu" {
					continue
				}
				k := ulpduKey{r.Src, r.Dst, r.Seq, r.SHA256}
				passed[k]++
				assert.Equal(t, 1, passed[k], "ULPDU passed twice: %+v", k)
				assert.Contains(t, sent, k, "ULPDU passed that the scenario never sent")
			}
			if s.Clean {
				assert.Equal(t, len(sent), len(passed), "clean scenario: every ULPDU sent is passed")
				for _, r := range b.Vector.Events() {
					assert.NotContains(t, []string{"error", "ddp_error"}, r.Type, "clean scenario: %+v", r)
				}
			}
		})
	}
}

// TestNothingAfterError checks RFC 5044 section 8: after an error on a half
// connection nothing more is passed or delivered on it; after error 4 (and
// RST, which closes the connection) on neither half; error 7 (RFC 6581 no
// matching RTR) fails the startup too.
func TestNothingAfterError(t *testing.T) {
	for _, s := range Scenarios() {
		b := gen(t, s)
		dead := map[[2]string]bool{}
		errs := 0
		for _, r := range b.Vector.Events() {
			h := [2]string{r.Src, r.Dst}
			switch r.Type {
			case "error":
				errs++
				dead[h] = true
				if r.Code == 4 || r.Code == 7 { // failed startups close the connection
					dead[[2]string{r.Dst, r.Src}] = true
				}
			case "ulpdu", "placed", "deliver":
				assert.False(t, dead[h], "%s: %s after an error on %s", s.Name, r.Type, h)
			}
		}
		if has(s.Tags, "after-error") {
			assert.NotZero(t, errs, "%s is tagged after-error but reports no error", s.Name)
		}
	}
}
