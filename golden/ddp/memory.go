package ddp

const pageSize = 4096

// Memory is a sparse, byte-addressed model of host memory (64-bit
// addresses; octets never written read as zero). The Placer stores DDP
// payloads in it and records each store in a write log. Memory is not safe
// for concurrent use.
type Memory struct {
	pages   map[uint64]*[pageSize]byte
	log     []Write
	noLog   bool
	discard bool
}

// Write is one placement in the write log: the payload of one DDP segment
// written by stream Stream at Addr.
type Write struct {
	Stream StreamID
	Addr   uint64
	Data   []byte
}

// NewMemory returns an empty memory with logging on.
func NewMemory() *Memory {
	return &Memory{pages: map[uint64]*[pageSize]byte{}}
}

// Write stores data at addr (addresses wrap modulo 2^64). It is the host's
// own store, for example to fill buffers with a pattern before a test, and
// is not logged.
func (m *Memory) Write(addr uint64, data []byte) {
	for len(data) > 0 {
		pg := m.pages[addr/pageSize]
		if pg == nil {
			pg = new([pageSize]byte)
			m.pages[addr/pageSize] = pg
		}
		n := copy(pg[addr%pageSize:], data)
		data = data[n:]
		addr += uint64(n)
	}
}

// Read returns a copy of the n octets at addr.
func (m *Memory) Read(addr uint64, n int) []byte {
	out := make([]byte, n)
	for o := 0; o < n; {
		off := addr % pageSize
		k := min(n-o, int(pageSize-off))
		if pg := m.pages[addr/pageSize]; pg != nil {
			copy(out[o:o+k], pg[off:])
		}
		o += k
		addr += uint64(k)
	}
	return out
}

// place is a DDP store: Write, plus a log entry holding a copy of data.
func (m *Memory) place(s StreamID, addr uint64, data []byte) {
	if m.discard {
		return
	}
	m.Write(addr, data)
	if !m.noLog {
		m.log = append(m.log, Write{Stream: s, Addr: addr, Data: append(make([]byte, 0, len(data)), data...)})
	}
}

// Log returns the DDP placements in the order they were made. The slice is
// the memory's own: do not modify it.
func (m *Memory) Log() []Write { return m.log }

// SetLogging turns the write log on or off (it is on in a new Memory), for
// long runs such as benchmarks where only the final image matters.
func (m *Memory) SetLogging(on bool) { m.noLog = !on }

// SetDiscard makes DDP placements neither stored nor logged (on) or both
// again (off; a new Memory stores them): for a run that reports what was
// placed where but never reads the buffers, so that memory does not grow
// with the data placed. The host's own Write still stores.
func (m *Memory) SetDiscard(on bool) { m.discard = on }

// Discards reports whether placements are discarded (SetDiscard).
func (m *Memory) Discards() bool { return m.discard }
