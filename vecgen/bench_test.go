package vecgen

import (
	"bytes"
	"hash/crc32"
	"testing"

	"github.com/mparx/mparx/vecgen/vector"
)

// BenchmarkGenerate measures generation speed in MB of pcap per second for
// the aligned scenario (scale 8: about 2 MiB of RDMA payload, 1.5k frames):
// building the traffic, framing with markers and CRC, serializing with
// gopacket, and writing the pcap. "golden" adds the golden receiver run that
// computes the expected results. CRC32C over the same octets is reported in
// the same run as a baseline.
func BenchmarkGenerate(b *testing.B) {
	s, _ := Lookup("aligned")
	var pcapLen int
	var frames [][]byte
	b.Run("pcap", func(b *testing.B) {
		for b.Loop() {
			v := Build(s, Options{Seed: DefaultSeed, Scale: 8, NoIntended: true}).Vector
			var buf bytes.Buffer
			buf.Grow(pcapLen)
			if err := vector.WritePcap(&buf, v.Frames); err != nil {
				b.Fatal(err)
			}
			pcapLen = buf.Len()
			frames = v.Data()
		}
		b.SetBytes(int64(pcapLen))
	})
	b.Run("pcap+golden", func(b *testing.B) {
		for b.Loop() {
			bt, err := Generate(s, Options{Seed: DefaultSeed, Scale: 8, NoIntended: true})
			if err != nil {
				b.Fatal(err)
			}
			var buf bytes.Buffer
			buf.Grow(pcapLen)
			if err := vector.WritePcap(&buf, bt.Vector.Frames); err != nil {
				b.Fatal(err)
			}
		}
		b.SetBytes(int64(pcapLen))
	})
	b.Run("crc32c-baseline", func(b *testing.B) {
		tab := crc32.MakeTable(crc32.Castagnoli)
		for b.Loop() {
			for _, f := range frames {
				crc32.Checksum(f, tab)
			}
		}
		b.SetBytes(int64(pcapLen))
	})
}
