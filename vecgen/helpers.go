package vecgen

import (
	"github.com/mparx/mparx/golden/mpa"
)

// Out is one segment of one half connection, ready to emit.
type Out struct {
	H   *Half
	Seg mpa.Segment
	Mod Mod
}

// Outs wraps segments of one half.
func Outs(h *Half, segs []mpa.Segment) []Out {
	out := make([]Out, len(segs))
	for i, s := range segs {
		out[i] = Out{H: h, Seg: s}
	}
	return out
}

// EmitAll emits the segments in the order given.
func (g *Gen) EmitAll(outs []Out) {
	for _, o := range outs {
		o.H.Emit([]mpa.Segment{o.Seg}, o.Mod)
	}
}

// Merge interleaves several in-order lists at random, keeping each list's
// own order.
func (g *Gen) Merge(lists ...[]Out) []Out {
	var total int
	for _, l := range lists {
		total += len(l)
	}
	out := make([]Out, 0, total)
	pos := make([]int, len(lists))
	for len(out) < total {
		// pick a list with probability proportional to what it has left
		r := g.rng.IntN(total - len(out))
		for i, l := range lists {
			left := len(l) - pos[i]
			if r < left {
				out = append(out, l[pos[i]])
				pos[i]++
				break
			}
			r -= left
		}
	}
	return out
}

// ShuffleWindow permutes s within consecutive windows of w elements.
func ShuffleWindow[T any](g *Gen, s []T, w int) {
	for i := 0; i < len(s); i += w {
		j := min(i+w, len(s))
		win := s[i:j]
		g.rng.Shuffle(len(win), func(a, b int) { win[a], win[b] = win[b], win[a] })
	}
}

// FullConn opens a connection whose startup succeeds with the given markers
// per direction and CRC: M in the Request asks the Responder for markers,
// M in the Reply asks the Initiator.
func (g *Gen) FullConn(i2rMarkers, r2iMarkers, crc bool, link Link) *Conn {
	req, rep := Startup(r2iMarkers, crc, i2rMarkers, crc)
	return g.Conn(ConnOpts{Req: req, Rep: rep, Link: link})
}

// WriteMsg registers an STag for a buffer of size octets (plus a random
// leading offset) and sends an RDMA Write filling it in DDP segments of at
// most seg payload octets (0: MULPDU).
func (h *Half) WriteMsg(size, seg int) []mpa.FPDURef {
	g := h.c.g
	to := uint64(g.rng.IntN(16) * 4)
	stag := h.RegisterSTag(to + uint64(size))
	return h.Write(stag, to, g.Bytes(size), seg)
}

// SendMsg posts a receive buffer on queue qn (a little larger than the
// message) and sends a Send of size octets into it.
func (h *Half) SendMsg(qn uint32, size, seg int) []mpa.FPDURef {
	g := h.c.g
	h.PostRecv(qn, uint64(size+g.rng.IntN(8)))
	_, f := h.Send(qn, g.Bytes(size), seg)
	return f
}

// Traffic sends about total octets of DDP payload on h as a mix of RDMA
// Writes and Sends (on queues 0-2) of 1 to maxMsg octets; seg returns the
// DDP segment payload limit per message (nil: MULPDU).
func (h *Half) Traffic(total, maxMsg int, seg func() int) {
	g := h.c.g
	h.Reserve(total + maxMsg)
	for sent := 0; sent < total; {
		size := 1 + g.rng.IntN(maxMsg)
		s := 0
		if seg != nil {
			s = seg()
		}
		if g.rng.IntN(3) == 0 {
			h.SendMsg(uint32(g.rng.IntN(3)), size, s)
		} else {
			h.WriteMsg(size, s)
		}
		sent += size
	}
}
