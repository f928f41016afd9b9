// Package regblock is a Go model of the receiver's AXI4-Lite register
// block, rtl/mpa_rx_axil_regs.v, at the level of register reads and
// writes (docs/regmap.md): identification, build parameters, the
// configuration staging registers and command (a command hands the word to
// a Sink, the receiver's configuration port), and the event counters,
// which count the event lanes and host-memory events given to it. It is a
// driver.Bus, so the driver runs against it without RTL.
package regblock

import (
	"fmt"

	"github.com/mparx/mparx/driver"
	"github.com/mparx/mparx/golden/cycle"
)

// Sink takes a configuration word (cycle.OpContext ... OpAddr6); an error
// fails the command's write.
type Sink func(op, index int, data cycle.CfgData) error

// Block is the register block.
type Block struct {
	p     driver.Params
	sink  Sink
	stage [driver.CfgDataWords]uint32
	index uint32
	op    uint32
	sent  uint16
	cnt   [driver.NumCounters]uint64
	hi    uint32
	fault uint32
	ro    map[uint32]uint32
}

// Fault sets the host write fault as the completion gate does: HOST_FAULT
// reads 1 | resp << 1 until software clears it; a clear leaves the
// response in bits [2:1].
func (b *Block) Fault(resp uint8) {
	if b.fault&1 == 0 {
		b.fault = 1 | uint32(resp&3)<<1
	}
}

// New returns a block that reports p and sends configuration words to
// sink (which may be nil).
func New(p driver.Params, sink Sink) *Block { return &Block{p: p, sink: sink, ro: ReadOnly(p)} }

// ErrSlvErr is the error of a transaction the block answers SLVERR.
type ErrSlvErr struct {
	Write bool
	Addr  uint32
}

func (e *ErrSlvErr) Error() string {
	if e.Write {
		return fmt.Sprintf("regblock: write to %#x answered SLVERR", e.Addr)
	}
	return fmt.Sprintf("regblock: read of %#x answered SLVERR", e.Addr)
}

// ReadOnly returns the read-only words of a block with parameters p by
// address, with what they read: the identification, the version and the
// build parameters.
func ReadOnly(p driver.Params) map[uint32]uint32 {
	return map[uint32]uint32{
		driver.RegID: driver.IDValue, driver.RegVersion: driver.Version,
		driver.RegDataWidth: uint32(p.DataWidth), driver.RegConnCount: uint32(p.ConnCount),
		driver.RegSTagCount: uint32(p.STagCount), driver.RegRQDepth: uint32(p.RQDepth),
		driver.RegMaxFrame: uint32(p.MaxFrame), driver.RegFIFODepth: uint32(p.FIFODepth),
		driver.RegEvtLanes: uint32(p.EvtLanes), driver.RegMaxInflight: uint32(p.MaxInflight),
		driver.RegWindow: p.Window, driver.RegAXIIDWidth: uint32(p.AXIIDWidth),
		driver.RegAXIMaxBursts: uint32(p.AXIMaxBursts), driver.RegCounterWidth: uint32(p.CounterWidth),
	}
}

func (b *Block) counter(i int) uint64 {
	if w := b.p.CounterWidth; w > 0 && w < 64 {
		return b.cnt[i] & (1<<w - 1)
	}
	return b.cnt[i]
}

// Read32 reads a register.
func (b *Block) Read32(addr uint32) (uint32, error) {
	a := addr &^ 3
	if v, ok := b.ro[a]; ok {
		return v, nil
	}
	switch {
	case a == driver.RegCfgIndex:
		return b.index, nil
	case a == driver.RegCfgCmd:
		return b.op, nil
	case a == driver.RegCfgStatus:
		return uint32(b.sent) << 16, nil
	case a == driver.RegCntCtrl:
		return 0, nil
	case a == driver.RegHostFault:
		return b.fault, nil
	case a >= driver.RegCfgData && a < driver.RegCfgData+4*driver.CfgDataWords:
		return b.stage[(a-driver.RegCfgData)/4], nil
	case a >= driver.RegCounters && a < driver.RegCounters+8*driver.NumCounters:
		i := int(a-driver.RegCounters) / 8
		if a%8 == 4 {
			return b.hi, nil
		}
		v := b.counter(i)
		b.hi = uint32(v >> 32)
		return uint32(v), nil
	}
	return 0, &ErrSlvErr{Addr: addr}
}

// Write32 writes a register (all four byte strobes).
func (b *Block) Write32(addr, v uint32) error {
	a := addr &^ 3
	switch {
	case a == driver.RegCfgIndex:
		b.index = v & 0xffff
	case a == driver.RegCntCtrl:
		if v&1 != 0 {
			b.cnt = [driver.NumCounters]uint64{}
		}
	case a == driver.RegHostFault:
		if v&1 != 0 {
			b.fault &^= 1
		}
	case a >= driver.RegCfgData && a < driver.RegCfgData+4*driver.CfgDataWords:
		b.stage[(a-driver.RegCfgData)/4] = v
	case a == driver.RegCfgCmd:
		op := v & 7
		if op > cycle.OpAddr6 {
			return &ErrSlvErr{Write: true, Addr: addr}
		}
		var d cycle.CfgData
		for i, w := range b.stage {
			d[i/2] |= uint64(w) << (32 * (i % 2))
		}
		b.op = op
		if b.sink != nil {
			if err := b.sink(int(op), int(b.index), d); err != nil {
				return err
			}
		}
		b.stage = [driver.CfgDataWords]uint32{}
		b.sent++
	default:
		return &ErrSlvErr{Write: true, Addr: addr}
	}
	return nil
}

// Counters is the register map's event counters as the cycle model
// decodes them: Event counts by its rule (cycle.CounterMap.Count).
var Counters = cycle.CounterMap{N: driver.NumCounters, FramesPlace: driver.CntFramesPlace, ExcNotTCP: driver.CntExcNotTCP,
	DropFCS: driver.CntDropFCS, FPDUsPlaced: driver.CntFPDUsPlaced, FPDUsDelivered: driver.CntFPDUsDelivered,
	DDPErrors: driver.CntDDPErrors, OctetsPlaced: driver.CntOctetsPlaced, HostBursts: driver.CntHostBursts,
	HostBeats: driver.CntHostBeats, HostSlvErr: driver.CntHostSlvErr, HostDecErr: driver.CntHostDecErr,
	HostBUnexpected: driver.CntHostBUnexpected}

// Event counts one event lane (a 128-bit event the receiver emitted).
func (b *Block) Event(w cycle.Word) {
	Counters.Count(w, func(i int, n uint64) { b.cnt[i] += n })
}

// HostBurst counts a burst of the host-memory master, HostBeat a beat.
func (b *Block) HostBurst() { b.cnt[driver.CntHostBursts]++ }

// HostBeat counts a beat of the host-memory master.
func (b *Block) HostBeat() { b.cnt[driver.CntHostBeats]++ }

// HostResp counts a burst's error response (SLVERR 2, DECERR 3; others
// are not counted).
func (b *Block) HostResp(resp uint8) {
	switch resp {
	case 2:
		b.cnt[driver.CntHostSlvErr]++
	case 3:
		b.cnt[driver.CntHostDecErr]++
	}
}

// HostUnexpected counts a write response that answered no burst.
func (b *Block) HostUnexpected() { b.cnt[driver.CntHostBUnexpected]++ }
