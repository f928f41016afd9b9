package cycle

import "fmt"

// Beat is one s_axis beat with the idle cycles before it.
type Beat struct {
	Gap  int
	Data []byte
	Keep uint64
	Last bool
	User bool
}

// Beats cuts a frame into s_axis beats of lanes octets (tkeep contiguous
// from lane 0 on the last beat), the first after gap idle cycles.
func Beats(frame []byte, lanes, gap int, fcsBad bool) []Beat {
	var out []Beat
	for off := 0; off < len(frame); off += lanes {
		end := min(off+lanes, len(frame))
		bt := Beat{Data: make([]byte, lanes), Keep: ^uint64(0)}
		copy(bt.Data, frame[off:end])
		if end-off < 64 {
			bt.Keep = 1<<(end-off) - 1
		}
		if off == 0 {
			bt.Gap = gap
		}
		if end == len(frame) {
			bt.Last, bt.User = true, fcsBad
		}
		out = append(out, bt)
	}
	return out
}

// ModelDUT runs the model alone, with an s_axis source in Go.
type ModelDUT struct {
	M     *Model
	Bench *Bench
	// Check, when set, sees every cycle's outputs (tests of the model).
	Check func(out Out)
	queue []Beat
	gap   int // idle cycles left before queue[0]
	beats uint64
}

// Push queues a frame.
func (d *ModelDUT) Push(frame []byte, gap int, fcsBad bool) {
	bs := Beats(frame, d.M.lanes, gap, fcsBad)
	if len(d.queue) == 0 {
		d.gap = bs[0].Gap
	}
	d.queue = append(d.queue, bs...)
}

// Run runs n cycles.
func (d *ModelDUT) Run(n int) error {
	for i := 0; i < n; i++ {
		var in In
		in.EvtReady, in.ExcReady, in.HostReady = d.Bench.Ready(d.M.Cycle())
		present := len(d.queue) > 0 && d.gap == 0
		if present {
			bt := d.queue[0]
			in.Valid, in.Data, in.Keep, in.Last, in.User = true, bt.Data, bt.Keep, bt.Last, bt.User
		} else if d.gap > 0 {
			d.gap--
		}
		out := d.M.Step(in)
		if d.Check != nil {
			d.Check(out)
		}
		d.Bench.Observe(in, out)
		if present && out.Ready {
			d.queue = d.queue[1:]
			d.beats++
			if len(d.queue) > 0 {
				d.gap = d.queue[0].Gap
			}
		}
		if d.M.Err != nil {
			return d.M.Err
		}
	}
	return nil
}

// Config makes a configuration write.
func (d *ModelDUT) Config(op, index int, data CfgData) error {
	for n := 0; n < 1000; n++ {
		in := In{CfgValid: true, CfgOp: op, CfgIndex: index, CfgData: data}
		in.EvtReady, in.ExcReady, in.HostReady = d.Bench.Ready(d.M.Cycle())
		out := d.M.Step(in)
		d.Bench.Observe(in, out)
		if d.M.Err != nil {
			return d.M.Err
		}
		if out.CfgReady {
			return nil
		}
	}
	return fmt.Errorf("%w: cfg_ready low", ErrStuck)
}

// Idle reports that nothing is queued or in flight.
func (d *ModelDUT) Idle() bool { return len(d.queue) == 0 && d.M.Idle() }

// Cycle returns the cycles run.
func (d *ModelDUT) Cycle() uint64 { return d.M.Cycle() }

// Beats returns the beats accepted.
func (d *ModelDUT) Beats() uint64 { return d.beats }

// Model returns the model.
func (d *ModelDUT) Model() *Model { return d.M }
