// Package crc32c is the cycle-accurate Go model of rtl/crc32c.v, the parallel
// CRC32C engine, for lockstep co-simulation (package cosim). The CRC values
// come from hash/crc32 (Castagnoli); the cycle behaviour (ready, latency,
// stalls) is the interface contract stated in the RTL header.
package crc32c

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/bits"

	"github.com/mparx/mparx/cosim"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 128, 256, 512}

// Variant returns the co-simulation variant name for a data width.
func Variant(dataWidth int) string { return fmt.Sprintf("crc32c_w%d", dataWidth) }

// Latency returns the cycles from the handshake of a tlast beat to
// m_axis_tvalid, when the output is not stalled: 5 + log2(DATA_WIDTH/8).
func Latency(dataWidth int) int { return 5 + bits.TrailingZeros(uint(dataWidth/8)) }

type stage struct {
	valid bool
	crc   uint32
}

// Model is the cycle model. It accepts any tkeep (the kept bytes of each
// beat, in lane order, form the message); the RTL requires the contiguous
// patterns documented in its header, which the tests generate.
type Model struct {
	lanes  int
	rst    cosim.Port
	tdata  cosim.Port
	tkeep  cosim.Port
	tvalid cosim.Port
	tlast  cosim.Port
	tready cosim.Port
	mdata  cosim.Port
	mvalid cosim.Port
	mready cosim.Port

	pipe  []stage // ring: stage k at pipe[(base+k)%len]
	base  int
	inMsg bool
	crc   uint32
	beat  []byte
	kept  []byte
}

// NewModel returns the model for a variant's port layout.
func NewModel(l *cosim.Layout, dataWidth int) *Model {
	m := &Model{
		lanes:  dataWidth / 8,
		rst:    l.Port("rst"),
		tdata:  l.Port("s_axis_tdata"),
		tkeep:  l.Port("s_axis_tkeep"),
		tvalid: l.Port("s_axis_tvalid"),
		tlast:  l.Port("s_axis_tlast"),
		tready: l.Port("s_axis_tready"),
		mdata:  l.Port("m_axis_tdata"),
		mvalid: l.Port("m_axis_tvalid"),
		mready: l.Port("m_axis_tready"),
		pipe:   make([]stage, Latency(dataWidth)),
	}
	m.beat = make([]byte, m.lanes)
	m.kept = make([]byte, 0, m.lanes)
	return m
}

// Step implements cosim.Model.
func (m *Model) Step(in, out []uint64) {
	n := len(m.pipe)
	last := &m.pipe[(m.base+n-1)%n]
	ready := !last.valid || m.mready.Bit(in)
	m.tready.SetBool(out, ready)
	m.mvalid.SetBool(out, last.valid)
	m.mdata.Set(out, uint64(last.crc))

	if m.rst.Bit(in) {
		for i := range m.pipe {
			m.pipe[i].valid = false
		}
		m.inMsg = false
		return
	}
	if !ready {
		return
	}
	m.base = (m.base + n - 1) % n
	first := &m.pipe[m.base]
	*first = stage{}
	if !m.tvalid.Bit(in) {
		return
	}
	if !m.inMsg {
		m.crc = 0
	}
	data := m.tdata.Slice(in)
	for i := range data {
		binary.LittleEndian.PutUint64(m.beat[8*i:], data[i])
	}
	keep := m.tkeep.Get(in)
	m.kept = m.kept[:0]
	for k := 0; k < m.lanes; k++ {
		if keep>>k&1 != 0 {
			m.kept = append(m.kept, m.beat[k])
		}
	}
	m.crc = crc32.Update(m.crc, castagnoli, m.kept)
	if m.tlast.Bit(in) {
		*first = stage{valid: true, crc: m.crc}
		m.inMsg = false
	} else {
		m.inMsg = true
	}
}
