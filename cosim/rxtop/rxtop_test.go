package rxtop

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

// Frame by frame (each frame's outputs drained and software's context writes
// made before the next), the RTL decides every frame of every vector as the
// functional model does: verdict, reason, the context updates behind
// ADVANCED and CONSUMED, drop reasons, and exception frames octet for octet;
// and the model's hardware and software together match the golden receiver.
func TestVectors(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, width := range Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			for _, dir := range dirs {
				v, err := vector.Load(dir)
				require.NoError(t, err)
				t.Run(v.Setup.Name, func(t *testing.T) {
					rep, err := Run(v, width)
					require.NoError(t, err)
					require.Equal(t, len(v.Frames), rep.Frames)
				})
			}
		})
	}
}
