package rx

import (
	"testing"
	"time"

	"github.com/mparx/mparx/golden/mpa"
)

// BenchmarkReceiverAligned measures the receiver on aligned traffic: 1 KiB
// ULPDUs, markers and CRC on, FPDUs packed whole into 1460-octet segments.
// It reports the receiver's rate over the TCP payload octets and, measured in
// the same run over the same octets, the rate of raw hash/crc32 Castagnoli,
// and their ratio (metric "of-raw-crc").
func BenchmarkReceiverAligned(b *testing.B) {
	c := stdConn(true, true)
	fill(c, 4096, 1024)
	segs := c.i2r.Aligned(1460)
	frames := append(c.startupFrames(b), segFrames(b, c.tu, segs)...)
	octets := len(c.i2r.Data)

	// Baseline: raw CRC32C over the same payload octets, segment by segment.
	rawStart := time.Now()
	var sink uint32
	rawIters := 0
	for time.Since(rawStart) < 200*time.Millisecond {
		for _, g := range segs {
			sink ^= mpa.CRC32C(g.Data)
		}
		rawIters++
	}
	rawRate := float64(rawIters*octets) / time.Since(rawStart).Seconds()
	_ = sink

	b.SetBytes(int64(octets))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ulpdus := 0
		r := New(Config{OnEvent: func(e *Event) {
			if e.Kind == ULPDU {
				ulpdus++
			}
		}})
		r.AddConn(c.spec())
		for _, f := range frames {
			r.Frame(f)
		}
		if n := ulpdus; n != 4096 {
			b.Fatalf("passed %d ULPDUs", n)
		}
	}
	rate := float64(b.N*octets) / b.Elapsed().Seconds()
	b.ReportMetric(rawRate/1e6, "raw-crc-MB/s")
	b.ReportMetric(rate/rawRate, "of-raw-crc")
}

// BenchmarkReceiverParsed measures FrameParsed alone (the frames parsed
// beforehand, as a read-ahead goroutine parses them) on traffic of one
// 1400-octet ULPDU per segment, markers and CRC on: with the parse only,
// and with the segments' CRCs computed beforehand too (PrecomputeCRC),
// in the same run. MB/s counts TCP payload octets.
func BenchmarkReceiverParsed(b *testing.B) {
	c := stdConn(true, true)
	fill(c, 2048, 1400)
	frames := append(c.startupFrames(b), segFrames(b, c.tu, c.i2r.OnePerSegment())...)
	for _, pre := range []bool{false, true} {
		var ps []Parsed
		for _, f := range frames {
			p := Config{}.Parse(f)
			if pre {
				p.PrecomputeCRC()
			}
			ps = append(ps, p)
		}
		name := "parsed"
		if pre {
			name = "parsed+crc"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(c.i2r.Data)))
			b.ReportAllocs()
			for b.Loop() {
				r := New(Config{OnEvent: func(*Event) {}})
				r.AddConn(c.spec())
				for _, p := range ps {
					r.FrameParsed(p)
				}
			}
		})
	}
}
