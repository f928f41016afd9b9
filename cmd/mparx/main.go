// Command mparx replays captures through the mparx MPA receiver.
//
// Usage:
//
//	mparx run [--engine golden|rtl] [--width 64|128|256|512] [DIR]
//	mparx replay [--json] [--permissive] [--engine golden|rtl] [--width 64|128|256|512]
//	             [--checksums verify|ignore|auto] [--port N]... [--learn=false] [--mtu N] CAPTURE|-|VECTOR_DIR
//
// run replays every conformance vector under DIR (default vectors): the
// golden receiver against the vector's expected results, and (engine rtl,
// the default) the RTL receiver beside the hardware model and the software
// slow path (the project's main job; `make run`).
//
// mparx builds as pure Go (CGO_ENABLED=0, `go install`): the golden engine.
// The RTL engine links the Verilator models through cgo and is built with
// the tag rtl after `make sim-libs` (`go run -tags rtl ./cmd/mparx`); a
// pure-Go mparx asked for --engine rtl says so in one line. run's default
// engine is rtl when it is built in, golden otherwise.
//
// replay reads a capture (pcap or pcapng; Ethernet, Linux cooked SLL and
// SLL2, raw IPv4/IPv6 and BSD loopback links; "-" reads standard input, so
// `tcpdump -w - ... | mparx replay -` analyses live traffic) as a stream,
// holding what the receiver holds and not the capture (a file is mapped
// into memory and its pages given back as the reading goes; the second
// pass over a file keeps from the first, for its first 8 million frames,
// which checksums verified and the CRCs of one-FPDU segments, about four
// octets a frame); it follows every
// TCP connection, over IPv4 or IPv6, whose
// streams start with MPA startup frames (as Wireshark's heuristic finds
// them, on the reassembled start of each stream) or that uses a --port,
// configures each half connection from them (markers, CRC, SeqStart), runs
// the golden receiver and prints a summary per half connection, or with
// --json one JSON object per line for every event, in the expected.jsonl
// format of the conformance vectors (vectors/README.md); notes on unverified
// checksums and the learned setup follow the table (on stderr with --json).
// A bare capture's checksums follow --checksums (auto: frames with the
// transmit-offload signature are taken unverified), and its DDP setup is
// learned from the traffic (--learn) so that ULPDUs are placed: from a
// first pass over a file, as the capture goes on standard input (the
// addresses of placements then differ). A frame the capture cut short
// (its snap length) is counted per half connection and taken as lost. On
// a terminal, a progress line on stderr shows frames, octets, rate and, for
// a file, the time left. Given a vector directory instead of a capture,
// replay uses the vector's setup
// (connections, STags, receive buffers), verifies every checksum, and its
// --json output equals expected.jsonl.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// errNoRTL is the one-line answer to --engine rtl from a pure-Go build
// (built without the tag rtl).
const errNoRTL = "mparx: this mparx is pure Go and has no RTL engine; in a checkout, build the Verilator models with `make sim-libs` and run `go run -tags rtl ./cmd/mparx ...` (`make run` does both)"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: mparx run [--engine golden|rtl] [--width 64|128|256|512] [DIR]
       mparx replay [--json] [--permissive] [--engine golden|rtl] [--width 64|128|256|512]
                    [--checksums verify|ignore|auto] [--port N]... [--learn=false] [--mtu N] CAPTURE|-|VECTOR_DIR`

// run is main without the process: it returns the exit status (0 ok, 1 a
// capture that could not be read to its end, or an RTL mismatch, 2 bad
// usage or unreadable input).
func run(args []string, stdout, stderr io.Writer) int {
	return runIO(args, os.Stdin, stdout, stderr)
}

// runIO is run reading "-" from stdin.
func runIO(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) >= 1 && args[0] == "run" {
		return runVectors(args[1:], stdout, stderr)
	}
	if len(args) < 1 || args[0] != "replay" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print one JSON object per event (the expected.jsonl format of vectors)")
	permissive := fs.Bool("permissive", false, "accept MPA Rev 0 startup frames (RFC 5044 Appendix C)")
	engine := fs.String("engine", "golden", "golden: the golden receiver; rtl: the RTL receiver (Verilator) with the software slow path, checked frame by frame against the hardware model")
	width := fs.Int("width", 64, "DATA_WIDTH of the RTL (engine rtl)")
	var copts captureOpts
	captureFlags(fs, &copts)
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	copts.permissive = *permissive
	path := fs.Arg(0)
	isDir := false
	if st, err := os.Stat(path); err == nil && st.IsDir() && path != "-" {
		isDir = true
	}
	if isDir && len(explicit(fs)) > 0 {
		fmt.Fprintf(stderr, "mparx: %s: a vector directory uses its setup and verifies every checksum (%s apply to captures)\n",
			path, strings.Join(explicit(fs), ", "))
		return 2
	}
	prog := newProgress(stderr)
	switch {
	case *engine == "rtl" && !rtlUsable(*width, stderr):
		return 2
	case *engine == "rtl":
		return replayRTL(path, isDir, stdin, *width, *jsonOut, copts, prog, stdout, stderr)
	case *engine != "golden":
		fmt.Fprintf(stderr, "mparx: engine %q is not available\n", *engine)
		return 2
	}
	out := newSink(stdout, *jsonOut)
	var r runSummary
	var notes []string
	status := 0
	if isDir {
		// A vector directory: its setup gives the connections, STags and
		// receive buffers, and the output ends with the buffer records, so
		// it can be compared line by line with expected.jsonl.
		v, err := vector.Load(path)
		if err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		g, err := replay.NewGolden(&v.Setup, rx.Config{Digests: true, OnEvent: out.event})
		if err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		r = g.Receiver
		for _, f := range v.Frames {
			g.Receiver.Frame(f.Data)
		}
		bufs := v.Setup.Buffers()
		contents := make([][]byte, len(bufs))
		for i, b := range bufs {
			contents[i] = g.Placer.Memory().Read(b.Addr, int(b.Len))
		}
		out.records(vector.BufferRecords(&v.Setup, contents, len(v.Frames)))
	} else {
		var err error
		var events *sink // the table needs no events
		if *jsonOut {
			events = out
		}
		r, notes, err = replayCapture(path, stdin, copts, events, prog)
		prog.clear()
		var re *readError
		switch {
		case errors.As(err, &re) && r != nil:
			// what was read is reported, then the error
			defer fmt.Fprintf(stderr, "mparx: %s: %v\n", path, err)
			status = 1
		case err != nil:
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
	}
	if err := out.flush(); err != nil {
		fmt.Fprintf(stderr, "mparx: %v\n", err)
		return 2
	}
	if *jsonOut {
		writeNotes(stderr, notes, true)
		return status
	}
	writeTable(stdout, r, nil)
	writeNotes(stdout, notes, false)
	return status
}

// writeTable prints the half connections of r and its frame counters; hw
// adds the FPDUPTR forms of FPDUs the hardware placed (--engine rtl).
func writeTable(w io.Writer, r runSummary, hw map[wire.FourTuple][2]int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HALF CONNECTION\tROLE\tSTATE\tREV\tIRD/ORD\tRTR\tMARKERS\tCRC\tSEQSTART\tFRAMES\tOCTETS\tDUP\tULPDUS\tDELIVERED\tDROPPED\tERROR")
	for _, h := range r.Halves() {
		role := "responder"
		if h.Initiator {
			role = "initiator"
		}
		errc := "-"
		if h.ErrorCode != 0 {
			errc = fmt.Sprintf("%d", h.ErrorCode)
		}
		rev, irdord, rtr := startupCols(h)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%v\t%v\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", h.Tuple, role, h.State,
			rev, irdord, rtr, onoff(h.Params.Markers), onoff(h.Params.CRC), h.Params.SeqStart, h.Frames, h.Octets, h.Dup, h.ULPDUs, h.Delivered, h.Dropped, errc)
	}
	s := r.Stats()
	fmt.Fprintf(tw, "\nframes %d, non-TCP %d, untracked TCP %d, dropped %d\n", s.Frames, s.NonTCP, s.Untracked, s.Dropped)
	var rfc, draft int
	for _, h := range r.Halves() {
		rfc += h.PtrRFC5044 + hw[h.Tuple][0]
		draft += h.PtrDraft01 + hw[h.Tuple][1]
	}
	fmt.Fprintf(tw, "FPDUPTR after a leading marker: %d FPDUs in the RFC 5044 form, %d in the draft-01 form (accepted)\n", rfc, draft)
	tw.Flush()
}

// startupCols returns the negotiated MPA revision, the IRD/ORD this half's
// sender declared in its enhanced header (RFC 6581) and the peer-to-peer RTR
// type, "-" where there is none (not established, or no enhanced header).
func startupCols(h rx.HalfSummary) (rev, irdord, rtr string) {
	rev, irdord, rtr = "-", "-", "-"
	n := h.Startup
	if h.State == rx.StateIdle || h.State == rx.StateStartup || h.State == rx.StateWaitPeer || (n == mpa.Negotiated{}) {
		return
	}
	rev = fmt.Sprint(n.Rev)
	if n.Enhanced {
		e := n.Responder
		if h.Initiator {
			e = n.Initiator
		}
		irdord = fmt.Sprintf("%d/%d", e.IRD, e.ORD)
		if n.RTR != mpa.RTRNone {
			rtr = n.RTR.String()
		}
	}
	return
}

func onoff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
