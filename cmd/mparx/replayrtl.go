package main

import (
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/mparx/mparx/cosim/rxtop"
	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/vector"
)

// replayRTL replays a pcap or a vector directory through the RTL receiver
// (rxtop.RunSystem: the RTL beside the hardware model, with the software
// slow path) and prints what hardware and software reported together, in
// the same forms as the golden engine.
func replayRTL(path string, width int, jsonOut, permissive bool, stdout, stderr io.Writer) int {
	var (
		sys    *fastpath.System
		frames [][]byte
		v      *vector.Vector
	)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		if v, err = vector.Load(path); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		if sys, err = v.Setup.NewFastpathTables(rxtop.Slots, rxtop.STagSlots, rxtop.RQDepth); err != nil {
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
		sys = fastpath.NewSystemConfig(ddp.NewMemory(), rx.Config{Auto: true, Policy: mpa.StartupPolicy{Permissive: permissive}})
		sys.HW.Slots, sys.STagSlots, sys.RQDepth = rxtop.Slots, rxtop.STagSlots, rxtop.RQDepth
	}
	rep, err := rxtop.RunSystem(sys, frames, width, rxtop.Hooks{})
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
		recs = append(recs, vector.EventRecord(&evs[i]))
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
		b, err := vector.EncodeRecords(recs)
		if err == nil {
			_, err = stdout.Write(b)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		return 0
	}
	writeTable(stdout, sys.SW, sys.HWPtrForms)
	fmt.Fprintf(stdout, "\nrtl: mpa_rx DATA_WIDTH %d: %d frames, %d taken by the hardware (%d host writes), %d to software, %d cycles\n",
		width, rep.Frames, rep.Placed, rep.Writes, rep.Exceptions, rep.Cycles)
	return 0
}
