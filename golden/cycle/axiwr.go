package cycle

import "math/bits"

// The AXI4 write master of the IP core (mpa_rx_axi_wr, docs/axi.md "The
// AXI4 write master"), cycle by cycle: its stages as the document gives
// them (the descriptor skid, the descriptor's words, its page arithmetic,
// the planner with its open burst and split descriptor, the three rings of
// burst records, the AW register, the write side with its merge register,
// output register and skid, the registered B response and the in-order
// retirement). Every register of the contract is a field here; Drive gives
// a cycle's outputs from them, Edge takes the clock edge.

// WrConfig sets the master's parameters.
type WrConfig struct {
	DataWidth int
	IDWidth   int // AXI ID bits (1 to 16)
	MaxBursts int // a power of two, 2 to 256
	AWCache   uint8
	AWProt    uint8
}

// WrIn is what drives the master in a cycle: a descriptor (s_desc_*), a
// host write (s_wr_*), and the slave's AWREADY, WREADY and B channel.
type WrIn struct {
	DescValid bool
	DescAddr  uint64
	DescLen   int
	DescFlush bool
	WrValid   bool
	WrData    []byte
	WrStrb    uint64
	AWReady   bool
	WReady    bool
	BValid    bool
	BID       uint32
	BResp     uint8
}

// WrOut is the master's outputs in a cycle: every one a register or an
// AND of two, so they depend on the state alone.
type WrOut struct {
	DescReady bool
	WrReady   bool
	AWValid   bool
	AWID      uint32
	AWAddr    uint64
	AWLen     uint8
	AWSize    uint8
	AWBurst   uint8
	AWLock    bool
	AWCache   uint8
	AWProt    uint8
	WValid    bool
	WData     []byte
	WStrb     uint64
	WLast     bool
	BReady    bool
	CplCount  uint16
	ErrValid  bool
	ErrResp   uint8
	ErrFirst  uint16
	ErrLast   uint16
	BUnexp    bool
}

type wrDesc struct {
	flush    bool
	len, lm1 uint16
	addr     uint64
}

// wrRec is a descriptor record of the page arithmetic stage.
type wrRec struct {
	nz, flush    bool
	fw, lw       uint64
	tl           int
	same         bool
	lim          uint64 // page offset of the limit of a burst from fw
	fit, eq      bool
	lwend        bool
	shared, cont bool
}

type wrAW struct {
	len  int
	word uint64
}

type wrW struct{ tl, len int }

type wrR struct {
	mid bool
	seq uint16
}

// Wr is the master's state.
type Wr struct {
	cfg             WrConfig
	k, lk, pw       int
	wmask, pwmask   uint64
	maxB, ptrMod    int
	idb, cb         int
	x0v, x1v        bool
	x0, x1          wrDesc
	av, anz, aflush bool
	afw, alw        uint64
	atl             int
	prevLw, prevLw1 uint64
	pd0v, pd1v      bool
	pd0, pd1        wrRec
	obV             bool
	obS, obLim      uint64
	obLen, obTl     int
	obFull, obEend  bool
	spV             bool
	spSt            int
	spBase          uint64
	spP, spLim      uint64
	spFit, spEq     bool
	dseq            uint16
	outst           int
	starve          bool
	ringAW          []wrAW
	ringW           []wrW
	ringR           []wrR
	planPtr, awPtr  int
	wrPtr, retPtr   int
	wlCnt           int
	awPend, wPend   int
	awV             bool
	awWord          uint64
	awLen, awID     int
	nxV, cuV        bool
	cuLast          bool
	nxLen, cuLeft   int
	nxTl, cuTl      int
	holdV           bool
	holdData        []byte
	holdStrb        uint64
	woV, skV        bool
	woLast, skLast  bool
	woData, skData  []byte
	woStrb, skStrb  uint64
	bV              bool
	bID             uint32
	bResp           uint8
	awd, wld, done  []bool
	waitB           []bool
	resp            []uint8
	bcnt            []int
	cplQ            uint16
	errV            bool
	errResp         uint8
	errFirst        uint16
	errLast         uint16
	unexpQ          bool
}

// NewWr returns a master in its reset state.
func NewWr(cfg WrConfig) *Wr {
	k := cfg.DataWidth / 8
	lk := bits.TrailingZeros(uint(k))
	sb := bits.TrailingZeros(uint(cfg.MaxBursts))
	idb := min(cfg.IDWidth, sb)
	wa := 64 - lk
	w := &Wr{cfg: cfg, k: k, lk: lk, pw: 12 - lk, wmask: 1<<wa - 1, pwmask: 1<<(12-lk) - 1,
		maxB: cfg.MaxBursts, ptrMod: 2 * cfg.MaxBursts, idb: idb, cb: sb - idb,
		ringAW: make([]wrAW, cfg.MaxBursts), ringW: make([]wrW, cfg.MaxBursts), ringR: make([]wrR, cfg.MaxBursts),
		holdData: make([]byte, k), woData: make([]byte, k), skData: make([]byte, k),
		awd: make([]bool, cfg.MaxBursts), wld: make([]bool, cfg.MaxBursts), done: make([]bool, cfg.MaxBursts),
		waitB: make([]bool, cfg.MaxBursts), resp: make([]uint8, cfg.MaxBursts), bcnt: make([]int, 1<<idb)}
	// a descriptor after reset starts a burst whatever these say
	w.prevLw = w.wmask
	w.prevLw1 = w.wmask + 1
	return w
}

// limOff is the page offset of the last word a burst starting at page
// offset o may reach: 256 beats, and not past its page.
func (w *Wr) limOff(o uint64) uint64 {
	if w.pw > 8 {
		if o <= 256 {
			return (o + 255) & w.pwmask
		}
		return w.pwmask
	}
	return w.pwmask
}

// limNext is the limit of a burst starting at word x + 1, for x a burst's
// limit.
func (w *Wr) limNext(x uint64) uint64 {
	if w.pw > 8 {
		if x&w.pwmask == w.pwmask {
			return (x + 256) & w.wmask
		}
		return x | w.pwmask
	}
	return (x + 1<<w.pw) & w.wmask
}

// Drive returns the outputs of the cycle.
func (w *Wr) Drive() WrOut {
	return WrOut{
		DescReady: !w.x1v,
		WrReady:   w.cuV && !w.skV,
		AWValid:   w.awV, AWID: uint32(w.awID), AWAddr: w.awWord << w.lk, AWLen: uint8(w.awLen), AWSize: uint8(w.lk),
		AWBurst: 1, AWCache: w.cfg.AWCache, AWProt: w.cfg.AWProt,
		WValid: w.woV, WData: w.woData, WStrb: w.woStrb, WLast: w.woLast, BReady: true,
		CplCount: w.cplQ, ErrValid: w.errV, ErrResp: w.errResp, ErrFirst: w.errFirst, ErrLast: w.errLast, BUnexp: w.unexpQ,
	}
}

func bit(v uint64, i int) bool { return v>>i&1 != 0 }

// Edge takes the clock edge with the cycle's inputs.
func (w *Wr) Edge(in WrIn) {
	pm := w.ptrMod
	slot := func(p int) int { return p % w.maxB }
	// ---- input skid, P1, P2
	xIn := in.DescValid && !w.x1v
	xNew := wrDesc{flush: in.DescFlush, len: uint16(in.DescLen), lm1: uint16(in.DescLen) - 1, addr: in.DescAddr}
	pdAcc := !w.pd1v
	aMove := w.av && pdAcc
	aLoad := w.x0v && (!w.av || aMove)
	xEnd := w.x0.addr + uint64(w.x0.lm1)
	afwo, alwo := w.afw&w.pwmask, w.alw&w.pwmask
	aSame := w.afw>>w.pw == w.alw>>w.pw
	aLim := w.limOff(afwo)
	aRec := wrRec{nz: w.anz, flush: w.aflush, fw: w.afw, lw: w.alw, tl: w.atl, same: aSame, lim: aLim,
		fit: aSame && alwo <= aLim, eq: aSame && alwo == aLim, lwend: alwo == w.pwmask,
		shared: w.afw == w.prevLw, cont: w.afw == w.prevLw1 || w.afw == w.prevLw}

	// ---- the planner
	pd := w.pd0
	obLimw := w.obS&^w.pwmask | w.obLim
	pdLimw := pd.fw&^w.pwmask | pd.lim
	q, limq, fitq, eqq := pd.fw, pdLimw, pd.fit, pd.eq
	if w.spV {
		q, limq, fitq, eqq = w.spP, w.spLim, w.spFit, w.spEq
	}
	inob := pd.same && (pd.shared || !w.obEend)
	fitob := inob && pd.lw&w.pwmask <= w.obLim
	eqob := inob && pd.lw&w.pwmask == w.obLim
	pdOK := w.pd0v && !(w.spV && w.spSt != 0)
	cFb := w.obV && w.starve
	base := !cFb && pdOK
	cFl := base && !pd.nz
	cExt := base && pd.nz && w.obV && pd.cont && fitob
	cOlim := base && pd.nz && w.obV && pd.cont && !fitob
	cOend := base && pd.nz && w.obV && !pd.cont
	cNew := base && pd.nz && !w.obV && fitq
	cNlim := base && pd.nz && !w.obV && !fitq
	pCur := cFb || (cFl && w.obV) || cOend
	pExt := cExt && pd.flush
	pOlim := cOlim
	pNew := cNew && pd.flush
	pNlim := cNlim
	pAny := pCur || pExt || pOlim || pNew || pNlim
	room := w.outst != w.maxB
	goOn := room || !pAny
	push := goOn && pAny
	pdTake := goOn && (cFl || cExt || cNew)
	pushAddr := w.obS
	if pNew || pNlim {
		pushAddr = q
	}
	var pushLen int
	switch {
	case pCur:
		pushLen = w.obLen
	case pExt:
		pushLen = int((pd.lw - w.obS) & 0xff)
	case pOlim:
		pushLen = int((obLimw - w.obS) & 0xff)
	case pNew:
		pushLen = int((pd.lw - q) & 0xff)
	default:
		pushLen = int((limq - q) & 0xff)
	}
	pushTl := w.k - 1
	if pCur {
		pushTl = w.obTl
	} else if pExt || pNew {
		pushTl = pd.tl
	}
	dseq1 := w.dseq + 1
	pushSeq := w.dseq
	if pExt || pNew {
		pushSeq = dseq1
	}
	pushMid := pNlim || (pOlim && (pd.shared || !w.obFull))

	// ---- AW, write side, B (the cycle's combinational values)
	awLoad := w.awPend != 0 && (!w.awV || in.AWReady)
	awRd := w.ringAW[slot(w.awPtr)]
	wrReady := w.cuV && !w.skV
	acc := in.WrValid && wrReady
	var complete bool
	if w.cuLast {
		complete = bit(in.WrStrb, w.cuTl)
	} else {
		complete = bit(in.WrStrb, w.k-1)
	}
	emit := acc && complete
	cuDone := emit && w.cuLast
	cuLoad := w.nxV && (!w.cuV || cuDone)
	nxLoad := w.wPend != 0 && (!w.nxV || cuLoad)
	wRd := w.ringW[slot(w.wrPtr)]
	var bData []byte
	var bStrb uint64
	if acc {
		bData = make([]byte, w.k)
		bStrb = in.WrStrb
		if w.holdV {
			bStrb |= w.holdStrb
		}
		for i := 0; i < w.k; i++ {
			switch {
			case bit(in.WrStrb, i):
				bData[i] = in.WrData[i]
			case w.holdV && bit(w.holdStrb, i):
				bData[i] = w.holdData[i]
			}
		}
	}
	wlFire := w.woV && in.WReady && w.woLast
	awFire := w.awV && in.AWReady
	rSlot := slot(w.retPtr)
	retire := w.done[rSlot]
	rRd := w.ringR[rSlot]
	bIDOK := w.bID>>w.idb == 0
	idm := uint32(1)<<w.idb - 1
	bSlot := int(w.bID) & (w.maxB - 1)
	if w.cb > 0 {
		bSlot = w.bcnt[w.bID&idm]<<w.idb | int(w.bID&idm)
	}
	bOK := w.bV && bIDOK && w.waitB[bSlot]
	awSlot := slot((w.awPtr - 1 + pm) % pm) // the burst in the AW register
	wlSlot := slot(w.wlCnt)                 // the burst on W
	cuLastOld := w.cuLast
	nxLenOld, nxTlOld := w.nxLen, w.nxTl
	spBaseOld := w.spBase
	starve := in.WrValid && !w.cuV && !w.nxV && w.wPend == 0 && !push

	// ---- clock edge: the descriptor stages (P2 first: it reads P1's registers)
	if aMove && w.anz {
		w.prevLw = w.alw
		w.prevLw1 = w.alw + 1
	}
	if pdTake {
		w.pd0v = w.pd1v || aMove
		if w.pd1v {
			w.pd0 = w.pd1
		} else {
			w.pd0 = aRec
		}
		w.pd1v = false
	} else if aMove {
		if !w.pd0v {
			w.pd0v, w.pd0 = true, aRec
		} else {
			w.pd1v, w.pd1 = true, aRec
		}
	}

	if aLoad {
		w.anz = w.x0.len != 0
		w.aflush = w.x0.flush
		w.afw = w.x0.addr >> w.lk
		w.alw = xEnd >> w.lk
		w.atl = int(xEnd & uint64(w.k-1))
	}
	if aLoad {
		w.av = true
	} else if aMove {
		w.av = false
	}
	if aLoad {
		w.x0v = w.x1v || xIn
		if w.x1v {
			w.x0 = w.x1
		} else {
			w.x0 = xNew
		}
		w.x1v = false
	} else if xIn {
		if !w.x0v {
			w.x0v, w.x0 = true, xNew
		} else {
			w.x1v, w.x1 = true, xNew
		}
	}
	// ---- the planner's registers
	spLimOld := w.spLim
	if goOn {
		if cExt && !pd.flush {
			w.obLen, w.obTl, w.obFull, w.obEend = int((pd.lw-w.obS)&0xff), pd.tl, eqob, pd.lwend
		}
		if cNew && !pd.flush {
			w.obS, w.obLim, w.obLen, w.obTl, w.obFull, w.obEend = q, limq&w.pwmask, int((pd.lw-q)&0xff), pd.tl, eqq, pd.lwend
		}
		if pCur || pExt || pOlim {
			w.obV = false
		} else if cNew && !pd.flush {
			w.obV = true
		}
		if cOlim {
			w.spBase = obLimw
		}
		if cNlim {
			w.spBase = limq
		}
		if cOlim || cNlim {
			w.spV = true
		} else if cNew {
			w.spV = false
		}
		if cExt || cNew {
			w.dseq = dseq1
		}
	}
	spSt := w.spSt
	switch {
	case goOn && (cOlim || cNlim):
		w.spSt = 1
	case spSt == 1:
		w.spSt = 2
	default:
		w.spSt = 0
	}
	if spSt == 1 {
		w.spP = (spBaseOld + 1) & w.wmask
		w.spLim = w.limNext(spBaseOld)
	}
	w.spFit = pd.lw <= spLimOld
	w.spEq = pd.lw == spLimOld

	// ---- rings, AW, write side
	if push {
		s := slot(w.planPtr)
		w.ringAW[s] = wrAW{len: pushLen, word: pushAddr}
		w.ringW[s] = wrW{tl: pushTl, len: pushLen}
		w.ringR[s] = wrR{mid: pushMid, seq: pushSeq}
	}
	if awLoad {
		w.awWord, w.awLen, w.awID = awRd.word, awRd.len, w.awPtr&int(idm)
		w.awPtr = (w.awPtr + 1) % pm
	}
	if awLoad {
		w.awV = true
	} else if in.AWReady {
		w.awV = false
	}
	if nxLoad {
		w.nxLen, w.nxTl = wRd.len, wRd.tl
		w.wrPtr = (w.wrPtr + 1) % pm
	}
	if nxLoad {
		w.nxV = true
	} else if cuLoad {
		w.nxV = false
	}
	if cuLoad {
		w.cuLeft, w.cuLast, w.cuTl = nxLenOld, nxLenOld == 0, nxTlOld
	} else if emit {
		w.cuLast = w.cuLeft == 1
		w.cuLeft--
	}
	if cuLoad {
		w.cuV = true
	} else if cuDone {
		w.cuV = false
	}
	if acc {
		w.holdV = !complete
		copy(w.holdData, bData)
		w.holdStrb = bStrb
	}
	if !w.woV || in.WReady {
		if w.skV {
			w.woData, w.skData = w.skData, w.woData
			w.woStrb, w.woLast = w.skStrb, w.skLast
		} else if emit {
			w.woData, w.woStrb, w.woLast = bData, bStrb, cuLastOld
		}
		w.woV = w.skV || emit
		w.skV = false
	} else if emit {
		w.skData, w.skStrb, w.skLast, w.skV = bData, bStrb, cuLastOld, true
	}

	// ---- counts
	if push {
		w.planPtr = (w.planPtr + 1) % pm
	}
	if wlFire {
		w.wlCnt = (w.wlCnt + 1) % pm
	}
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	w.outst += b2i(push) - b2i(retire)
	w.awPend += b2i(push) - b2i(awLoad)
	w.wPend += b2i(push) - b2i(nxLoad)
	w.starve = starve

	// ---- B and retirement
	w.unexpQ = w.bV && !bOK
	if awFire {
		w.awd[awSlot] = true
	}
	if wlFire {
		w.wld[wlSlot] = true
	}
	if bOK {
		w.done[bSlot] = true
		w.resp[bSlot] = w.bResp
		if w.cb > 0 {
			i := w.bID & idm
			w.bcnt[i] = (w.bcnt[i] + 1) % (1 << w.cb)
		}
	}
	w.errV = false
	if retire {
		w.awd[rSlot], w.wld[rSlot], w.done[rSlot] = false, false, false
		w.retPtr = (w.retPtr + 1) % pm
		w.errFirst = w.cplQ
		w.cplQ = rRd.seq
		w.errV = w.resp[rSlot]&2 != 0
		w.errResp = w.resp[rSlot]
		w.errLast = rRd.seq
		if !rRd.mid {
			w.errLast--
		}
	}
	for i := range w.waitB {
		w.waitB[i] = w.awd[i] && w.wld[i] && !w.done[i]
	}
	w.bV, w.bID, w.bResp = in.BValid, in.BID, in.BResp
}
