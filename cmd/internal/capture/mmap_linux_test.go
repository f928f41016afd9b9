package capture

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rssFile is the process's resident file-backed memory (mapped file
// pages), in octets.
func rssFile(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "RssFile:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no RssFile in /proc/self/status")
	return 0
}

// TestMappedResidentBounded reads a 64 MiB capture mapped, with Retain
// (releasing as a read-ahead does) and without, and expects the mapped
// pages resident at any time to stay within a few release chunks, not to
// grow with the file.
func TestMappedResidentBounded(t *testing.T) {
	d := make([]byte, 1500)
	for i := range d {
		d[i] = byte(i * 7)
	}
	recs := make([]rec, 1024)
	for i := range recs {
		recs[i] = rec{data: d, t: time.Unix(1, int64(i))}
	}
	one := writePcap(false, false, LinkEthernet, recs)
	b := append([]byte(nil), one...)
	for len(b) < 64<<20 {
		b = append(b, one[pcapFileHeader:]...)
	}
	path := writeTemp(t, "big.pcap", b)
	for _, retain := range []bool{false, true} {
		r, err := Open(path)
		require.NoError(t, err)
		require.True(t, r.Mapped())
		if retain {
			require.True(t, r.Retain())
		}
		base := rssFile(t)
		peak := base
		for n := 0; ; n++ {
			f, err := r.Next()
			if err != nil {
				break
			}
			if retain && n%512 == 0 {
				r.Release(f.Offset)
			}
			if n%4096 == 0 {
				peak = max(peak, rssFile(t))
			}
		}
		require.NoError(t, r.Close())
		assert.Less(t, peak-base, int64(4*ReleaseChunk), "retain %v: resident mapped octets grew by %d reading %d", retain, peak-base, len(b))
	}
}
