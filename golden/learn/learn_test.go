package learn

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/fastpath"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

func frame(t testing.TB, tu wire.FourTuple, seq uint32, payload []byte) []byte {
	t.Helper()
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: net.IP(tu.SrcIP[:]).To4(), DstIP: net.IP(tu.DstIP[:]).To4()}
	tcp := &layers.TCP{SrcPort: layers.TCPPort(tu.SrcPort), DstPort: layers.TCPPort(tu.DstPort), Seq: seq, Window: 65535, ACK: true, PSH: true}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		eth, ip, tcp, gopacket.Payload(payload)))
	return append([]byte(nil), buf.Bytes()...)
}

// seg is one DDP segment of the synthetic traffic and what it places.
type seg struct {
	r2i     bool
	hdr     ddp.Header
	payload []byte
}

// traffic builds a connection (markers and CRC on) whose Initiator sends
// tagged segments (one STag in two pieces, one with a virtual-address TO)
// and untagged messages on QN 0 and 1 (one in two pieces), and whose
// Responder sends one Send, one FPDU per frame.
func traffic(t *testing.T) (wire.FourTuple, []seg, [][]byte) {
	tu := wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{10, 1, 0, 1}), DstIP: wire.AddrFrom4([4]byte{10, 1, 0, 2}), SrcPort: 33000, DstPort: 9999}
	segs, frames := trafficOn(t, tu)
	return tu, segs, frames
}

// trafficOn is traffic on connection tu.
func trafficOn(t testing.TB, tu wire.FourTuple) ([]seg, [][]byte) {
	fill := func(n int, c byte) []byte { return bytes.Repeat([]byte{c}, n) }
	segs := []seg{
		{false, ddp.Header{Tagged: true, Version: 1, STag: 0x1100, TO: 0}, fill(100, 'a')},
		{false, ddp.Header{Tagged: true, Last: true, Version: 1, STag: 0x1100, TO: 100}, fill(50, 'b')},
		{false, ddp.Header{Version: 1, QN: 0, MSN: 1, MO: 0}, fill(40, 'c')},
		{true, ddp.Header{Last: true, Version: 1, QN: 0, MSN: 1}, fill(12, 'x')},
		{false, ddp.Header{Last: true, Version: 1, QN: 0, MSN: 1, MO: 40}, fill(10, 'd')},
		{false, ddp.Header{Tagged: true, Last: true, Version: 1, STag: 0x2200, TO: 0x7fff_0000_1000}, fill(30, 'e')},
		{false, ddp.Header{Last: true, Version: 1, QN: 1, MSN: 1}, fill(28, 'f')},
		{false, ddp.Header{Last: true, Version: 1, QN: 0, MSN: 2}, fill(20, 'g')},
	}
	req := mpa.NewStartup(false, true, true, nil)
	rep := mpa.NewStartup(true, true, true, nil)
	const iseq, rseq = 1000, 0xfffffff0
	n, err := mpa.Negotiate(req, rep)
	require.NoError(t, err)
	i2r := mpa.NewStream(mpa.Half{Markers: n.InitiatorMarkers, CRC: n.CRC, SeqStart: iseq + uint32(req.Len())})
	r2i := mpa.NewStream(mpa.Half{Markers: n.ResponderMarkers, CRC: n.CRC, SeqStart: rseq + uint32(rep.Len())})
	frames := [][]byte{frame(t, tu, iseq, req.Append(nil)), frame(t, tu.Reverse(), rseq, rep.Append(nil))}
	for _, s := range segs {
		st, dir := i2r, tu
		if s.r2i {
			st, dir = r2i, tu.Reverse()
		}
		st.Add(append(s.hdr.AppendTo(nil), s.payload...))
		all := st.OnePerSegment()
		g := all[len(all)-1]
		frames = append(frames, frame(t, dir, g.Seq, g.Data))
	}
	return segs, frames
}

func TestLearnSynthetic(t *testing.T) {
	tu, segs, frames := traffic(t)
	s := Learn(frames, rx.Config{Auto: true})
	// What the test built: per STag the highest TO + length, per message
	// the highest MO + length; the first frame each shows up in.
	want := []Buffer{
		{Half: tu, Tagged: true, STag: 0x1100, Len: 150, Frame: 2},
		{Half: tu, QN: 0, MSN: 1, Len: 50, Frame: 4},
		{Half: tu.Reverse(), QN: 0, MSN: 1, Len: 12, Frame: 5},
		{Half: tu, Tagged: true, STag: 0x2200, Len: 0x7fff_0000_1000 + 30, Frame: 7},
		{Half: tu, QN: 1, MSN: 1, Len: 28, Frame: 8},
		{Half: tu, QN: 0, MSN: 2, Len: 20, Frame: 9},
	}
	got := append([]Buffer(nil), s.Buffers...)
	for i := range got {
		assert.NotZero(t, got[i].Addr)
		got[i].Addr = 0
	}
	assert.Equal(t, want, got)
	for i := 1; i < len(s.Buffers); i++ {
		a, b := s.Buffers[i-1], s.Buffers[i]
		assert.GreaterOrEqual(t, b.Addr, a.Addr+a.Len, "buffers do not overlap")
	}
	assert.Contains(t, s.Summary(), "2 tagged buffers (STags), 4 receive buffers (QN 0: 3, QN 1: 1), on 2 half connections")

	// The golden receiver with the learned setup places every segment at
	// its buffer's address plus TO or MO and delivers every message.
	mem := ddp.NewMemory()
	pl := ddp.NewPlacer(mem)
	var evs []rx.Event
	r := rx.New(rx.Config{Auto: true, Placer: pl, Digests: true, OnEvent: func(e *rx.Event) { evs = append(evs, *e) }})
	for i, f := range frames {
		require.NoError(t, s.Apply(i, pl, r.Stream))
		r.Frame(f)
	}
	var placed, delivered int
	for _, e := range evs {
		switch e.Kind {
		case rx.DDPError:
			t.Errorf("ddp error: %v", e)
		case rx.Placed:
			placed++
		case rx.Delivered:
			delivered++
		}
	}
	assert.Equal(t, len(segs), placed)
	assert.Equal(t, 6, delivered) // the segments with L set
	for _, g := range segs {
		half := tu
		if g.r2i {
			half = tu.Reverse()
		}
		for _, b := range s.Buffers {
			if b.Half != half || b.Tagged != g.hdr.Tagged {
				continue
			}
			switch {
			case b.Tagged && b.STag == g.hdr.STag:
				assert.Equal(t, g.payload, mem.Read(b.Addr+g.hdr.TO, len(g.payload)))
			case !b.Tagged && b.QN == g.hdr.QN && b.MSN == g.hdr.MSN:
				assert.Equal(t, g.payload, mem.Read(b.Addr+uint64(g.hdr.MO), len(g.payload)))
			}
		}
	}

	// The hardware model with the software slow path, set up the same way
	// frame by frame, reports and places what the golden receiver does.
	sys := fastpath.NewSystemConfig(ddp.NewMemory(), rx.Config{Auto: true})
	sys.HW.Slots, sys.STagSlots, sys.RQDepth = 16, 16, 4
	s2 := Learn(frames, rx.Config{Auto: true})
	for i, f := range frames {
		require.NoError(t, s2.Apply(i, sys, sys.SW.Stream))
		sys.Frame(f)
	}
	require.NoError(t, sys.Err)
	require.NoError(t, fastpath.SameOutcome(evs, sys.Events, rx.ULPDU, rx.Placed, rx.Delivered, rx.DDPError, rx.MPAError))
	assert.Positive(t, sys.Verdicts[fastpath.Place], "the hardware placed frames")
	for _, b := range s.Buffers {
		n := min(b.Len, 1<<12)
		assert.Equal(t, mem.Read(b.Addr, int(n)), sys.HWPlacer.Memory().Read(b.Addr, int(n)))
	}
}

const capture = "../../../shared/captures/softuiwarp-siw-rping-2021.pcap"

func readPcap(t *testing.T, path string) [][]byte {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	require.NoError(t, err)
	var out [][]byte
	for {
		d, _, err := r.ReadPacketData()
		if err != nil {
			return out
		}
		out = append(out, d)
	}
}

// tsharkULPDUs returns, per frame index (from 0) that Wireshark dissects as
// an untagged DDP segment: the sender, ULPDU_Length, QN, MSN and MO.
func tsharkULPDUs(t *testing.T, pcap string) map[int][5]string {
	bin, err := exec.LookPath("tshark")
	require.NoError(t, err, "tshark is required for this test: `make deps` installs it")
	cmd := exec.Command(bin, "-n", "-r", pcap, "-T", "fields", "-E", "separator=,", "-e", "frame.number", "-e", "ip.src",
		"-e", "tcp.srcport", "-e", "iwarp_mpa.ulpdulength", "-e", "iwarp_ddp.qn", "-e", "iwarp_ddp.msn", "-e", "iwarp_ddp.mo")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, err := cmd.Output()
	require.NoError(t, err)
	res := map[int][5]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, ",")
		if len(f) != 7 || f[3] == "" {
			continue
		}
		n, err := strconv.Atoi(f[0])
		require.NoError(t, err)
		res[n-1] = [5]string{f[1] + ":" + f[2], f[3], f[4], f[5], f[6]}
	}
	return res
}

// The shared capture (SoftUiWarp and Linux siw, ../shared/captures): the
// learned setup is one receive buffer per Send and Read Request that
// Wireshark shows, as long as its payload, and the hardware model with the
// software slow path places and delivers every one of them as the golden
// receiver does.
func TestLearnSharedCapture(t *testing.T) {
	frames := readPcap(t, capture)
	path, err := filepath.Abs(capture)
	require.NoError(t, err)
	ts := tsharkULPDUs(t, path)
	require.NotEmpty(t, ts)

	// The capture's own sender had transmit checksum offload: the frames
	// go to the hardware as the wire carried them.
	var wireFrames [][]byte
	for _, f := range frames {
		w, _, _ := rx.ChecksumsAuto.Wire(f)
		wireFrames = append(wireFrames, w)
	}
	s := Learn(wireFrames, rx.Config{Auto: true})
	var want []string
	for i, u := range ts {
		l, _ := strconv.Atoi(u[1])
		mo, _ := strconv.Atoi(u[4])
		want = append(want, u[0]+" qn "+u[2]+" msn "+u[3]+" len "+strconv.Itoa(mo+l-ddp.UntaggedHeaderLen)+" frame "+strconv.Itoa(i))
	}
	var got []string
	for _, b := range s.Buffers {
		assert.False(t, b.Tagged)
		got = append(got, b.Half.Src()+" qn "+strconv.Itoa(int(b.QN))+" msn "+strconv.Itoa(int(b.MSN))+" len "+strconv.Itoa(int(b.Len))+" frame "+strconv.Itoa(b.Frame))
	}
	assert.ElementsMatch(t, want, got)

	mem := ddp.NewMemory()
	pl := ddp.NewPlacer(mem)
	var evs []rx.Event
	r := rx.New(rx.Config{Auto: true, Placer: pl, Digests: true, OnEvent: func(e *rx.Event) { evs = append(evs, *e) }})
	golden := Learn(wireFrames, rx.Config{Auto: true})
	for i, f := range wireFrames {
		require.NoError(t, golden.Apply(i, pl, r.Stream))
		r.Frame(f)
	}
	sys := fastpath.NewSystemConfig(ddp.NewMemory(), rx.Config{Auto: true})
	sys.HW.Slots, sys.STagSlots, sys.RQDepth = 16, 16, 4
	for i, f := range wireFrames {
		require.NoError(t, s.Apply(i, sys, sys.SW.Stream))
		sys.Frame(f)
	}
	require.NoError(t, sys.Err)
	require.NoError(t, fastpath.SameOutcome(evs, sys.Events, rx.ULPDU, rx.Placed, rx.Delivered, rx.DDPError, rx.MPAError))
	var placed, delivered int
	for _, e := range evs {
		switch e.Kind {
		case rx.Placed:
			placed++
		case rx.Delivered:
			delivered++
		}
	}
	assert.Equal(t, len(ts), placed)
	assert.Equal(t, len(ts), delivered)
	assert.Positive(t, sys.Verdicts[fastpath.Place], "the hardware placed frames")
	for _, b := range s.Buffers {
		got := sys.HWPlacer.Memory().Read(b.Addr, int(b.Len))
		assert.Equal(t, mem.Read(b.Addr, int(b.Len)), got)
		// the payload ends each frame's one FPDU, before its CRC field
		// (no pad: 2 + ULPDU_Length is a multiple of 4 here)
		f := frames[b.Frame]
		assert.Equal(t, f[len(f)-mpa.CRCLen-int(b.Len):len(f)-mpa.CRCLen], got)
	}
}
