// Package axi holds cycle-level Go models of AXI4 and AXI4-Lite bus
// partners for the co-simulation benches: a write-only AXI4 slave memory
// (Memory) with configurable latency, random stalls, out-of-order responses
// across IDs and injected errors; a protocol checker of the write channels
// (Checker); an AXI4-Lite master (LiteMaster) with a blocking 32-bit bus
// on top of it (LiteBus), an AXI4-Lite slave in front of a register target
// (LiteSlave) and an AXI4-Lite protocol checker (LiteChecker).
//
// Every model works one clock cycle at a time in two calls, as the
// co-simulation harness applies inputs and samples outputs before the
// rising edge: Drive returns what the model puts on its outputs in this
// cycle (decided from its state only, never from the partner's valid of
// the same cycle), and Observe takes both sides' signals of the cycle,
// sees the handshakes (valid and ready both high) and takes the edge.
//
// The package is pure Go: the benches copy signals between these structs
// and the Verilator models' port records.
package axi

// Response codes on BRESP and RRESP.
const (
	RespOkay   = 0
	RespExOkay = 1
	RespSlvErr = 2
	RespDecErr = 3
)

// BurstIncr is AWBURST for an incrementing burst.
const BurstIncr = 1

// Page is the boundary no AXI4 burst may cross, in octets.
const Page = 4096

// MaxBurstLen is the most beats of an INCR burst (AWLEN 255).
const MaxBurstLen = 256

// WriteReq is what a master drives on the AXI4 write channels in a cycle.
type WriteReq struct {
	AWValid bool
	AWID    uint32
	AWAddr  uint64
	AWLen   uint8 // beats - 1
	AWSize  uint8 // log2 of the octets per beat
	AWBurst uint8
	AWLock  bool
	AWCache uint8
	AWProt  uint8

	WValid bool
	WData  []byte // one octet per lane
	WStrb  uint64 // bit i: lane i is written
	WLast  bool

	BReady bool
}

// WriteResp is what a slave drives on the AXI4 write channels in a cycle.
type WriteResp struct {
	AWReady bool
	WReady  bool
	BValid  bool
	BID     uint32
	BResp   uint8
}

// AW reports an address handshake.
func (c *WriteCycle) AW() bool { return c.Req.AWValid && c.Resp.AWReady }

// W reports a data handshake.
func (c *WriteCycle) W() bool { return c.Req.WValid && c.Resp.WReady }

// B reports a response handshake.
func (c *WriteCycle) B() bool { return c.Resp.BValid && c.Req.BReady }

// WriteCycle is both sides of the write channels in one cycle.
type WriteCycle struct {
	Req  WriteReq
	Resp WriteResp
}

// LiteReq is what an AXI4-Lite master drives in a cycle.
type LiteReq struct {
	AWValid bool
	AWAddr  uint32
	AWProt  uint8
	WValid  bool
	WData   uint32
	WStrb   uint8
	BReady  bool
	ARValid bool
	ARAddr  uint32
	ARProt  uint8
	RReady  bool
}

// LiteResp is what an AXI4-Lite slave drives in a cycle.
type LiteResp struct {
	AWReady bool
	WReady  bool
	BValid  bool
	BResp   uint8
	ARReady bool
	RValid  bool
	RData   uint32
	RResp   uint8
}
