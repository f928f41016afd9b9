package learn

import (
	"encoding/binary"

	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// Sharded learns the setup of one capture with several Learners, each
// taking the frames of its own connections (Shard): they can run in
// goroutines of their own. What a connection's traffic needs depends on
// that connection's frames only, so Setup, which merges what the learners
// saw, is the setup one Learner taking every frame learns. The one thing
// that crosses connections, the owner of an STag (the half connection
// that used it first), is settled by the frame numbers: every frame goes
// to its learner with its number in the capture (FrameParsedAt).
type Sharded struct {
	ls []*Learner
}

// NewSharded returns n learners (at least one) configured as NewLearner
// does.
func NewSharded(cfg rx.Config, n int) *Sharded {
	s := &Sharded{ls: make([]*Learner, max(n, 1))}
	for i := range s.ls {
		s.ls[i] = NewLearner(cfg)
	}
	return s
}

// N returns the number of learners.
func (s *Sharded) N() int { return len(s.ls) }

// Learner returns learner k.
func (s *Sharded) Learner(k int) *Learner { return s.ls[k] }

// Shard returns the learner that takes the frames of the connection of
// half connection t: the same for both directions of a connection, and
// the same in every run.
func (s *Sharded) Shard(t wire.FourTuple) int { return ShardOf(t, len(s.ls)) }

// ShardOf returns which of n shards takes the frames of the connection of
// half connection t: the same for both directions of a connection, and
// the same in every run (Sharded.Shard with n learners).
func ShardOf(t wire.FourTuple, n int) int {
	if n <= 1 {
		return 0
	}
	h := endpointHash(t.SrcIP, t.SrcPort) + endpointHash(t.DstIP, t.DstPort) // either way round
	return int(h % uint64(n))
}

// endpointHash mixes an address and port into 64 bits (the finaliser of
// MurmurHash3, which spreads consecutive addresses and ports).
func endpointHash(a wire.Addr, port uint16) uint64 {
	x := binary.LittleEndian.Uint64(a[:8]) ^ binary.LittleEndian.Uint64(a[8:])*0x9e3779b97f4a7c15 ^ uint64(port)<<48
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Setup returns the setup the frames taken so far by all the learners
// need: Learner.Setup of one learner that took them all, in capture order.
func (s *Sharded) Setup() *Setup {
	if len(s.ls) == 1 {
		return s.ls[0].Setup()
	}
	// Each learner kept, per STag, the uses of the half that used it
	// first among its connections; the owner is the earliest of those.
	type first struct {
		half  wire.FourTuple
		frame int
	}
	owner := map[uint32]first{}
	for _, l := range s.ls {
		for k, u := range l.stags {
			if o, ok := owner[k.stag]; !ok || u.frame < o.frame {
				owner[k.stag] = first{k.half, u.frame}
			}
		}
	}
	stags, msgs := map[stagKey]*use{}, map[msgKey]*use{}
	for _, l := range s.ls {
		for k, u := range l.stags {
			if owner[k.stag].half == k.half {
				stags[k] = u
			}
		}
		for k, u := range l.msgs { // a half connection's queues are one learner's
			msgs[k] = u
		}
	}
	return setupOf(stags, msgs)
}

// Conns returns the connections the learners' receivers found, in the
// order one receiver taking every frame finds them (rx.MergeConns).
func (s *Sharded) Conns() []rx.Conn {
	rs := make([]*rx.Receiver, len(s.ls))
	for k, l := range s.ls {
		rs[k] = l.r
	}
	return rx.MergeConns(rs...)
}
