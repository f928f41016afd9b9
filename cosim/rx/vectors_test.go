package rx

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

// Frame by frame (each frame's outputs drained and software's context writes
// made before the next, through the driver), the integration top decides
// every frame of every vector as the functional model does: verdict, reason, the context updates behind
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

var rounds = flag.Int("rounds", 6, "TestDamagedFrames: passes over each vector's frames")

// Damaged traffic: the frames of real vectors with bit flips, truncations,
// random lengths (1 to 16,000 octets) and random bytes, mixed with the
// intact ones. The RTL must never hold s_axis_tready low or fail to decide
// a frame, must decide each as the model does, and the model's hardware and
// software together must still match the golden receiver.
func TestDamagedFrames(t *testing.T) {
	for _, name := range []string{"aligned", "out-of-order", "packed", "link-headers"} {
		v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
		require.NoError(t, err)
		for _, width := range Widths {
			t.Run(fmt.Sprintf("%s/w%d", name, width), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(width), uint64(len(name))))
				d := *v
				d.Frames = nil
				for round := 0; round < *rounds; round++ {
					for _, f := range v.Frames {
						d.Frames = append(d.Frames, f)
						b := append([]byte(nil), f.Data...)
						switch rng.IntN(6) {
						case 0:
							b[rng.IntN(len(b))] ^= byte(1 << rng.IntN(8))
						case 1:
							b = b[:1+rng.IntN(len(b))]
						case 2:
							b = make([]byte, 1+rng.IntN(16000))
							for i := range b {
								b[i] = byte(rng.Uint32())
							}
							if len(b) > 14 && rng.IntN(2) == 0 {
								copy(b, f.Data[:14]) // an Ethernet header that looks right
							}
						case 3:
							b = append(b, make([]byte, rng.IntN(200))...) // padding past the IPv4 length
						default:
							continue
						}
						d.Frames = append(d.Frames, vector.Frame{Data: b})
					}
				}
				rep, err := Run(&d, width)
				require.NoError(t, err)
				t.Logf("%d frames (%d damaged), %d cycles", rep.Frames, rep.Frames-*rounds*len(v.Frames), rep.Cycles)
			})
		}
	}
}
