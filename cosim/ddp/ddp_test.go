// Package ddp tests rtl/mpa_rx_ddp.v, stage E1 of the egress: verdict
// records and walker records in; events, placement descriptors and tokens
// out. Every FPDU of a PLACE frame is checked by golden/ddp's Placer (the
// same STag table and receive queues, programmed through the same
// configuration writes): PLACED or DDP_ERROR with golden/ddp's Kind,
// DELIVERED for an in-order FPDU with L that was placed, a descriptor with
// the Placer's host address and payload length per FPDU placed with a
// payload. Events are encoded by golden/cycle.
package ddp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
	"github.com/mparx/mparx/golden/cycle"
	gddp "github.com/mparx/mparx/golden/ddp"
)

const (
	idxBits   = 4
	stagCount = 64
	rqDepth   = 4
	conns     = 1 << idxBits
	version   = 1
)

func stream(idx int) gddp.StreamID { return gddp.StreamID(0x100 + idx) }

// walkRec is one walker record as the walker's ports carry it.
type walkRec struct {
	lseqW, ulen int
	ctrl        uint8
	hdr         cycle.Record
}

// frame is one verdict record, its walker records and what E1 must do.
type frame struct {
	vq    cycle.VerdictRecord
	recs  []walkRec
	ulpdu [][]byte // each record's ULPDU (and the frame octets after it)
}

// bench holds the golden tables and the expected outputs.
type bench struct {
	t       *testing.T
	rng     *rand.Rand
	placer  *gddp.Placer
	stags   map[int]uint32 // STag table index to the STag registered there (valid)
	entries map[uint32]cycle.STagEntry
	posted  [conns][3]uint32
	beats   [][]cycle.Event // expected m_evt beats
	descs   []cycle.Desc
	toks    []cycle.Token
	nplaced int
	nerr    map[int]int
	ndeliv  int
}

// configure writes the STag table and posts receive buffers through the
// configuration port, and the same into the golden Placer.
func (b *bench) configure(d *onecycle.DUT, first bool) {
	write := func(op, index int, data cycle.CfgData) {
		d.SetBool("cfg_valid", true)
		d.Set("cfg_op", uint64(op))
		d.Set("cfg_index", uint64(index))
		d.SetWords("cfg_data", data[:])
		d.Step()
		require.False(b.t, d.Bit("busy"))
		d.SetBool("cfg_valid", false)
	}
	if first {
		for i := 0; i < conns; i++ {
			b.placer.SetVersion(stream(i), version)
			for qn := 0; qn < 3; qn++ {
				write(cycle.OpMSN, i, cycle.EncodeRecv(cycle.RecvEntry{QN: uint32(qn), MSN: 1}))
			}
		}
	}
	// STags: a few new ones, some invalidated
	for n := 0; n < 8; n++ {
		idx := b.rng.IntN(stagCount)
		e := cycle.STagEntry{Valid: b.rng.IntN(5) != 0, STag: uint32(idx)<<8 | uint32(b.rng.IntN(256)),
			Stream: stream(b.rng.IntN(conns)), Base: b.rng.Uint64() >> 2, Length: uint64(b.rng.IntN(4096))}
		if b.rng.IntN(8) == 0 {
			e.Length = b.rng.Uint64() % (^e.Base) // a large buffer that does not wrap
		}
		if old, ok := b.stags[idx]; ok {
			b.placer.InvalidateSTag(old)
			delete(b.stags, idx)
		}
		if e.Valid {
			require.NoError(b.t, b.placer.RegisterSTag(e.STag, e.Stream, e.Base, e.Length))
			b.stags[idx] = e.STag
			b.entries[e.STag] = e
		}
		write(cycle.OpSTag, idx, cycle.EncodeSTag(e))
	}
	// receive buffers up to RQ_DEPTH beyond each queue's current MSN
	for i := 0; i < conns; i++ {
		for qn := uint32(0); qn < 3; qn++ {
			cur := b.placer.CurrentMSN(stream(i), qn)
			for b.posted[i][qn]+1 < cur+rqDepth && b.rng.IntN(4) != 0 {
				msn := b.posted[i][qn] + 1
				e := cycle.RecvEntry{QN: qn, Valid: true, MSN: msn, Stream: stream(i), Base: b.rng.Uint64() >> 2,
					Length: uint32(b.rng.IntN(2048))}
				require.NoError(b.t, b.placer.PostRecv(e.Stream, qn, e.Base, uint64(e.Length)))
				b.posted[i][qn] = msn
				write(cycle.OpPost, i, cycle.EncodeRecv(e))
			}
		}
	}
}

// genFrame makes a frame and computes what E1 must do with it.
func (b *bench) genFrame() frame {
	rng := b.rng
	idx := rng.IntN(conns)
	f := frame{vq: cycle.VerdictRecord{Index: idx, Seq: rng.Uint32(), PayLen: rng.IntN(9000), Beats: 1 + rng.IntN(200),
		Adv: rng.Uint32(), InOrder: rng.IntN(3) != 0, Stream: stream(idx), DDPVersion: version,
		Markers: rng.IntN(2) == 0, MPH: rng.IntN(512), P0: 54 + 4*rng.IntN(4), NRFC: rng.IntN(256), NDraft: rng.IntN(256)}}
	f.vq.End = f.vq.Seq + uint32(f.vq.PayLen)
	switch r := rng.IntN(10); {
	case r < 7:
		f.vq.Verdict = cycle.VPlace
	case r < 8:
		f.vq.Verdict, f.vq.Reason = cycle.VException, 1+rng.IntN(9)
	case r < 9:
		f.vq.Verdict, f.vq.Drop = cycle.VDrop, rng.IntN(4)
	default:
		f.vq.Verdict = cycle.VIgnore
	}
	nrec := rng.IntN(5)
	if rng.IntN(4) == 0 {
		nrec = 0
	}
	f.vq.NRec = nrec
	b.expectHeader(f.vq)
	lw := rng.IntN(4)
	ndesc := 0
	for i := 0; i < nrec; i++ {
		u := b.genULPDU(f.vq.Index)
		ctrl, hdr := cycle.DDPHeader(u)
		ulen := len(u) - 8 // the ULPDU; the last 8 octets are the frame's after it
		for cycle.MarkerAt(f.vq.P0+4*lw, f.vq.MPH, f.vq.Markers) || cycle.MarkerAt(f.vq.P0+4*lw+1, f.vq.MPH, f.vq.Markers) {
			lw++
		}
		r := walkRec{lseqW: lw, ulen: ulen, ctrl: ctrl, hdr: hdr}
		f.recs = append(f.recs, r)
		f.ulpdu = append(f.ulpdu, u)
		lw += (2 + ulen + 4 + 3) / 4
		if f.vq.Verdict == cycle.VPlace {
			ndesc += b.expectRecord(f.vq, r, u)
		}
	}
	b.toks = append(b.toks, cycle.Token{Verdict: f.vq.Verdict, Reason: f.vq.Reason, Beats: f.vq.Beats, NDesc: ndesc})
	return f
}

// genULPDU returns a DDP segment for context idx, tagged or untagged,
// right or wrong in one of the ways golden/ddp tells apart, followed by 8
// octets of whatever follows it in the frame.
func (b *bench) genULPDU(idx int) []byte {
	rng := b.rng
	h := gddp.Header{Tagged: rng.IntN(2) == 0, Last: rng.IntN(2) == 0, Version: version}
	if rng.IntN(20) == 0 {
		h.Version = uint8(rng.IntN(4))
	}
	n := rng.IntN(200)
	if rng.IntN(6) == 0 {
		n = 0
	}
	if h.Tagged {
		h.STag = rng.Uint32()
		h.TO = uint64(rng.IntN(4096))
		// mostly a registered STag of this context's stream, inside its buffer
		var mine, any []uint32
		for _, st := range b.stags {
			any = append(any, st)
			if b.entries[st].Stream == stream(idx) {
				mine = append(mine, st)
			}
		}
		slices.Sort(mine)
		slices.Sort(any)
		switch r := rng.IntN(10); {
		case r < 7 && len(mine) > 0:
			h.STag = mine[rng.IntN(len(mine))]
			h.TO = uint64(rng.IntN(int(min(b.entries[h.STag].Length, 4096)) + 1))
		case r < 9 && len(any) > 0:
			h.STag = any[rng.IntN(len(any))]
		}
		if rng.IntN(10) == 0 {
			h.TO = ^uint64(0) - uint64(rng.IntN(300))
		}
	} else {
		h.QN = uint32(rng.IntN(3))
		if rng.IntN(20) == 0 {
			h.QN = rng.Uint32()
		}
		cur := b.placer.CurrentMSN(stream(idx), h.QN%3)
		h.MSN = cur + uint32(rng.IntN(rqDepth+1))
		if h.Last {
			// a message ends in order (a later one ending first is a peer's
			// error, where the hardware advances the queue and golden/ddp
			// does not)
			h.MSN = cur
		}
		if rng.IntN(10) == 0 {
			h.MSN = cur - 1 - uint32(rng.IntN(3))
		}
		h.MO = uint32(rng.IntN(256))
		if rng.IntN(5) == 0 {
			h.MO = uint32(rng.IntN(4096))
		}
	}
	u := h.AppendTo(nil)
	for range n {
		u = append(u, byte(rng.Uint32()))
	}
	if rng.IntN(15) == 0 {
		u = u[:rng.IntN(len(u)+1)] // shorter than its header
	}
	for range 8 {
		u = append(u, byte(rng.Uint32()))
	}
	return u
}

// expectHeader queues a frame's VERDICT beat.
func (b *bench) expectHeader(v cycle.VerdictRecord) {
	hdr := cycle.Event{Index: v.Index, Seq: v.Seq, End: v.End, Len: v.PayLen}
	ev := hdr
	ev.Kind, ev.Verdict, ev.Reason = cycle.EvVerdict, v.Verdict, v.Reason
	beat := []cycle.Event{ev}
	switch v.Verdict {
	case cycle.VDrop:
		ev = hdr
		ev.Kind, ev.Verdict = cycle.EvDrop, v.Drop
		beat = append(beat, ev)
	case cycle.VPlace:
		ev = hdr
		ev.Kind, ev.NRFC, ev.NDraft = cycle.EvConsumed, v.NRFC, v.NDraft
		if v.InOrder {
			ev.Kind, ev.End = cycle.EvAdvanced, v.Adv
		}
		beat = append(beat, ev)
	}
	b.beats = append(b.beats, beat)
}

// expectRecord runs one FPDU of a PLACE frame through the golden Placer
// and queues its events and descriptor; it returns the descriptors (0 or
// 1).
func (b *bench) expectRecord(v cycle.VerdictRecord, r walkRec, ulpdu []byte) int {
	u := ulpdu[:r.ulen]
	// the header word holds the 16 octets after the first two, zeros past
	// the frame
	full := append(append([]byte(nil), ulpdu...), make([]byte, 18)...)
	e := cycle.Event{Kind: cycle.EvPlaced, Index: v.Index, Seq: v.Seq + uint32(4*r.lseqW), Len: r.ulen, Ctrl: full[0]}
	tagged := full[0]&0x80 != 0
	if tagged {
		e.End = binary.BigEndian.Uint32(full[2:6])
	} else {
		e.End = binary.BigEndian.Uint32(full[10:14])
		e.QN = int(full[9] & 3)
	}
	ndesc := 0
	pl, err := b.placer.Place(v.Stream, u)
	if err != nil {
		var de *gddp.Error
		require.True(b.t, errors.As(err, &de), "%v", err)
		e.Kind, e.DDPKind = cycle.EvDDPError, int(de.Kind)
		b.nerr[int(de.Kind)]++
	} else {
		b.nplaced++
		if pl.Len > 0 {
			b.descs = append(b.descs, cycle.Desc{Addr: pl.Addr, Len: pl.Len, Off: payloadOffset(v, r, tagged),
				MPH: v.MPH, Markers: v.Markers})
			ndesc = 1
		}
	}
	beat := []cycle.Event{e}
	if err == nil && v.InOrder && pl.Header.Last {
		_, derr := b.placer.Deliver(v.Stream, pl.Header)
		require.NoError(b.t, derr)
		dl := e
		dl.Kind = cycle.EvDelivered
		beat = append(beat, dl)
		b.ndeliv++
	}
	b.beats = append(b.beats, beat)
	return ndesc
}

// payloadOffset is the frame offset of an FPDU's first payload octet: the
// ULPDU_Length field is at P0 + 4 lseq_w, then 2 + the DDP header's octets
// that are not a marker's, and no marker octet.
func payloadOffset(v cycle.VerdictRecord, r walkRec, tagged bool) int {
	hl := gddp.UntaggedHeaderLen
	if tagged {
		hl = gddp.TaggedHeaderLen
	}
	f := v.P0 + 4*r.lseqW
	for k := 0; k < 2+hl; f++ {
		if !cycle.MarkerAt(f, v.MPH, v.Markers) {
			k++
		}
	}
	for cycle.MarkerAt(f, v.MPH, v.Markers) {
		f++
	}
	return f
}

func run(t *testing.T, lanes int) {
	d := onecycle.Open(t, fmt.Sprintf("mpa_rx_ddp_l%d", lanes))
	b := &bench{t: t, rng: rand.New(rand.NewPCG(21, uint64(lanes))), placer: gddp.NewPlacer(gddp.NewMemory()),
		stags: map[int]uint32{}, entries: map[uint32]cycle.STagEntry{}, nerr: map[int]int{}}
	var nframes, nbeats int
	for round := 0; round < 100; round++ {
		b.configure(d, round == 0)
		var frames []frame
		for range 60 {
			frames = append(frames, b.genFrame())
		}
		nframes += len(frames)
		var recs []walkRec
		for _, f := range frames {
			recs = append(recs, f.recs...)
		}
		delay := 0 // cycles until the next verdict record is at the queue's head
		for c := 0; len(frames) > 0 || len(b.beats) > 0 || len(b.toks) > 0; c++ {
			require.Less(t, c, 100000, "round %d stuck: %d frames, %d beats, %d tokens left", round, len(frames), len(b.beats), len(b.toks))
			vv := len(frames) > 0 && delay == 0
			if delay > 0 {
				delay--
			}
			d.SetBool("vq_valid", vv)
			if len(frames) > 0 {
				d.SetWords("vq_data", frames[0].vq.Encode(idxBits))
			}
			d.SetBool("rec_valid", len(recs) > 0)
			if len(recs) > 0 {
				r := recs[0]
				d.Set("rec_lseq_w", uint64(r.lseqW))
				d.Set("rec_ulen", uint64(r.ulen))
				d.Set("rec_ctrl", uint64(r.ctrl))
				d.SetWords("rec_hdr", r.hdr)
			}
			er := b.rng.IntN(3) != 0
			d.SetBool("m_evt_tready", er)
			d.SetBool("tok_ready", true)
			d.SetBool("desc_ready", true)
			d.Step()
			if d.Bit("m_evt_tvalid") && er {
				require.NotEmpty(t, b.beats, "cycle %d: an extra event beat", c)
				want := b.beats[0]
				b.beats = b.beats[1:]
				keep := d.Get("m_evt_tkeep")
				words := d.Words("m_evt_tdata")
				n := 0
				for l := 0; l < lanes; l++ {
					if keep>>(16*l)&0xffff != 0 {
						n++
					}
				}
				got := make([]cycle.Event, n)
				for l := range got {
					got[l] = cycle.Decode(cycle.Word{words[2*l], words[2*l+1]})
				}
				if lanes == 1 && len(want) == 2 {
					// one event per beat: the second of the pair is the next beat
					b.beats = append([][]cycle.Event{want[1:]}, b.beats...)
					want = want[:1]
				}
				require.Equal(t, want, got, "cycle %d: event beat %d", c, nbeats)
				nbeats++
			}
			if d.Bit("desc_valid") {
				require.NotEmpty(t, b.descs, "cycle %d: an extra descriptor", c)
				require.Equal(t, b.descs[0], cycle.DecodeDesc(d.Words("desc_data")), "cycle %d: descriptor", c)
				b.descs = b.descs[1:]
			}
			if d.Bit("tok_valid") {
				require.NotEmpty(t, b.toks, "cycle %d: an extra token", c)
				got := cycle.DecodeToken(d.Words("tok_data"))
				if got.Verdict != cycle.VPlace {
					got.NDesc = 0 // defined for PLACE frames only (mpa_rx_fields.vh)
				}
				require.Equal(t, b.toks[0], got, "cycle %d: token", c)
				b.toks = b.toks[1:]
			}
			if vv && d.Bit("vq_ready") {
				frames = frames[1:]
				delay = b.rng.IntN(3)
			}
			if len(recs) > 0 && d.Bit("rec_ready") {
				recs = recs[1:]
			}
		}
		// the queues are empty
		d.SetBool("vq_valid", false)
		d.SetBool("rec_valid", false)
		require.Empty(t, recs, "records left")
		require.Empty(t, b.descs, "descriptors left")
		for range 4 {
			d.Step()
		}
	}
	t.Logf("%d frames, %d event beats; %d FPDUs placed, %d delivered; DDP errors by kind %v", nframes, nbeats,
		b.nplaced, b.ndeliv, b.nerr)
	require.Greater(t, b.nplaced, 1000)
	require.Greater(t, b.ndeliv, 200)
	for k := gddp.KindShortHeader; k <= gddp.KindUntaggedVersion; k++ {
		require.Positive(t, b.nerr[int(k)], "no DDP error of kind %v", k)
	}
}

func TestDDP(t *testing.T) {
	for _, lanes := range []int{1, 2} {
		t.Run(fmt.Sprintf("lanes%d", lanes), func(t *testing.T) { run(t, lanes) })
	}
}
