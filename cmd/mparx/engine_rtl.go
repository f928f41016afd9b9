//go:build rtl

package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/mparx/mparx/cmd/internal/capture"
	cosimrx "github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/learn"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// This file is the RTL engine: the Verilator models of mpa_rx linked through
// cgo (package cosim and sim/build/libmparxsim.a). It is built with the tag
// rtl (`make run`, `make test`); without it mparx is pure Go and
// engine_nortl.go stands in.

// rtlWidths are the DATA_WIDTHs of the RTL engine.
var rtlWidths = cosimrx.Widths

// rtlIPv6 reports whether the RTL engine's receiver parses IPv6.
const rtlIPv6 = cycle.ParsesIPv6

// hostMemory is the host memory behind the integration top's AXI4 master
// in the RTL engine (responses 16 to 64 cycles after a burst's last beat,
// out of order across IDs, a tenth of the cycles stalled on each channel).
var hostMemory = cosimrx.DefaultSlave

// checkRTL runs a vector through the RTL for `mparx run`: frame by frame
// through the integration top beside the hardware model with the software
// slow path (cosimrx.RunTop: configuration through the driver over
// AXI4-Lite, host memory behind AXI4), then mpa_rx in lockstep with the
// cycle model.
func checkRTL(v *vector.Vector, width int) (rtlResult, error) {
	rep, err := cosimrx.RunTop(v, width, hostMemory, cosimrx.Hooks{})
	res := rtlResult{hw: rep.Placed, sw: rep.Exceptions, writes: rep.Writes}
	if err != nil {
		return res, err
	}
	lock, err := cosimrx.RunLockstep(v, cosimrx.LockstepOptions{Width: width, Pattern: cycle.NoStall, Seed: 1})
	res.cycles, res.beats = lock.Cycles, lock.Beats
	return res, err
}

// replayRTL replays a capture (path, "-" for stdin) or a vector directory
// through the RTL receiver (cosimrx.RunSystemTop: the integration top
// beside the hardware model, with the software slow path, programmed
// through the driver over AXI4-Lite, host memory behind AXI4) and prints what hardware and
// software reported together, in the same forms as the golden engine. A
// bare capture is read as a stream; its frames are given to the hardware
// as the wire carried them (checksums completed where the policy takes
// them unverified) and a TCP segment longer than the wire carries cut to
// the MSS (wire.Segmenter), with the setup learned from the traffic (a first
// pass over a file; stdin's one frame ahead by a golden receiver); a frame
// the capture cut short is lost to both.
func replayRTL(path string, isDir bool, stdin io.Reader, width int, jsonOut bool, o captureOpts, prog *progress, stdout, stderr io.Writer) int {
	out := newSink(stdout, jsonOut)
	out.union = &unionCounts{}
	var (
		sys    *fastpath.System
		frames cosimrx.Frames
		v      *vector.Vector
		hooks  cosimrx.Hooks
		notes  []string
		tally  rx.ChecksumTally
		src    *source
		setup  *learn.Setup
		live   *learn.Live
		ahead  *rx.Receiver // stdin: learns the setup one frame ahead
		split  *wire.Segmenter
	)
	if isDir {
		var err error
		if v, err = vector.Load(path); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		if sys, err = replay.NewSystem(&v.Setup, cosimrx.Hardware(width)); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		// The frames the link carried, each numbered as the vector's
		// frame it was cut from (replay.OnTheWire).
		split = replay.NewSegmenter(cosimrx.MaxFrame)
		next, cur := 0, 0
		var pieces [][]byte
		frames = func() ([]byte, error) {
			if len(pieces) == 0 {
				if next == len(v.Frames) {
					return nil, io.EOF
				}
				cur, next = next, next+1
				pieces = split.Frames(v.Frames[cur].Data)
			}
			p := pieces[0]
			pieces = pieces[1:]
			return p, nil
		}
		hooks.Before = func(_ int, e cosimrx.Engines) error {
			e.Sys.SetFrame(cur)
			return nil
		}
	} else {
		if o.learn && path != "-" {
			p, err := openSource(path, stdin, prog)
			if err != nil {
				fmt.Fprintf(stderr, "mparx: %v\n", err)
				return 2
			}
			l := learn.NewLearner(o.rxConfig())
			prog.begin("learning the setup (pass 1 of 2)")
			_ = p.each(func(f *capture.Frame) error {
				if f.Truncated {
					l.Truncated(f.Data)
				} else {
					l.Frame(f.Data)
				}
				return nil
			})
			p.close()
			setup = l.Setup()
		}
		var err error
		if src, err = openSource(path, stdin, prog); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		defer src.close()
		sys = fastpath.NewSystemConfig(ddp.NewMemory(), o.rxConfig())
		sys.HW.Slots, sys.STagSlots, sys.RQDepth = cosimrx.Slots, cosimrx.STagSlots, cosimrx.RQDepth
		if o.learn && setup == nil {
			cfg := o.rxConfig()
			cfg.Placer = ddp.NewPlacer(ddp.NewMemory())
			cfg.Placer.Memory().SetDiscard(true)
			cfg.OnEvent = func(*rx.Event) {}
			ahead = rx.New(cfg)
			live = learn.NewLive(cfg.Placer, ahead.Half)
			setup = live.Setup()
		}
		cur := 0 // the capture's number of the frame going to the engines
		split = wire.NewSegmenter(o.mtu, cosimrx.MaxFrame)
		var pieces [][]byte // the rest of a segment cut to the MSS
		frames = func() ([]byte, error) {
			if len(pieces) > 0 {
				p := pieces[0]
				pieces = pieces[1:]
				return p, nil
			}
			for {
				f, err := src.r.Next()
				if err == io.EOF {
					return nil, io.EOF
				}
				if err != nil {
					return nil, &readError{err}
				}
				src.prog.tick(src.r)
				cur = f.Index
				if ahead != nil {
					live.SetFrame(cur)
					if f.Truncated {
						ahead.Truncated(f.Data)
					} else {
						ahead.Frame(f.Data)
					}
				}
				if f.Truncated {
					sys.SW.Truncated(f.Data) // lost to both: counted, not processed
					continue
				}
				w, u, host := o.checksums.Wire(f.Data)
				tally.Add(host, u)
				ps := split.Frames(w)
				if len(ps) > 1 {
					pieces = ps[1:]
					return ps[0], nil
				}
				if len(w) > 0 && &w[0] == &f.Data[0] {
					w = append([]byte(nil), w...) // the reader reuses its buffer
				}
				return w, nil
			}
		}
		hooks.Before = func(_ int, e cosimrx.Engines) error {
			e.Sys.SetFrame(cur)
			if setup == nil {
				return nil
			}
			return setup.Apply(cur, e.Sys, e.Sys.SW.Stream)
		}
	}
	sys.OnEvent = func(e rx.Event) { out.event(&e) }
	prog.begin("replay through the RTL")
	rep, err := cosimrx.RunSystemTop(sys, frames, width, hostMemory, hooks)
	prog.clear()
	var re *readError
	status := 0
	switch {
	case errors.As(err, &re):
		defer fmt.Fprintf(stderr, "mparx: %s: %v\n", path, err)
		status = 1
	case err != nil:
		out.flush()
		fmt.Fprintf(stderr, "mparx: rtl: %v\n", err)
		return 1
	}
	if !isDir {
		notes = checksumNotes(o.checksums, tally.Hosts(), true)
		if n := segmentNote(split); n != "" {
			notes = append(notes, n)
		}
		if n := truncationNote(sys.SW); n != "" {
			notes = append(notes, n)
		}
		switch {
		case live != nil:
			notes = append(notes, live.Summary())
		case setup != nil:
			notes = append(notes, setup.Summary())
		}
	}
	if v != nil {
		bufs := v.Setup.Buffers()
		contents := make([][]byte, len(bufs))
		for i, b := range bufs {
			contents[i] = sys.HWPlacer.Memory().Read(b.Addr, int(b.Len))
		}
		out.records(vector.BufferRecords(&v.Setup, contents, len(v.Frames)))
	}
	if err := out.flush(); err != nil {
		fmt.Fprintf(stderr, "mparx: %v\n", err)
		return 2
	}
	if jsonOut {
		writeNotes(stderr, notes, true)
		return status
	}
	writeTable(stdout, sys.SW, sys.HWPtrForms)
	writeNotes(stdout, append(notes, out.union.note()), false)
	fmt.Fprintf(stdout, "\nrtl: mpa_rx_axi_top DATA_WIDTH %d: %d frames, %d taken by the hardware (%d host writes), %d to software, %d cycles\n",
		width, rep.Frames, rep.Placed, rep.Writes, rep.Exceptions, rep.Cycles)
	return status
}
