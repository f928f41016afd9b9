package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
)

// sharedCapture is the public SoftUiWarp / Linux siw capture of
// ../shared/captures (its README says what a tool should report).
var sharedCapture = filepath.Join("..", "..", "..", "shared", "captures", "softuiwarp-siw-rping-2021.pcap")

// tsharkRow is one frame as tshark dissects it.
type tsharkRow struct {
	frame       int // from 0
	src, dst    string
	seq         uint32
	flags       uint8
	tcpLen      int
	checksumBad bool // tcp.checksum.status with checksum checking on
	req, rep    bool // an MPA Request or Reply frame
	ulpduLen    int  // 0 when no FPDU
	last        bool // DDP L bit
	payload     []byte
	ulpdu       []byte // the ULPDU: after ULPDU_Length, before pad and CRC
}

// tsharkRows dissects a pcap with tshark (an implementation independent of
// this project), TCP checksum verification on.
func tsharkRows(t *testing.T, pcap string) []tsharkRow {
	t.Helper()
	bin, err := exec.LookPath("tshark")
	require.NoError(t, err, "tshark is required for this test: `make deps` installs it")
	cmd := exec.Command(bin, "-n", "-o", "tcp.check_checksum:TRUE", "-r", pcap, "-T", "fields", "-E", "separator=,",
		"-e", "frame.number", "-e", "ip.src", "-e", "tcp.srcport", "-e", "ip.dst", "-e", "tcp.dstport", "-e", "tcp.seq_raw",
		"-e", "tcp.flags", "-e", "tcp.len", "-e", "tcp.checksum.status", "-e", "iwarp_mpa.key.req", "-e", "iwarp_mpa.key.rep",
		"-e", "iwarp_mpa.ulpdulength", "-e", "iwarp_ddp.last_flag", "-e", "tcp.payload")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var rows []tsharkRow
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, ",")
		require.Len(t, f, 14, line)
		n, _ := strconv.Atoi(f[0])
		seq, _ := strconv.ParseUint(f[5], 10, 32)
		fl, _ := strconv.ParseUint(f[6], 0, 8)
		tl, _ := strconv.Atoi(f[7])
		ul, _ := strconv.Atoi(f[11])
		pl, err := hex.DecodeString(f[13])
		require.NoError(t, err)
		r := tsharkRow{frame: n - 1, src: f[1] + ":" + f[2], dst: f[3] + ":" + f[4], seq: uint32(seq), flags: uint8(fl), tcpLen: tl,
			checksumBad: f[8] == "0", req: f[9] != "", rep: f[10] != "", ulpduLen: ul, last: f[12] == "1", payload: pl}
		if ul > 0 {
			r.ulpdu = pl[mpa.LengthFieldLen : mpa.LengthFieldLen+ul]
		}
		rows = append(rows, r)
	}
	return rows
}

type jsonEvent struct {
	Type   string `json:"type"`
	Src    string `json:"src"`
	Dst    string `json:"dst"`
	Seq    uint32 `json:"seq"`
	Len    int    `json:"len"`
	SHA256 string `json:"sha256"`
	Code   int    `json:"code"`
	Err    string `json:"err"`
	Frame  int    `json:"frame"`
}

func replayJSON(t *testing.T, args ...string) ([]jsonEvent, string) {
	t.Helper()
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(append([]string{"replay", "--json"}, args...), &out, &errb), errb.String())
	var evs []jsonEvent
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if line == "" {
			continue
		}
		var e jsonEvent
		require.NoError(t, json.Unmarshal([]byte(line), &e), line)
		evs = append(evs, e)
	}
	return evs, errb.String()
}

func ofType(evs []jsonEvent, typ string) []jsonEvent {
	var out []jsonEvent
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// What the shared capture's README says a tool should report, each number
// taken from tshark's dissection of the same file: both halves established
// by the startup frames; every FPDU Wireshark finds (four Sends of 34
// octets from 10.10.1.1, a Read Request of 46 from 10.10.1.2) passed with
// the same octets and delivered; the server's FIN ends its half with code 1;
// the RST ends both. The client's frames carry offloaded checksums: replay
// takes them unverified and says so per host.
func TestReplaySharedCapture(t *testing.T) {
	rows := tsharkRows(t, sharedCapture)
	var wantULPDUs, wantDeliver []jsonEvent
	var wantEst []jsonEvent
	var wantErr []jsonEvent
	badBy := map[string]int{}
	sent := map[string]int{}
	for _, r := range rows {
		host := strings.Split(r.src, ":")[0]
		if r.checksumBad {
			badBy[host]++
		}
		if r.ulpduLen > 0 {
			sent[r.src]++
			sum := sha256.Sum256(r.ulpdu)
			wantULPDUs = append(wantULPDUs, jsonEvent{Type: "ulpdu", Src: r.src, Dst: r.dst, Seq: r.seq, Len: r.ulpduLen, SHA256: hex.EncodeToString(sum[:]), Frame: r.frame})
			if r.last {
				wantDeliver = append(wantDeliver, jsonEvent{Type: "deliver", Src: r.src, Dst: r.dst, Seq: r.seq, Frame: r.frame})
			}
		}
		if r.req || r.rep {
			// each startup frame in one segment: its half starts after it
			wantEst = append(wantEst, jsonEvent{Type: "established", Src: r.src, Dst: r.dst, Seq: r.seq + uint32(r.tcpLen)})
		}
		if r.flags&wire.FlagFIN != 0 {
			wantErr = append(wantErr, jsonEvent{Type: "error", Src: r.src, Dst: r.dst, Seq: r.seq + uint32(r.tcpLen), Code: 1, Frame: r.frame})
		}
	}
	// The README's numbers, as tshark gives them.
	require.Len(t, wantULPDUs, 5)
	require.Equal(t, map[string]int{"10.10.1.1:42742": 4, "10.10.1.2:9999": 1}, sent)
	require.Len(t, wantEst, 2)
	require.Len(t, wantErr, 1)
	require.Len(t, badBy, 1)

	for _, policy := range []string{"auto", "ignore"} {
		t.Run(policy, func(t *testing.T) {
			evs, notes := replayJSON(t, "--checksums", policy, sharedCapture)
			assert.Equal(t, wantULPDUs, ofType(evs, "ulpdu"))
			var deliver []jsonEvent
			for _, e := range ofType(evs, "deliver") {
				deliver = append(deliver, jsonEvent{Type: e.Type, Src: e.Src, Dst: e.Dst, Seq: e.Seq, Frame: e.Frame})
			}
			assert.Equal(t, wantDeliver, deliver)
			est := ofType(evs, "established")
			require.Len(t, est, 2)
			for i := range est {
				est[i].Frame = 0
			}
			assert.ElementsMatch(t, wantEst, est)
			var errs []jsonEvent
			for _, e := range ofType(evs, "error") {
				e.Err = ""
				errs = append(errs, e)
			}
			assert.Equal(t, wantErr, errs)
			assert.Empty(t, ofType(evs, "drop"))
			assert.Len(t, ofType(evs, "placed"), len(wantULPDUs), "the learned setup places every ULPDU")
			assert.Empty(t, ofType(evs, "ddp_error"))
			for host, n := range badBy {
				assert.Contains(t, notes, "checksums "+policy+": "+strconv.Itoa(n)+" frames taken with a checksum not verified; "+host+": "+strconv.Itoa(n))
			}
			assert.Contains(t, notes, "setup learned from the traffic")
		})
	}

	// Verifying every checksum loses the capturing host's frames, each a
	// drop naming its real ports and sequence number.
	evs, notes := replayJSON(t, "--checksums", "verify", sharedCapture)
	var drops []jsonEvent
	for _, r := range rows {
		if r.checksumBad {
			drops = append(drops, jsonEvent{Type: "drop", Src: r.src, Dst: r.dst, Seq: r.seq, Err: "tcp_checksum", Frame: r.frame})
		}
	}
	assert.Equal(t, drops, ofType(evs, "drop"))
	for host, n := range badBy {
		assert.Contains(t, notes, strconv.Itoa(n)+" frames dropped for their TCP checksum hold the transmit checksum offload signature ("+host+": "+strconv.Itoa(n)+")")
	}
	assert.Empty(t, ofType(evs, "established"))
	assert.Empty(t, ofType(evs, "ulpdu"))
}

func TestReplaySharedCaptureTable(t *testing.T) {
	rows := tsharkRows(t, sharedCapture)
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"replay", sharedCapture}, &out, &errb), errb.String())
	table := out.String()
	t.Log("\n" + table)
	count := map[string]int{}
	bad := 0
	for _, r := range rows {
		if r.ulpduLen > 0 {
			count[r.src+">"+r.dst]++
		}
		if r.checksumBad {
			bad++
		}
	}
	for half, n := range count {
		// HALF CONNECTION ROLE STATE REV IRD/ORD RTR MARKERS CRC ... ULPDUS DELIVERED DROPPED ERROR
		re := regexp.MustCompile(regexp.QuoteMeta(half) + `\s+(\S+)\s+closed\s+1\s+-\s+-\s+off\s+off\s+\d+\s+\d+\s+\d+\s+0\s+(\d+)\s+(\d+)\s+0\s+(\S+)`)
		m := re.FindStringSubmatch(table)
		require.NotNil(t, m, half)
		assert.Equal(t, strconv.Itoa(n), m[2], "%s ULPDUs", half)
		assert.Equal(t, strconv.Itoa(n), m[3], "%s delivered", half)
		if m[1] == "responder" {
			assert.Equal(t, "1", m[4], "the server's FIN: code 1")
		} else {
			assert.Equal(t, "-", m[4], "the client's half is ended by the RST without an error of its own")
		}
	}
	assert.Contains(t, table, "checksums auto: "+strconv.Itoa(bad)+" frames taken with a checksum not verified")
	assert.Contains(t, table, "setup learned from the traffic (no setup came with the capture): 0 tagged buffers (STags), 5 receive buffers (QN 0: 4, QN 1: 1), on 2 half connections")
}

// capFrame builds a frame with gopacket.
func capFrame(t *testing.T, tu wire.FourTuple, seq uint32, flags uint8, payload []byte) []byte {
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: net.IP(tu.SrcIP[:]).To4(), DstIP: net.IP(tu.DstIP[:]).To4()}
	tcp := &layers.TCP{SrcPort: layers.TCPPort(tu.SrcPort), DstPort: layers.TCPPort(tu.DstPort), Seq: seq, Window: 65535,
		SYN: flags&wire.FlagSYN != 0, ACK: flags&wire.FlagACK != 0}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		eth, ip, tcp, gopacket.Payload(payload)))
	return append([]byte(nil), buf.Bytes()...)
}

func writePcap(t *testing.T, frames [][]byte) string {
	path := filepath.Join(t.TempDir(), "c.pcap")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := pcapgo.NewWriter(f)
	require.NoError(t, w.WriteFileHeader(65535, layers.LinkTypeEthernet))
	for _, b := range frames {
		require.NoError(t, w.WritePacket(gopacket.CaptureInfo{Timestamp: time.Unix(1, 0), CaptureLength: len(b), Length: len(b)}, b))
	}
	return path
}

// A Request sent as 7-octet segments is found, and its connection's
// ULPDUs come out; on a --port, a Request with a wrong key is code 4
// (without the flag, such a connection is not MPA and is ignored).
func TestReplaySplitStartupAndPorts(t *testing.T) {
	tu := wire.FourTuple{SrcIP: wire.AddrFrom4([4]byte{192, 168, 0, 1}), DstIP: wire.AddrFrom4([4]byte{192, 168, 0, 2}), SrcPort: 51000, DstPort: 4791}
	const iseq, rseq = 7000, 9000
	conn := func(req []byte) [][]byte {
		frames := [][]byte{
			capFrame(t, tu, iseq-1, wire.FlagSYN, nil),
			capFrame(t, tu.Reverse(), rseq-1, wire.FlagSYN|wire.FlagACK, nil),
		}
		for o := 0; o < len(req); o += 7 {
			frames = append(frames, capFrame(t, tu, iseq+uint32(o), wire.FlagACK, req[o:min(o+7, len(req))]))
		}
		rep := mpa.NewStartup(true, false, true, nil)
		frames = append(frames, capFrame(t, tu.Reverse(), rseq, wire.FlagACK, rep.Append(nil)))
		h := mpa.Half{CRC: true, SeqStart: iseq + uint32(len(req))}
		ulpdu := []byte("\x41\x43\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00hello")
		frames = append(frames, capFrame(t, tu, h.SeqStart, wire.FlagACK, h.AppendFPDU(nil, h.SeqStart, ulpdu)))
		return frames
	}
	good := conn(mpa.NewStartup(false, false, true, []byte("pd")).Append(nil))
	evs, _ := replayJSON(t, writePcap(t, good))
	assert.Len(t, ofType(evs, "established"), 2)
	require.Len(t, ofType(evs, "ulpdu"), 1)
	assert.Equal(t, tu.String(), ofType(evs, "ulpdu")[0].Src+">"+ofType(evs, "ulpdu")[0].Dst)
	assert.Len(t, ofType(evs, "placed"), 1)
	assert.Empty(t, ofType(evs, "error"))

	bad := mpa.NewStartup(false, false, true, []byte("pd")).Append(nil)
	copy(bad, "MPA ID Bad Frame")
	badPcap := writePcap(t, conn(bad))
	evs, _ = replayJSON(t, "--port", "4791", badPcap)
	errs := ofType(evs, "error")
	require.Len(t, errs, 1)
	// reported at the segment that shows the first wrong octet of the key
	first := 0
	for bad[first] == mpa.RequestKey[first] {
		first++
	}
	assert.Equal(t, jsonEvent{Type: "error", Src: tu.Src(), Dst: tu.Dst(), Seq: iseq, Code: 4, Frame: 2 + first/7, Err: errs[0].Err}, errs[0])
	assert.Empty(t, ofType(evs, "ulpdu"))

	evs, _ = replayJSON(t, badPcap)
	assert.Empty(t, evs, "not MPA without --port")
	evs, _ = replayJSON(t, "--port", "4790", badPcap)
	assert.Empty(t, evs, "another port")

	var out, errb bytes.Buffer
	for _, args := range [][]string{{"--port", "0"}, {"--port", "70000"}, {"--checksums", "maybe"}} {
		out.Reset()
		errb.Reset()
		assert.Equal(t, 2, run(append(append([]string{"replay"}, args...), badPcap), &out, &errb), args)
	}
	// A vector directory verifies every checksum and uses its setup.
	out.Reset()
	errb.Reset()
	assert.Equal(t, 2, run([]string{"replay", "--checksums", "ignore", filepath.Join("..", "..", "vectors", "bad-checksums")}, &out, &errb))
	assert.Contains(t, errb.String(), "vector directory")
}
