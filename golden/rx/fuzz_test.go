package rx

import (
	"encoding/binary"
	"fmt"
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

// FuzzDetect feeds arbitrary segments of both directions of one connection
// to a receiver that finds connections itself (Auto, and the connection's
// port as an MPA port when the fuzzer says so): it must not panic, must
// follow at most one connection, pass no FPDU twice and report at most one
// MPA error per half connection. Each record is direction and flags (one
// octet: bit 7 the reverse direction, the rest TCP flags), the sequence
// offset and length (two octets each), then the payload.
func FuzzDetect(f *testing.F) {
	c := stdConn(false, true)
	fill(c, 3, 40)
	rec := func(seed []byte, rev bool, flags uint8, off uint16, data []byte) []byte {
		if rev {
			flags |= 0x80
		}
		seed = append(seed, flags)
		seed = binary.BigEndian.AppendUint16(seed, off)
		seed = binary.BigEndian.AppendUint16(seed, uint16(len(data)))
		return append(seed, data...)
	}
	req, rep := c.req.Append(nil), c.rep.Append(nil)
	var seed []byte
	seed = rec(seed, false, wire.FlagSYN, 0xffff, nil)
	seed = rec(seed, false, 0, 7, req[7:])
	seed = rec(seed, false, 0, 0, req[:7])
	seed = rec(seed, true, 0, 0, rep)
	for _, g := range c.i2r.OnePerSegment() {
		seed = rec(seed, false, 0, uint16(g.Seq-c.iseq), g.Data)
	}
	f.Add(seed, false)
	f.Add(seed, true)
	f.Add(rec(nil, false, 0, 0, []byte("MPA ID Bad Frame\x00\x01\x00\x00")), true)
	f.Fuzz(func(t *testing.T, b []byte, port bool) {
		cfg := Config{Auto: true}
		if port {
			cfg.Ports = []uint16{c.tu.DstPort}
		}
		r := New(cfg)
		for len(b) >= 5 {
			fl, off := b[0], binary.BigEndian.Uint16(b[1:])
			n := min(int(binary.BigEndian.Uint16(b[3:])), len(b)-5)
			data := b[5 : 5+n]
			b = b[5+n:]
			tu, base := c.tu, c.iseq
			if fl&0x80 != 0 {
				tu, base = c.tu.Reverse(), c.rseq
			}
			r.take(wire.Frame{SrcIP: tu.SrcIP, DstIP: tu.DstIP, SrcPort: tu.SrcPort, DstPort: tu.DstPort,
				Seq: base + uint32(int16(off)), Flags: fl & 0x1f, Payload: data})
		}
		if n := len(r.Halves()); n != 0 && n != 2 {
			t.Fatalf("%d half connections", n)
		}
		seen := map[string]bool{}
		errs := map[wire.FourTuple]int{}
		for _, e := range r.Events() {
			switch e.Kind {
			case ULPDU:
				k := fmt.Sprint(e.Half, e.Seq)
				if seen[k] {
					t.Fatalf("FPDU at %d passed twice", e.Seq)
				}
				seen[k] = true
			case MPAError:
				errs[e.Half]++
				if errs[e.Half] > 1 {
					t.Fatalf("two errors on %v", e.Half)
				}
			}
		}
	})
}
