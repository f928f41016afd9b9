package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/mparx/mparx/vecgen"
)

// benchCaptureMB is the size of the replay benchmark's capture in MB
// (MPARX_BENCH_REPLAY_MB, default 64).
func benchCaptureMB(b *testing.B) int64 {
	if s := os.Getenv("MPARX_BENCH_REPLAY_MB"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("MPARX_BENCH_REPLAY_MB=%q: want a positive number", s)
		}
		return n
	}
	return 64
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkReplayCapture runs `mparx replay` (the golden engine, the
// setup learned in a first pass) on a capture of the aligned scenario
// that vecgen writes, as `make bench-replay` does on 1 GB. MB/s is of
// capture on wall time; cpu-s/GB counts every goroutine's CPU time (the
// machine may be shared). The sub-benchmarks are the ways of running it,
// in the same run: the file read with read(2) into the read-ahead's
// batches or mapped, and one receiver per pass or one per core in each
// pass (the first pass's learners, the second's receivers).
func BenchmarkReplayCapture(b *testing.B) {
	path := filepath.Join(b.TempDir(), "aligned.pcap")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	s, _ := vecgen.Lookup("aligned")
	if _, _, err := vecgen.WritePcapSize(w, s, vecgen.Options{Seed: vecgen.DefaultSeed, Scale: 64}, benchCaptureMB(b)*1e6); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	defer func(m bool, l int) { mapCaptures, learnersSet = m, l }(mapCaptures, learnersSet)
	for _, tc := range []struct {
		name     string
		mapped   bool
		learners int
	}{
		{"read/learners=1", false, 1},
		{"mapped/learners=1", true, 1},
		{"mapped/learners=" + strconv.Itoa(learners()), true, learners()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			mapCaptures, learnersSet = tc.mapped, tc.learners
			b.SetBytes(st.Size())
			cpu := cpuTime(b)
			for b.Loop() {
				if rc := run([]string{"replay", path}, io.Discard, io.Discard); rc != 0 {
					b.Fatalf("replay: exit %d", rc)
				}
			}
			cpu = cpuTime(b) - cpu
			b.ReportMetric(cpu.Seconds()/(float64(b.N)*float64(st.Size())/1e9), "cpu-s/GB")
		})
	}
}
