package axi

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// LiteMasterConfig sets how a LiteMaster behaves; the zero value drives
// every valid at once and is always ready.
type LiteMasterConfig struct {
	Delay      int     // AWVALID, WVALID and ARVALID each rise after a random 0..Delay cycles
	ReadyStall float64 // probability that BREADY or RREADY is low in a cycle
	Seed       uint64
}

// LiteMaster is an AXI4-Lite master that runs one transaction at a time.
type LiteMaster struct {
	cfg LiteMasterConfig
	rng *rand.Rand
	op  *liteOp
	req LiteReq
}

type liteOp struct {
	write         bool
	addr, data    uint32
	strb          uint8
	awWait, wWait int // cycles before AWVALID / WVALID (ARVALID) rise
	awDone, wDone bool
	done          bool
	rdata         uint32
	resp          uint8
}

// NewLiteMaster returns an idle LiteMaster.
func NewLiteMaster(cfg LiteMasterConfig) *LiteMaster {
	return &LiteMaster{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x6178696c))}
}

func (m *LiteMaster) delay() int {
	if m.cfg.Delay <= 0 {
		return 0
	}
	return m.rng.IntN(m.cfg.Delay + 1)
}

// Busy reports a transaction started and not finished.
func (m *LiteMaster) Busy() bool { return m.op != nil && !m.op.done }

// Writing reports a write started and not finished.
func (m *LiteMaster) Writing() bool { return m.Busy() && m.op.write }

// StartWrite begins a write of data to addr with byte strobes strb.
func (m *LiteMaster) StartWrite(addr, data uint32, strb uint8) {
	if m.Busy() {
		panic("axi: LiteMaster: a transaction is running")
	}
	m.op = &liteOp{write: true, addr: addr, data: data, strb: strb, awWait: m.delay(), wWait: m.delay()}
}

// StartRead begins a read of addr.
func (m *LiteMaster) StartRead(addr uint32) {
	if m.Busy() {
		panic("axi: LiteMaster: a transaction is running")
	}
	m.op = &liteOp{addr: addr, awWait: m.delay()}
}

// Result returns the finished transaction's read data and response.
func (m *LiteMaster) Result() (data uint32, resp uint8, ok bool) {
	if m.op == nil || !m.op.done {
		return 0, 0, false
	}
	return m.op.rdata, m.op.resp, true
}

// Drive returns the master's outputs for this cycle.
func (m *LiteMaster) Drive() LiteReq {
	var q LiteReq
	stall := m.cfg.ReadyStall > 0 && m.rng.Float64() < m.cfg.ReadyStall
	q.BReady, q.RReady = !stall, !stall
	if o := m.op; o != nil && !o.done {
		if o.write {
			if !o.awDone && o.awWait == 0 {
				q.AWValid, q.AWAddr = true, o.addr
			}
			if !o.wDone && o.wWait == 0 {
				q.WValid, q.WData, q.WStrb = true, o.data, o.strb
			}
		} else if !o.awDone && o.awWait == 0 {
			q.ARValid, q.ARAddr = true, o.addr
		}
	}
	m.req = q
	return q
}

// Observe takes the cycle's handshakes.
func (m *LiteMaster) Observe(r LiteResp) {
	o, q := m.op, m.req
	if o == nil || o.done {
		return
	}
	if o.awWait > 0 {
		o.awWait--
	}
	if o.wWait > 0 {
		o.wWait--
	}
	if o.write {
		if q.AWValid && r.AWReady {
			o.awDone = true
		}
		if q.WValid && r.WReady {
			o.wDone = true
		}
		if r.BValid && q.BReady {
			o.done, o.resp = true, r.BResp
		}
	} else {
		if q.ARValid && r.ARReady {
			o.awDone = true
		}
		if r.RValid && q.RReady {
			o.done, o.rdata, o.resp = true, r.RData, r.RResp
		}
	}
}

// RespError is a transaction answered SLVERR or DECERR.
type RespError struct {
	Write bool
	Addr  uint32
	Resp  uint8
}

func (e *RespError) Error() string {
	op := "read"
	if e.Write {
		op = "write"
	}
	name := map[uint8]string{RespSlvErr: "SLVERR", RespDecErr: "DECERR", RespExOkay: "EXOKAY"}[e.Resp]
	return fmt.Sprintf("axi: %s of %#x answered %s", op, e.Addr, name)
}

// ErrTimeout is returned when a transaction does not finish in time.
var ErrTimeout = errors.New("axi: AXI4-Lite transaction timed out")

// LiteBus runs 32-bit reads and writes over a LiteMaster, one cycle at a
// time through Step (which must call the master's Drive, apply it, and
// call its Observe with the slave's signals).
type LiteBus struct {
	M       *LiteMaster
	Step    func() error
	Timeout int // cycles per transaction (0: 10000)
}

func (b *LiteBus) run() (uint32, uint8, error) {
	limit := b.Timeout
	if limit <= 0 {
		limit = 10000
	}
	for i := 0; i < limit; i++ {
		if err := b.Step(); err != nil {
			return 0, 0, err
		}
		if d, r, ok := b.M.Result(); ok {
			return d, r, nil
		}
	}
	return 0, 0, ErrTimeout
}

// Write32 writes v to addr (all four byte strobes).
func (b *LiteBus) Write32(addr, v uint32) error {
	b.M.StartWrite(addr, v, 0xf)
	_, r, err := b.run()
	if err != nil {
		return err
	}
	if r != RespOkay {
		return &RespError{Write: true, Addr: addr, Resp: r}
	}
	return nil
}

// Read32 reads addr.
func (b *LiteBus) Read32(addr uint32) (uint32, error) {
	b.M.StartRead(addr)
	d, r, err := b.run()
	if err != nil {
		return 0, err
	}
	if r != RespOkay {
		return 0, &RespError{Addr: addr, Resp: r}
	}
	return d, nil
}

// RegTarget is a block of 32-bit registers behind a LiteSlave; an error
// answers SLVERR.
type RegTarget interface {
	Read32(addr uint32) (uint32, error)
	Write32(addr, v uint32) error
}

// LiteSlaveConfig sets how a LiteSlave behaves.
type LiteSlaveConfig struct {
	Stall float64 // probability that a ready is low, or a response held back, in a cycle
	Seed  uint64
}

// LiteSlave is an AXI4-Lite slave in front of a RegTarget: it takes the
// write address and data in any order, then answers; it takes a read
// address, then answers. Writes with partial strobes merge into the
// register's current value.
type LiteSlave struct {
	T   RegTarget
	cfg LiteSlaveConfig
	rng *rand.Rand

	aw, w, ar   bool
	awAddr      uint32
	wData       uint32
	wStrb       uint8
	arAddr      uint32
	bv, rv      bool
	bresp, rres uint8
	rdata       uint32
	out         LiteResp
}

// NewLiteSlave returns a LiteSlave in front of t.
func NewLiteSlave(t RegTarget, cfg LiteSlaveConfig) *LiteSlave {
	return &LiteSlave{T: t, cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x736c617665))}
}

func (s *LiteSlave) stall() bool { return s.cfg.Stall > 0 && s.rng.Float64() < s.cfg.Stall }

// Drive returns the slave's outputs for this cycle.
func (s *LiteSlave) Drive() LiteResp {
	var r LiteResp
	r.AWReady = !s.aw && !s.bv && !s.stall()
	r.WReady = !s.w && !s.bv && !s.stall()
	r.ARReady = !s.ar && !s.rv && !s.stall()
	r.BValid, r.BResp = s.bv, s.bresp
	r.RValid, r.RData, r.RResp = s.rv, s.rdata, s.rres
	s.out = r
	return r
}

// Observe takes the cycle's handshakes.
func (s *LiteSlave) Observe(q LiteReq) {
	r := s.out
	if s.bv && q.BReady {
		s.bv = false
	}
	if s.rv && q.RReady {
		s.rv = false
	}
	if q.AWValid && r.AWReady {
		s.aw, s.awAddr = true, q.AWAddr
	}
	if q.WValid && r.WReady {
		s.w, s.wData, s.wStrb = true, q.WData, q.WStrb
	}
	if q.ARValid && r.ARReady {
		s.ar, s.arAddr = true, q.ARAddr
	}
	if s.aw && s.w && !s.bv && !s.stall() {
		s.aw, s.w, s.bv, s.bresp = false, false, true, RespOkay
		v := s.wData
		var err error
		if s.wStrb != 0xf {
			var old uint32
			old, err = s.T.Read32(s.awAddr)
			for i := 0; i < 4; i++ {
				if s.wStrb>>i&1 == 0 {
					v = v&^(0xff<<(8*i)) | old&(0xff<<(8*i))
				}
			}
		}
		if err == nil {
			err = s.T.Write32(s.awAddr, v)
		}
		if err != nil {
			s.bresp = RespSlvErr
		}
	}
	if s.ar && !s.rv && !s.stall() {
		s.ar, s.rv, s.rres = false, true, RespOkay
		d, err := s.T.Read32(s.arAddr)
		s.rdata = d
		if err != nil {
			s.rdata, s.rres = 0, RespSlvErr
		}
	}
}

// LiteChecker checks the AXI4-Lite handshakes cycle by cycle: each valid
// stays high until its handshake with its payload unchanged; a write
// response follows a write address and a write data handshake (one each),
// a read response follows a read address handshake.
type LiteChecker struct {
	cycle    uint64
	prevQ    LiteReq
	prevR    LiteResp
	havePrev bool
	nAW, nW  int
	nB       int
	nAR, nR  int
	err      error
}

// Err returns the first violation, or nil.
func (c *LiteChecker) Err() error { return c.err }

func (c *LiteChecker) fail(format string, args ...any) error {
	if c.err == nil {
		c.err = fmt.Errorf("axi-lite: cycle %d: %s", c.cycle, fmt.Sprintf(format, args...))
	}
	return c.err
}

// Observe checks one cycle.
func (c *LiteChecker) Observe(q LiteReq, r LiteResp) error {
	defer func() { c.cycle++ }()
	if c.havePrev {
		p, pr := c.prevQ, c.prevR
		switch {
		case p.AWValid && !pr.AWReady && (!q.AWValid || q.AWAddr != p.AWAddr || q.AWProt != p.AWProt):
			return c.fail("AWVALID dropped or AW payload changed before AWREADY")
		case p.WValid && !pr.WReady && (!q.WValid || q.WData != p.WData || q.WStrb != p.WStrb):
			return c.fail("WVALID dropped or W payload changed before WREADY")
		case p.ARValid && !pr.ARReady && (!q.ARValid || q.ARAddr != p.ARAddr || q.ARProt != p.ARProt):
			return c.fail("ARVALID dropped or AR payload changed before ARREADY")
		case pr.BValid && !p.BReady && (!r.BValid || r.BResp != pr.BResp):
			return c.fail("BVALID dropped or B payload changed before BREADY")
		case pr.RValid && !p.RReady && (!r.RValid || r.RData != pr.RData || r.RResp != pr.RResp):
			return c.fail("RVALID dropped or R payload changed before RREADY")
		}
	}
	c.prevQ, c.prevR, c.havePrev = q, r, true
	// responses are checked against the handshakes of earlier cycles
	if r.BValid && q.BReady {
		c.nB++
		if c.nB > c.nAW || c.nB > c.nW {
			return c.fail("write response %d after %d address and %d data handshakes", c.nB, c.nAW, c.nW)
		}
	}
	if r.RValid && q.RReady {
		c.nR++
		if c.nR > c.nAR {
			return c.fail("read response %d after %d address handshakes", c.nR, c.nAR)
		}
	}
	if q.AWValid && r.AWReady {
		c.nAW++
	}
	if q.WValid && r.WReady {
		c.nW++
	}
	if q.ARValid && r.ARReady {
		c.nAR++
	}
	return nil
}
