package rx

import (
	"fmt"
	"math/rand/v2"
	"net"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// tcpFrame builds a frame with gopacket with exactly the given TCP flags.
func tcpFrame(t testing.TB, tu wire.FourTuple, seq uint32, flags uint8, payload []byte) []byte {
	t.Helper()
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: net.IP(tu.SrcIP[:]), DstIP: net.IP(tu.DstIP[:])}
	tcp := &layers.TCP{SrcPort: layers.TCPPort(tu.SrcPort), DstPort: layers.TCPPort(tu.DstPort), Seq: seq, Window: 65535,
		SYN: flags&wire.FlagSYN != 0, ACK: flags&wire.FlagACK != 0, FIN: flags&wire.FlagFIN != 0,
		RST: flags&wire.FlagRST != 0, PSH: flags&wire.FlagPSH != 0}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		eth, ip, tcp, gopacket.Payload(payload)))
	return append([]byte(nil), buf.Bytes()...)
}

// cut returns b in pieces of n octets starting at seq, as frames of tu.
func cut(t testing.TB, tu wire.FourTuple, seq uint32, b []byte, n int) [][]byte {
	var out [][]byte
	for o := 0; o < len(b); o += n {
		out = append(out, tcpFrame(t, tu, seq+uint32(o), wire.FlagACK, b[o:min(o+n, len(b))]))
	}
	return out
}

// handshake returns the SYN and SYN-ACK of c's connection (ISNs one below
// the startup frames).
func (c *testConn) handshake(t testing.TB) [][]byte {
	return [][]byte{
		tcpFrame(t, c.tu, c.iseq-1, wire.FlagSYN, nil),
		tcpFrame(t, c.tu.Reverse(), c.rseq-1, wire.FlagSYN|wire.FlagACK, nil),
	}
}

func kinds(evs []Event, k Kind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// A startup frame cut anywhere by TCP, as short as 7-octet segments and in
// any order, is found on the reassembled start of the stream, with or
// without the SYN in the capture, and the connection's ULPDUs come out.
func TestDetectSplitStartup(t *testing.T) {
	tests := []struct {
		name    string
		syn     bool
		reqCut  int  // segment size of the Request
		repCut  int  // segment size of the Reply
		reverse bool // the Request's segments in reverse order
	}{
		{"whole", false, 100, 100, false},
		{"request-7", false, 7, 100, false},
		{"request-7-syn", true, 7, 100, false},
		{"both-7-syn", true, 7, 7, false},
		{"request-1", false, 1, 100, false},
		{"request-7-reversed", false, 7, 100, true},
		{"request-7-reversed-syn", true, 7, 3, true},
	}
	for k, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := mpa.NewStartup(false, true, true, []byte("private data of the Initiator"))
			rep := mpa.NewStartup(true, false, true, nil)
			c := newTestConn(k, req, rep, 5000, 0xfffffff0)
			var pl [][]byte
			for n := 0; n < 5; n++ {
				u := []byte(fmt.Sprintf("ULPDU %d of the split-startup test", n))
				pl = append(pl, u)
				c.i2r.Add(u)
			}
			var frames [][]byte
			if tc.syn {
				frames = c.handshake(t)
			}
			rq := cut(t, c.tu, c.iseq, req.Append(nil), tc.reqCut)
			if tc.reverse {
				for a, b := 0, len(rq)-1; a < b; a, b = a+1, b-1 {
					rq[a], rq[b] = rq[b], rq[a]
				}
			}
			frames = append(frames, rq...)
			frames = append(frames, cut(t, c.tu.Reverse(), c.rseq, rep.Append(nil), tc.repCut)...)
			frames = append(frames, segFrames(t, c.tu, c.i2r.OnePerSegment())...)
			r := New(Config{Auto: true, Digests: true})
			for _, f := range frames {
				r.Frame(f)
			}
			evs := r.Events()
			assert.Empty(t, errorsOf(evs))
			est := kinds(evs, Established)
			require.Len(t, est, 2)
			assert.Equal(t, c.iseq+uint32(req.Len()), est[0].Seq)
			assert.Equal(t, c.rseq+uint32(rep.Len()), est[1].Seq)
			assert.Equal(t, expected(c.tu, c.i2r, pl), ulpdus(evs))
			assert.Equal(t, 0, r.Stats().Untracked)
			hs := r.Halves()
			require.Len(t, hs, 2)
			assert.Equal(t, StateFull, hs[0].State)
			assert.True(t, hs[0].Initiator)
			assert.Equal(t, len(frames)-len(cut(t, c.tu.Reverse(), c.rseq, rep.Append(nil), tc.repCut))-b2i(tc.syn), hs[0].Frames)
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Connections whose streams do not start with a startup key are not
// followed: their frames count as untracked, and nothing is reported, even
// when a later segment begins with a key.
func TestDetectNotMPA(t *testing.T) {
	tu := wire.FourTuple{SrcIP: [4]byte{10, 0, 0, 1}, DstIP: [4]byte{10, 0, 0, 2}, SrcPort: 50000, DstPort: 80}
	req := mpa.NewStartup(false, false, false, nil).Append(nil)
	frames := [][]byte{
		tcpFrame(t, tu, 99, wire.FlagSYN, nil),
		tcpFrame(t, tu.Reverse(), 7, wire.FlagSYN|wire.FlagACK, nil),
		tcpFrame(t, tu, 100, wire.FlagACK, []byte("GET / HT")),
		tcpFrame(t, tu, 108, wire.FlagACK, []byte("TP/1.1\r\n\r\n")),
		tcpFrame(t, tu, 118, wire.FlagACK, req), // a key, but not at the stream's start
		tcpFrame(t, tu.Reverse(), 8, wire.FlagACK, mpa.NewStartup(true, false, false, nil).Append(nil)),
	}
	r := New(Config{Auto: true})
	for _, f := range frames {
		r.Frame(f)
	}
	assert.Empty(t, r.Events())
	assert.Empty(t, r.Halves())
	assert.Equal(t, len(frames), r.Stats().Untracked)

	// Frames held while the start is incomplete count as untracked too.
	r = New(Config{Auto: true})
	r.Frame(tcpFrame(t, tu, 100, wire.FlagACK, req[:9]))
	assert.Equal(t, 1, r.Stats().Untracked)
	assert.Empty(t, r.Events())
}

// A Reply found without its Request (not captured) starts the Responder's
// half alone: it waits for the peer and passes nothing.
func TestDetectReplyOnly(t *testing.T) {
	req := mpa.NewStartup(false, false, false, nil)
	rep := mpa.NewStartup(true, false, false, nil)
	c := newTestConn(1, req, rep, 100, 900)
	r := New(Config{Auto: true})
	for _, f := range cut(t, c.tu.Reverse(), c.rseq, rep.Append(nil), 5) {
		r.Frame(f)
	}
	hs := r.Halves()
	require.Len(t, hs, 2)
	assert.Equal(t, StateIdle, hs[0].State)
	assert.Equal(t, StateWaitPeer, hs[1].State)
	assert.Empty(t, r.Events())
}

// On a port known to speak MPA (Config.Ports, "Decode As") every stream is
// MPA from its first octet: a wrong key or an unsupported Rev is error code
// 4 at the stream's first octet and closes the connection, where
// auto-detection alone ignores a wrong key. The Initiator is the end that
// sent the SYN, else the end that sent payload first.
func TestPorts(t *testing.T) {
	badKey := mpa.NewStartup(false, false, false, nil).Append(nil)
	copy(badKey, "MPA ID Bad Frame")
	badRev := mpa.NewStartup(false, false, false, nil)
	badRev.Rev = 7
	good := mpa.NewStartup(false, false, true, nil).Append(nil)
	reply := mpa.NewStartup(true, false, true, nil).Append(nil)
	tests := []struct {
		name    string
		ports   []uint16
		syn     bool
		req     []byte
		reqCut  int
		wantErr bool // code 4 on the Initiator's half
		wantEst bool
	}{
		{"bad-key-port", []uint16{4791}, false, badKey, 100, true, false},
		{"bad-key-port-syn", []uint16{4791}, true, badKey, 100, true, false},
		{"bad-key-port-split", []uint16{4791}, false, badKey, 7, true, false},
		{"bad-key-other-port", []uint16{4790}, false, badKey, 100, false, false},
		{"bad-key-auto", nil, false, badKey, 100, false, false},
		{"bad-rev-port", []uint16{4791}, false, badRev.Append(nil), 100, true, false},
		{"bad-rev-auto", nil, false, badRev.Append(nil), 100, true, false},
		{"good-port", []uint16{4791}, true, good, 7, false, true},
		{"good-port-no-syn", []uint16{4791}, false, good, 7, false, true},
		{"good-source-port", []uint16{40002}, false, good, 100, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestConn(2, mpa.Startup{}, mpa.Startup{}, 1000, 2000)
			var frames [][]byte
			if tc.syn {
				frames = c.handshake(t)
			}
			frames = append(frames, cut(t, c.tu, c.iseq, tc.req, tc.reqCut)...)
			frames = append(frames, tcpFrame(t, c.tu.Reverse(), c.rseq, wire.FlagACK, reply))
			r := New(Config{Auto: true, Ports: tc.ports})
			for _, f := range frames {
				r.Frame(f)
			}
			errs := errorsOf(r.Events())
			if tc.wantErr {
				require.Len(t, errs, 1)
				assert.Equal(t, CodeStartup, errs[0].Code)
				assert.Equal(t, c.tu, errs[0].Half)
				assert.Equal(t, c.iseq, errs[0].Seq)
				for _, h := range r.Halves() {
					assert.Equal(t, StateClosed, h.State, h.Tuple.String())
				}
			} else {
				assert.Empty(t, errs)
			}
			assert.Equal(t, tc.wantEst, len(kinds(r.Events(), Established)) == 2)
			if !tc.wantErr && !tc.wantEst {
				// The Reply alone is followed; the Request's half never begins.
				for _, h := range r.Halves() {
					assert.NotEqual(t, StateFull, h.State)
					if h.Initiator {
						assert.Equal(t, StateIdle, h.State)
					}
				}
			}
		})
	}
}

// On an MPA port with the SYN seen, the Initiator is the active opener
// even when its startup frame is a Reply: that is a wrong key (code 4).
func TestPortInitiatorFromSYN(t *testing.T) {
	c := newTestConn(3, mpa.Startup{}, mpa.Startup{}, 1000, 2000)
	frames := c.handshake(t)
	frames = append(frames, tcpFrame(t, c.tu, c.iseq, wire.FlagACK, mpa.NewStartup(true, false, false, nil).Append(nil)))
	r := New(Config{Ports: []uint16{c.tu.SrcPort}})
	for _, f := range frames {
		r.Frame(f)
	}
	errs := errorsOf(r.Events())
	require.Len(t, errs, 1)
	assert.Equal(t, CodeStartup, errs[0].Code)
	assert.Equal(t, c.tu, errs[0].Half)
	require.NotEmpty(t, r.Halves())
	assert.True(t, r.Halves()[0].Initiator)
	assert.Equal(t, c.tu, r.Halves()[0].Tuple)
}

// Any segmentation of both startup frames, the Request's segments in any
// order, with or without the handshake in the capture: auto-detection
// follows the connection exactly as a receiver told of it (AddConn) does.
func TestDetectRandomCuts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for i := 0; i < 200; i++ {
		pd := make([]byte, rng.IntN(41))
		for j := range pd {
			pd[j] = byte(rng.Uint32())
		}
		req := mpa.NewStartup(false, rng.IntN(2) == 0, rng.IntN(2) == 0, pd)
		rep := mpa.NewStartup(true, rng.IntN(2) == 0, rng.IntN(2) == 0, pd[:len(pd)/2])
		c := newTestConn(i, req, rep, rng.Uint32(), rng.Uint32())
		for n := 0; n < 3; n++ {
			c.i2r.Add([]byte(fmt.Sprintf("initiator ULPDU %d", n)))
			c.r2i.Add([]byte(fmt.Sprintf("responder ULPDU %d", n)))
		}
		syn := rng.IntN(2) == 0
		var frames [][]byte
		if syn {
			frames = c.handshake(t)
		}
		rq := cut(t, c.tu, c.iseq, req.Append(nil), 1+rng.IntN(25))
		rng.Shuffle(len(rq), func(a, b int) { rq[a], rq[b] = rq[b], rq[a] })
		frames = append(frames, rq...)
		frames = append(frames, cut(t, c.tu.Reverse(), c.rseq, rep.Append(nil), 1+rng.IntN(25))...)
		frames = append(frames, segFrames(t, c.tu, c.i2r.Random(rng, 1, 40))...)
		frames = append(frames, segFrames(t, c.tu.Reverse(), c.r2i.Random(rng, 1, 40))...)

		auto := New(Config{Auto: true, Digests: true})
		told := New(Config{Digests: true})
		told.AddConn(c.spec())
		for _, f := range frames {
			auto.Frame(f)
			told.Frame(f)
		}
		require.NotEmpty(t, ulpdus(told.Events()), "case %d", i)
		require.Equal(t, ulpdus(told.Events()), ulpdus(auto.Events()), "case %d (syn %v)", i, syn)
		require.Equal(t, errorsOf(told.Events()), errorsOf(auto.Events()), "case %d", i)
		require.Len(t, kinds(auto.Events(), Established), 2, "case %d", i)
	}
}
