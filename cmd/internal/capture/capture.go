// Package capture reads packet captures as a stream of Ethernet II frames:
// the classic pcap format (microsecond and nanosecond timestamps, either
// byte order) and pcapng (several sections, several interfaces with their
// own link types and timestamp resolutions), from a file or from standard
// input.
//
// Every frame comes out as the mparx receiver takes it, an Ethernet II
// frame, whatever the link type it was captured on (see LinkType for the
// supported ones and what each becomes). A frame the capture cut short (its
// captured length below its original length, the snap length) is passed on
// with Frame.Truncated set and both lengths, never dropped and never passed
// as if whole.
//
// The reader streams: it holds one read buffer (ReadBuffer octets, grown
// only for a record larger than that) whatever the size of the capture, and
// Next returns one frame at a time without allocating. A regular file
// opened with Open is mapped into memory instead (on Linux, read-only): an
// Ethernet frame is then a slice of the mapping, with no copy at all (a
// frame of another link type is copied to be given its Ethernet header),
// and the pages behind
// the frames returned are given back to the kernel as the reader goes
// (every ReleaseChunk octets), so the resident size stays bounded however
// large the file. Retain and Release let a consumer that works behind the
// reader (a read-ahead in another goroutine) keep frames valid longer. The formats are
// parsed here rather than with gopacket's pcapgo readers for three reasons:
// a frame is handed out as a slice of the read buffer (no copy per frame,
// and the Ethernet header of a link without one is written over the record
// header in front of the data); every length in a file is checked before it
// is used (pcapgo sizes buffers from a pcapng interface's snap length and
// trusts block lengths); and a pcapng file's interfaces each keep their own
// link type and timestamp resolution, including for Simple Packet Blocks.
package capture

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Frame is one captured frame as an Ethernet II frame.
type Frame struct {
	// Data is the frame as captured, starting with the Ethernet header
	// (synthesised for links without one, see LinkType). It is a slice of
	// the reader's buffer, valid until the next call to Next: copy it to
	// keep it. Empty when the capture cut the frame inside its link-layer
	// header.
	Data []byte
	// Length is the length of the frame on the wire as an Ethernet II
	// frame: the capture's original length, with the link-layer header
	// counted as the Ethernet header that replaces it. Length >= len(Data).
	Length int
	// Truncated reports that the capture kept fewer octets than the frame
	// had (the snap length): Length > len(Data).
	Truncated bool
	// Time is the capture timestamp (zero for a pcapng Simple Packet
	// Block, which carries none).
	Time time.Time
	// LinkType is the link type the frame was captured with.
	LinkType LinkType
	// Interface is the pcapng interface the frame was captured on, counted
	// from 0 in its section (0 in a pcap file).
	Interface int
	// Index is the frame's position in the capture, counted from 0.
	Index int
	// Offset is the position of the frame's record in the input, in octets.
	Offset int64
}

// Format is a capture file format.
type Format uint8

// Capture file formats.
const (
	FormatPcap   Format = iota + 1 // classic pcap
	FormatPcapng                   // pcapng
)

// String returns "pcap" or "pcapng".
func (f Format) String() string {
	switch f {
	case FormatPcap:
		return "pcap"
	case FormatPcapng:
		return "pcapng"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ReadBuffer is the size of the read buffer, in octets. The buffer grows
// beyond it only to hold one record that is larger.
const ReadBuffer = 1 << 20

// ReleaseChunk is how many octets of a mapped file the reader lets pile up
// behind the frames in use before it gives their pages back.
const ReleaseChunk = 8 << 20

// MaxRecord is the largest record (captured frame and its record header)
// the reader accepts, in octets: a length field beyond it is taken as a
// damaged file rather than a reason to allocate.
const MaxRecord = 16 << 20

// ErrFormat is wrapped by every error about the content of the input (not
// a capture, a damaged record, an unsupported link type). Errors from the
// underlying reader are returned as they are, with io.ErrUnexpectedEOF for
// an input that ends inside a record.
var ErrFormat = errors.New("capture")

// UnsupportedLinkTypeError reports a link type the reader cannot turn into
// Ethernet II frames. It wraps ErrFormat.
type UnsupportedLinkTypeError struct {
	LinkType LinkType
}

func (e *UnsupportedLinkTypeError) Error() string {
	return fmt.Sprintf("unsupported link type %d (%v); supported: %s", uint32(e.LinkType), e.LinkType, supportedNames())
}

// Unwrap returns ErrFormat.
func (e *UnsupportedLinkTypeError) Unwrap() error { return ErrFormat }

// Reader reads the frames of one capture. It is not safe for concurrent
// use.
type Reader struct {
	in     input
	format Format
	size   int64
	closer io.Closer
	index  int
	err    error // sticky: every Next after an error returns it

	pcap pcapState
	ng   ngState
	buf  []byte // scratch for a frame whose header does not fit in place

	mapped   []byte // the mapped file (nil: read), in.buf
	retain   bool   // Retain: frames stay valid until Release
	released int64  // mapped[:released] was given back
	chunk    int64  // release by at least this many octets (ReleaseChunk)
	arena    []byte // frames of a mapped file rewritten with an Ethernet header
}

// Open opens a capture file; "-" reads standard input.
func Open(path string) (*Reader, error) { return open(path, true) }

// OpenRead is Open without the mapping: the file is read into the
// reader's buffer, as standard input is (a reference for benchmarks, and
// a way round a file that cannot be mapped safely, one that shrinks while
// it is read).
func OpenRead(path string) (*Reader, error) { return open(path, false) }

// open is Open, mapping a regular file when mapped is set.
func open(path string, mapped bool) (*Reader, error) {
	if path == "-" {
		r, err := NewReader(os.Stdin)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		if st, err := os.Stdin.Stat(); err == nil && st.Mode().IsRegular() {
			r.size = st.Size() // a file redirected to standard input
		}
		return r, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	var m []byte
	if mapped {
		m = mapFile(f, size)
	}
	if m != nil {
		f.Close() // the mapping holds the file
		r, err := start(&Reader{in: input{buf: m, end: len(m), err: io.EOF, mapped: true}, size: size, mapped: m, chunk: ReleaseChunk})
		if err != nil {
			unmapFile(m)
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return r, nil
	}
	r, err := NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.closer = f
	r.size = size
	return r, nil
}

// NewReader reads a capture from rd. It reads the file header (pcap) or
// the first section header (pcapng) and reports an error if rd holds
// neither.
func NewReader(rd io.Reader) (*Reader, error) { return newReader(rd, ReadBuffer) }

// newReader is NewReader with a read buffer of size octets to start with.
func newReader(rd io.Reader, size int) (*Reader, error) {
	return start(&Reader{in: input{r: rd, buf: make([]byte, size)}, size: -1})
}

// start reads the file header (pcap) or the first section header
// (pcapng) of a new reader.
func start(r *Reader) (*Reader, error) {
	if err := r.in.need(4); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			if r.in.avail() == 0 {
				return nil, fmt.Errorf("%w: empty input, no capture file header", ErrFormat)
			}
			return nil, fmt.Errorf("%w: input of %d octets is too short for a capture file header", ErrFormat, r.in.avail())
		}
		return nil, err
	}
	magic := r.in.peek(4)
	var err error
	switch {
	case magic[0] == 0x0a && magic[1] == 0x0d && magic[2] == 0x0d && magic[3] == 0x0a:
		r.format = FormatPcapng
		err = r.ngStart()
	case magic[0] == 0x1f && magic[1] == 0x8b:
		err = fmt.Errorf("%w: gzip-compressed input: decompress it first (zcat FILE | mparx ... -)", ErrFormat)
	default:
		r.format = FormatPcap
		err = r.pcapStart()
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Next returns the next frame, or io.EOF after the last one. The frame's
// Data is valid until the next call. After an error every call returns
// that error.
func (r *Reader) Next() (Frame, error) {
	if r.err != nil {
		return Frame{}, r.err
	}
	if r.mapped != nil && !r.retain {
		r.Release(r.in.base) // the frame returned last is no longer valid
	}
	var f Frame
	var err error
	if r.format == FormatPcapng {
		err = r.ngNext(&f)
	} else {
		err = r.pcapNext(&f)
	}
	if err != nil {
		if err != io.EOF {
			err = fmt.Errorf("frame %d at offset %d: %w", r.index, r.in.offset(), err)
		}
		r.err = err
		return Frame{}, err
	}
	f.Index = r.index
	r.index++
	return f, nil
}

// Format returns the format of the capture.
func (r *Reader) Format() Format { return r.format }

// Size returns the size of the capture file in octets, or -1 when it is not
// known (a pipe, a terminal).
func (r *Reader) Size() int64 { return r.size }

// Offset returns how many octets of the input the frames returned so far
// and their headers span: with Size, the progress through a file.
func (r *Reader) Offset() int64 { return r.in.offset() }

// alloc returns n octets of the reader's arena, for a frame of a mapped
// file that is rewritten: with Retain, octets no frame returned before
// uses (the arena grows by a new block, and the old ones go when their
// frames do); else the same octets each time.
func (r *Reader) alloc(n int) []byte {
	if !r.retain {
		r.arena = r.arena[:0]
	}
	if cap(r.arena)-len(r.arena) < n {
		r.arena = make([]byte, 0, max(arenaBlock, n))
	}
	b := r.arena[len(r.arena) : len(r.arena)+n : len(r.arena)+n]
	r.arena = r.arena[:len(r.arena)+n]
	return b
}

// arenaBlock is the size of a block of the reader's arena.
const arenaBlock = 1 << 20

// Mapped reports whether the capture is a file mapped into memory (see the
// package documentation).
func (r *Reader) Mapped() bool { return r.mapped != nil }

// Retain makes the frames Next returns stay valid after the next call to
// Next, until Release is called with an offset at or beyond the end of
// their records (or until Close), and reports whether it did: it does for
// a mapped file only; otherwise a frame's Data is valid until the next
// call to Next, as always.
func (r *Reader) Retain() bool {
	r.retain = r.mapped != nil
	return r.retain
}

// Release says that the frames whose records end at or before offset off
// of the input (Frame.Offset, Offset) are no longer used: the reader may
// give their memory back. Without Retain, Next does it itself.
func (r *Reader) Release(off int64) {
	if r.mapped == nil {
		return
	}
	end := min(off, r.in.base) &^ int64(os.Getpagesize()-1)
	if end-r.released < max(r.chunk, 1) {
		return
	}
	dropPages(r.mapped[r.released:end])
	r.released = end
}

// Close closes the file Open opened (not standard input, not a reader
// given to NewReader). The frames of a mapped file are no longer valid
// after it.
func (r *Reader) Close() error {
	if r.mapped != nil {
		unmapFile(r.mapped)
		r.mapped, r.in.buf, r.in.start, r.in.end = nil, nil, 0, 0
		r.err = errors.New("capture: reader closed")
		return nil
	}
	if r.closer == nil {
		return nil
	}
	c := r.closer
	r.closer = nil
	return c.Close()
}

// input is a buffered reader that hands out slices of its buffer: the
// unconsumed octets are buf[start:end], and buf[start] is at offset base
// in the input.
type input struct {
	r          io.Reader
	buf        []byte
	start, end int
	base       int64
	err        error // sticky error of r
	mapped     bool  // buf is the whole input (a mapped file); never moved or grown
}

func (in *input) avail() int { return in.end - in.start }

func (in *input) offset() int64 { return in.base }

// peek returns the next n octets (need(n) must have succeeded).
func (in *input) peek(n int) []byte { return in.buf[in.start : in.start+n] }

// consume advances past n octets.
func (in *input) consume(n int) {
	in.start += n
	in.base += int64(n)
}

// need makes at least n octets available at buf[start:]. At the end of the
// input it returns io.EOF when no octet is left and io.ErrUnexpectedEOF
// when fewer than n are. The buffer grows only as octets arrive, so a
// length field claiming more than the input holds costs no allocation.
func (in *input) need(n int) error {
	if in.end-in.start >= n && n <= MaxRecord {
		return nil
	}
	return in.fill(n)
}

// fill is need when the buffer holds fewer than n octets.
func (in *input) fill(n int) error {
	if n > MaxRecord {
		return fmt.Errorf("%w: record of %d octets exceeds the %d-octet limit", ErrFormat, n, MaxRecord)
	}
	if in.mapped {
		if in.end == in.start {
			return io.EOF
		}
		return io.ErrUnexpectedEOF
	}
	if in.start+n > len(in.buf) && in.start > 0 {
		in.end = copy(in.buf, in.buf[in.start:in.end])
		in.start = 0
	}
	for in.end-in.start < n {
		if in.err != nil {
			if in.err == io.EOF {
				if in.end == in.start {
					return io.EOF
				}
				return io.ErrUnexpectedEOF
			}
			return in.err
		}
		if in.end == len(in.buf) {
			nb := make([]byte, 2*len(in.buf))
			in.end = copy(nb, in.buf[in.start:in.end])
			in.start = 0
			in.buf = nb
		}
		m, err := in.r.Read(in.buf[in.end:])
		in.end += m
		if err != nil {
			in.err = err
		} else if m == 0 {
			in.err = io.ErrNoProgress
		}
	}
	return nil
}

// record sets f to the frame of a record whose data are the caplen octets
// at buf[start+hdr:], after a record header of hdr octets, origLen the
// frame's original length, and consumes the record (rec octets in all,
// padding and trailer included). need(rec) must have succeeded.
func (r *Reader) record(f *Frame, lt LinkType, hdr, caplen, origLen, rec int) {
	in := &r.in
	p := in.start + hdr
	f.LinkType, f.Offset = lt, in.base
	delta := 0
	switch {
	case lt == LinkEthernet:
		f.Data = in.buf[p : p+caplen]
	case r.mapped != nil:
		// Writing the Ethernet header into the mapping would copy each
		// page it touches (copy on write, a fault per page): the record
		// is copied to the reader's arena and rewritten there.
		// (Room for an Ethernet header in front, whatever the record
		// header's size.)
		rec := r.alloc(ethHeaderLen + hdr + caplen)
		copy(rec[ethHeaderLen:], in.buf[in.start:p+caplen])
		f.Data, delta = r.ethernet(lt, rec, 0, ethHeaderLen+hdr, len(rec))
	default:
		f.Data, delta = r.ethernet(lt, in.buf, in.start, p, p+caplen)
	}
	f.Length = origLen + delta
	f.Truncated = origLen > caplen
	if f.Length < len(f.Data) {
		f.Length = len(f.Data)
	}
	in.consume(rec)
}
