package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/learn"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
)

// captureOpts is how replay treats a bare capture (a pcap without a
// vector's setup).
type captureOpts struct {
	permissive bool
	checksums  rx.Checksums
	ports      []uint16
	learn      bool
	mtu        int
}

// captureFlags declares the bare-capture flags on fs, with their defaults
// in o.
func captureFlags(fs *flag.FlagSet, o *captureOpts) {
	o.checksums, o.learn = rx.ChecksumsAuto, true
	fs.Func("checksums", "verify|ignore|auto (default auto): auto takes a frame whose TCP checksum field holds the transmit-offload signature (the pseudo-header sum, left for the NIC on a capture taken on the sending host) unverified; pcap files only", func(s string) error {
		c, err := rx.ParseChecksums(s)
		o.checksums = c
		return err
	})
	fs.Func("port", "TCP port known to speak MPA (repeatable): its connections are MPA from their first octet, a wrong startup key or Rev is code 4 (Wireshark's Decode As); pcap files only", func(s string) error {
		p, err := strconv.ParseUint(s, 10, 16)
		if err != nil || p == 0 {
			return fmt.Errorf("port %q: want 1-65535", s)
		}
		o.ports = append(o.ports, uint16(p))
		return nil
	})
	fs.IntVar(&o.mtu, "mtu", 1500, "the link's IP MTU: --engine rtl cuts a TCP segment longer than the wire carries (a capture taken with TSO or GRO, or on loopback) to the MSS of the peer's SYN, or without one to this MTU; pcap files only")
	fs.BoolVar(&o.learn, "learn", true, "learn the DDP setup from the traffic (an STag per tagged buffer, a receive buffer per message), so ULPDUs are placed; pcap files only")
}

// explicit returns the bare-capture flags given on the command line.
func explicit(fs *flag.FlagSet) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "checksums", "port", "learn", "mtu":
			out = append(out, "--"+f.Name)
		}
	})
	return out
}

// rxConfig is the golden receiver's configuration for a bare capture.
func (o captureOpts) rxConfig() rx.Config {
	return rx.Config{Auto: true, Ports: o.ports, Checksums: o.checksums, Policy: mpa.StartupPolicy{Permissive: o.permissive}}
}

// replayCapture runs the golden receiver over a bare capture read as a
// stream (path, "-" for stdin) and returns it with the notes replay prints
// about the run. out, when set, takes the events (--json: with the ULPDU
// events' SHA-256). The
// learned setup of a file comes from a first pass over it; stdin's is
// learned as it goes. An error reading the capture after it was opened is
// a *readError, returned with the receiver as it stands.
func replayCapture(path string, stdin io.Reader, o captureOpts, out *sink, prog *progress) (runSummary, []string, error) {
	var onEvent func(*rx.Event)
	digests := out != nil && out.enc != nil
	if out != nil {
		onEvent = out.event
	}
	var setup *learn.Setup
	var conns []rx.Conn
	var memo *frameMemo
	if o.learn && path != "-" {
		src, err := openSource(path, stdin, prog)
		if err != nil {
			return nil, nil, err
		}
		if memoFrames {
			memo = &frameMemo{}
			src.memo, src.memoWrite = memo, true
		}
		// One learner per core, each taking the frames of its own
		// connections, in goroutines of their own.
		l := learn.NewSharded(o.rxConfig(), learners())
		prog.begin("learning the setup (pass 1 of 2)")
		// A read error stops the learning where the second pass will stop.
		_ = src.eachSharded(o.rxConfig(), l.N(), l.Shard, func(k int, f *parsedFrame) {
			if f.truncated {
				l.Learner(k).TruncatedAt(f.index, f.p.Data)
			} else {
				l.Learner(k).FrameParsedAt(f.index, f.p)
			}
		})
		src.close()
		setup, conns = l.Setup(), l.Conns()
		l = nil
		runtime.GC() // the learners' state goes before the second pass's grows
	}
	if setup != nil && (out == nil || out.union == nil) && learners() > 1 {
		// The second pass, too, runs one receiver per core (--json: the
		// events written in the order one receiver reports them).
		src, err := openSource(path, stdin, prog)
		if err != nil {
			return nil, nil, err
		}
		src.memo = memo
		prog.begin("replay (pass 2 of 2)")
		var write func([]byte)
		if digests {
			write = out.raw
		}
		run, ok, err := replaySharded(src, o.rxConfig(), setup, conns, learners(), write)
		src.close()
		if ok {
			var re *readError
			if err != nil && !errors.As(err, &re) {
				return nil, nil, err
			}
			return run, captureNotes(o, run, setup.Summary()), err
		}
		if write != nil {
			// The events are written: a second run cannot take them back.
			return nil, nil, errors.New("replay: the second pass did not find the connections where the first did, or its learned setup failed; run without --json for the table")
		}
		// The run did not find the connections where the first pass did,
		// or its setup failed: one receiver takes every frame again.
		setup.Reset()
	}
	src, err := openSource(path, stdin, prog)
	if err != nil {
		return nil, nil, err
	}
	defer src.close()
	src.memo = memo // what the first pass found of each frame
	cfg := o.rxConfig()
	cfg.Digests, cfg.OnEvent = digests, onEvent
	if cfg.OnEvent == nil {
		cfg.OnEvent = func(*rx.Event) {} // the receiver keeps no events
	}
	var live *learn.Live
	if o.learn {
		// What was placed where is reported; the buffers are never read.
		cfg.Placer = ddp.NewPlacer(ddp.NewMemory())
		cfg.Placer.Memory().SetDiscard(true)
	}
	r := rx.New(cfg)
	label := "replay"
	switch {
	case setup != nil:
		label = "replay (pass 2 of 2)"
	case o.learn:
		live = learn.NewLive(cfg.Placer, r.Half)
	}
	prog.begin(label)
	err = src.eachParsed(cfg, func(f *parsedFrame) error {
		if setup != nil {
			if err := setup.Apply(f.index, cfg.Placer, r.Stream); err != nil {
				return err
			}
		}
		if live != nil {
			live.SetFrame(f.index)
		}
		if f.truncated {
			r.Truncated(f.p.Data)
		} else {
			r.FrameParsed(f.p)
		}
		return nil
	})
	var re *readError
	if err != nil && !errors.As(err, &re) {
		return nil, nil, err
	}
	learned := ""
	switch {
	case setup != nil:
		learned = setup.Summary()
	case live != nil:
		learned = live.Summary()
	}
	return r, captureNotes(o, r, learned), err
}

// runSummary is what replay reports of a run: a receiver's, or the merged
// view of several (shardedRun).
type runSummary interface {
	Halves() []rx.HalfSummary
	Stats() rx.Stats
	UnverifiedHosts() []rx.HostChecksums
}

// captureNotes are the notes replay prints after a bare capture's run:
// the checksums, the truncated frames, and learned, what was learned ("":
// nothing).
func captureNotes(o captureOpts, r runSummary, learned string) []string {
	notes := checksumNotes(o.checksums, r.UnverifiedHosts(), false)
	if n := truncationNote(r); n != "" {
		notes = append(notes, n)
	}
	if learned != "" {
		notes = append(notes, learned)
	}
	return notes
}

// memoFrames makes the first pass over a file note what it found of each
// frame for the second (frameMemo); tests compare with and without.
var memoFrames = true

// learners is how many learners learn a capture's setup: one per core the
// process may use (GOMAXPROCS), at most maxLearners.
func learners() int {
	if learnersSet > 0 {
		return learnersSet
	}
	return min(runtime.GOMAXPROCS(0), maxLearners)
}

// learnersSet, when not zero, is the number of learners (benchmarks).
var learnersSet int

// maxLearners bounds the learners: each holds a receiver's state for its
// connections, and more than the cores gain nothing.
const maxLearners = 8

// checksumNotes says how many checksums went unverified, per sending host,
// and why. completed says the frames were given to the hardware with their
// checksums completed.
func checksumNotes(c rx.Checksums, hosts []rx.HostChecksums, completed bool) []string {
	n, dropped, droppedIP := 0, 0, 0
	var per, hint []string
	for _, h := range hosts {
		if h.DroppedOffloaded > 0 {
			dropped += h.DroppedOffloaded
			droppedIP += h.DroppedOffloadedIP
			hint = append(hint, fmt.Sprintf("%s: %d", h.Host, h.DroppedOffloaded))
		}
		n += h.Offloaded + h.Ignored
		host := h.Host.String()
		switch {
		case h.Offloaded > 0 && h.OffloadedIP > 0:
			per = append(per, fmt.Sprintf("%s: %d with the transmit checksum offload signature (the TCP checksum field holds the pseudo-header sum, or, in %d of them, the IPv4 header checksum field holds 0; the capture was taken on that host before its NIC completed the checksums)", host, h.Offloaded, h.OffloadedIP))
		case h.Offloaded > 0:
			per = append(per, fmt.Sprintf("%s: %d with the transmit checksum offload signature (the field holds the pseudo-header sum; the capture was taken on that host before its NIC completed the checksum)", host, h.Offloaded))
		}
		if h.Ignored > 0 {
			per = append(per, fmt.Sprintf("%s: %d with a checksum that does not verify", host, h.Ignored))
		}
	}
	if n == 0 && dropped > 0 {
		which := "TCP checksum"
		if droppedIP > 0 {
			which = "TCP or IPv4 header checksum"
		}
		return []string{fmt.Sprintf("checksums %v: no frame taken unverified; %d frames dropped for their %s hold the transmit checksum offload signature (%s): a capture taken on the sending host? --checksums auto takes them",
			c, dropped, which, strings.Join(hint, ", "))}
	}
	if n == 0 {
		return []string{fmt.Sprintf("checksums %v: no frame taken unverified", c)}
	}
	out := []string{fmt.Sprintf("checksums %v: %d frames taken with a checksum not verified; %s", c, n, strings.Join(per, "; "))}
	if completed {
		out = append(out, fmt.Sprintf("rtl: those %d frames were given to the hardware with their checksums completed, as the wire carried them", n))
	}
	return out
}

// writeNotes prints the notes after the table, or to stderr with --json
// (stdout keeps the expected.jsonl format).
func writeNotes(w io.Writer, notes []string, jsonOut bool) {
	for _, n := range notes {
		if jsonOut {
			fmt.Fprintf(w, "mparx: %s\n", n)
		} else {
			fmt.Fprintln(w, n)
		}
	}
}
