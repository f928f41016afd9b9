// Package place tests rtl/mpa_rx_place.v, stage E2 of the egress: tokens,
// placement descriptors and the frame FIFO's beats in; exception frames on
// m_exc_axis and the placed payloads as host writes out. The writes are
// checked octet by octet against golden/cycle's PlanWrites (section 5.4:
// one write per aligned host word a placement touches, in order, strobes
// exactly on its octets), from placements whose octets are taken from the
// frame at the descriptor's offset with the 4-octet markers skipped.
package place

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/cosim/internal/onecycle"
	"github.com/mparx/mparx/golden/cycle"
)

// frame is one frame's token, descriptors, beats and what E2 must do.
type frame struct {
	tok    cycle.Token
	descs  []cycle.Desc
	data   []byte // every lane of every beat
	size   int
	writes []cycle.HostWrite
}

func genFrame(rng *rand.Rand, lanes int) frame {
	size := 60 + rng.IntN(1500)
	if rng.IntN(4) == 0 {
		size = 60 + rng.IntN(200)
	}
	beats := (size + lanes - 1) / lanes
	f := frame{size: size, data: make([]byte, beats*lanes)}
	for i := range f.data[:size] {
		f.data[i] = byte(rng.Uint32())
	}
	f.tok.Beats = beats
	switch r := rng.IntN(10); {
	case r < 6:
		f.tok.Verdict = cycle.VPlace
	case r < 8:
		f.tok.Verdict, f.tok.Reason = cycle.VException, 1+rng.IntN(9)
	case r < 9:
		f.tok.Verdict = cycle.VDrop
	default:
		f.tok.Verdict = cycle.VIgnore
	}
	if f.tok.Verdict != cycle.VPlace {
		return f
	}
	mk, mph := rng.IntN(2) == 0, rng.IntN(512)
	var ps []cycle.Placement
	// FPDUs from the first payload octet: a DDP header and length field
	// (16 to 20 octets) before each payload, its CRC (4) after
	pos := 54 + rng.IntN(8)*4
	for len(f.descs) < 12 {
		pos += 16 + rng.IntN(5)
		for pos < size && cycle.MarkerAt(pos, mph, mk) {
			pos++
		}
		n := 1 + rng.IntN(8)
		if rng.IntN(3) != 0 {
			n = 1 + rng.IntN(600)
		}
		var p cycle.Placement
		p.Addr = rng.Uint64() >> 1
		if rng.IntN(4) == 0 {
			p.Addr = uint64(rng.IntN(1 << 20))
		}
		for q := pos; q < size && len(p.Pos) < n; q++ {
			if !cycle.MarkerAt(q, mph, mk) {
				p.Pos = append(p.Pos, q)
				p.Data = append(p.Data, f.data[q])
			}
		}
		if len(p.Pos) == 0 {
			break
		}
		f.descs = append(f.descs, cycle.Desc{Addr: p.Addr, Len: len(p.Pos), Off: pos, MPH: mph, Markers: mk})
		ps = append(ps, p)
		pos = p.Pos[len(p.Pos)-1] + 1 + 4
		if pos >= size {
			break
		}
	}
	f.tok.NDesc = len(f.descs)
	for _, st := range cycle.PlanWrites(beats, lanes, ps) {
		if st.Write != nil {
			f.writes = append(f.writes, *st.Write)
		}
	}
	return f
}

// descsBefore returns the descriptors of the first n frames.
func descsBefore(perFrame []int, n int) int {
	s := 0
	for _, k := range perFrame[:min(n, len(perFrame))] {
		s += k
	}
	return s
}

func maskData(data []byte, strb uint64) []byte {
	out := make([]byte, len(data))
	for i := range data {
		if strb>>i&1 != 0 {
			out[i] = data[i]
		}
	}
	return out
}

func run(t *testing.T, width int, nframes int, seed uint64) {
	lanes := width / 8
	d := onecycle.Open(t, fmt.Sprintf("mpa_rx_place_w%d", width))
	rng := rand.New(rand.NewPCG(seed, uint64(width)))
	frames := make([]frame, nframes)
	for i := range frames {
		frames[i] = genFrame(rng, lanes)
	}
	// the three queues as E1 and the frame FIFO present them: every frame's
	// beats are stored before its token; E1 pushes a frame's descriptors,
	// then its token, each after a random wait
	var toks []cycle.Token // tokens pushed
	var descs []cycle.Desc // descriptors pushed
	var allDescs []cycle.Desc
	var frameDescs []int // descriptors of each frame
	type beat struct {
		data []byte
		keep uint64
	}
	var beatsQ []beat
	allKeep := ^uint64(0)
	if lanes < 64 {
		allKeep = 1<<lanes - 1
	}
	for _, f := range frames {
		allDescs = append(allDescs, f.descs...)
		frameDescs = append(frameDescs, len(f.descs))
		for b := 0; b < f.tok.Beats; b++ {
			k := allKeep
			if b == f.tok.Beats-1 && f.size%lanes != 0 {
				k = 1<<(f.size%lanes) - 1
			}
			beatsQ = append(beatsQ, beat{f.data[b*lanes : (b+1)*lanes], k})
		}
	}
	// expected outputs in order
	type excBeat struct {
		data []byte
		keep uint64
		last bool
		user int
	}
	var wantW []cycle.HostWrite
	var wantX []excBeat
	for _, f := range frames {
		wantW = append(wantW, f.writes...)
		if f.tok.Verdict == cycle.VException {
			for b := 0; b < f.tok.Beats; b++ {
				k := allKeep
				if b == f.tok.Beats-1 && f.size%lanes != 0 {
					k = 1<<(f.size%lanes) - 1
				}
				wantX = append(wantX, excBeat{f.data[b*lanes : (b+1)*lanes], k, b == f.tok.Beats-1, f.tok.Reason})
			}
		}
	}
	var gotW, gotX, done, nDesc, nTok int
	slow := func(c int) bool { return c/3000%2 == 1 }
	limit := 100*len(beatsQ) + 10000
	for c := 0; done < nframes || gotW < len(wantW); c++ {
		require.Less(t, c, limit, "stuck: %d of %d frames done", done, nframes)
		// E1: the next descriptor, or the token of a frame whose
		// descriptors are all pushed
		if rng.IntN(3) == 0 {
			switch {
			case nDesc < len(allDescs) && nDesc < descsBefore(frameDescs, nTok+1):
				descs = append(descs, allDescs[nDesc])
				nDesc++
			case nTok < len(frames):
				toks = append(toks, frames[nTok].tok)
				nTok++
			}
		}
		tv := len(toks) > 0
		dv := len(descs) > 0
		fv := len(beatsQ) > 0
		d.SetBool("tok_valid", tv)
		if len(toks) > 0 {
			d.SetWords("tok_data", toks[0].Encode())
		}
		d.SetBool("desc_valid", dv)
		if len(descs) > 0 {
			d.SetWords("desc_data", descs[0].Encode())
		}
		d.SetBool("ff_valid", fv)
		if len(beatsQ) > 0 {
			d.Port("ff_data").SetBytes(d.In, beatsQ[0].data)
			d.Set("ff_keep", beatsQ[0].keep)
		}
		hr := rng.IntN(4) != 0
		xr := rng.IntN(4) != 0
		if slow(c) {
			hr, xr = rng.IntN(4) == 0, rng.IntN(4) == 0
		}
		d.SetBool("m_host_ready", hr)
		d.SetBool("m_exc_axis_tready", xr)
		d.Step()
		if d.Bit("m_host_valid") && hr {
			require.Less(t, gotW, len(wantW), "cycle %d: an extra host write", c)
			w := wantW[gotW]
			strb := d.Get("m_host_strb")
			data := d.Port("m_host_data").AppendBytes(nil, d.Out)
			require.Equal(t, w.Addr, d.Get("m_host_addr"), "cycle %d: write %d address", c, gotW)
			require.Equal(t, w.Strb, strb, "cycle %d: write %d to %#x strobes", c, gotW, w.Addr)
			require.Equal(t, maskData(w.Data, w.Strb), maskData(data, strb), "cycle %d: write %d to %#x octets", c, gotW, w.Addr)
			gotW++
		}
		if d.Bit("m_exc_axis_tvalid") && xr {
			require.Less(t, gotX, len(wantX), "cycle %d: an extra exception beat", c)
			x := wantX[gotX]
			require.Equal(t, x.data, d.Port("m_exc_axis_tdata").AppendBytes(nil, d.Out), "cycle %d: exception beat %d", c, gotX)
			require.Equal(t, x.keep, d.Get("m_exc_axis_tkeep"), "cycle %d: exception beat %d tkeep", c, gotX)
			require.Equal(t, x.last, d.Bit("m_exc_axis_tlast"), "cycle %d: exception beat %d tlast", c, gotX)
			require.Equal(t, uint64(x.user), d.Get("m_exc_axis_tuser"), "cycle %d: exception beat %d tuser", c, gotX)
			gotX++
		}
		if d.Bit("frame_done") {
			done++
		}
		if tv && d.Bit("tok_ready") {
			toks = toks[1:]
		}
		if dv && d.Bit("desc_ready") {
			descs = descs[1:]
		}
		if fv && d.Bit("ff_ready") {
			beatsQ = beatsQ[1:]
		}
	}
	// nothing more comes out
	d.SetBool("tok_valid", false)
	d.SetBool("desc_valid", false)
	d.SetBool("ff_valid", false)
	for range 20 {
		d.Step()
		require.False(t, d.Bit("m_host_valid") || d.Bit("m_exc_axis_tvalid") || d.Bit("frame_done"))
	}
	require.Equal(t, len(wantW), gotW, "host writes")
	require.Equal(t, len(wantX), gotX, "exception beats")
	require.Empty(t, beatsQ, "beats left")
	require.Empty(t, descs, "descriptors left")
	t.Logf("%d frames, %d host writes, %d exception beats", nframes, gotW, gotX)
}

func TestPlace(t *testing.T) {
	for _, w := range []int{64, 512} {
		t.Run(fmt.Sprintf("w%d", w), func(t *testing.T) { run(t, w, 3000, 5) })
	}
}
