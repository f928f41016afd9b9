package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mparx/mparx/cmd/internal/capture"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// A capture is read as a stream (cmd/internal/capture): replay holds one
// frame at a time, and what the receiver keeps (per half connection state,
// out-of-order octets within the window). The learned setup of a file is a
// first pass over it; standard input is read once and learned as it goes.

// mapCaptures maps a capture file into memory (capture.Open) rather than
// reading it (capture.OpenRead); benchmarks compare the two.
var mapCaptures = true

// source is one pass over a capture.
type source struct {
	r    *capture.Reader
	prog *progress
	// memo, when set, is what the first pass over the file found of each
	// frame: this pass writes it (the first) or reads it (the second).
	memo      *frameMemo
	memoWrite bool
}

// frameMemo is what the first pass over a capture file found of each frame,
// for the second pass over the same octets: whether its checksums verified
// (then they are not computed again), and the CRC of a segment that holds
// one FPDU (rx.Parsed.PrecomputeCRC). It costs a bit and four octets per
// frame (11 MB for a 4 GB capture of 1500-octet frames), for the first
// memoMaxFrames frames.
type frameMemo struct {
	n        int      // frames noted
	verified []uint64 // bit i: frame i's checksums verified
	known    []uint64 // bit i: frame i's CRC is noted
	crc      [][]uint32
}

// memoChunk is how many frames' CRCs one slice of frameMemo.crc holds: it
// grows by whole chunks, never copied.
const memoChunk = 1 << 16

// memoMaxFrames bounds the frames a frameMemo notes (about 36 MB): the
// second pass checks the frames after them again, so that what replay
// holds does not grow with the file beyond it. (A variable for tests.)
var memoMaxFrames = 1 << 23

// record notes frame i, parsed as p (frames come in order).
func (m *frameMemo) record(i int, p *rx.Parsed) {
	if i != m.n || i >= memoMaxFrames {
		return // not in order, or beyond the bound: noted as nothing
	}
	m.n++
	if i%64 == 0 {
		m.verified, m.known = append(m.verified, 0), append(m.known, 0)
	}
	if i%memoChunk == 0 {
		m.crc = append(m.crc, make([]uint32, memoChunk))
	}
	crc, known := p.PrecomputedCRC()
	m.crc[i/memoChunk][i%memoChunk] = crc
	if p.Err == nil && p.Unverified == rx.Verified {
		m.verified[i/64] |= 1 << (i % 64)
	}
	if known {
		m.known[i/64] |= 1 << (i % 64)
	}
}

// parse parses frame i, data, as cfg.Parse and Parsed.PrecomputeCRC do,
// with what the first pass found of it.
func (m *frameMemo) parse(cfg rx.Config, i int, data []byte) rx.Parsed {
	if i >= m.n || m.verified[i/64]&(1<<(i%64)) == 0 {
		p := cfg.Parse(data)
		p.PrecomputeCRC()
		return p
	}
	p := cfg.ParseVerified(data)
	if m.known[i/64]&(1<<(i%64)) != 0 {
		p.SetPrecomputedCRC(m.crc[i/memoChunk][i%memoChunk])
	}
	return p
}

// openSource opens the capture at path, "-" for stdin.
func openSource(path string, stdin io.Reader, prog *progress) (*source, error) {
	var r *capture.Reader
	var err error
	switch {
	case path == "-" && stdin == os.Stdin:
		r, err = capture.Open("-")
	case path == "-":
		r, err = capture.NewReader(stdin)
		if err != nil {
			err = fmt.Errorf("standard input: %w", err)
		}
	case mapCaptures:
		r, err = capture.Open(path)
	default:
		r, err = capture.OpenRead(path)
	}
	if err != nil {
		return nil, err
	}
	return &source{r: r, prog: prog}, nil
}

// each calls fn with every frame of the capture, in order, and returns the
// error that stopped the reading (nil at the end of the capture). The
// frame's Data is valid during the call.
func (s *source) each(fn func(f *capture.Frame) error) error {
	for {
		f, err := s.r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return &readError{err}
		}
		s.prog.tick(s.r)
		if err := fn(&f); err != nil {
			return err
		}
	}
}

func (s *source) close() { s.r.Close() }

// A frame read and parsed ahead of the receiver (eachParsed).
type parsedFrame struct {
	index     int
	truncated bool
	shard     int    // the consumer that takes it (eachSharded)
	batch     *batch // the batch that holds it (eachSharded)
	p         rx.Parsed
}

// batch is frames read ahead, their octets in buf (or, from a mapped
// file, in the mapping up to offset end).
type batch struct {
	buf     []byte
	frames  []parsedFrame
	end     int64 // the input offset after the frames
	err     error // the read error after the frames (io.EOF at the end)
	pending atomic.Int32
	// out is what each consumer wrote of the batch's frames (eachSharded's
	// done); every consumer resets its own before it takes the batch.
	out []shardOut
}

// shardOut is the output one consumer made of a batch: its octets, and
// after each of its frames (in order), where they ended.
type shardOut struct {
	buf  []byte
	ends []int
}

// Read-ahead sizes: frames and octets per batch, batches in flight.
const (
	batchFrames = 512
	batchOctets = 1 << 20
	batches     = 4
)

// eachParsed is each with the reading, and the parsing of every frame as
// a receiver configured as cfg parses it (rx.Config.Parse, and the CRC of
// a segment that holds one FPDU: rx.Parsed.PrecomputeCRC), in a goroutine
// of its own, a few batches ahead of fn: the two take two cores. fn gets
// the frames in order; their octets are valid during the call. The frames
// of a mapped file are not copied: a batch holds slices of the mapping,
// whose pages the reader gives back once fn is done with the batch.
func (s *source) eachParsed(cfg rx.Config, fn func(f *parsedFrame) error) error {
	return s.readAhead(cfg, 1, nil, fn, nil, nil)
}

// eachSharded is eachParsed with n consumers, each in a goroutine of its
// own: fn(k, f) gets, in order, the frames f whose half connection (of
// their headers; the zero tuple for a frame without them) shard maps to
// k. It returns after every consumer is done, with the read error that
// ended the capture, if any.
func (s *source) eachSharded(cfg rx.Config, n int, shard func(wire.FourTuple) int, fn func(k int, f *parsedFrame)) error {
	return s.readAhead(cfg, n, shard, nil, fn, nil)
}

// eachShardedOut is eachSharded whose consumers make output: fn(k, f, out)
// appends what frame f gives to out, and write gets every batch's output
// in frame order (a batch after the one before it, in one goroutine at a
// time), once every consumer is done with the batch.
func (s *source) eachShardedOut(cfg rx.Config, n int, shard func(wire.FourTuple) int, fn func(k int, f *parsedFrame, out []byte) []byte, write func([]byte)) error {
	var merged []byte
	return s.readAhead(cfg, n, shard, nil, func(k int, f *parsedFrame) {
		b := f.batch
		o := &b.out[k]
		o.buf = fn(k, f, o.buf)
		o.ends = append(o.ends, len(o.buf))
	}, func(b *batch) {
		merged = merged[:0]
		at, next := make([]int, n), make([]int, n)
		for i := range b.frames {
			k := b.frames[i].shard
			o := &b.out[k]
			end := o.ends[next[k]]
			merged = append(merged, o.buf[at[k]:end]...)
			at[k], next[k] = end, next[k]+1
		}
		write(merged)
	})
}

// readAhead reads and parses the capture in a goroutine and hands the
// batches to n consumers: with n == 1, to one in the calling goroutine
// (one, which may stop the run with an error); else to n goroutines
// (sharded, each taking its shard's frames; batchDone, when set, is called
// with each batch by the last consumer done with it, in batch order).
func (s *source) readAhead(cfg rx.Config, n int, shard func(wire.FourTuple) int, one func(f *parsedFrame) error, sharded func(k int, f *parsedFrame), batchDone func(*batch)) error {
	mapped := s.r.Retain()
	free := make(chan *batch, batches)
	full := make([]chan *batch, n)
	for k := range full {
		full[k] = make(chan *batch, batches)
	}
	for range batches {
		b := &batch{out: make([]shardOut, n)}
		if !mapped {
			b.buf = make([]byte, 0, batchOctets)
		}
		free <- b
	}
	done, exited := make(chan struct{}), make(chan struct{})
	defer func() {
		close(done)
		<-exited // the reader is out of the mapping before it is closed
	}()
	go func() {
		defer close(exited)
		defer func() {
			for _, c := range full {
				close(c)
			}
		}()
		var carry capture.Frame // read, for the next batch (valid until the next Next)
		carried := false
		for {
			var b *batch
			select {
			case b = <-free:
			case <-done:
				return
			}
			if mapped && b.end > 0 {
				s.r.Release(b.end) // the consumers are done with its frames
			}
			b.buf, b.frames, b.err = b.buf[:0], b.frames[:0], nil
			for len(b.frames) < batchFrames {
				var f capture.Frame
				if carried {
					f, carried = carry, false
				} else {
					var err error
					if f, err = s.r.Next(); err != nil {
						b.err = err
						break
					}
					s.prog.tick(s.r)
				}
				data := f.Data[:len(f.Data):len(f.Data)]
				if !mapped {
					if len(b.buf)+len(f.Data) > cap(b.buf) && len(b.frames) > 0 {
						carry, carried = f, true // the next batch takes it
						break
					}
					start := len(b.buf)
					b.buf = append(b.buf, f.Data...)
					data = b.buf[start:len(b.buf):len(b.buf)]
				}
				pf := parsedFrame{index: f.Index, truncated: f.Truncated, p: rx.Parsed{Data: data}}
				switch {
				case f.Truncated:
				case s.memo != nil && !s.memoWrite:
					pf.p = s.memo.parse(cfg, f.Index, data)
				default:
					pf.p = cfg.Parse(data)
					pf.p.PrecomputeCRC() // here rather than in the receiver's goroutine
					if s.memo != nil {
						s.memo.record(f.Index, &pf.p)
					}
				}
				if shard != nil {
					pf.batch = b
					t := pf.p.Frame.FourTuple()
					if f.Truncated {
						// its half connection counts it (rx.Receiver.Truncated)
						if h, err := wire.ParseHeaders(data); err == nil {
							t = h.FourTuple()
						}
					}
					pf.shard = shard(t)
				}
				b.frames = append(b.frames, pf)
			}
			b.end = s.r.Offset()
			b.pending.Store(int32(n))
			for _, c := range full {
				select {
				case c <- b:
				case <-done:
					return
				}
			}
			if b.err != nil {
				return
			}
		}
	}()
	if one != nil {
		for b := range full[0] {
			for i := range b.frames {
				if err := one(&b.frames[i]); err != nil {
					return err
				}
			}
			if b.err == io.EOF {
				return nil
			}
			if b.err != nil {
				return &readError{b.err}
			}
			free <- b
		}
		return nil
	}
	var wg sync.WaitGroup
	var readErr error
	for k := range n {
		wg.Go(func() {
			for b := range full[k] {
				b.out[k].buf, b.out[k].ends = b.out[k].buf[:0], b.out[k].ends[:0]
				for i := range b.frames {
					if f := &b.frames[i]; f.shard == k {
						sharded(k, f)
					}
				}
				last := b.err != nil // read before the batch may go back to the reader
				if k == 0 && last && b.err != io.EOF {
					readErr = &readError{b.err}
				}
				if b.pending.Add(-1) == 0 {
					// The batches end in order: every consumer ends a
					// batch before it takes the next.
					if batchDone != nil {
						batchDone(b)
					}
					if !last {
						free <- b
					}
				}
				if last {
					return
				}
			}
		})
	}
	wg.Wait()
	return readErr
}

// readError is an error reading the capture (a damaged record, an input
// that ends inside one): what was read before it is reported.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// sink takes the events of a run: with --json each one is written as a
// line in the expected.jsonl format as it comes; the RTL engine also counts
// what hardware and software passed together.
type sink struct {
	enc   *json.Encoder
	w     *bufio.Writer
	err   error
	union *unionCounts
}

// newSink returns a sink writing JSON lines to w when jsonOut is set.
func newSink(w io.Writer, jsonOut bool) *sink {
	s := &sink{}
	if jsonOut {
		s.w = bufio.NewWriterSize(w, 64<<10)
		s.enc = json.NewEncoder(s.w)
		s.enc.SetEscapeHTML(false) // as vector.EncodeRecords
	}
	return s
}

// event takes one event.
func (s *sink) event(e *rx.Event) {
	if s.union != nil {
		s.union.add(e)
	}
	if s.enc != nil && s.err == nil {
		s.err = s.enc.Encode(replay.EventRecord(e))
	}
}

// raw writes octets that are already JSON lines (events encoded as event
// does).
func (s *sink) raw(b []byte) {
	if s.w != nil && s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

// records writes records after the events (a vector's buffer records).
func (s *sink) records(recs []vector.Record) {
	for i := range recs {
		if s.enc != nil && s.err == nil {
			s.err = s.enc.Encode(recs[i])
		}
	}
}

// flush writes what is buffered and returns the first write error.
func (s *sink) flush() error {
	if s.w != nil && s.err == nil {
		s.err = s.w.Flush()
	}
	return s.err
}

// unionCounts counts, per half connection, what the hardware and software
// passed together (the table shows software's own counts).
type unionCounts struct {
	order []wire.FourTuple
	per   map[wire.FourTuple]*[3]int // ULPDUs, placed, delivered
}

func (u *unionCounts) add(e *rx.Event) {
	c := u.per[e.Half]
	if c == nil {
		if e.Kind != rx.ULPDU {
			return
		}
		if u.per == nil {
			u.per = map[wire.FourTuple]*[3]int{}
		}
		c = &[3]int{}
		u.per[e.Half] = c
		u.order = append(u.order, e.Half)
	}
	switch e.Kind {
	case rx.ULPDU:
		c[0]++
	case rx.Placed:
		c[1]++
	case rx.Delivered:
		c[2]++
	}
}

// note says what hardware and software passed together per half
// connection.
func (u *unionCounts) note() string {
	if len(u.order) == 0 {
		return "rtl: hardware and software passed no ULPDU"
	}
	var parts []string
	for _, h := range u.order {
		c := u.per[h]
		parts = append(parts, fmt.Sprintf("%v %d ULPDUs, %d placed, %d delivered", h, c[0], c[1], c[2]))
	}
	return "rtl: hardware and software together: " + strings.Join(parts, "; ")
}

// truncationNote says how many frames the capture cut short, per half
// connection the receiver follows ("" when none).
func truncationNote(r runSummary) string {
	n := r.Stats().Truncated
	if n == 0 {
		return ""
	}
	var per []string
	followed := 0
	for _, h := range r.Halves() {
		if h.Truncated > 0 {
			per = append(per, fmt.Sprintf("%v %d", h.Tuple, h.Truncated))
			followed += h.Truncated
		}
	}
	if followed < n {
		per = append(per, fmt.Sprintf("%d of no half connection followed", n-followed))
	}
	return fmt.Sprintf("truncated: %d frames cut short by the capture's snap length, taken as lost (TCP retransmits them): %s",
		n, strings.Join(per, "; "))
}

// progress draws a progress line on a terminal: the pass, frames and
// octets read, the rate, and for a file of known size the time left. A
// nil progress draws nothing.
type progress struct {
	w      io.Writer
	now    func() time.Time
	label  string
	start  time.Time
	last   time.Time
	frames int
	drawn  bool
}

// progressEvery is how often the line is redrawn.
const progressEvery = 250 * time.Millisecond

// newProgress returns a progress line on w when w is a terminal, else nil.
func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return &progress{w: w, now: time.Now}
}

// begin starts a pass.
func (p *progress) begin(label string) {
	if p == nil {
		return
	}
	p.label, p.frames = label, 0
	p.start = p.now()
	p.last = p.start
}

// tick counts a frame and redraws the line now and then.
func (p *progress) tick(r *capture.Reader) {
	if p == nil {
		return
	}
	p.frames++
	if p.frames&1023 != 0 {
		return
	}
	if t := p.now(); t.Sub(p.last) >= progressEvery {
		p.last = t
		fmt.Fprintf(p.w, "\r%s\033[K", p.line(r.Offset(), r.Size(), t.Sub(p.start)))
		p.drawn = true
	}
}

// line is the progress line after off octets of size (-1: unknown) in d.
func (p *progress) line(off, size int64, d time.Duration) string {
	rate := float64(off) / max(d.Seconds(), 1e-9)
	s := fmt.Sprintf("mparx: %s: %d frames, %s", p.label, p.frames, octets(off))
	if size > 0 {
		s += fmt.Sprintf(" of %s", octets(size))
	}
	s += fmt.Sprintf(", %s/s", octets(int64(rate)))
	if size > 0 && rate > 0 {
		left := time.Duration(float64(size-off) / rate * float64(time.Second))
		s += fmt.Sprintf(", %v left", left.Round(100*time.Millisecond))
	}
	return s
}

// clear erases the line at the end of a run.
func (p *progress) clear() {
	if p != nil && p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// octets renders n in decimal units (kB, MB, GB).
func octets(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
