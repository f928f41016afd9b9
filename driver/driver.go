// Package driver programs and reads the receiver through its AXI4-Lite
// register block (docs/regmap.md) over any 32-bit register bus: it checks
// the block's identification, reads back the build parameters, writes
// contexts, STags, receive buffers and queue MSNs (in the configuration
// encodings of golden/cycle, docs/design.md section 4) and reads the event
// counters. It is pure Go: the bus can be a bus model in a co-simulation,
// a Go model of the register block (package driver/regblock), or a mapped
// PCIe BAR.
//
// The register offsets and counter indices (regs_gen.go) are generated
// from package driver/regmap by cmd/regmapgen (`go generate ./driver`).
package driver

import (
	"errors"
	"fmt"

	"github.com/mparx/mparx/golden/cycle"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
)

// Bus reads and writes 32-bit registers at byte offsets of the register
// block. An error is a failed transaction (a bus error response, a
// timeout).
type Bus interface {
	Read32(addr uint32) (uint32, error)
	Write32(addr, v uint32) error
}

// Params are the receiver's build parameters as the register block reports
// them.
type Params struct {
	DataWidth    int
	ConnCount    int
	STagCount    int
	RQDepth      int
	MaxFrame     int
	FIFODepth    int
	EvtLanes     int
	MaxInflight  int
	Window       uint32
	AXIIDWidth   int
	AXIMaxBursts int
	CounterWidth int
}

// ErrNotReceiver is returned by Open when the block does not identify as
// the receiver, or speaks another major version of the register map.
var ErrNotReceiver = errors.New("driver: not an mparx receiver register block")

// Driver is an opened register block.
type Driver struct {
	bus     Bus
	version uint32
	params  Params
}

// Open checks the block's identification and version and reads its build
// parameters.
func Open(bus Bus) (*Driver, error) {
	id, err := bus.Read32(RegID)
	if err != nil {
		return nil, fmt.Errorf("driver: identification: %w", err)
	}
	if id != IDValue {
		return nil, fmt.Errorf("%w: ID %#08x", ErrNotReceiver, id)
	}
	ver, err := bus.Read32(RegVersion)
	if err != nil {
		return nil, fmt.Errorf("driver: version: %w", err)
	}
	if ver>>16 != Version>>16 {
		return nil, fmt.Errorf("%w: register map version %d.%d, the driver speaks %d.x", ErrNotReceiver, ver>>16, ver>>8&0xff, Version>>16)
	}
	d := &Driver{bus: bus, version: ver}
	vals := map[string]uint32{}
	for _, p := range paramRegs {
		v, err := bus.Read32(p.Offset)
		if err != nil {
			return nil, fmt.Errorf("driver: parameter %s: %w", p.Name, err)
		}
		vals[p.Name] = v
	}
	d.params = Params{
		DataWidth: int(vals["DATA_WIDTH"]), ConnCount: int(vals["CONN_COUNT"]), STagCount: int(vals["STAG_COUNT"]),
		RQDepth: int(vals["RQ_DEPTH"]), MaxFrame: int(vals["MAX_FRAME"]), FIFODepth: int(vals["FIFO_DEPTH"]),
		EvtLanes: int(vals["EVT_LANES"]), MaxInflight: int(vals["MAX_INFLIGHT"]), Window: vals["WINDOW"],
		AXIIDWidth: int(vals["AXI_ID_WIDTH"]), AXIMaxBursts: int(vals["AXI_MAX_BURSTS"]), CounterWidth: int(vals["COUNTER_WIDTH"]),
	}
	for _, n := range []int{d.params.ConnCount, d.params.STagCount} {
		if n <= 0 || n&(n-1) != 0 {
			return nil, fmt.Errorf("driver: table size %d is not a power of two", n)
		}
	}
	return d, nil
}

// Params returns the build parameters read at Open.
func (d *Driver) Params() Params { return d.params }

// Version returns the register map version the block reports.
func (d *Driver) Version() uint32 { return d.version }

// Config sends one configuration word: the non-zero 32-bit words of data
// to the staging registers (which are zero after every command), the
// index, then the operation (cycle.OpContext, OpSTag, OpPost, OpMSN or
// OpAddr6). It returns once the receiver took the word.
func (d *Driver) Config(op, index int, data cycle.CfgData) error {
	if op < 0 || op > cycle.OpAddr6 {
		return fmt.Errorf("driver: configuration operation %d", op)
	}
	if index < 0 || index > 0xffff {
		return fmt.Errorf("driver: configuration index %d", index)
	}
	for i := 0; i < CfgDataWords; i++ {
		w := uint32(data[i/2] >> (32 * (i % 2)))
		if w == 0 {
			continue
		}
		if err := d.bus.Write32(RegCfgData+4*uint32(i), w); err != nil {
			return fmt.Errorf("driver: staging word %d: %w", i, err)
		}
	}
	if err := d.bus.Write32(RegCfgIndex, uint32(index)); err != nil {
		return fmt.Errorf("driver: index: %w", err)
	}
	if err := d.bus.Write32(RegCfgCmd, uint32(op)); err != nil {
		return fmt.Errorf("driver: command %d: %w", op, err)
	}
	return nil
}

// Slot returns the context slot of a half connection.
func (d *Driver) Slot(t wire.FourTuple) int { return fastpath.Index(t, d.params.ConnCount) }

// WriteContext programs the context of half connection t in its slot: one
// configuration word, or for IPv6 two (the addresses, then the context).
func (d *Driver) WriteContext(t wire.FourTuple, c fastpath.Context) error {
	for _, w := range cycle.EncodeContextWrites(t, c, d.Slot(t)) {
		if err := d.Config(w.Op, w.Index, w.Data); err != nil {
			return err
		}
	}
	return nil
}

// ClearContext writes an invalid entry to a context slot.
func (d *Driver) ClearContext(slot int) error {
	return d.Config(cycle.OpContext, slot, cycle.CfgData{})
}

// WriteSTag writes an STag entry (Valid false invalidates it) at the
// STag's index, STag[31:8] modulo the table size.
func (d *Driver) WriteSTag(e cycle.STagEntry) error {
	return d.Config(cycle.OpSTag, int(e.STag>>8)&(d.params.STagCount-1), cycle.EncodeSTag(e))
}

// PostRecv posts (Valid) or clears a receive buffer of half connection t.
func (d *Driver) PostRecv(t wire.FourTuple, e cycle.RecvEntry) error {
	return d.Config(cycle.OpPost, d.Slot(t), cycle.EncodeRecv(e))
}

// SetMSN sets the current MSN of queue qn of half connection t.
func (d *Driver) SetMSN(t wire.FourTuple, qn, msn uint32) error {
	return d.Config(cycle.OpMSN, d.Slot(t), cycle.EncodeRecv(cycle.RecvEntry{QN: qn, MSN: msn}))
}

// Apply makes one configuration write of the software model
// (fastpath.System's Ops).
func (d *Driver) Apply(o fastpath.Op) error {
	switch o.Kind {
	case fastpath.OpContext:
		return d.WriteContext(o.Half, o.Ctx)
	case fastpath.OpSTag:
		return d.WriteSTag(cycle.STagEntry{Valid: o.Valid, STag: o.STag, Stream: o.Stream, Base: o.Base, Length: o.Len})
	case fastpath.OpPost:
		return d.PostRecv(o.Half, cycle.RecvEntry{QN: o.QN, Valid: o.Valid, MSN: o.MSN, Stream: o.Stream, Base: o.Base, Length: uint32(o.Len)})
	case fastpath.OpMSN:
		return d.SetMSN(o.Half, o.QN, o.MSN)
	}
	return fmt.Errorf("driver: configuration write of kind %d", o.Kind)
}

// Status returns the configuration words sent (modulo 2^16) and whether
// one waits for the receiver.
func (d *Driver) Status() (sent int, busy bool, err error) {
	v, err := d.bus.Read32(RegCfgStatus)
	if err != nil {
		return 0, false, fmt.Errorf("driver: status: %w", err)
	}
	return int(v >> 16), v&1 != 0, nil
}

// Counter reads event counter i (Cnt*): its low word, then its high word
// (latched by the low word's read).
func (d *Driver) Counter(i int) (uint64, error) {
	if i < 0 || i >= NumCounters {
		return 0, fmt.Errorf("driver: no counter %d", i)
	}
	a := RegCounters + 8*uint32(i)
	lo, err := d.bus.Read32(a)
	if err != nil {
		return 0, fmt.Errorf("driver: counter %s: %w", CounterNames[i], err)
	}
	hi, err := d.bus.Read32(a + 4)
	if err != nil {
		return 0, fmt.Errorf("driver: counter %s: %w", CounterNames[i], err)
	}
	return uint64(hi)<<32 | uint64(lo), nil
}

// Counters are all event counters, indexed by Cnt*.
type Counters [NumCounters]uint64

// Map returns the counters by name.
func (c Counters) Map() map[string]uint64 {
	m := make(map[string]uint64, NumCounters)
	for i, v := range c {
		m[CounterNames[i]] = v
	}
	return m
}

// Counters reads every event counter.
func (d *Driver) Counters() (Counters, error) {
	var c Counters
	for i := range c {
		v, err := d.Counter(i)
		if err != nil {
			return c, err
		}
		c[i] = v
	}
	return c, nil
}

// HostFault reports whether a host write was answered with an error
// (HOST_FAULT[0]; from then on PLACED and DELIVERED leave as DDP_ERROR
// kind DDPKindHostWrite) and that response (2 SLVERR, 3 DECERR).
func (d *Driver) HostFault() (fault bool, resp uint8, err error) {
	v, err := d.bus.Read32(RegHostFault)
	if err != nil {
		return false, 0, fmt.Errorf("driver: host fault: %w", err)
	}
	return v&1 != 0, uint8(v >> 1 & 3), nil
}

// ClearHostFault clears the host write fault: events are reported as the
// receiver made them again.
func (d *Driver) ClearHostFault() error {
	return d.bus.Write32(RegHostFault, 1)
}

// DDPKindHostWrite is the DDP kind of the DDP_ERROR events that replace
// PLACED and DELIVERED while the host write fault is set.
const DDPKindHostWrite = 13

// ClearCounters sets every counter to zero.
func (d *Driver) ClearCounters() error {
	return d.bus.Write32(RegCntCtrl, 1)
}
