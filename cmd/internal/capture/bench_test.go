package capture

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/google/gopacket/pcapgo"
)

// benchSize is the size of the benchmark captures in MiB
// (MPARX_BENCH_CAPTURE_MB, default 256).
func benchSize(b *testing.B) int {
	if s := os.Getenv("MPARX_BENCH_CAPTURE_MB"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("MPARX_BENCH_CAPTURE_MB=%q: want a positive number", s)
		}
		return n
	}
	return 256
}

// benchCapture writes a capture of about mib MiB of frames of frameLen
// octets (Ethernet frames, or as conv turns them into another link type).
func benchCapture(b *testing.B, dir string, ng bool, lt LinkType, frameLen, mib int, conv func([]byte) []byte, block uint32) (string, int) {
	b.Helper()
	eth := make([]byte, frameLen)
	for i := range eth {
		eth[i] = byte(i * 13)
	}
	copy(eth[12:], []byte{0x08, 0x00, 0x45})
	data := conv(eth)
	path := filepath.Join(dir, "bench")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const chunk = 1024 // records per write
	recs := make([]rec, chunk)
	for i := range recs {
		recs[i] = rec{data: data, t: time.Unix(1700000000, int64(i)*1000), block: block}
	}
	n := 0
	head := true
	for size := 0; size < mib<<20; {
		var out []byte
		if ng {
			out = writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: lt, tsresol: 9}}, recs: recs})
			if !head { // one section header and interface for the whole file
				out = out[ngHeaderLen(out):]
			}
		} else {
			out = writePcap(false, true, lt, recs)
			if !head {
				out = out[pcapFileHeader:]
			}
		}
		head = false
		w.Write(out)
		size += len(out)
		n += chunk
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, n
}

// ngHeaderLen is the length of the section header and the interface
// description block at the start of a pcapng file of one section.
func ngHeaderLen(b []byte) int {
	shb := int(b[4]) | int(b[5])<<8
	return shb + (int(b[shb+4]) | int(b[shb+5])<<8)
}

// BenchmarkRead reads a capture file from the page cache with Next, in
// GB/s of file, for each format and a link type that is read in place
// (Ethernet, Linux cooked v2) or copied (raw IP in a pcapng Simple Packet
// Block: no room in front of the data for an Ethernet header). The
// gopacket sub-benchmarks read the same Ethernet files with pcapgo's
// ZeroCopyReadPacketData, as a reference in the same run; the read
// sub-benchmarks read them with read(2) into the reader's buffer
// (NewReader on the open file, as standard input is read) rather than
// mapped (Open).
func BenchmarkRead(b *testing.B) {
	mib := benchSize(b)
	same := func(p []byte) []byte { return p }
	for _, tc := range []struct {
		name     string
		ng       bool
		lt       LinkType
		frameLen int
		conv     func([]byte) []byte
		block    uint32
	}{
		{"pcap/ethernet/1514", false, LinkEthernet, 1514, same, 0},
		{"pcap/ethernet/64", false, LinkEthernet, 64, same, 0},
		{"pcap/ethernet/9014", false, LinkEthernet, 9014, same, 0},
		{"pcapng/ethernet/1514", true, LinkEthernet, 1514, same, 0},
		{"pcapng/ethernet/64", true, LinkEthernet, 64, same, 0},
		{"pcapng/sll2/1514", true, LinkLinuxSLL2, 1514, toSLL2, 0},
		{"pcap/raw/1514", false, LinkRaw, 1514, toRaw, 0},
		{"pcapng/raw-spb/1514", true, LinkRaw, 1514, toRaw, ngSPB},
	} {
		path, frames := benchCapture(b, b.TempDir(), tc.ng, tc.lt, tc.frameLen, mib, tc.conv, tc.block)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			for b.Loop() {
				r, err := Open(path)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, func() error { _, err := r.Next(); return err }, frames)
				r.Close()
			}
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*frames), "ns/frame")
			b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N*frames), "allocs/frame")
		})
		b.Run("read/"+tc.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				r, err := NewReader(f)
				if err != nil {
					b.Fatal(err)
				}
				drain(b, func() error { _, err := r.Next(); return err }, frames)
				f.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*frames), "ns/frame")
		})
		if tc.lt != LinkEthernet {
			continue
		}
		b.Run("gopacket/"+tc.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				var next func() error
				if tc.ng {
					r, err := pcapgo.NewNgReader(f, pcapgo.DefaultNgReaderOptions)
					if err != nil {
						b.Fatal(err)
					}
					next = func() error { _, _, err := r.ZeroCopyReadPacketData(); return err }
				} else {
					r, err := pcapgo.NewReader(f)
					if err != nil {
						b.Fatal(err)
					}
					next = func() error { _, _, err := r.ZeroCopyReadPacketData(); return err }
				}
				drain(b, next, frames)
				f.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*frames), "ns/frame")
		})
	}
}

// drain calls next until io.EOF and checks the number of frames read.
func drain(b *testing.B, next func() error, want int) {
	n := 0
	for {
		err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	if n != want {
		b.Fatalf("%d frames, want %d", n, want)
	}
}
