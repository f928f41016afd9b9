// The mutation engine (this file) is plain Go and deterministic from a seed:
// Analyze finds the fields of every frame of a vector (Ethernet, IPv4, TCP
// headers with golden/wire; ULPDU_Length fields and markers with the
// half connection's MPA parameters as the functional model holds them),
// and a Mutator turns the vector's frames into a stream in which mutated
// frames, each named by its Class, are mixed with the intact ones.
package fuzz

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Class names a kind of mutation.
type Class string

// Mutation classes. "Fixed" classes recompute the IPv4 header checksum and
// the TCP checksum after the change (where the changed length fields still
// allow computing them), so that the frame gets past the checksum checks
// to the checks behind them; the others leave them as they are.
const (
	Intact      Class = "intact"       // an original frame of the vector
	BitFlip     Class = "bitflip"      // 1 to 8 bits flipped anywhere, checksums not fixed
	HeaderFlip  Class = "header-flip"  // 1 to 4 bits flipped in the Ethernet/IPv4/TCP headers, checksums fixed
	PayloadFlip Class = "payload-flip" // 1 to 4 bits flipped in the TCP payload, checksums fixed (CRC, marker, DDP checks)
	Truncate    Class = "truncate"     // cut at a random length, nothing fixed
	TruncFixed  Class = "trunc-fixed"  // payload cut at a random length, IPv4 total length and checksums fixed
	TailCut     Class = "tail-cut"     // 1 to DATA_WIDTH/8-1 octets cut at the tail: random tkeep on the last beat, nothing fixed
	ULPDULen    Class = "ulpdu-len"    // a random ULPDU_Length in one FPDU, checksums fixed
	FPDUPtr     Class = "fpduptr"      // a random FPDUPTR in one marker, checksums fixed
	IHL         Class = "ihl"          // a random IPv4 IHL, checksums fixed
	DataOffset  Class = "tcp-doff"     // a random TCP data offset, checksums fixed
	IPLen       Class = "ip-len"       // a random IPv4 total length, checksums fixed
	Padding     Class = "padding"      // 1 to 200 octets of Ethernet padding past the IPv4 total length
	RandomFrame Class = "random-frame" // 1 to 16,000 random octets (half of them behind the frame's own Ethernet and IPv4 headers)
	Jumbo       Class = "jumbo"        // the frame grown with random payload up to 16,000 octets, lengths and checksums fixed
	UnknownConn Class = "unknown-conn" // a burst of 2 to 16 copies for random 4-tuples, checksums fixed
	SeqFar      Class = "seq-far"      // a sequence number far outside the window (or random), checksums fixed
	TCPFlags    Class = "tcp-flags"    // random SYN/FIN/RST/URG flags, checksums fixed
	Duplicate   Class = "duplicate"    // the frame sent again, now or a few frames later
	Reorder     Class = "reorder"      // the frame held back behind the next 1 to 4 frames
)

// Classes lists every mutation class (Intact excluded), in report order.
var Classes = []Class{BitFlip, HeaderFlip, PayloadFlip, Truncate, TruncFixed, TailCut, ULPDULen, FPDUPtr,
	IHL, DataOffset, IPLen, Padding, RandomFrame, Jumbo, UnknownConn, SeqFar, TCPFlags, Duplicate, Reorder}

// fatal are the classes whose frames pass the checksums with damaged MPA
// framing or TCP fields: software, when it gets one, usually reports an MPA
// error and ends the connection (RFC 5044 section 8), so that the rest of
// the stream no longer reaches the fast path.
var fatal = map[Class]bool{HeaderFlip: true, PayloadFlip: true, TruncFixed: true, ULPDULen: true, FPDUPtr: true,
	IHL: true, DataOffset: true, IPLen: true, Jumbo: true, TCPFlags: true}

// MaxFrame is the largest frame a mutation makes (octets).
const MaxFrame = 16000

// FrameInfo is what Analyze found in one frame of a vector.
type FrameInfo struct {
	TCP    bool // parsed as Ethernet/IPv4/TCP with valid checksums
	IPOff  int  // offset of the IPv4 header (14, or 18 behind an 802.1Q tag)
	IHL    int  // IPv4 header length (octets)
	THL    int  // TCP header length (octets)
	PayOff int  // offset of the TCP payload
	PayLen int
	Seq    uint32
	// Ctx is the context of the frame's half connection in the functional
	// model just before the frame (nil when it has none): the MPA
	// parameters (markers, SeqStart) and rcv_nxt.
	Ctx *fastpath.Context
	// LenFields are the payload offsets of ULPDU_Length fields and Markers
	// those of markers, found by walking the payload as FPDUs from its
	// first octet (only when Ctx is set and in full operation).
	LenFields, Markers []int
}

// Analyze parses every frame of v and runs the functional model (hardware
// and software, with slots contexts) over them to learn each frame's half
// connection state.
func Analyze(v *vector.Vector, slots int) ([]FrameInfo, error) {
	sys, err := replay.NewSystem(&v.Setup, slots, 0, 0)
	if err != nil {
		return nil, err
	}
	out := make([]FrameInfo, len(v.Frames))
	for i, f := range v.Frames {
		out[i] = info(sys.HW, f.Data)
		sys.Frame(f.Data)
	}
	return out, nil
}

func info(hw *fastpath.Engine, b []byte) FrameInfo {
	fr, err := wire.Parse(b)
	if err != nil {
		return FrameInfo{}
	}
	fi := FrameInfo{TCP: true, IPOff: 14, IHL: fr.IPHeaderLen, THL: fr.TCPHeaderLen, PayLen: len(fr.Payload), Seq: fr.Seq}
	if fr.VLAN {
		fi.IPOff = 18
	}
	fi.PayOff = fi.IPOff + fi.IHL + fi.THL
	c, ok := hw.Context(fr.FourTuple())
	if !ok {
		return fi
	}
	fi.Ctx = &c
	if !c.Full {
		return fi
	}
	p := c.Params
	for off := 0; off < fi.PayLen; off += 4 {
		if p.IsMarker(fr.Seq + uint32(off)) {
			fi.Markers = append(fi.Markers, off)
		}
	}
	for off := 0; off < fi.PayLen; {
		wl, lseq := p.FPDUAt(fr.Seq+uint32(off), fr.Payload[off:])
		if wl == 0 {
			break
		}
		fi.LenFields = append(fi.LenFields, off+int(lseq-fr.Seq-uint32(off)))
		off += wl
	}
	return fi
}

// Frame is one frame of a mutated stream.
type Frame struct {
	Data  []byte
	Class Class // Intact for an original frame
	Orig  int   // index of the vector frame it came from
}

// Mutator makes mutated streams from a vector's frames.
type Mutator struct {
	rng *rand.Rand
	// Rate is the mean number of mutated frames per vector frame.
	Rate float64
	// Lane is DATA_WIDTH/8 of the receiver under test (TailCut cuts less
	// than a beat).
	Lane int
	// Weights gives each class's relative weight (default 3; NewMutator
	// gives UnknownConn 1, as each of its picks makes 2 to 16 frames).
	Weights map[Class]int
	// Early is the chance that a frame of a half connection not yet in
	// full operation (startup frames, or no context) is mutated at all: a
	// damaged startup frame that passes the checksums ends the connection
	// for good, so most streams leave startup intact.
	Early float64
	// Live, when set, allows at most one frame of a fatal class per
	// stream, at or after a random frame, so that the connections stay in
	// full operation until then; otherwise every class is used throughout.
	Live bool
}

// NewMutator returns a mutator seeded with seed.
func NewMutator(seed uint64, lane int) *Mutator {
	return &Mutator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), Rate: 1, Lane: lane, Early: 0.1,
		Weights: map[Class]int{UnknownConn: 1}}
}

// Stream returns the vector's frames, in order, with mutated frames mixed
// in: after each original frame come on average Rate mutated frames made
// from it (a Reorder holds the original back instead, a Duplicate sends it
// again later). Frames that Analyze could not parse are only bit-flipped,
// truncated or replaced by random frames.
func (m *Mutator) Stream(frames []vector.Frame, infos []FrameInfo) []Frame {
	var out []Frame
	type held struct {
		f     Frame
		after int // release after this many more originals
	}
	var later []held
	fatalAt := 0
	if m.Live {
		fatalAt = m.rng.IntN(len(frames) + 1)
	}
	release := func() {
		keep := later[:0]
		for _, h := range later {
			if h.after <= 0 {
				out = append(out, h.f)
			} else {
				h.after--
				keep = append(keep, h)
			}
		}
		later = keep
	}
	for i, f := range frames {
		n := int(m.Rate)
		if m.rng.Float64() < m.Rate-float64(n) {
			n++
		}
		if fi := infos[i]; (fi.Ctx == nil || !fi.Ctx.Full) && m.rng.Float64() >= m.Early {
			n = 0
		}
		orig := Frame{Data: f.Data, Class: Intact, Orig: i}
		var muts []Frame
		sendOrig := true
		for k := 0; k < n; k++ {
			c := m.pick(infos[i], !m.Live || i >= fatalAt)
			if m.Live && fatal[c] {
				fatalAt = len(frames) + 1
			}
			switch c {
			case Reorder:
				if !sendOrig {
					c = Duplicate
					break
				}
				sendOrig = false
				later = append(later, held{Frame{Data: f.Data, Class: Reorder, Orig: i}, m.rng.IntN(4)})
				continue
			}
			if c == Duplicate {
				d := Frame{Data: f.Data, Class: Duplicate, Orig: i}
				if m.rng.IntN(2) == 0 {
					muts = append(muts, d)
				} else {
					later = append(later, held{d, 1 + m.rng.IntN(4)})
				}
				continue
			}
			for _, b := range m.Mutate(c, f.Data, infos[i]) {
				muts = append(muts, Frame{Data: b, Class: c, Orig: i})
			}
		}
		// A damaged copy is as likely before the original as after it.
		if m.rng.IntN(2) == 0 {
			out = append(out, muts...)
			muts = nil
		}
		if sendOrig {
			out = append(out, orig)
		}
		out = append(out, muts...)
		release()
	}
	for _, h := range later {
		out = append(out, h.f)
	}
	return out
}

// applicable reports whether class c can mutate a frame with info fi.
func applicable(c Class, fi FrameInfo) bool {
	switch c {
	case BitFlip, Truncate, TailCut, RandomFrame, Duplicate, Reorder:
		return true
	case ULPDULen:
		return len(fi.LenFields) > 0
	case FPDUPtr:
		return len(fi.Markers) > 0
	case PayloadFlip:
		return fi.TCP && fi.PayLen > 0
	}
	return fi.TCP
}

func (m *Mutator) pick(fi FrameInfo, fatalOK bool) Class {
	total := 0
	w := func(c Class) int {
		if !applicable(c, fi) || (fatal[c] && !fatalOK) {
			return 0
		}
		if x, ok := m.Weights[c]; ok {
			return x
		}
		return 3
	}
	for _, c := range Classes {
		total += w(c)
	}
	r := m.rng.IntN(total)
	for _, c := range Classes {
		if r < w(c) {
			return c
		}
		r -= w(c)
	}
	panic("fuzz: no class")
}

// Mutate applies class c to frame b (described by fi) and returns the
// mutated frames (several for UnknownConn, one otherwise). b is not
// modified. It panics when c does not apply to the frame.
func (m *Mutator) Mutate(c Class, b []byte, fi FrameInfo) [][]byte {
	if !applicable(c, fi) {
		panic(fmt.Sprintf("fuzz: class %s does not apply", c))
	}
	rng := m.rng
	d := append([]byte(nil), b...)
	tcp := fi.IPOff + fi.IHL
	switch c {
	case BitFlip:
		for k := 1 + rng.IntN(8); k > 0; k-- {
			i := rng.IntN(len(d))
			d[i] ^= 1 << rng.IntN(8)
		}
	case HeaderFlip:
		for k := 1 + rng.IntN(4); k > 0; k-- {
			i := rng.IntN(fi.PayOff)
			d[i] ^= 1 << rng.IntN(8)
		}
		FixChecksums(d)
	case PayloadFlip:
		for k := 1 + rng.IntN(4); k > 0; k-- {
			i := fi.PayOff + rng.IntN(fi.PayLen)
			d[i] ^= 1 << rng.IntN(8)
		}
		FixChecksums(d)
	case Truncate:
		d = d[:rng.IntN(len(d))]
		if len(d) == 0 {
			d = d[:1]
		}
	case TruncFixed:
		n := rng.IntN(fi.PayLen + 1)
		if n == fi.PayLen && n > 0 {
			n--
		}
		d = d[:fi.PayOff+n]
		binary.BigEndian.PutUint16(d[fi.IPOff+2:], uint16(len(d)-fi.IPOff))
		FixChecksums(d)
	case TailCut:
		k := 1 + rng.IntN(max(1, m.Lane-1))
		d = d[:max(1, len(d)-k)]
	case ULPDULen:
		off := fi.PayOff + fi.LenFields[rng.IntN(len(fi.LenFields))]
		binary.BigEndian.PutUint16(d[off:], m.randLen(binary.BigEndian.Uint16(d[off:])))
		FixChecksums(d)
	case FPDUPtr:
		off := fi.PayOff + fi.Markers[rng.IntN(len(fi.Markers))]
		binary.BigEndian.PutUint16(d[off+2:], m.randLen(binary.BigEndian.Uint16(d[off+2:])))
		FixChecksums(d)
	case IHL:
		old := d[fi.IPOff] & 0x0f
		for d[fi.IPOff]&0x0f == old {
			d[fi.IPOff] = d[fi.IPOff]&0xf0 | byte(rng.IntN(16))
		}
		FixChecksums(d)
	case DataOffset:
		old := d[tcp+12] >> 4
		for d[tcp+12]>>4 == old {
			d[tcp+12] = d[tcp+12]&0x0f | byte(rng.IntN(16))<<4
		}
		FixChecksums(d)
	case IPLen:
		binary.BigEndian.PutUint16(d[fi.IPOff+2:], m.randLen(binary.BigEndian.Uint16(d[fi.IPOff+2:])))
		FixChecksums(d)
	case Padding:
		pad := make([]byte, 1+rng.IntN(200))
		if rng.IntN(2) == 0 {
			fill(rng, pad)
		}
		d = append(d, pad...)
	case RandomFrame:
		d = make([]byte, 1+rng.IntN(MaxFrame))
		fill(rng, d)
		if rng.IntN(2) == 0 {
			copy(d, b[:min(len(b), len(d), max(14, fi.IPOff+fi.IHL))])
			FixChecksums(d)
		}
	case Jumbo:
		grow := make([]byte, rng.IntN(max(0, MaxFrame-len(d))+1))
		fill(rng, grow)
		d = append(d, grow...)
		binary.BigEndian.PutUint16(d[fi.IPOff+2:], uint16(len(d)-fi.IPOff))
		FixChecksums(d)
	case UnknownConn:
		var out [][]byte
		for k := 2 + rng.IntN(15); k > 0; k-- {
			e := append([]byte(nil), b...)
			binary.BigEndian.PutUint32(e[fi.IPOff+12:], rng.Uint32())
			binary.BigEndian.PutUint32(e[fi.IPOff+16:], rng.Uint32())
			binary.BigEndian.PutUint32(e[tcp:], rng.Uint32())
			FixChecksums(e)
			out = append(out, e)
		}
		return out
	case SeqFar:
		base := fi.Seq
		if fi.Ctx != nil {
			base = fi.Ctx.RcvNxt
		}
		var s uint32
		switch rng.IntN(5) {
		case 0:
			s = rng.Uint32()
		case 1:
			s = base + 1<<31 // half the sequence space away
		case 2:
			s = base + 1<<20 + uint32(rng.IntN(1<<20)) // at or beyond a 1 MiB window
		case 3:
			s = base - 1 - uint32(rng.IntN(1<<24)) // before rcv_nxt
		default:
			s = base + 1<<20 - uint32(rng.IntN(fi.PayLen+1)) // reaching past the window's edge
		}
		binary.BigEndian.PutUint32(d[tcp+4:], s)
		FixChecksums(d)
	case TCPFlags:
		flags := []byte{wire.FlagSYN, wire.FlagFIN, wire.FlagRST, wire.FlagURG}
		d[tcp+13] ^= flags[rng.IntN(len(flags))]
		FixChecksums(d)
	default:
		panic(fmt.Sprintf("fuzz: Mutate(%s)", c))
	}
	return [][]byte{d}
}

// randLen returns a random 16-bit length: near the old value, small,
// large, or anything.
func (m *Mutator) randLen(old uint16) uint16 {
	rng := m.rng
	for {
		var v uint16
		switch rng.IntN(4) {
		case 0:
			v = old + uint16(rng.IntN(17)) - 8
		case 1:
			v = uint16(rng.IntN(64))
		case 2:
			v = 0xffff - uint16(rng.IntN(64))
		default:
			v = uint16(rng.Uint32())
		}
		if v != old {
			return v
		}
	}
}

func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// FixChecksums recomputes the IPv4 header checksum and the TCP checksum of
// frame b in place, as far as its EtherType, IHL, total length and TCP
// data offset allow (an 802.1Q tag is followed). It reports whether it
// recomputed the TCP checksum.
func FixChecksums(b []byte) bool {
	ipo := 14
	if len(b) >= 18 && binary.BigEndian.Uint16(b[12:]) == wire.EtherTypeVLAN {
		ipo = 18
	}
	if len(b) < ipo+20 || binary.BigEndian.Uint16(b[ipo-2:]) != wire.EtherTypeIPv4 {
		return false
	}
	ihl := int(b[ipo]&0x0f) * 4
	if ihl < 20 || ipo+ihl > len(b) {
		return false
	}
	b[ipo+10], b[ipo+11] = 0, 0
	binary.BigEndian.PutUint16(b[ipo+10:], wire.IPv4Checksum(b[ipo:ipo+ihl]))
	total := int(binary.BigEndian.Uint16(b[ipo+2:]))
	if total < ihl+20 || ipo+total > len(b) || b[ipo+9] != wire.ProtocolTCP {
		return false
	}
	var src, dst [4]byte
	copy(src[:], b[ipo+12:])
	copy(dst[:], b[ipo+16:])
	seg := b[ipo+ihl : ipo+total]
	seg[16], seg[17] = 0, 0
	binary.BigEndian.PutUint16(seg[16:], wire.TCPChecksum(src, dst, seg))
	return true
}

// Counts counts frames by class.
type Counts map[Class]int

// Add counts the frames of a stream.
func (c Counts) Add(s []Frame) {
	for _, f := range s {
		c[f.Class]++
	}
}

// Mutated returns the number of frames that are not Intact.
func (c Counts) Mutated() int {
	n := 0
	for k, v := range c {
		if k != Intact {
			n += v
		}
	}
	return n
}

// Sorted returns the classes counted, in the order of Classes then Intact.
func (c Counts) Sorted() []Class {
	var out []Class
	for _, k := range append(append([]Class(nil), Classes...), Intact) {
		if c[k] > 0 {
			out = append(out, k)
		}
	}
	extra := []Class{}
	for k := range c {
		found := false
		for _, o := range out {
			found = found || o == k
		}
		if !found {
			extra = append(extra, k)
		}
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i] < extra[j] })
	return append(out, extra...)
}
