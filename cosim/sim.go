package cosim

/*
#cgo CFLAGS: -I${SRCDIR}
#cgo LDFLAGS: ${SRCDIR}/../sim/build/libmparxsim.a -lz -lstdc++ -lm -lpthread -latomic
#include <stdlib.h>
#include "mparxsim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"
)

// Dir is the direction of a port.
type Dir int

const (
	// In is an input of the model.
	In Dir = iota
	// Out is an output of the model.
	Out
)

// String returns "in" or "out".
func (d Dir) String() string {
	if d == In {
		return "in"
	}
	return "out"
}

// Port is a top-level port of a model and its place in the cycle records:
// Words 64-bit words from Offset in the input record (In) or the output
// record (Out), least significant word first. Byte lane k of a wide port is
// byte k%8 (little endian) of word k/8.
type Port struct {
	Name   string
	Dir    Dir
	Width  int
	Offset int
	Words  int
}

// Get returns the low 64 bits of the port in a cycle record.
func (p Port) Get(rec []uint64) uint64 { return rec[p.Offset] }

// Bit reports whether bit 0 of the port is set in a cycle record.
func (p Port) Bit(rec []uint64) bool { return rec[p.Offset]&1 != 0 }

// Set writes v (at most 64 bits, masked to the width) into a cycle record;
// the higher words of a wider port are cleared.
func (p Port) Set(rec []uint64, v uint64) {
	if p.Width < 64 {
		v &= 1<<p.Width - 1
	}
	rec[p.Offset] = v
	clear(rec[p.Offset+1 : p.Offset+p.Words])
}

// SetBool writes 1 or 0.
func (p Port) SetBool(rec []uint64, v bool) {
	if v {
		p.Set(rec, 1)
	} else {
		p.Set(rec, 0)
	}
}

// Slice returns the port's words in a cycle record.
func (p Port) Slice(rec []uint64) []uint64 { return rec[p.Offset : p.Offset+p.Words] }

// SetBytes writes b to byte lanes 0..len(b)-1 of the port and clears the
// other lanes.
func (p Port) SetBytes(rec []uint64, b []byte) {
	w := p.Slice(rec)
	clear(w)
	for i, c := range b {
		w[i/8] |= uint64(c) << (8 * (i % 8))
	}
}

// AppendBytes appends the port's byte lanes (Width/8 of them, rounded up)
// to dst.
func (p Port) AppendBytes(dst []byte, rec []uint64) []byte {
	w := p.Slice(rec)
	for i := 0; i < (p.Width+7)/8; i++ {
		dst = append(dst, byte(w[i/8]>>(8*(i%8))))
	}
	return dst
}

// Format returns the port's value in a cycle record as hexadecimal, most
// significant digit first, with as many digits as the width needs.
func (p Port) Format(rec []uint64) string {
	w := p.Slice(rec)
	digits := (p.Width + 3) / 4
	var sb strings.Builder
	for i := digits - 1; i >= 0; i-- {
		nib := (w[i/16] >> (4 * (i % 16))) & 0xf
		sb.WriteByte("0123456789abcdef"[nib])
	}
	return sb.String()
}

// equal reports whether the port has the same value in two records.
func (p Port) equal(a, b []uint64) bool {
	for i := 0; i < p.Words; i++ {
		x := a[p.Offset+i] ^ b[p.Offset+i]
		if i == p.Words-1 && p.Width%64 != 0 {
			x &= 1<<(p.Width%64) - 1
		}
		if x != 0 {
			return false
		}
	}
	return true
}

// Layout is the port list of a variant and the sizes of its cycle records.
type Layout struct {
	ports    []Port
	byName   map[string]int
	inWords  int
	outWords int
}

// Ports returns the ports (without the clock) in record order.
func (l *Layout) Ports() []Port { return append([]Port(nil), l.ports...) }

// LookupPort returns the port with the given name.
func (l *Layout) LookupPort(name string) (Port, bool) {
	i, ok := l.byName[name]
	if !ok {
		return Port{}, false
	}
	return l.ports[i], true
}

// Port returns the port with the given name and panics if there is none: a
// model and its Go counterpart disagreeing on ports is a programming error.
func (l *Layout) Port(name string) Port {
	p, ok := l.LookupPort(name)
	if !ok {
		panic(fmt.Sprintf("cosim: no port %q", name))
	}
	return p
}

// InWords is the size of an input record in words.
func (l *Layout) InWords() int { return l.inWords }

// OutWords is the size of an output record in words.
func (l *Layout) OutWords() int { return l.outWords }

// Variants returns the names of the variants linked into the library.
func Variants() []string {
	return strings.Fields(C.GoString(C.mparx_sim_variants()))
}

type options struct {
	name      string
	tracePath string
	traceDir  string
	traceFrom uint64
	fromSet   bool
}

// Option configures Open.
type Option func(*options)

// Name names the instance, for its default trace file name (the test name is
// a good choice).
func Name(name string) Option { return func(o *options) { o.name = name } }

// Trace writes an FST waveform to path.
func Trace(path string) Option { return func(o *options) { o.tracePath = path } }

// TraceDir writes an FST waveform to dir/<name>.fst; an empty dir leaves the
// choice to the environment variable MPARX_TRACE.
func TraceDir(dir string) Option { return func(o *options) { o.traceDir = dir } }

// TraceFrom starts the waveform at the given cycle (default: the environment
// variable MPARX_TRACE_FROM, else 0).
func TraceFrom(cycle uint64) Option {
	return func(o *options) { o.traceFrom, o.fromSet = cycle, true }
}

// libStamp is set by the generated libstamp_gen.go (mk/rtl.mk) to the hash
// of the library. The Go caches do not look at libraries named in #cgo
// LDFLAGS; with the hash in the binary, `go test` reruns a package when the
// models change instead of reporting a cached result.
var libStamp string

var (
	instances atomic.Uint64
	unsafeRE  = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)
)

// Sim is an instance of a Verilated model.
type Sim struct {
	Layout
	h         *C.mparx_sim
	variant   string
	tracePath string
	sources   []*Source
}

// Open creates an instance of a variant (see Variants). It locks the calling
// goroutine to its OS thread until Close, as Verilator expects: use an
// instance from one goroutine.
func Open(variant string, opts ...Option) (*Sim, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if o.name == "" {
		o.name = fmt.Sprintf("%s-%d", variant, instances.Add(1))
	}
	path := o.tracePath
	if path == "" {
		dir := o.traceDir
		if dir == "" {
			dir = os.Getenv("MPARX_TRACE")
		}
		if dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("cosim: trace directory: %w", err)
			}
			path = filepath.Join(dir, unsafeRE.ReplaceAllString(o.name, "_")+".fst")
		}
	}
	if !o.fromSet {
		if v := os.Getenv("MPARX_TRACE_FROM"); v != "" {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("cosim: MPARX_TRACE_FROM: %w", err)
			}
			o.traceFrom = n
		}
	}
	if path != "" {
		abs, err := filepath.Abs(path)
		if err == nil {
			path = abs
		}
	}

	cvar := C.CString(variant)
	defer C.free(unsafe.Pointer(cvar))
	var ctrace *C.char
	if path != "" {
		ctrace = C.CString(path)
		defer C.free(unsafe.Pointer(ctrace))
	}
	var errbuf [512]C.char
	runtime.LockOSThread()
	h := C.mparx_sim_open(cvar, ctrace, C.uint64_t(o.traceFrom), &errbuf[0], C.int32_t(len(errbuf)))
	if h == nil {
		runtime.UnlockOSThread()
		return nil, fmt.Errorf("cosim: open %s: %s", variant, C.GoString(&errbuf[0]))
	}
	s := &Sim{h: h, variant: variant, tracePath: path}
	n := int(C.mparx_sim_nports(h))
	s.byName = make(map[string]int, n)
	for i := 0; i < n; i++ {
		cp := C.mparx_sim_port(h, C.int32_t(i))
		p := Port{
			Name:   C.GoString(cp.name),
			Dir:    Dir(cp.dir),
			Width:  int(cp.width),
			Offset: int(cp.offset),
			Words:  int(cp.words),
		}
		s.byName[p.Name] = len(s.ports)
		s.ports = append(s.ports, p)
	}
	s.inWords = int(C.mparx_sim_in_words(h))
	s.outWords = int(C.mparx_sim_out_words(h))
	return s, nil
}

// Variant returns the variant name.
func (s *Sim) Variant() string { return s.variant }

// TracePath returns the waveform file, or "" when not tracing.
func (s *Sim) TracePath() string { return s.tracePath }

// Close finishes the model, completes the waveform and frees the instance.
func (s *Sim) Close() error {
	if s.h == nil {
		return errors.New("cosim: already closed")
	}
	C.mparx_sim_close(s.h)
	s.h = nil
	runtime.UnlockOSThread()
	return nil
}

// Flush writes buffered waveform data to the trace file.
func (s *Sim) Flush() { C.mparx_sim_flush(s.h) }

// Cycle returns the number of cycles run.
func (s *Sim) Cycle() uint64 { return uint64(C.mparx_sim_cycle(s.h)) }

// NewIn returns zeroed input records for n cycles.
func (s *Sim) NewIn(n int) []uint64 { return make([]uint64, n*s.inWords) }

// NewOut returns output records for n cycles.
func (s *Sim) NewOut(n int) []uint64 { return make([]uint64, n*s.outWords) }

// Step runs n cycles. in holds n input records; the sources overwrite their
// ports in it, so afterwards it holds the inputs that were applied. out
// receives n output records, sampled each cycle after the inputs were
// applied and before the rising clock edge.
func (s *Sim) Step(n int, in, out []uint64) {
	if n <= 0 {
		return
	}
	if len(in) < n*s.inWords || len(out) < n*s.outWords {
		panic(fmt.Sprintf("cosim: Step(%d): records too short (in %d, out %d words)", n, len(in), len(out)))
	}
	var pin, pout *C.uint64_t
	if s.inWords > 0 {
		pin = (*C.uint64_t)(unsafe.Pointer(&in[0]))
	}
	if s.outWords > 0 {
		pout = (*C.uint64_t)(unsafe.Pointer(&out[0]))
	}
	C.mparx_sim_step(s.h, C.int64_t(n), pin, pout)
}

// Reset drives the input rst high for n cycles with every other input low,
// then leaves it low. Call it before pushing beats to sources.
func (s *Sim) Reset(n int) {
	rst := s.Port("rst")
	in, out := s.NewIn(n), s.NewOut(n)
	for c := 0; c < n; c++ {
		rst.Set(in[c*s.inWords:], 1)
	}
	s.Step(n, in, out)
}

// Source is a stream of beats that the model presents on a valid/ready pair
// of ports (see AddSource).
type Source struct {
	sim     *Sim
	id      C.int32_t
	q       *C.mparx_queue
	valid   Port
	ready   Port
	payload []Port
	rec     int
}

// AddSource adds a source driving the input valid and the payload inputs,
// with the output ready as its handshake. Each pushed beat is presented after
// its idle cycles (valid low), held until valid and ready are both high in a
// cycle, then dropped. With no beat to present, valid is low and the payload
// ports keep the values of the input records.
func (s *Sim) AddSource(valid, ready string, payload ...string) (*Source, error) {
	vp, ok := s.LookupPort(valid)
	if !ok {
		return nil, fmt.Errorf("cosim: no port %q", valid)
	}
	rp, ok := s.LookupPort(ready)
	if !ok {
		return nil, fmt.Errorf("cosim: no port %q", ready)
	}
	idx := make([]C.int32_t, 0, len(payload))
	var pp []Port
	for _, name := range payload {
		p, ok := s.LookupPort(name)
		if !ok {
			return nil, fmt.Errorf("cosim: no port %q", name)
		}
		idx = append(idx, C.int32_t(s.byName[name]))
		pp = append(pp, p)
	}
	var errbuf [256]C.char
	var pidx *C.int32_t
	if len(idx) > 0 {
		pidx = &idx[0]
	}
	id := C.mparx_sim_source_add(s.h, C.int32_t(s.byName[valid]), C.int32_t(s.byName[ready]),
		pidx, C.int32_t(len(idx)), &errbuf[0], C.int32_t(len(errbuf)))
	if id < 0 {
		return nil, fmt.Errorf("cosim: source %s/%s: %s", valid, ready, C.GoString(&errbuf[0]))
	}
	src := &Source{sim: s, id: id, q: C.mparx_sim_source_queue(s.h, id), valid: vp, ready: rp, payload: pp}
	src.rec = int(src.q.rec_words)
	s.sources = append(s.sources, src)
	return src, nil
}

// PayloadWords is the number of words Push expects: the payload ports' words
// in the order given to AddSource.
func (src *Source) PayloadWords() int { return src.rec - 1 }

// Push queues a beat presented after gap idle cycles. payload holds the
// payload ports' words in the order given to AddSource.
func (src *Source) Push(gap int, payload []uint64) {
	if len(payload) != src.rec-1 {
		panic(fmt.Sprintf("cosim: Push: %d payload words, want %d", len(payload), src.rec-1))
	}
	rec := int64(src.rec)
	if int64(src.q.tail)+rec > int64(src.q.cap) {
		C.mparx_sim_source_reserve(src.sim.h, src.id, C.int64_t(rec))
	}
	buf := unsafe.Slice((*uint64)(unsafe.Pointer(src.q.buf)), int(src.q.cap))
	t := int64(src.q.tail)
	buf[t] = uint64(gap)
	copy(buf[t+1:t+rec], payload)
	src.q.tail = C.int64_t(t + rec)
}

// Pending returns the number of beats queued and not yet accepted.
func (src *Source) Pending() int { return int(src.q.tail-src.q.head) / src.rec }

// Accepted returns the number of beats accepted so far.
func (src *Source) Accepted() uint64 { return uint64(src.q.accepted) }

// fired reports whether the source's handshake happened in a cycle.
func (src *Source) fired(in, out []uint64) bool { return src.valid.Bit(in) && src.ready.Bit(out) }

// PlainLoop runs a fresh instance of the variant (not s itself) for n cycles
// in a plain C++ loop, from n input records (no sources, no trace), and
// returns the time the loop took and a checksum of the outputs (the sum of
// each cycle's first output word). It is the baseline of the co-simulation
// benchmark: the same model, stepped without cgo, Go or batching.
func (s *Sim) PlainLoop(n int, in []uint64) (time.Duration, uint64, error) {
	if n <= 0 || len(in) < n*s.inWords || s.inWords == 0 {
		return 0, 0, errors.New("cosim: PlainLoop: no cycles or records too short")
	}
	cvar := C.CString(s.variant)
	defer C.free(unsafe.Pointer(cvar))
	var sum C.uint64_t
	ns := C.mparx_sim_plain_loop(cvar, C.int64_t(n), (*C.uint64_t)(unsafe.Pointer(&in[0])), &sum)
	if ns < 0 {
		return 0, 0, fmt.Errorf("cosim: unknown variant %s", s.variant)
	}
	return time.Duration(ns), uint64(sum), nil
}
