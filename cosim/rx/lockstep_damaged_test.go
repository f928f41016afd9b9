package rx

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/vecgen/vector"
)

// Damaged frames of known connections in lockstep with the cycle model, at
// every width and backpressure pattern: each frame of a vector followed,
// one time in two, by a copy cut short (inside its headers or its
// payload), grown past its IP length, or with its IP length, IPv4 header
// length, TCP data offset or EtherType changed. Such frames are looked up
// (their 4-tuple is the connection's) and walked as far as the parser's
// header positions reach, and dropped or handed to software: RTL and model
// agree on every output in every cycle.
func TestLockstepDamaged(t *testing.T) {
	for _, name := range []string{"aligned", "ipv6-aligned", "packed", "link-headers"} {
		v, err := vector.Load(filepath.Join("..", "..", "vectors", name))
		require.NoError(t, err)
		for wi, width := range Widths {
			for _, p := range []cycle.Pattern{cycle.NoStall, cycle.Random50} {
				t.Run(fmt.Sprintf("%s/w%d/%s", name, width, p), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(width), uint64(len(name))))
					d := *v
					d.Frames = nil
					for _, f := range v.Frames {
						d.Frames = append(d.Frames, f)
						if rng.IntN(2) == 0 || len(f.Data) < 60 {
							continue
						}
						d.Frames = append(d.Frames, vector.Frame{Data: damage(f.Data, rng)})
					}
					rep, err := RunLockstep(&d, LockstepOptions{Width: width, Pattern: p, Seed: uint64(100*wi + len(name))})
					require.NoError(t, err)
					t.Logf("%d frames, %d cycles", rep.Frames, rep.Cycles)
				})
			}
		}
	}
}

// damage returns a damaged copy of frame f (at least 60 octets).
func damage(f []byte, rng *rand.Rand) []byte {
	b := append([]byte(nil), f...)
	ip := 14
	if binary.BigEndian.Uint16(b[12:]) == 0x8100 {
		ip = 18
	}
	v6 := binary.BigEndian.Uint16(b[ip-2:]) == 0x86dd
	switch rng.IntN(7) {
	case 0:
		return b[:1+rng.IntN(min(len(b), 80))]
	case 1:
		return b[:1+rng.IntN(len(b))]
	case 2:
		return append(b, make([]byte, 1+rng.IntN(100))...)
	case 3:
		n := uint16(rng.IntN(len(b) + 100))
		if v6 {
			binary.BigEndian.PutUint16(b[ip+4:], n)
		} else {
			binary.BigEndian.PutUint16(b[ip+2:], n)
		}
	case 4:
		if !v6 {
			b[ip] = 0x40 | byte(rng.IntN(16))
		}
	case 5:
		tcp := ip + 40
		if !v6 {
			tcp = ip + int(b[ip]&0x0f)*4
		}
		if tcp+12 < len(b) {
			b[tcp+12] = b[tcp+12]&0x0f | byte(rng.IntN(16))<<4
		}
	default:
		binary.BigEndian.PutUint16(b[ip-2:], []uint16{0x0800, 0x86dd, 0x0806}[rng.IntN(3)])
	}
	return b
}
