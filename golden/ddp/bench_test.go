package ddp

import (
	"testing"
)

// BenchmarkPlace places 1 KiB tagged segments (RDMA Write) round a 1 MiB
// tagged buffer, and 1 KiB untagged segments into one 64 KiB receive
// buffer, with the write log off (it would keep a copy of every payload).
// MB/s counts ULPDU octets.
func BenchmarkPlace(b *testing.B) {
	const segLen, region = 1024, 1 << 20
	b.Run("tagged-1KiB", func(b *testing.B) {
		mem := NewMemory()
		mem.SetLogging(false)
		p := NewPlacer(mem)
		if err := p.RegisterSTag(0x1234, s1, 0x40000000, region); err != nil {
			b.Fatal(err)
		}
		segs := make([][]byte, region/segLen)
		for i := range segs {
			segs[i] = segment(Header{Tagged: true, Version: 1, STag: 0x1234, TO: uint64(i * segLen)}, segLen)
		}
		b.SetBytes(int64(len(segs[0])))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := p.Place(s1, segs[i%len(segs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("untagged-1KiB", func(b *testing.B) {
		mem := NewMemory()
		mem.SetLogging(false)
		p := NewPlacer(mem)
		if err := p.PostRecv(s1, 0, 0x40000000, 64<<10); err != nil {
			b.Fatal(err)
		}
		segs := make([][]byte, 64)
		for i := range segs {
			segs[i] = segment(Header{Version: 1, MSN: 1, MO: uint32(i * segLen)}, segLen)
		}
		b.SetBytes(int64(len(segs[0])))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := p.Place(s1, segs[i%len(segs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkPlaceError places segments that find no buffer (what a learner
// of a capture's setup sees for every ULPDU): the error is made once and
// given again for the same segment (errorCache), its detail is not
// formatted. A reference in the same run makes the same
// error value with its numbers boxed for fmt, as a plain errorf would.
func BenchmarkPlaceError(b *testing.B) {
	p := NewPlacer(NewMemory())
	tag := segment(Header{Tagged: true, Version: 1, STag: 0x1234, TO: 4096}, 64)
	untag := segment(Header{Version: 1, MSN: 3, MO: 128}, 64)
	var sink error
	b.Run("tagged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, sink = p.Place(s1, tag)
		}
	})
	b.Run("untagged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, sink = p.Place(s1, untag)
		}
	})
	b.Run("boxed-reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink = boxedErrorf(KindNoBuffer, "MSN %d on QN %d, %d buffers posted", uint32(3), uint32(0), 0)
		}
	})
	_ = sink
}

// boxedError is the error with its numbers kept as fmt's operands.
type boxedError struct {
	Kind   Kind
	format string
	args   []any
}

func (e *boxedError) Error() string { return e.Kind.Error() }

//go:noinline
func boxedErrorf(k Kind, format string, args ...any) error {
	return &boxedError{Kind: k, format: format, args: args}
}
