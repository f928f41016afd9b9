package crc32c

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRandomMessages runs random messages of 1..9000 octets, on random start
// lanes, with random idle cycles between beats and random backpressure, in
// lockstep with the model, and checks every CRC against hash/crc32.
func TestRandomMessages(t *testing.T) {
	for _, w := range Widths {
		n := *msgsWide
		if w == 64 {
			n = *msgs64
		}
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			seed := *seedFlag + uint64(w)
			h := newHarness(t, w, seed)
			h.gapProb, h.stallProb = 0.15, 0.1
			data := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16), byte(seed >> 24), byte(w)})
			msg := make([]byte, 9000)
			for i := 0; i < n; i++ {
				m := msg[:1+h.rng.IntN(9000)]
				_, _ = data.Read(m)
				h.push(m, h.rng.IntN(h.lanes), crc32.Checksum(m, castagnoli))
				h.flowIfFull()
			}
			h.drain()
			t.Logf("%d messages, %d cycles, %d beats", n, h.sim.Cycle(), h.src.Accepted())
		})
	}
}

// TestShortMessages covers every length from 1 to 3 beats at every start
// lane, back to back (one CRC per cycle when every beat is a tlast beat),
// first without and then with backpressure and idle cycles.
func TestShortMessages(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, w, *seedFlag)
			buf := make([]byte, 3*h.lanes)
			for pass := 0; pass < 2; pass++ {
				if pass == 1 {
					h.gapProb, h.stallProb = 0.3, 0.3
				}
				for n := 1; n <= 3*h.lanes; n++ {
					for start := 0; start < h.lanes; start++ {
						m := buf[:n]
						for i := range m {
							m[i] = byte(h.rng.Uint32())
						}
						h.push(m, start, crc32.Checksum(m, castagnoli))
					}
					h.flowIfFull()
				}
				h.drain()
			}
		})
	}
}

// TestResetAnywhere pulses rst at random cycles of random traffic: the RTL
// must drop what is in flight exactly as the model does (every output
// compared every cycle), and messages after a reset must come out right
// (checked by the lockstep and, in the final clean phase, against
// hash/crc32).
func TestResetAnywhere(t *testing.T) {
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, w, *seedFlag+7)
			h.gapProb, h.stallProb, h.rstProb = 0.2, 0.2, 0.002
			msg := make([]byte, 4*h.lanes)
			for i := 0; i < 3000; i++ {
				m := msg[:1+h.rng.IntN(len(msg))]
				for k := range m {
					m[k] = byte(h.rng.Uint32())
				}
				h.push(m, h.rng.IntN(h.lanes), 0)
				h.flowIfFull()
			}
			h.drain()
			h.step() // an empty batch: nothing left in flight
			h.rstProb = 0
			for i := 0; i < 200; i++ {
				m := msg[:1+h.rng.IntN(len(msg))]
				for k := range m {
					m[k] = byte(h.rng.Uint32())
				}
				h.push(m, h.rng.IntN(h.lanes), crc32.Checksum(m, castagnoli))
			}
			h.drain()
		})
	}
}

// fpdu builds an MPA FPDU carrying an untagged DDP Send (Last flag set,
// queue 0, MO 0) with the given MSN and 24 zero octets of payload, as the
// FPDU whose first octet is at stream offset off of a half connection with
// markers every 512 octets from offset 0 (NOTES.md, draft-01 Figures 5 and
// 6). Returns the octets the CRC covers: markers included, CRC field
// excluded.
func fpdu(off int, msn uint32) []byte {
	ulpdu := []byte{0x40, 0x03}                       // DDP control (L set), RDMAP control (Send)
	ulpdu = append(ulpdu, 0, 0, 0, 0)                 // reserved (STag position, no STag)
	ulpdu = binary.BigEndian.AppendUint32(ulpdu, 0)   // queue number
	ulpdu = binary.BigEndian.AppendUint32(ulpdu, msn) // MSN
	ulpdu = binary.BigEndian.AppendUint32(ulpdu, 0)   // MO
	ulpdu = append(ulpdu, make([]byte, 24)...)        // Send data
	framed := binary.BigEndian.AppendUint16(nil, uint16(len(ulpdu)))
	framed = append(framed, ulpdu...)
	for len(framed)%4 != 0 {
		framed = append(framed, 0) // PAD
	}
	// Markers: one at every stream offset that is a multiple of 512,
	// FPDUPTR = octets from the FPDU start to the marker.
	var out []byte
	for _, c := range framed {
		if pos := off + len(out); pos%512 == 0 {
			out = append(out, 0, 0)
			out = binary.BigEndian.AppendUint16(out, uint16(pos-off))
		}
		out = append(out, c)
	}
	return out
}

// TestReferenceVectors checks the RFC 3720 B.4 CRC32C vectors and both
// reference FPDUs of draft-01 (Figures 5 and 6) at every start lane, against
// the CRC octets the texts give.
func TestReferenceVectors(t *testing.T) {
	zeros, ones, inc, dec := make([]byte, 32), bytes.Repeat([]byte{0xff}, 32), make([]byte, 32), make([]byte, 32)
	for i := range inc {
		inc[i] = byte(i)
		dec[i] = byte(31 - i)
	}
	fig5 := fpdu(0, 1)
	fig6 := fpdu(0x1ec, 2)
	// The figures, octet by octet: Figure 5 starts with the marker at
	// offset 0; Figure 6 has its marker 0x14 octets in, at offset 0x200.
	require.Equal(t, []byte{0, 0, 0, 0, 0x00, 0x2a, 0x40, 0x03}, fig5[:8])
	require.Len(t, fig5, 0x30)
	require.Equal(t, []byte{0, 0, 0, 0x14}, fig6[0x14:0x18])
	require.Equal(t, []byte{0, 0, 0, 2}, fig6[0x0c:0x10])
	require.Len(t, fig6, 0x30)

	vectors := []struct {
		name string
		msg  []byte
		crc  uint32
	}{
		{"rfc3720-zeros", zeros, wire(0xaa, 0x36, 0x91, 0x8a)},
		{"rfc3720-ones", ones, wire(0x43, 0xab, 0xa8, 0x62)},
		{"rfc3720-incrementing", inc, wire(0x4e, 0x79, 0xdd, 0x46)},
		{"rfc3720-decrementing", dec, wire(0x5c, 0xdb, 0x3f, 0x11)},
		{"draft01-figure5", fig5, wire(0x4c, 0x86, 0xb3, 0x84)},
		{"draft01-figure6", fig6, wire(0xa1, 0x9c, 0xd1, 0x03)},
	}
	require.Equal(t, uint32(0x8a9136aa), vectors[0].crc)
	for _, w := range Widths {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, w, *seedFlag)
			for pass := 0; pass < 2; pass++ {
				if pass == 1 {
					h.gapProb, h.stallProb = 0.3, 0.3
				}
				for _, v := range vectors {
					for start := 0; start < h.lanes; start++ {
						h.push(v.msg, start, v.crc)
					}
				}
				h.drain()
			}
		})
	}
}

// BenchmarkLockstep measures the whole harness per cycle: the RTL and the
// model in lockstep on back-to-back 16-beat messages (make bench-cosim
// compares it with a plain C++ loop).
func BenchmarkLockstep(b *testing.B) {
	for _, w := range Widths {
		b.Run(fmt.Sprintf("w%d", w), func(b *testing.B) {
			h := newHarness(b, w, 1)
			msg := make([]byte, 16*h.lanes)
			crc := crc32.Checksum(msg, castagnoli)
			b.ResetTimer()
			for done := 0; done < b.N; done += batchCycles {
				for h.src.Pending() < 2*batchCycles {
					h.push(msg, 0, crc)
				}
				h.step()
			}
		})
	}
}
