//go:build rtl

package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	cosimrx "github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/learn"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// This file is the RTL engine: the Verilator models of mpa_rx linked through
// cgo (package cosim and sim/build/libmparxsim.a). It is built with the tag
// rtl (`make run`, `make test`); without it mparx is pure Go and
// engine_nortl.go stands in.

// rtlWidths are the DATA_WIDTHs of the RTL engine.
var rtlWidths = cosimrx.Widths

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

// replayRTL replays a pcap or a vector directory through the RTL receiver
// (cosimrx.RunSystemTop: the integration top beside the hardware model,
// with the software slow path, programmed through the driver) and prints what hardware and software reported together, in
// the same forms as the golden engine. A bare capture's frames are given
// to the hardware as the wire carried them (checksums completed where the
// policy takes them unverified), with the setup learned from the traffic.
func replayRTL(path string, width int, jsonOut bool, o captureOpts, stdout, stderr io.Writer) int {
	var (
		sys    *fastpath.System
		frames [][]byte
		v      *vector.Vector
		hooks  cosimrx.Hooks
		notes  []string
	)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if v, err = vector.Load(path); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		if sys, err = replay.NewSystem(&v.Setup, cosimrx.Slots, cosimrx.STagSlots, cosimrx.RQDepth); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		for _, f := range v.Frames {
			frames = append(frames, f.Data)
		}
	} else {
		if frames, err = readPcap(path); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		var hosts []rx.HostChecksums
		frames, hosts = wireFrames(frames, o.checksums)
		notes = checksumNotes(o.checksums, hosts, true)
		sys = fastpath.NewSystemConfig(ddp.NewMemory(), o.rxConfig())
		sys.HW.Slots, sys.STagSlots, sys.RQDepth = cosimrx.Slots, cosimrx.STagSlots, cosimrx.RQDepth
		if o.learn {
			setup := learn.Learn(frames, o.rxConfig())
			hooks.Before = func(i int, e cosimrx.Engines) error { return setup.Apply(i, e.Sys, e.Sys.SW.Stream) }
			notes = append(notes, setup.Summary())
		}
	}
	rep, err := cosimrx.RunSystemTop(sys, frames, width, hostMemory, hooks)
	if err != nil {
		fmt.Fprintf(stderr, "mparx: rtl: %v\n", err)
		return 1
	}
	// Within a frame the hardware's and software's reports come in the
	// golden receiver's order; across frames they are in frame order.
	evs := append([]rx.Event(nil), sys.Events...)
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Frame < evs[j].Frame })
	var recs []vector.Record
	for i := range evs {
		recs = append(recs, replay.EventRecord(&evs[i]))
	}
	if v != nil {
		bufs := v.Setup.Buffers()
		contents := make([][]byte, len(bufs))
		for i, b := range bufs {
			contents[i] = sys.HWPlacer.Memory().Read(b.Addr, int(b.Len))
		}
		recs = append(recs, vector.BufferRecords(&v.Setup, contents, len(v.Frames))...)
	}
	if jsonOut {
		return writeJSON(stdout, stderr, recs, notes)
	}
	writeTable(stdout, sys.SW, sys.HWPtrForms)
	writeNotes(stdout, append(notes, unionNote(evs)), false)
	fmt.Fprintf(stdout, "\nrtl: mpa_rx_axi_top DATA_WIDTH %d: %d frames, %d taken by the hardware (%d host writes), %d to software, %d cycles\n",
		width, rep.Frames, rep.Placed, rep.Writes, rep.Exceptions, rep.Cycles)
	return 0
}
