// Package onecycle drives a co-simulation model one cycle at a time, for
// the benches of single RTL modules: set the inputs, Step, read the outputs
// of that cycle (sampled before the clock edge).
package onecycle

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim"
)

// DUT is a model with one input and one output record.
type DUT struct {
	*cosim.Sim
	In  []uint64 // this cycle's inputs; they stay set until changed
	Out []uint64 // the last cycle's outputs
	N   uint64   // cycles stepped since Open
}

// Open opens a variant, resets it for 4 cycles and closes it at the end of
// the test.
func Open(t testing.TB, variant string) *DUT {
	t.Helper()
	sim, err := cosim.Open(variant, cosim.Name(t.Name()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = sim.Close() })
	sim.Reset(4)
	return &DUT{Sim: sim, In: sim.NewIn(1), Out: sim.NewOut(1)}
}

// Step runs one cycle with In and returns the outputs of that cycle.
func (d *DUT) Step() []uint64 {
	d.Sim.Step(1, d.In, d.Out)
	d.N++
	return d.Out
}

// Set writes v (at most 64 bits) to an input port.
func (d *DUT) Set(port string, v uint64) { d.Port(port).Set(d.In, v) }

// SetBool writes 1 or 0 to an input port.
func (d *DUT) SetBool(port string, v bool) { d.Port(port).SetBool(d.In, v) }

// SetWords writes a wide input port from 64-bit words, least significant
// first (extra words of the port are cleared).
func (d *DUT) SetWords(port string, w []uint64) {
	p := d.Port(port)
	dst := p.Slice(d.In)
	clear(dst)
	copy(dst, w)
}

// Get returns the low 64 bits of an output port of the last cycle.
func (d *DUT) Get(port string) uint64 { return d.Port(port).Get(d.Out) }

// Bit reports bit 0 of an output port of the last cycle.
func (d *DUT) Bit(port string) bool { return d.Port(port).Bit(d.Out) }

// Words returns a copy of an output port's words of the last cycle.
func (d *DUT) Words(port string) []uint64 {
	return append([]uint64(nil), d.Port(port).Slice(d.Out)...)
}
