package capture

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Classic pcap: a 24-octet file header, then records of a 16-octet header
// and the captured octets.
const (
	pcapMagicMicro = 0xa1b2c3d4
	pcapMagicNano  = 0xa1b23c4d
	pcapMagicKuz   = 0xa1b2cd34 // Kuznetzov's modified pcap
	pcapFileHeader = 24
	pcapRecHeader  = 16
)

type pcapState struct {
	be   bool // big-endian file
	nano bool // nanosecond timestamps
	lt   LinkType
}

func u16(b []byte, be bool) uint16 {
	if be {
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

func u32(b []byte, be bool) uint32 {
	if be {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *Reader) pcapStart() error {
	s := &r.pcap
	magic := r.in.peek(4)
	le, be := binary.LittleEndian.Uint32(magic), binary.BigEndian.Uint32(magic)
	switch {
	case le == pcapMagicMicro || be == pcapMagicMicro:
		s.be = be == pcapMagicMicro
	case le == pcapMagicNano || be == pcapMagicNano:
		s.be, s.nano = be == pcapMagicNano, true
	case le == pcapMagicKuz || be == pcapMagicKuz:
		return fmt.Errorf("%w: modified pcap format (magic %#08x) is not supported: convert it with editcap -F pcap", ErrFormat, pcapMagicKuz)
	default:
		return fmt.Errorf("%w: not a pcap or pcapng file (first octets %x)", ErrFormat, magic)
	}
	if err := r.in.need(pcapFileHeader); err != nil {
		return fmt.Errorf("%w: pcap file header cut short: %v", ErrFormat, err)
	}
	h := r.in.peek(pcapFileHeader)
	if major := u16(h[4:], s.be); major != 2 {
		return fmt.Errorf("%w: pcap version %d.%d is not supported (2.x)", ErrFormat, major, u16(h[6:], s.be))
	}
	// The link type is the low 26 bits; the high bits can say whether
	// the frames end with an FCS.
	s.lt = LinkType(u32(h[20:], s.be) & 0x03ffffff)
	if err := supportedLink(s.lt); err != nil {
		return err
	}
	r.in.consume(pcapFileHeader)
	return nil
}

func (r *Reader) pcapNext(f *Frame) error {
	s := &r.pcap
	if err := r.in.need(pcapRecHeader); err != nil {
		return err
	}
	h := r.in.peek(pcapRecHeader)
	sec, frac := u32(h[0:], s.be), u32(h[4:], s.be)
	caplen, origLen := u32(h[8:], s.be), u32(h[12:], s.be)
	if caplen > MaxRecord {
		return fmt.Errorf("%w: captured length %d exceeds the %d-octet limit", ErrFormat, caplen, MaxRecord)
	}
	n := pcapRecHeader + int(caplen)
	if err := r.in.need(n); err != nil {
		return err
	}
	ns := int64(frac)
	if !s.nano {
		ns *= 1000
	}
	r.record(f, s.lt, pcapRecHeader, int(caplen), int(origLen), n)
	f.Time = time.Unix(int64(sec), ns)
	return nil
}
