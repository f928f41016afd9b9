package rx

import (
	"encoding/binary"
	"testing"

	"github.com/mparx/mparx/golden/wire"
)

// FuzzReceiver feeds arbitrary segments to an established connection (markers
// and CRC on): the receiver must not panic, must pass no FPDU twice, and must
// report at most one MPA error per half connection.
func FuzzReceiver(f *testing.F) {
	c := stdConn(true, true)
	fill(c, 6, 200)
	var seed []byte
	for _, g := range c.i2r.Aligned(600) {
		seed = binary.BigEndian.AppendUint16(seed, uint16(g.Seq-c.i2r.Half.SeqStart))
		seed = binary.BigEndian.AppendUint16(seed, uint16(len(g.Data)))
		seed = append(seed, g.Data...)
	}
	f.Add(seed, uint8(0))
	f.Add(seed[:len(seed)/2], uint8(wire.FlagFIN))
	f.Add([]byte{0, 0, 0, 4, 0, 0, 0, 0}, uint8(wire.FlagRST))
	f.Fuzz(func(t *testing.T, b []byte, flags uint8) {
		r := New(Config{})
		r.AddConn(c.spec())
		for _, fr := range c.startupFrames(t) {
			r.Frame(fr)
		}
		base := c.i2r.Half.SeqStart
		for len(b) >= 4 {
			off := binary.BigEndian.Uint16(b)
			n := min(int(binary.BigEndian.Uint16(b[2:])), len(b)-4)
			data := b[4 : 4+n]
			b = b[4+n:]
			fl := uint8(0)
			if len(b) < 4 {
				fl = flags & (wire.FlagFIN | wire.FlagRST)
			}
			// Straight to the half connection: golden/wire has its own fuzz
			// target, and building frames would dominate the run.
			r.halves[c.tu].segment(wire.Frame{SrcIP: c.tu.SrcIP, DstIP: c.tu.DstIP, SrcPort: c.tu.SrcPort,
				DstPort: c.tu.DstPort, Seq: base + uint32(off), Flags: fl | wire.FlagACK, Payload: data})
		}
		seen := map[uint32]bool{}
		errs := map[wire.FourTuple]int{}
		for _, e := range r.Events() {
			switch e.Kind {
			case ULPDU:
				if seen[e.Seq] {
					t.Fatalf("FPDU at %d passed twice", e.Seq)
				}
				seen[e.Seq] = true
			case MPAError:
				errs[e.Half]++
				if errs[e.Half] > 1 {
					t.Fatalf("two errors on %v", e.Half)
				}
			}
		}
	})
}
