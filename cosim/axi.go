package cosim

/*
#include <stdlib.h>
#include "mparxsim.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/mparx/mparx/cosim/internal/axi"
)

// AXISlaveConfig sets how an AXISlave behaves: it is cosim/internal/axi's
// MemoryConfig, whose Memory the slave reproduces cycle for cycle with the
// same seed. The zero value (but DataBytes) is an always-ready slave that
// answers a burst in the cycle after its last beat, in order, without
// errors.
type AXISlaveConfig = axi.MemoryConfig

// AXISlaveStats counts what an AXISlave saw.
type AXISlaveStats struct {
	Bursts    int // AW handshakes
	Beats     int // W handshakes
	Responses int // B handshakes
	SlvErrs   int // bursts answered SLVERR
	DecErrs   int // bursts answered DECERR
	MaxOpen   int // most bursts accepted and not answered at once
	Open      int // bursts accepted and not answered now
	Early     int // W beats waiting for their AW now
}

// AXISlave is an AXI4 write slave that the model runs in every cycle, in
// C++ beside it (sim/cosim_axi.h), so that a model with an AXI4 master port
// steps in batches. It drives AWREADY, WREADY, BVALID, BID and BRESP into
// each cycle's input record, so the records of a batch hold both sides of
// the write channels; what it chose for each burst is in TakeResps.
type AXISlave struct {
	sim *Sim
	id  C.int32_t
}

// AddAXISlave adds an AXI4 write slave on the ports named prefix+"awready",
// "wready", "bvalid", "bid", "bresp" (inputs) and "awvalid", "awid",
// "awlen", "wvalid", "bready" (outputs), e.g. with prefix "m_axi_".
func (s *Sim) AddAXISlave(cfg AXISlaveConfig, prefix string) (*AXISlave, error) {
	names := []string{"awready", "wready", "bvalid", "bid", "bresp", "awvalid", "awid", "awlen", "wvalid", "bready"}
	idx := make([]C.int32_t, len(names))
	for i, n := range names {
		j, ok := s.byName[prefix+n]
		if !ok {
			return nil, fmt.Errorf("cosim: AXI4 slave: no port %q", prefix+n)
		}
		idx[i] = C.int32_t(j)
	}
	b2i := func(b bool) C.int32_t {
		if b {
			return 1
		}
		return 0
	}
	cc := C.mparx_axi_slave_config{
		data_bytes: C.int32_t(cfg.DataBytes), latency: C.int32_t(cfg.Latency), jitter: C.int32_t(cfg.Jitter),
		reorder: b2i(cfg.Reorder), wait_aw: b2i(cfg.WaitAW), max_bursts: C.int32_t(cfg.MaxBursts),
		aw_stall: C.double(cfg.AWStall), w_stall: C.double(cfg.WStall), b_stall: C.double(cfg.BStall),
		slv_err: C.double(cfg.SlvErr), dec_err: C.double(cfg.DecErr), seed: C.uint64_t(cfg.Seed),
	}
	var errbuf [256]C.char
	id := C.mparx_sim_axi_slave_add(s.h, &cc, &idx[0], C.int32_t(len(idx)), &errbuf[0], C.int32_t(len(errbuf)))
	if id < 0 {
		return nil, fmt.Errorf("cosim: AXI4 slave: %s", C.GoString(&errbuf[0]))
	}
	return &AXISlave{sim: s, id: id}, nil
}

// Stats returns the slave's counts so far (while the Sim is open).
func (a *AXISlave) Stats() AXISlaveStats {
	if a.sim.h == nil {
		panic("cosim: AXISlave.Stats after Close")
	}
	var st C.mparx_axi_slave_stats
	C.mparx_sim_axi_slave_stats(a.sim.h, a.id, &st)
	return AXISlaveStats{Bursts: int(st.bursts), Beats: int(st.beats), Responses: int(st.responses),
		SlvErrs: int(st.slv_errs), DecErrs: int(st.dec_errs), MaxOpen: int(st.max_open), Open: int(st.open),
		Early: int(st.early)}
}

// TakeResps appends to dst the responses (0 OKAY, 2 SLVERR, 3 DECERR) the
// slave chose for the bursts it accepted since the last call, in the order
// of their AW handshakes, and forgets them.
func (a *AXISlave) TakeResps(dst []uint8) []uint8 {
	if a.sim.h == nil {
		panic("cosim: AXISlave.TakeResps after Close")
	}
	var buf [256]C.uint8_t
	for {
		n := int(C.mparx_sim_axi_slave_take_resps(a.sim.h, a.id, &buf[0], C.int64_t(len(buf))))
		for _, r := range buf[:n] {
			dst = append(dst, uint8(r))
		}
		if n < len(buf) {
			return dst
		}
	}
}

// goRand returns n draws of the C++ slave's random generator seeded with
// seed1, seed2: kind 0 Uint64, 1 Float64 (as its bits), 2 IntN(mod).
func goRand(seed1, seed2 uint64, kind int, mod uint64, n int) []uint64 {
	out := make([]uint64, n)
	if n > 0 {
		C.mparx_go_rand(C.uint64_t(seed1), C.uint64_t(seed2), C.int32_t(kind), C.uint64_t(mod), C.int64_t(n),
			(*C.uint64_t)(unsafe.Pointer(&out[0])))
	}
	return out
}
