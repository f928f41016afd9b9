package rx

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
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
					// every frame the link carried was decided
					require.Equal(t, len(replay.OnTheWire(v, MaxFrame).Frames), rep.Frames)
				})
			}
		})
	}
}

var rounds = flag.Int("rounds", 3, "TestDamagedFrames: passes over each vector's frames")

// Damaged traffic: the frames of real vectors with bit flips, truncations,
// random lengths (1 to 16,000 octets) and random bytes, mixed with the
// intact ones. The RTL must never hold s_axis_tready low or fail to decide
// a frame, must decide each as the model does, and the model's hardware and
// software together must still match the golden receiver.
func TestDamagedFrames(t *testing.T) {
	for _, name := range []string{"aligned", "out-of-order", "packed", "link-headers", "ipv6-aligned", "dual-stack"} {
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
							b = append(b, make([]byte, rng.IntN(200))...) // padding past the IP length
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

// Frame lengths at the edges, at every width, over IPv4 and IPv6: runts (1
// to 64 octets, cut from a data frame or random), and TCP frames of an
// unknown connection grown to within two beats of the longest frame the
// frame FIFO stores (cycle.FrameCapacity, the model's FrameLimit), either
// side, and to 40 and 64 KB. The RTL and the model agree on every one: the
// runts dropped as malformed or taken as not TCP, the long frames handed to
// software whole up to the limit and dropped (code 0) beyond it, as the
// golden receiver with that limit does.
func TestFrameLengths(t *testing.T) {
	for _, name := range []string{"aligned", "ipv6-aligned"} {
		t.Run(name, func(t *testing.T) { frameLengths(t, name) })
	}
}

// frameLengths is TestFrameLengths on the frames of vector name.
func frameLengths(t *testing.T, name string) {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
	require.NoError(t, err)
	var data []byte // a data frame of the connection
	for _, f := range v.Frames {
		if len(f.Data) > 1000 {
			data = f.Data
			break
		}
	}
	require.NotNil(t, data)
	for _, width := range Widths {
		t.Run(fmt.Sprintf("w%d", width), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(width), 7))
			d := *v
			d.Frames = append([]vector.Frame(nil), v.Frames[:len(v.Frames)/2]...)
			for n := 1; n <= 64; n++ {
				d.Frames = append(d.Frames, vector.Frame{Data: data[:n]})
				b := make([]byte, n)
				for i := range b {
					b[i] = byte(rng.Uint32())
				}
				d.Frames = append(d.Frames, vector.Frame{Data: b})
			}
			limit := cycle.FrameCapacity(width, MaxFrame)
			lane := width / 8
			var lengths []int
			for n := limit - 2*lane; n <= limit+2*lane; n++ {
				lengths = append(lengths, n)
			}
			lengths = append(lengths, 40000, 14+65535)
			for _, n := range lengths {
				d.Frames = append(d.Frames, vector.Frame{Data: grow(t, data, n, rng)})
			}
			d.Frames = append(d.Frames, v.Frames[len(v.Frames)/2:]...)
			rep, err := runVector(&d, width, func() (*RTL, error) { return Open(width) }, Hooks{}) // the long frames whole, not cut to the MSS
			require.NoError(t, err)
			require.Equal(t, len(d.Frames), rep.Frames)
		})
	}
}

// grow returns data frame b (untagged IPv4 or IPv6 without extension
// headers) of another connection (its source port changed) grown with
// random payload to n octets, its IP length and checksums made right.
func grow(t *testing.T, b []byte, n int, rng *rand.Rand) []byte {
	t.Helper()
	g := make([]byte, n)
	copy(g, b)
	for i := len(b); i < n; i++ {
		g[i] = byte(rng.Uint32())
	}
	ihl := 20
	if binary.BigEndian.Uint16(g[12:]) == wire.EtherTypeIPv6 {
		ihl = 40
		binary.BigEndian.PutUint16(g[14+4:], uint16(n-14-ihl)) // payload length
	} else {
		binary.BigEndian.PutUint16(g[14+2:], uint16(n-14)) // total length
	}
	binary.BigEndian.PutUint16(g[14+ihl:], 1) // the source port: no context
	_, err := wire.CompleteChecksums(g)
	require.NoError(t, err)
	f, err := wire.Parse(g)
	require.NoError(t, err)
	require.Len(t, f.Payload, n-14-ihl-f.TCPHeaderLen)
	return g
}
