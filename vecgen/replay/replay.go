// Package replay runs the golden models on conformance vectors (the format is
// vecgen/vector): it sets up the golden receiver and the hardware model with
// its software slow path from a vector's setup, computes a vector's expected
// results and checks a vector against them.
package replay

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/vector"
)

// ConnSpecs returns the connections of the setup as the golden receiver
// takes them, in setup order (the k-th gets DDP streams 2k and 2k+1).
func ConnSpecs(s *vector.Setup) ([]rx.ConnSpec, error) {
	out := make([]rx.ConnSpec, 0, len(s.Conns))
	for i, c := range s.Conns {
		ini, err := vector.ParseEndpoint(c.Initiator)
		if err != nil {
			return nil, fmt.Errorf("connection %d: %w", i, err)
		}
		res, err := vector.ParseEndpoint(c.Responder)
		if err != nil {
			return nil, fmt.Errorf("connection %d: %w", i, err)
		}
		out = append(out, rx.ConnSpec{
			Tuple:        wire.FourTuple{SrcIP: ini.IP, DstIP: res.IP, SrcPort: ini.Port, DstPort: res.Port},
			InitiatorSeq: c.InitiatorSeq,
			ResponderSeq: c.ResponderSeq,
			Policy:       mpa.StartupPolicy{Permissive: c.Permissive},
		})
	}
	return out, nil
}

// Golden is a golden receiver loaded with a vector's setup.
type Golden struct {
	Receiver *rx.Receiver
	Placer   *ddp.Placer
	// Streams[k] holds the DDP stream IDs of connection k: I2R, R2I.
	Streams [][2]ddp.StreamID
}

// NewGolden builds a golden receiver for the setup: it adds every
// connection, then registers the STags and posts the receive buffers on the
// streams the receiver assigned. Extra receiver options (Auto, OnEvent) may
// be set in cfg; its Placer and Window are set from the setup.
func NewGolden(s *vector.Setup, cfg rx.Config) (*Golden, error) {
	specs, err := ConnSpecs(s)
	if err != nil {
		return nil, err
	}
	pl := ddp.NewPlacer(ddp.NewMemory())
	pl.Version = s.Receiver.DDPVersion
	cfg.Placer = pl
	cfg.Window = s.Receiver.Window
	g := &Golden{Receiver: rx.New(cfg), Placer: pl}
	for _, c := range specs {
		i2r, r2i := g.Receiver.AddConn(c)
		g.Streams = append(g.Streams, [2]ddp.StreamID{i2r, r2i})
	}
	stream := func(conn int, dir string) ddp.StreamID {
		if dir == vector.R2I {
			return g.Streams[conn][1]
		}
		return g.Streams[conn][0]
	}
	for i, t := range s.STags {
		if err := pl.RegisterSTag(t.STag, stream(t.Conn, t.Dir), t.Addr, t.Len); err != nil {
			return nil, fmt.Errorf("vector: stag %d: %w", i, err)
		}
	}
	for i, r := range s.Recvs {
		st := stream(r.Conn, r.Dir)
		// Buffers take MSNs 1, 2, 3 ... in posting order per queue.
		if got := nextMSN(s.Recvs[:i], r); got != r.MSN {
			return nil, fmt.Errorf("vector: recv %d: posted as MSN %d, setup says %d", i, got, r.MSN)
		}
		if err := pl.PostRecv(st, r.QN, r.Addr, r.Len); err != nil {
			return nil, fmt.Errorf("vector: recv %d: %w", i, err)
		}
	}
	return g, nil
}

// nextMSN is the MSN the next buffer posted to r's queue takes, given the
// buffers posted before it.
func nextMSN(before []vector.Recv, r vector.Recv) uint32 {
	msn := uint32(1)
	for _, b := range before {
		if b.Conn == r.Conn && b.Dir == r.Dir && b.QN == r.QN {
			msn++
		}
	}
	return msn
}

// Expected runs the golden receiver over the vector's frames and returns
// the expected records (events, then one buffer record per setup buffer)
// and the final buffer contents. It is how vecgen computes expected.jsonl.
func Expected(s *vector.Setup, frames []vector.Frame) ([]vector.Record, [][]byte, error) {
	var recs []vector.Record
	g, err := NewGolden(s, rx.Config{Digests: true, OnEvent: func(e *rx.Event) { recs = append(recs, EventRecord(e)) }})
	if err != nil {
		return nil, nil, err
	}
	for _, f := range frames {
		g.Receiver.Frame(f.Data)
	}
	bufs := s.Buffers()
	contents := make([][]byte, len(bufs))
	for i, b := range bufs {
		contents[i] = g.Placer.Memory().Read(b.Addr, int(b.Len))
	}
	return append(recs, vector.BufferRecords(s, contents, len(frames))...), contents, nil
}

// Check runs the golden receiver over v and compares its results with the
// vector's expected records and buffers; it returns the first difference.
func Check(v *vector.Vector) error {
	recs, bufs, err := Expected(&v.Setup, v.Frames)
	if err != nil {
		return err
	}
	for i := 0; i < max(len(recs), len(v.Expected)); i++ {
		switch {
		case i >= len(recs):
			return fmt.Errorf("vector %s: expected record %d %+v missing from the golden run", v.Setup.Name, i, v.Expected[i])
		case i >= len(v.Expected):
			return fmt.Errorf("vector %s: golden run has extra record %d %+v", v.Setup.Name, i, recs[i])
		case !recordsEqual(recs[i], v.Expected[i]):
			return fmt.Errorf("vector %s: record %d: expected %+v, golden %+v", v.Setup.Name, i, v.Expected[i], recs[i])
		}
	}
	for i := range bufs {
		if string(bufs[i]) != string(v.Buffers[i]) {
			return fmt.Errorf("vector %s: buffer %d differs", v.Setup.Name, i)
		}
	}
	return nil
}

func recordsEqual(a, b vector.Record) bool {
	if (a.Len == nil) != (b.Len == nil) || (a.Len != nil && *a.Len != *b.Len) {
		return false
	}
	if (a.DDP == nil) != (b.DDP == nil) || (a.DDP != nil && *a.DDP != *b.DDP) {
		return false
	}
	if (a.Enhanced == nil) != (b.Enhanced == nil) || (a.Enhanced != nil && *a.Enhanced != *b.Enhanced) {
		return false
	}
	a.Len, b.Len, a.DDP, b.DDP, a.Enhanced, b.Enhanced = nil, nil, nil, nil, nil, nil
	return a == b
}

// EventRecord converts a golden receiver event to its expected.jsonl form.
func EventRecord(e *rx.Event) vector.Record {
	r := vector.Record{Type: e.Kind.String(), Seq: e.Seq, Frame: e.Frame}
	if e.Half != (wire.FourTuple{}) {
		r.Src, r.Dst = e.Half.Src(), e.Half.Dst()
	}
	ddpRec := func() *vector.DDP {
		h := e.DDP
		d := &vector.DDP{Tagged: h.Tagged, Last: h.Last, Version: h.Version}
		if h.Tagged {
			d.STag, d.TO = h.STag, h.TO
		} else {
			d.QN, d.MSN, d.MO = h.QN, h.MSN, h.MO
		}
		return d
	}
	switch e.Kind {
	case rx.ULPDU:
		n := e.Len
		r.Len, r.SHA256 = &n, hex.EncodeToString(e.SHA256[:])
	case rx.Placed:
		n := e.Len
		r.Len, r.Addr, r.DDP = &n, e.Addr, ddpRec()
	case rx.Delivered:
		r.DDP = ddpRec()
	case rx.Established:
		if e.Rev == mpa.RevEnhanced {
			r.Rev = int(e.Rev)
		}
		if e.Enhanced != nil {
			r.Enhanced = &vector.Enhanced{IRD: e.Enhanced.IRD, ORD: e.Enhanced.ORD}
			if e.RTR != mpa.RTRNone {
				r.Enhanced.RTR = e.RTR.String()
			}
		}
	case rx.MPAError:
		r.Code = int(e.Code)
	case rx.DDPError:
		r.DDP, r.Err = ddpRec(), DDPErrorName(e.Err)
	case rx.Dropped:
		r.Err = DropName(e.Err)
	}
	return r
}

var ddpKindNames = []struct {
	k    ddp.Kind
	name string
}{
	{ddp.KindShortHeader, "short_header"},
	{ddp.KindInvalidSTag, "invalid_stag"},
	{ddp.KindBaseBounds, "base_bounds"},
	{ddp.KindSTagNotAssociated, "stag_not_associated"},
	{ddp.KindTOWrap, "to_wrap"},
	{ddp.KindTaggedVersion, "tagged_version"},
	{ddp.KindInvalidQN, "invalid_qn"},
	{ddp.KindNoBuffer, "no_buffer"},
	{ddp.KindMSNRange, "msn_range"},
	{ddp.KindInvalidMO, "invalid_mo"},
	{ddp.KindTooLong, "too_long"},
	{ddp.KindUntaggedVersion, "untagged_version"},
}

// DDPErrorName returns the short stable name of a DDP error kind, as the
// "err" field of ddp_error records carries it (RFC 5041 section 7.2).
func DDPErrorName(err error) string {
	for _, k := range ddpKindNames {
		if errors.Is(err, k.k) {
			return k.name
		}
	}
	if err == nil {
		return ""
	}
	return "other"
}

// DropName returns the short stable name of why a frame was dropped.
func DropName(err error) string {
	switch {
	case errors.Is(err, wire.ErrIPChecksum):
		return "ip_checksum"
	case errors.Is(err, wire.ErrTCPChecksum):
		return "tcp_checksum"
	case errors.Is(err, wire.ErrMalformed):
		return "malformed"
	case errors.Is(err, wire.ErrFragment):
		return "fragment"
	case err == nil:
		return ""
	}
	return "other"
}

// NewSystem builds the hardware model and software slow path
// (golden/fastpath) for the setup, with a context table of slots entries,
// an STag table of stagSlots entries and receive queues of rqDepth buffers
// (0: unlimited; fastpath.Engine's Slots, fastpath.System's STagSlots and
// RQDepth), the connections added and the STags and receive buffers
// registered in both engines' tables.
func NewSystem(s *vector.Setup, slots, stagSlots, rqDepth int) (*fastpath.System, error) {
	specs, err := ConnSpecs(s)
	if err != nil {
		return nil, err
	}
	sys := fastpath.NewSystem(ddp.NewMemory(), s.Receiver.Window)
	sys.HW.Slots = slots
	sys.STagSlots, sys.RQDepth = stagSlots, rqDepth
	sys.SetVersion(s.Receiver.DDPVersion)
	var streams [][2]ddp.StreamID
	for _, c := range specs {
		a, b := sys.AddConn(c)
		streams = append(streams, [2]ddp.StreamID{a, b})
	}
	stream := func(conn int, dir string) ddp.StreamID {
		if dir == vector.R2I {
			return streams[conn][1]
		}
		return streams[conn][0]
	}
	for i, t := range s.STags {
		if err := sys.RegisterSTag(t.STag, stream(t.Conn, t.Dir), t.Addr, t.Len); err != nil {
			return nil, fmt.Errorf("vector: stag %d: %w", i, err)
		}
	}
	for i, r := range s.Recvs {
		if err := sys.PostRecv(stream(r.Conn, r.Dir), r.QN, r.Addr, r.Len); err != nil {
			return nil, fmt.Errorf("vector: recv %d: %w", i, err)
		}
	}
	return sys, nil
}
