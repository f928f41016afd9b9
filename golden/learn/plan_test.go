package learn

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// recorder is a Target that notes what was set up, in order.
type recorder struct{ got []string }

func (r *recorder) RegisterSTag(stag uint32, st ddp.StreamID, base, length uint64) error {
	r.got = append(r.got, fmt.Sprintf("STag %d stream %d at %#x+%d", stag, st, base, length))
	return nil
}

func (r *recorder) PostRecv(st ddp.StreamID, qn uint32, base, length uint64) error {
	r.got = append(r.got, fmt.Sprintf("QN %d stream %d at %#x+%d", qn, st, base, length))
	return nil
}

// TestPlanAppliesAsApply gives random setups to Setup.Apply, called before
// every frame of a run whose connections are found at random frames (a
// half is known before the frames after the one it was found during), and
// to copies of the Plan of the same setup, each called before a random
// subset of the frames only (a receiver taking some connections), and
// expects each copy to have set up, before each of its frames, exactly
// what Apply had set up by then.
func TestPlanAppliesAsApply(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := range 200 {
		const frames = 60
		tuples := conns(1 + rng.Intn(5))
		var found []rx.Conn
		created := map[wire.FourTuple]int{}
		ids := map[wire.FourTuple]ddp.StreamID{}
		for k, tu := range tuples {
			if rng.Intn(6) == 0 {
				continue // never found
			}
			f := rng.Intn(frames)
			found = append(found, rx.Conn{Initiator: tu, Frame: f})
			created[tu], created[tu.Reverse()] = f, f
			ids[tu], ids[tu.Reverse()] = ddp.StreamID(2*k), ddp.StreamID(2*k+1)
		}
		var bufs []Buffer
		for i := range rng.Intn(12) {
			tu := tuples[rng.Intn(len(tuples))]
			if rng.Intn(2) == 0 {
				tu = tu.Reverse()
			}
			b := Buffer{Half: tu, Tagged: rng.Intn(2) == 0, STag: uint32(i), QN: uint32(rng.Intn(3)), MSN: uint32(i + 1),
				Addr: uint64(0x1000 * (i + 1)), Len: uint64(rng.Intn(100)), Frame: rng.Intn(frames)}
			if f, ok := created[tu]; ok && rng.Intn(3) == 0 {
				b.Frame = f // first used during the frame its connection was found in
			}
			bufs = append(bufs, b)
		}
		// Apply's order: by frame (setupOf sorts them so).
		for i := 1; i < len(bufs); i++ {
			for j := i; j > 0 && bufs[j].Frame < bufs[j-1].Frame; j-- {
				bufs[j], bufs[j-1] = bufs[j-1], bufs[j]
			}
		}
		stream := func(tu wire.FourTuple) (ddp.StreamID, bool) {
			id, ok := ids[tu]
			return id, ok
		}
		// The single run: before frame i, the halves found during frames
		// before i are known.
		want := make([][]string, frames) // what is set up before each frame
		one := &Setup{Buffers: bufs}
		single := &recorder{}
		for i := range frames {
			assert.NoError(t, one.Apply(i, single, func(tu wire.FourTuple) (ddp.StreamID, bool) {
				if f, ok := created[tu]; !ok || f >= i {
					return 0, false
				}
				return stream(tu)
			}))
			want[i] = append([]string(nil), single.got...)
		}
		plan := (&Setup{Buffers: bufs}).Plan(found, stream)
		for copyN := range 3 {
			p, rec := plan.Copy(), &recorder{}
			for i := range frames {
				if copyN > 0 && rng.Intn(copyN+1) != 0 {
					continue // a frame of another receiver
				}
				assert.NoError(t, p.Apply(i, rec))
				assert.Equal(t, want[i], rec.got, "round %d, copy %d, before frame %d", round, copyN, i)
			}
		}
	}
}
