package capture

import (
	"fmt"
	"io"
	"math/bits"
	"time"
)

// pcapng block types and option codes (draft-ietf-opsawg-pcapng).
const (
	ngSHB = 0x0a0d0d0a // Section Header Block
	ngIDB = 0x00000001 // Interface Description Block
	ngPB  = 0x00000002 // Packet Block (obsolete)
	ngSPB = 0x00000003 // Simple Packet Block
	ngEPB = 0x00000006 // Enhanced Packet Block

	ngByteOrderMagic = 0x1a2b3c4d

	ngOptEnd      = 0
	ngOptTSResol  = 9
	ngOptTSOffset = 14

	ngMinBlock = 12 // type, length, trailing length
	ngMinSHB   = 28
	ngMinIDB   = 20
	ngEPBHead  = 28 // block header through the original length
	ngSPBHead  = 12
)

type ngState struct {
	be     bool
	ifaces []ngIface
}

// ngIface is what the reader keeps of an Interface Description Block.
type ngIface struct {
	lt     LinkType
	err    error  // unsupported link type: reported at its first frame
	snap   uint32 // 0: no limit
	units  uint64 // timestamp units per second
	offset int64  // if_tsoffset, seconds
}

func (r *Reader) ngStart() error {
	if err := r.ngSection(); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return fmt.Errorf("%w: pcapng section header cut short", ErrFormat)
		}
		return err
	}
	return nil
}

// ngSection reads a Section Header Block: its byte order applies to the
// blocks after it, and its interfaces start empty.
func (r *Reader) ngSection() error {
	in := &r.in
	if err := in.need(12); err != nil {
		return err
	}
	h := in.peek(12)
	s := &r.ng
	switch {
	case u32(h[8:], true) == ngByteOrderMagic:
		s.be = true
	case u32(h[8:], false) == ngByteOrderMagic:
		s.be = false
	default:
		return fmt.Errorf("%w: pcapng section header with byte-order magic %x", ErrFormat, h[8:12])
	}
	b, err := r.ngBlock(ngMinSHB)
	if err != nil {
		return err
	}
	if major, minor := u16(b[12:], s.be), u16(b[14:], s.be); major != 1 {
		return fmt.Errorf("%w: pcapng version %d.%d is not supported (1.x)", ErrFormat, major, minor)
	}
	s.ifaces = s.ifaces[:0]
	in.consume(len(b))
	return nil
}

// ngBlock returns the whole block at the read position (not consumed),
// after checking its lengths; min is the smallest length its type allows.
func (r *Reader) ngBlock(min int) ([]byte, error) {
	in := &r.in
	be := r.ng.be
	typ, n := u32(in.peek(8), be), u32(in.peek(8)[4:], be)
	if n < uint32(min) || n%4 != 0 {
		return nil, fmt.Errorf("%w: pcapng block type %#x of length %d (a multiple of 4, at least %d)", ErrFormat, typ, n, min)
	}
	if n > MaxRecord {
		return nil, fmt.Errorf("%w: pcapng block of %d octets exceeds the %d-octet limit", ErrFormat, n, MaxRecord)
	}
	if err := in.need(int(n)); err != nil {
		return nil, err
	}
	b := in.peek(int(n))
	if t := u32(b[n-4:], be); t != n {
		return nil, fmt.Errorf("%w: pcapng block type %#x of length %d ends with length %d", ErrFormat, typ, n, t)
	}
	return b, nil
}

func (r *Reader) ngNext(f *Frame) error {
	in := &r.in
	s := &r.ng
	for {
		if err := in.need(8); err != nil {
			return err
		}
		typ := u32(in.peek(4), s.be)
		if typ == ngSHB {
			if err := r.ngSection(); err != nil {
				return err
			}
			continue
		}
		var b []byte
		var err error
		switch typ {
		case ngIDB:
			b, err = r.ngBlock(ngMinIDB)
		case ngEPB, ngPB:
			b, err = r.ngBlock(ngEPBHead + 4)
		case ngSPB:
			b, err = r.ngBlock(ngSPBHead + 4)
		default:
			b, err = r.ngBlock(ngMinBlock)
		}
		if err != nil {
			return err
		}
		switch typ {
		case ngIDB:
			if err := r.ngInterface(b); err != nil {
				return err
			}
		case ngEPB, ngPB:
			return r.ngPacket(f, typ, b)
		case ngSPB:
			return r.ngSimple(f, b)
		}
		in.consume(len(b))
	}
}

func (r *Reader) ngInterface(b []byte) error {
	s := &r.ng
	ifc := ngIface{lt: LinkType(u16(b[8:], s.be)), snap: u32(b[12:], s.be), units: 1e6}
	ifc.err = supportedLink(ifc.lt)
	opts := b[16 : len(b)-4]
	for len(opts) >= 4 {
		code, n := u16(opts, s.be), int(u16(opts[2:], s.be))
		if code == ngOptEnd {
			break
		}
		if 4+n > len(opts) {
			return fmt.Errorf("%w: pcapng interface %d: option %d of length %d overruns its block", ErrFormat, len(s.ifaces), code, n)
		}
		v := opts[4 : 4+n]
		switch {
		case code == ngOptTSResol && n == 1:
			units, err := tsUnits(v[0])
			if err != nil {
				return fmt.Errorf("%w: pcapng interface %d: %v", ErrFormat, len(s.ifaces), err)
			}
			ifc.units = units
		case code == ngOptTSOffset && n == 8:
			hi, lo := u32(v, s.be), u32(v[4:], s.be)
			if !s.be {
				hi, lo = lo, hi
			}
			ifc.offset = int64(uint64(hi)<<32 | uint64(lo))
		}
		opts = opts[min(len(opts), 4+(n+3)&^3):]
	}
	s.ifaces = append(s.ifaces, ifc)
	return nil
}

// tsUnits returns the timestamp units per second of an if_tsresol value:
// a negative power of 10, or of 2 when the high bit is set.
func tsUnits(v byte) (uint64, error) {
	if v&0x80 != 0 {
		if v&0x7f > 63 {
			return 0, fmt.Errorf("timestamp resolution 2^-%d is not supported", v&0x7f)
		}
		return 1 << (v & 0x7f), nil
	}
	if v > 19 {
		return 0, fmt.Errorf("timestamp resolution 10^-%d is not supported", v)
	}
	u := uint64(1)
	for range v {
		u *= 10
	}
	return u, nil
}

// iface returns the interface id of the current section.
func (r *Reader) iface(id uint32) (*ngIface, error) {
	s := &r.ng
	if id >= uint32(len(s.ifaces)) {
		return nil, fmt.Errorf("%w: pcapng packet on interface %d, which its section does not describe (%d interfaces)", ErrFormat, id, len(s.ifaces))
	}
	ifc := &s.ifaces[id]
	if ifc.err != nil {
		return nil, fmt.Errorf("pcapng interface %d: %w", id, ifc.err)
	}
	return ifc, nil
}

// ngPacket reads an Enhanced Packet Block or an obsolete Packet Block.
func (r *Reader) ngPacket(f *Frame, typ uint32, b []byte) error {
	be := r.ng.be
	id := u32(b[8:], be)
	if typ == ngPB {
		id = uint32(u16(b[8:], be))
	}
	ifc, err := r.iface(id)
	if err != nil {
		return err
	}
	caplen, origLen := u32(b[20:], be), u32(b[24:], be)
	if uint64(caplen) > uint64(len(b)-ngEPBHead-4) {
		return fmt.Errorf("%w: pcapng packet with captured length %d in a block of %d octets", ErrFormat, caplen, len(b))
	}
	ts := uint64(u32(b[12:], be))<<32 | uint64(u32(b[16:], be))
	r.record(f, ifc.lt, ngEPBHead, int(caplen), int(origLen), len(b))
	f.Interface = int(id)
	f.Time = ifc.time(ts)
	return nil
}

// ngSimple reads a Simple Packet Block: interface 0, no timestamp, the
// captured length the smallest of the original length, the interface's
// snap length and the block's room.
func (r *Reader) ngSimple(f *Frame, b []byte) error {
	ifc, err := r.iface(0)
	if err != nil {
		return err
	}
	origLen := u32(b[8:], r.ng.be)
	caplen := min(origLen, uint32(len(b)-ngSPBHead-4))
	if ifc.snap != 0 {
		caplen = min(caplen, ifc.snap)
	}
	r.record(f, ifc.lt, ngSPBHead, int(caplen), int(origLen), len(b))
	return nil
}

// time converts a timestamp in the interface's units to a time.
func (ifc *ngIface) time(ts uint64) time.Time {
	var sec, ns uint64
	switch ifc.units { // the common resolutions divide by constants
	case 1e6:
		sec, ns = ts/1e6, ts%1e6*1e3
	case 1e9:
		sec, ns = ts/1e9, ts%1e9
	default:
		var rem uint64
		sec, rem = ts/ifc.units, ts%ifc.units
		hi, lo := bits.Mul64(rem, 1e9)
		ns, _ = bits.Div64(hi, lo, ifc.units)
	}
	return time.Unix(int64(sec)+ifc.offset, int64(ns))
}
