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
