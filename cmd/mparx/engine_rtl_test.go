//go:build rtl

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

// Replaying a vector directory on the RTL (hardware with the software slow
// path) reproduces its expected.jsonl byte for byte, like the golden
// engine: every vector at 64 and 512 bits, a different quarter of them at
// 128 and 256 bits (cosim/rx's TestVectors and TestLockstep run every
// vector at every width against the golden receiver).
func TestReplayRTLEqualsExpected(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	require.Equal(t, []int{64, 128, 256, 512}, rtlWidths)
	for _, c := range []struct {
		width         int
		every, offset int // the vectors i with i%every == offset
	}{
		{64, 1, 0}, {128, 4, 1}, {256, 4, 2}, {512, 1, 0},
	} {
		width := strconv.Itoa(c.width)
		for i, dir := range dirs {
			if i%c.every != c.offset {
				continue
			}
			want, err := os.ReadFile(filepath.Join(dir, vector.ExpectedFile))
			require.NoError(t, err)
			var out, errb bytes.Buffer
			require.Equal(t, 0, run([]string{"replay", "--engine", "rtl", "--width", width, "--json", dir}, &out, &errb), errb.String())
			assert.Equal(t, string(want), out.String(), "%s at %s bits", dir, width)
		}
	}
}
