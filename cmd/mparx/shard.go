package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/learn"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/replay"
)

// replaySharded is the second pass over a capture file split by
// connection among n receivers, each in a goroutine of its own taking the
// frames of its own connections (learn.ShardOf) with their numbers in the
// capture (rx.Receiver.SkipTo). conns are the connections the first pass
// found, in the order it found them: receiver k numbers the DDP streams
// of a connection by its rank there (rx.Config.StreamIDs), and its placer
// holds every learned buffer as the one placer of a single receiver does
// at each of its frames (learn.Plan). A connection's events depend on its
// own frames and on those buffers only, so each half connection ends as
// it ends in a single receiver, and the merged counters are its counters.
// ok is false when the run did not go as planned (a connection found that
// the first pass did not find, or at another frame; a buffer the placer
// refused): the caller then runs a single receiver. err is the read error
// that ended the capture, if any. write, when set, gets the events as
// JSON lines (replay --json), in the order a single receiver reports them:
// by frame (every event of a frame is its receiver's), and in each frame
// as its receiver reported them.
func replaySharded(src *source, base rx.Config, setup *learn.Setup, conns []rx.Conn, n int, write func([]byte)) (run *shardedRun, ok bool, err error) {
	ids := make(map[wire.FourTuple]ddp.StreamID, 2*len(conns))
	for k, c := range conns {
		if _, dup := ids[c.Initiator]; dup {
			return nil, false, nil
		}
		ids[c.Initiator], ids[c.Initiator.Reverse()] = ddp.StreamID(2*k), ddp.StreamID(2*k+1)
	}
	streamID := func(t wire.FourTuple) (ddp.StreamID, bool) {
		id, ok := ids[t]
		return id, ok
	}
	plan := setup.Plan(conns, streamID)
	run = &shardedRun{rs: make([]*rx.Receiver, n)}
	placers := make([]*ddp.Placer, n)
	plans := make([]*learn.Plan, n)
	failed := make([]bool, n)
	evs := make([]bytes.Buffer, n) // the events of the frame receiver k takes
	for k := range n {
		cfg := base
		cfg.Placer = ddp.NewPlacer(ddp.NewMemory())
		cfg.Placer.Memory().SetDiscard(true) // what was placed where is counted; the buffers are never read
		cfg.OnEvent = func(*rx.Event) {}     // nothing keeps the events
		if write != nil {
			enc := json.NewEncoder(&evs[k])
			enc.SetEscapeHTML(false) // as newSink
			cfg.Digests = true
			cfg.OnEvent = func(e *rx.Event) {
				if err := enc.Encode(replay.EventRecord(e)); err != nil {
					failed[k] = true
				}
			}
		}
		cfg.StreamIDs = func(t wire.FourTuple) (ddp.StreamID, bool) {
			id, ok := ids[t]
			if !ok || id%2 != 0 {
				return 0, false // not a connection the first pass found, or the other way round
			}
			return id, true
		}
		run.rs[k], placers[k], plans[k] = rx.New(cfg), cfg.Placer, plan.Copy()
	}
	frame := func(k int, f *parsedFrame) {
		r := run.rs[k]
		if !failed[k] && plans[k].Apply(f.index, placers[k]) != nil {
			failed[k] = true
		}
		r.SkipTo(f.index)
		if f.truncated {
			r.Truncated(f.p.Data)
		} else {
			r.FrameParsed(f.p)
		}
	}
	shard := func(t wire.FourTuple) int { return learn.ShardOf(t, n) }
	if write == nil {
		err = src.eachSharded(base, n, shard, frame)
	} else {
		err = src.eachShardedOut(base, n, shard, func(k int, f *parsedFrame, out []byte) []byte {
			evs[k].Reset()
			frame(k, f)
			return append(out, evs[k].Bytes()...)
		}, write)
	}
	if slices.Contains(failed, true) {
		return nil, false, err
	}
	if !slices.Equal(rx.MergeConns(run.rs...), conns) {
		return nil, false, err
	}
	return run, true, err
}

// shardedRun is the merged view of the receivers of replaySharded: what a
// single receiver that took every frame reports.
type shardedRun struct {
	rs []*rx.Receiver
}

// Halves returns every receiver's half connections, by DDP stream.
func (m *shardedRun) Halves() []rx.HalfSummary {
	var out []rx.HalfSummary
	for _, r := range m.rs {
		out = append(out, r.Halves()...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Stream < out[j].Stream })
	return out
}

// Stats returns the sums of the receivers' counters; Frames is the
// frames of the capture (every receiver numbers its frames in it).
func (m *shardedRun) Stats() rx.Stats {
	var s rx.Stats
	for _, r := range m.rs {
		t := r.Stats()
		s.Frames = max(s.Frames, t.Frames)
		s.Dropped += t.Dropped
		s.NonTCP += t.NonTCP
		s.Untracked += t.Untracked
		s.Unverified += t.Unverified
		s.Truncated += t.Truncated
	}
	return s
}

// UnverifiedHosts returns the receivers' checksum tallies summed per
// sending host, by host as rx.Receiver.UnverifiedHosts orders them.
func (m *shardedRun) UnverifiedHosts() []rx.HostChecksums {
	var t rx.ChecksumTally
	for _, r := range m.rs {
		for _, h := range r.UnverifiedHosts() {
			t.Merge(h)
		}
	}
	return t.Hosts()
}
