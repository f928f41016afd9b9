package vecgen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/mparx/mparx/vecgen/vector"
)

// CoverageFile is the coverage map's file name in the vectors directory.
const CoverageFile = "COVERAGE.md"

// Select returns the scenarios named in a comma-separated list ("" or "all":
// every scenario).
func Select(names string) ([]*Scenario, error) {
	if names == "" || names == "all" {
		return Scenarios(), nil
	}
	var out []*Scenario
	for _, n := range strings.Split(names, ",") {
		s, ok := Lookup(strings.TrimSpace(n))
		if !ok {
			return nil, fmt.Errorf("vecgen: no scenario %q (see `vecgen list`)", n)
		}
		out = append(out, s)
	}
	return out, nil
}

// WriteAll generates the scenarios into dir/NAME, one directory each, and
// calls logf (if not nil) after each with a progress line.
func WriteAll(dir string, scenarios []*Scenario, o Options, logf func(format string, args ...any)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, s := range scenarios {
		b, err := Generate(s, o)
		if err != nil {
			return err
		}
		if err := vector.Write(filepath.Join(dir, s.Name), b.Vector); err != nil {
			return err
		}
		if logf != nil {
			var n int
			for _, f := range b.Vector.Frames {
				n += len(f.Data)
			}
			logf("[%d/%d] %-28s %7d frames %10d octets %6d records", i+1, len(scenarios), s.Name, len(b.Vector.Frames), n, len(b.Vector.Expected))
		}
	}
	return nil
}

// RemoveStale deletes vector directories under dir that belong to no
// scenario (for example after a scenario was renamed) and returns their
// names.
func RemoveStale(dir string) ([]string, error) {
	dirs, err := vector.Dirs(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var gone []string
	for _, d := range dirs {
		name := filepath.Base(d)
		if _, ok := Lookup(name); ok {
			continue
		}
		if err := os.RemoveAll(d); err != nil {
			return gone, err
		}
		gone = append(gone, name)
	}
	return gone, nil
}

// WritePcapSize writes a pcap of at least size octets of scenario s's
// traffic to w without holding it: rounds of the scenario (seed o.Seed,
// o.Seed+1, ... at scale o.Scale), each with its own hosts so that every
// round makes new connections, the frames written as they are emitted and
// stamped as a vector's are. No expected results: a capture to replay or
// to measure with. It returns the frames and octets written.
func WritePcapSize(w io.Writer, s *Scenario, o Options, size int64) (frames int, octets int64, err error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	pw := pcapgo.NewWriter(bw)
	if err := pw.WriteFileHeader(vector.Snaplen, layers.LinkTypeEthernet); err != nil {
		return 0, 0, err
	}
	octets = 24
	host := 1
	o.NoIntended = true
	for round := 0; octets < size && err == nil; round++ {
		r := o
		r.Seed, r.FirstHost = o.Seed+uint64(round), host
		r.Frame = func(b []byte) {
			if err != nil {
				return
			}
			ci := gopacket.CaptureInfo{Timestamp: vector.Epoch.Add(vector.FrameGap * time.Duration(frames)), CaptureLength: len(b), Length: len(b)}
			err = pw.WritePacket(ci, b)
			frames++
			octets += 16 + int64(len(b))
		}
		host = Build(s, r).gen.nextHost
	}
	if err == nil {
		err = bw.Flush()
	}
	return frames, octets, err
}
