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
// path) reproduces its expected.jsonl byte for byte at every width of
// rtlWidths (64, 128, 256, 512), like the golden engine.
func TestReplayRTLEqualsExpected(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	require.Equal(t, []int{64, 128, 256, 512}, rtlWidths)
	for _, w := range rtlWidths {
		width := strconv.Itoa(w)
		for _, dir := range dirs {
			want, err := os.ReadFile(filepath.Join(dir, vector.ExpectedFile))
			require.NoError(t, err)
			var out, errb bytes.Buffer
			require.Equal(t, 0, run([]string{"replay", "--engine", "rtl", "--width", width, "--json", dir}, &out, &errb), errb.String())
			assert.Equal(t, string(want), out.String(), "%s at %s bits", dir, width)
		}
	}
}
