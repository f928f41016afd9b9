// Package fifo tests rtl/mpa_rx_fifo.v against a Go model of the contract
// in its header: a RAM of DEPTH entries written in the cycle of a push,
// read into the output register from the cycle after, DEPTH + 1 entries in
// all, s_axis_tready low exactly while the RAM holds DEPTH entries.
package fifo

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
)

const (
	variant = "mpa_rx_fifo_d8"
	depth   = 8
	width   = 72
)

// model is the FIFO as its header describes it.
type model struct {
	ram    [][2]uint64
	out    [2]uint64
	outVal bool
}

func (m *model) full() bool  { return len(m.ram) == depth }
func (m *model) count() int  { return len(m.ram) + b2i(m.outVal) }
func (m *model) empty() bool { return m.count() == 0 }

// edge applies a cycle's handshakes.
func (m *model) edge(push bool, data [2]uint64, ready bool) {
	pop := m.outVal && ready
	push = push && !m.full() // full at the start of the cycle
	load := len(m.ram) > 0 && (!m.outVal || pop)
	switch {
	case load:
		m.out, m.ram, m.outVal = m.ram[0], m.ram[1:], true
	case pop:
		m.outVal = false
	}
	if push {
		m.ram = append(m.ram, data)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Random pushes and pops with back-pressure on both sides, in phases that
// fill the FIFO to DEPTH + 1 entries and drain it: every output of every
// cycle as the model says, entries out in the order they went in.
func TestRandom(t *testing.T) {
	d := onecycle.Open(t, variant)
	var m model
	rng := rand.New(rand.NewPCG(1, 2))
	var next uint64
	seen := map[int]int{}
	for c := 0; c < 200000; c++ {
		// phases of 64 cycles: mostly pushing, mostly popping, mixed
		pPush, pPop := 0.5, 0.5
		switch c / 64 % 3 {
		case 0:
			pPush, pPop = 0.9, 0.2
		case 1:
			pPush, pPop = 0.2, 0.9
		}
		push, ready := rng.Float64() < pPush, rng.Float64() < pPop
		data := [2]uint64{next, rng.Uint64() & 0xff}
		d.SetBool("s_axis_tvalid", push)
		d.SetWords("s_axis_tdata", data[:])
		d.SetBool("m_axis_tready", ready)
		d.Step()
		require.Equal(t, !m.full(), d.Bit("s_axis_tready"), "cycle %d: s_axis_tready", c)
		require.Equal(t, m.outVal, d.Bit("m_axis_tvalid"), "cycle %d: m_axis_tvalid", c)
		if m.outVal {
			require.Equal(t, m.out[:], d.Words("m_axis_tdata"), "cycle %d: m_axis_tdata", c)
		}
		require.Equal(t, uint64(m.count()), d.Get("count"), "cycle %d: count", c)
		require.Equal(t, m.empty(), d.Bit("empty"), "cycle %d: empty", c)
		require.Equal(t, m.full(), d.Bit("full"), "cycle %d: full", c)
		seen[m.count()]++
		if push && !m.full() {
			next++
		}
		m.edge(push, data, ready)
	}
	// every occupancy from empty to DEPTH + 1 was reached
	for n := 0; n <= depth+1; n++ {
		require.Positive(t, seen[n], "occupancy %d never reached", n)
	}
	require.Zero(t, seen[depth+2])
}

// The order is kept across a full drain: DEPTH + 1 entries pushed with the
// output stalled, then read back one per cycle.
func TestFillDrain(t *testing.T) {
	d := onecycle.Open(t, variant)
	for i := 0; i < depth+3; i++ {
		d.SetBool("s_axis_tvalid", true)
		d.Set("s_axis_tdata", uint64(100+i))
		d.SetBool("m_axis_tready", false)
		d.Step()
		if i < depth+1 {
			// the output register takes the first entry while the RAM fills
			require.True(t, d.Bit("s_axis_tready"), "push %d", i)
		}
	}
	require.False(t, d.Bit("s_axis_tready"))
	require.Equal(t, uint64(depth+1), d.Get("count"))
	d.SetBool("s_axis_tvalid", false)
	for i := 0; i < depth+1; i++ {
		d.SetBool("m_axis_tready", true)
		d.Step()
		require.True(t, d.Bit("m_axis_tvalid"), "pop %d", i)
		require.Equal(t, uint64(100+i), d.Get("m_axis_tdata"), "pop %d", i)
	}
	d.Step()
	require.False(t, d.Bit("m_axis_tvalid"))
	require.True(t, d.Bit("empty"))
}
