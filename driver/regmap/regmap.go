// Package regmap is the one description of the receiver's AXI4-Lite
// register map: the registers, their offsets and access, and the event
// counters. cmd/regmapgen writes from it the Verilog decode constants
// (rtl/mpa_rx_regs.vh), the Go driver's constants (driver/regs_gen.go) and
// the documentation table (docs/regmap.md); a test there fails when any of
// the three is not what the generator writes.
package regmap

// Access is what a register allows.
type Access int

const (
	// RO registers answer reads; a write answers SLVERR.
	RO Access = iota
	// RW registers answer reads and writes.
	RW
	// WO registers take writes and read as 0.
	WO
)

func (a Access) String() string { return [...]string{"RO", "RW", "WO"}[a] }

// Reg is a 32-bit register.
type Reg struct {
	Name   string // upper case with underscores; Verilog REG_<Name>, Go Reg<CamelName>
	Offset uint32 // byte offset
	Access Access
	Doc    string
	// Param names the build parameter a read-only register returns.
	Param string
	// Count makes the register the first of Count consecutive ones
	// (Name0, Name1, ...) at Offset + 4 i.
	Count int
}

// Counter is a 64-bit event counter. Counter i has its low word at
// CounterBase + 8 i and its high word 4 octets above; reading the low word
// latches the high word, which the next read of a high word returns.
type Counter struct {
	Name string
	Doc  string
}

// Register map constants.
const (
	// AddrWidth is the address width of the AXI4-Lite port: a 4 KiB block.
	AddrWidth = 12
	// IDValue is what the ID register reads: "MPRX".
	IDValue = 0x4d505258
	// Version is the register map's version, major << 16 | minor << 8 | patch.
	Version = 0x00010200
	// CfgDataWords is the number of 32-bit staging registers of the
	// 384-bit configuration word.
	CfgDataWords = 12
	// CounterBase is the offset of the first counter.
	CounterBase = 0x100
	// CmdOpMask selects the operation in a CFG_CMD write.
	CmdOpMask = 0x7
)

// Configuration operations on CFG_CMD[2:0] (the receiver's cfg_op).
const (
	OpContext = 0 // a context entry, CFG_INDEX the slot
	OpSTag    = 1 // an STag entry, CFG_INDEX the STag's index
	OpPost    = 2 // a posted receive buffer, CFG_INDEX the context slot
	OpMSN     = 3 // a queue's current MSN, CFG_INDEX the context slot
	OpAddr6   = 4 // the two IPv6 addresses of the next context write with CTX_V6 (CFG_INDEX unused)
	NumOps    = 5
)

// Regs are the registers, in offset order.
var Regs = []Reg{
	{Name: "ID", Offset: 0x000, Access: RO, Doc: `"MPRX" (0x4d505258): the block is the mparx receiver`},
	{Name: "VERSION", Offset: 0x004, Access: RO, Doc: "register map version: major [31:16], minor [15:8], patch [7:0]"},
	{Name: "DATA_WIDTH", Offset: 0x008, Access: RO, Param: "DATA_WIDTH", Doc: "data path width in bits"},
	{Name: "CONN_COUNT", Offset: 0x00c, Access: RO, Param: "CONN_COUNT", Doc: "context slots (half connections)"},
	{Name: "STAG_COUNT", Offset: 0x010, Access: RO, Param: "STAG_COUNT", Doc: "STag table entries"},
	{Name: "RQ_DEPTH", Offset: 0x014, Access: RO, Param: "RQ_DEPTH", Doc: "receive buffers held per context and queue"},
	{Name: "MAX_FRAME", Offset: 0x018, Access: RO, Param: "MAX_FRAME", Doc: "longest frame stored, in octets"},
	{Name: "FIFO_DEPTH", Offset: 0x01c, Access: RO, Param: "FIFO_DEPTH", Doc: "frame FIFO depth in beats"},
	{Name: "EVT_LANES", Offset: 0x020, Access: RO, Param: "EVT_LANES", Doc: "128-bit event lanes on the event stream"},
	{Name: "MAX_INFLIGHT", Offset: 0x024, Access: RO, Param: "MAX_INFLIGHT", Doc: "frames in flight at most"},
	{Name: "WINDOW", Offset: 0x028, Access: RO, Param: "WINDOW", Doc: "receive window beyond rcv_nxt, in octets"},
	{Name: "AXI_ID_WIDTH", Offset: 0x02c, Access: RO, Param: "AXI_ID_WIDTH", Doc: "ID width of the AXI4 host-memory master"},
	{Name: "AXI_MAX_BURSTS", Offset: 0x030, Access: RO, Param: "AXI_MAX_BURSTS", Doc: "bursts the AXI4 master keeps outstanding at most"},
	{Name: "COUNTER_WIDTH", Offset: 0x034, Access: RO, Param: "COUNTER_WIDTH", Doc: "bits of each event counter (the rest of its 64 read as 0)"},
	{Name: "CFG_INDEX", Offset: 0x040, Access: RW, Doc: "[15:0] the configuration write's index (cfg_index)"},
	{Name: "CFG_CMD", Offset: 0x044, Access: RW, Doc: "a write sends the staged word (CFG_DATA0-11, CFG_INDEX) as operation [2:0] (cfg_op 0-4; 5-7 answer SLVERR and send nothing); " +
		"its write response comes once the receiver took the word, and CFG_DATA0-11 are then zero; reads the last operation"},
	{Name: "CFG_STATUS", Offset: 0x048, Access: RO, Doc: "[31:16] words sent (modulo 2^16), [0] a word waits for the receiver"},
	{Name: "CNT_CTRL", Offset: 0x04c, Access: WO, Doc: "writing 1 to [0] clears every counter"},
	{Name: "HOST_FAULT", Offset: 0x050, Access: RW, Doc: "[0] a host write was answered SLVERR or DECERR: from the FPDU that had writes in that burst on, every PLACED and DELIVERED leaves as DDP_ERROR kind 13; [2:1] the last such response (2 SLVERR, 3 DECERR), kept when the fault is cleared; writing 1 to [0] clears the fault"},
	{Name: "CFG_DATA", Offset: 0x080, Access: RW, Count: CfgDataWords, Doc: "the staged 384-bit configuration word (cfg_data), CFG_DATAi its bits [32i+31:32i]"},
}

// Counters are the event counters, in order from CounterBase.
var Counters = []Counter{
	{"FRAMES_PLACE", "VERDICT events with verdict place"},
	{"FRAMES_EXCEPTION", "VERDICT events with verdict exception"},
	{"FRAMES_DROP", "VERDICT events with verdict drop"},
	{"FRAMES_IGNORE", "VERDICT events with verdict ignore"},
	{"EXC_NOT_TCP", "exceptions, reason 1 NOT_TCP"},
	{"EXC_NO_CONN", "exceptions, reason 2 NO_CONN"},
	{"EXC_NOT_FULL", "exceptions, reason 3 NOT_FULL"},
	{"EXC_FLAGS", "exceptions, reason 4 FLAGS"},
	{"EXC_SW_OWNED", "exceptions, reason 5 SW_OWNED"},
	{"EXC_UNALIGNED", "exceptions, reason 6 UNALIGNED"},
	{"EXC_OOO", "exceptions, reason 7 OOO"},
	{"EXC_RANGES_FULL", "exceptions, reason 8 RANGES_FULL"},
	{"EXC_MPA_CHECK", "exceptions, reason 9 MPA_CHECK"},
	{"DROP_FCS", "DROP events, code 0: bad FCS or oversize"},
	{"DROP_MALFORMED", "DROP events, code 1: malformed lengths"},
	{"DROP_IPV4_CSUM", "DROP events, code 2: IPv4 header checksum"},
	{"DROP_TCP_CSUM", "DROP events, code 3: TCP checksum"},
	{"FPDUS_PLACED", "PLACED events"},
	{"FPDUS_DELIVERED", "DELIVERED events"},
	{"DDP_ERRORS", "DDP_ERROR events"},
	{"OCTETS_PLACED", "payload octets of the PLACED events (ULPDU_Length less the DDP header: 14 tagged, 18 untagged)"},
	{"HOST_BURSTS", "bursts on the AXI4 host-memory master (AW handshakes)"},
	{"HOST_BEATS", "beats on the AXI4 host-memory master (W handshakes)"},
	{"HOST_SLVERR", "bursts answered SLVERR"},
	{"HOST_DECERR", "bursts answered DECERR"},
	{"HOST_B_UNEXPECTED", "write responses that answered no burst"},
}
