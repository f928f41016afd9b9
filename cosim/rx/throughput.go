package rx

import (
	"fmt"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Throughput is a measurement of the receiver on aligned traffic: one
// connection, markers and CRC on, RDMA Writes packed whole into segments of
// one MTU, frames back to back with no idle cycles and no backpressure.
type Throughput struct {
	Width      int
	FrameLen   int     // mean octets per data frame of the back-to-back run (without FCS)
	Frames     int     // data frames pushed back to back
	Beats      int     // their input beats
	Cycles     int     // from the first beat offered to the last beat accepted
	Util       float64 // Beats / Cycles
	Latency    int     // cycles from a lone frame's last input beat to its last host write
	HostWrites int
	// The integration top (MeasureThroughputTop): AW and W handshakes of
	// the back-to-back run, and W beats per burst.
	Bursts, AXIBeats int
	AvgBurst         float64
}

// MeasureThroughput runs v (aligned traffic, as Throughput says) through
// the RTL of the given width: frames one at a time beside the model until
// the hardware takes the first data frame, then every further data frame
// of the full frame length back to back (each checked afterwards against
// the model), then one more frame alone for the latency.
func MeasureThroughput(v *vector.Vector, width int) (Throughput, error) {
	return measureThroughput(v, width, func() (*RTL, error) { return Open(width) })
}

// MeasureThroughputTop is MeasureThroughput on the integration top
// (OpenTop) with host memory s; it also gives the bursts of the
// back-to-back run and their mean length in beats.
func MeasureThroughputTop(v *vector.Vector, width int, s Slave) (Throughput, error) {
	return measureThroughput(v, width, func() (*RTL, error) { return OpenTop(width, s) })
}

func measureThroughput(v *vector.Vector, width int, open func() (*RTL, error)) (Throughput, error) {
	t := Throughput{Width: width}
	v = replay.OnTheWire(v, MaxFrame)
	sys, err := replay.NewSystem(&v.Setup, Hardware(width))
	if err != nil {
		return t, err
	}
	r, err := open()
	if err != nil {
		return t, err
	}
	defer r.Close()
	if err := r.Ops(sys); err != nil {
		return t, err
	}
	mem := sys.HWPlacer.Memory()
	frames := v.Frames
	// Startup and the first data frames, one at a time, until the
	// hardware takes a frame of the full length.
	i := 0
	for ; i < len(frames); i++ {
		f := frames[i].Data
		res := sys.Frame(f)
		r.Frame(f)
		out, err := r.Drain()
		if err != nil {
			return t, err
		}
		if err := compare(res, f, out, mem); err != nil {
			return t, fmt.Errorf("frame %d: %w", i, err)
		}
		if err := r.Ops(sys); err != nil {
			return t, err
		}
		if res.Verdict == fastpath.Place {
			i++
			break
		}
	}
	// Back to back: the data frames that follow, but the last.
	end := len(frames) - 1
	if end-i < 8 {
		return t, fmt.Errorf("only %d data frames", end-i)
	}
	octets := 0
	for _, f := range frames[i:end] {
		octets += len(f.Data)
	}
	t.FrameLen = octets / (end - i)
	results := make([]fastpath.Result, 0, end-i)
	for _, f := range frames[i:end] {
		results = append(results, sys.Frame(f.Data))
		r.Frame(f.Data)
	}
	beats := int(r.src.Pending())
	start := r.Cycle()
	r.countReady = beats
	b0, w0 := r.BusStats()
	out, err := r.Drain()
	if err != nil {
		return t, err
	}
	if r.top != nil {
		b1, w1 := r.BusStats()
		t.Bursts, t.AXIBeats = b1-b0, w1-w0
		if t.Bursts > 0 {
			t.AvgBurst = float64(t.AXIBeats) / float64(t.Bursts)
		}
	}
	t.Frames, t.Beats, t.Cycles = end-i, beats, int(r.lastReady-start)+1
	t.Util = float64(t.Beats) / float64(t.Cycles)
	// Every frame was taken by the hardware and placed as the model did.
	nv := 0
	for _, e := range out.Events {
		if e.Kind == cycle.EvVerdict {
			if e.Verdict != 0 {
				return t, fmt.Errorf("a back-to-back frame was not placed: %+v", e)
			}
			nv++
		}
	}
	if nv != len(results) {
		return t, fmt.Errorf("%d verdicts for %d frames", nv, len(results))
	}
	t.HostWrites = len(out.Writes)
	placed := 0
	for _, res := range results {
		for _, e := range res.Events {
			if e.Kind == fastpath.Placed {
				placed++
			}
		}
	}
	if placed == 0 || t.HostWrites == 0 {
		return t, fmt.Errorf("nothing placed")
	}
	// One frame alone: latency from its last beat to its last host write.
	f := frames[end].Data
	res := sys.Frame(f)
	r.Frame(f)
	beats = int(r.src.Pending())
	r.countReady = beats
	out, err = r.Drain()
	if err != nil {
		return t, err
	}
	if err := compare(res, f, out, mem); err != nil {
		return t, fmt.Errorf("frame %d: %w", end, err)
	}
	if len(out.Writes) == 0 {
		return t, fmt.Errorf("the lone frame made no host write")
	}
	t.Latency = int(r.lastWrite - r.lastReady)
	return t, nil
}
