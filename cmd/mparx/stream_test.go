package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen"
	"github.com/mparx/mparx/vecgen/vector"
)

// loCapture is the shared loopback capture with 64 KB segments.
var loCapture = filepath.Join("..", "..", "..", "shared", "captures", "softuiwarp-lo-write-64KB.pcap")

// pcapRecord is one record of a pcap file.
type pcapRecord struct {
	ci   gopacket.CaptureInfo
	data []byte
}

// alignedCapture writes a capture of about size octets of vecgen's
// aligned scenario (markers and CRC on) into a temporary directory and
// returns its path.
func alignedCapture(t *testing.T, size int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "aligned.pcap")
	f, err := os.Create(path)
	require.NoError(t, err)
	s, _ := vecgen.Lookup("aligned")
	_, _, err = vecgen.WritePcapSize(f, s, vecgen.Options{Seed: vecgen.DefaultSeed, Scale: 1}, size)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	return path
}

// payloadFrames returns the indexes of the records whose TCP payload is
// longer than min octets.
func payloadFrames(recs []pcapRecord, min int) []int {
	var out []int
	for i, r := range recs {
		if f, err := wire.ParseWith(r.data, 0); err == nil && len(f.Payload) > min {
			out = append(out, i)
		}
	}
	return out
}

func readRecords(t *testing.T, path string) []pcapRecord {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	require.NoError(t, err)
	require.Equal(t, layers.LinkTypeEthernet, r.LinkType())
	var out []pcapRecord
	for {
		d, ci, err := r.ReadPacketData()
		if err != nil {
			return out
		}
		out = append(out, pcapRecord{ci, d})
	}
}

// writeRecords writes a pcap of the given link type, each record's data
// rewritten by conv from its Ethernet frame.
func writeRecords(t *testing.T, recs []pcapRecord, lt layers.LinkType, conv func([]byte) []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.pcap")
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := pcapgo.NewWriter(f)
	require.NoError(t, w.WriteFileHeader(262144, lt))
	for _, r := range recs {
		d := conv(r.data)
		ci := r.ci
		ci.Length += len(d) - len(r.data)
		ci.CaptureLength = len(d)
		require.NoError(t, w.WritePacket(ci, d))
	}
	return path
}

// withLinkType rewrites the link type of a pcap file that pcapgo wrote
// (little endian; gopacket's LinkType has 8 bits).
func withLinkType(t *testing.T, path string, lt uint32) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	binary.LittleEndian.PutUint32(b[20:], lt)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// toSLL replaces the Ethernet header with a Linux cooked capture header
// (version 1: packet type, ARPHRD_ETHER, address length 6, the source MAC
// padded to 8 octets, the EtherType), as `tcpdump -i any` writes it.
func toSLL(b []byte) []byte {
	h := make([]byte, 16)
	binary.BigEndian.PutUint16(h[0:], 4) // sent by us
	binary.BigEndian.PutUint16(h[2:], 1) // ARPHRD_ETHER
	binary.BigEndian.PutUint16(h[4:], 6)
	copy(h[6:], b[6:12])
	copy(h[14:], b[12:14])
	return append(h, b[14:]...)
}

// toSLL2 writes the version 2 header: EtherType, reserved, interface
// index, ARPHRD_ETHER, packet type, address length, the address.
func toSLL2(b []byte) []byte {
	h := make([]byte, 20)
	copy(h[0:], b[12:14])
	binary.BigEndian.PutUint32(h[4:], 1)
	binary.BigEndian.PutUint16(h[8:], 1)
	h[10], h[11] = 4, 6
	copy(h[12:], b[6:12])
	return append(h, b[14:]...)
}

// toRaw drops the Ethernet header: raw IP.
func toRaw(b []byte) []byte { return append([]byte(nil), b[14:]...) }

// replayOut runs replay and returns stdout; it fails the test on a
// non-zero status.
func replayOut(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(append([]string{"replay"}, args...), &out, &errb), errb.String())
	return out.String()
}

// The shared captures converted to pcapng (editcap), to nanosecond pcap
// (editcap), to Linux cooked captures (SLL and SLL2) and to raw IP give
// output identical to the pcap's, table and --json.
func TestReplayFormatsAndLinks(t *testing.T) {
	editcap, err := exec.LookPath("editcap")
	require.NoError(t, err, "editcap (Wireshark) is required for this test: `make deps` installs it")
	for _, capture := range []string{sharedCapture, loCapture} {
		t.Run(filepath.Base(capture), func(t *testing.T) {
			recs := readRecords(t, capture)
			converted := map[string]string{
				"sll":  writeRecords(t, recs, layers.LinkTypeLinuxSLL, toSLL),
				"sll2": withLinkType(t, writeRecords(t, recs, layers.LinkTypeNull, toSLL2), 276),
				"raw":  writeRecords(t, recs, layers.LinkTypeRaw, toRaw),
				"ipv4": writeRecords(t, recs, layers.LinkTypeIPv4, toRaw),
			}
			for name, format := range map[string]string{"pcapng": "pcapng", "nsec": "nsecpcap"} {
				p := filepath.Join(t.TempDir(), name)
				out, err := exec.Command(editcap, "-F", format, capture, p).CombinedOutput()
				require.NoError(t, err, string(out))
				converted[name] = p
			}
			table, js := replayOut(t, capture), replayOut(t, "--json", capture)
			require.Contains(t, js, `"type":"ulpdu"`)
			for name, p := range converted {
				assert.Equal(t, table, replayOut(t, p), name)
				assert.Equal(t, js, replayOut(t, "--json", p), name)
			}
		})
	}
}

// jsonLines decodes --json output, dropping the fields that name host
// addresses of placements (a setup learned as it goes has others).
func jsonLines(t *testing.T, out string) []map[string]any {
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		delete(m, "addr")
		recs = append(recs, m)
	}
	return recs
}

// "-" reads the capture from standard input, once: the setup is learned as
// it goes, and every event but the placements' addresses is what the file
// gives (two passes).
func TestReplayStdin(t *testing.T) {
	for _, p := range []string{sharedCapture, loCapture, filepath.Join("..", "..", "vectors", "ddp-multisegment", vector.PcapFile)} {
		t.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			require.NoError(t, err)
			for _, jsonOut := range []bool{false, true} {
				args := []string{"replay"}
				if jsonOut {
					args = append(args, "--json")
				}
				var file, ferr, in, ierr bytes.Buffer
				require.Equal(t, 0, run(append(args, p), &file, &ferr), ferr.String())
				require.Equal(t, 0, runIO(append(args, "-"), bytes.NewReader(data), &in, &ierr), ierr.String())
				notes := in.String()
				if jsonOut {
					assert.Equal(t, jsonLines(t, file.String()), jsonLines(t, in.String()))
					notes = ierr.String()
				} else {
					tableOf := func(s string) string { return s[:strings.Index(s, "\nframes ")] }
					assert.Equal(t, tableOf(file.String()), tableOf(in.String()))
				}
				assert.Contains(t, notes, "setup learned as the capture went")
			}
		})
	}
}

// A frame the capture cut short (its snap length) is counted, reported per
// connection and taken as lost: the run is the run in which a frame that is
// not TCP stood in its place, and TCP's retransmission of it (here at the
// end of the capture) brings its octets.
func TestReplayTruncated(t *testing.T) {
	recs := readRecords(t, filepath.Join("..", "..", "vectors", "aligned", vector.PcapFile))
	k := len(recs) / 2
	require.Greater(t, len(recs[k].data), 1000)
	cut, filler := append([]pcapRecord(nil), recs...), append([]pcapRecord(nil), recs...)
	cut[k].data = recs[k].data[:200]
	cut[k].ci.CaptureLength = 200
	arp := make([]byte, 60) // an ARP frame's length and EtherType: not IP
	binary.BigEndian.PutUint16(arp[12:], 0x0806)
	filler[k] = pcapRecord{gopacket.CaptureInfo{Timestamp: recs[k].ci.Timestamp, CaptureLength: len(arp), Length: len(arp)}, arp}
	cut = append(cut, recs[k])
	filler = append(filler, recs[k])
	keep := func(b []byte) []byte { return b }
	a, b := writeRecords(t, cut, layers.LinkTypeEthernet, keep), writeRecords(t, filler, layers.LinkTypeEthernet, keep)
	assert.Equal(t, replayOut(t, "--json", b), replayOut(t, "--json", a))
	table := replayOut(t, a)
	assert.Contains(t, table, "truncated: 1 frames cut short by the capture's snap length, taken as lost (TCP retransmits them): 10.0.0.1:40000>10.0.0.2:4791 1")
	assert.NotContains(t, replayOut(t, b), "truncated")
}

// An unsupported link type is a one-line error naming it.
func TestReplayUnsupportedLinkType(t *testing.T) {
	p := writeRecords(t, readRecords(t, sharedCapture), layers.LinkType(147), toRaw)
	var out, errb bytes.Buffer
	assert.Equal(t, 2, run([]string{"replay", p}, &out, &errb))
	assert.Empty(t, out.String())
	lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
	require.Len(t, lines, 1, errb.String())
	assert.Contains(t, lines[0], "unsupported link type 147")
}

// A capture that ends inside a record (a capture cut off while it was
// written) is replayed up to there: the table, then the error, status 1.
func TestReplayCutFile(t *testing.T) {
	data, err := os.ReadFile(sharedCapture)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "cut.pcap")
	require.NoError(t, os.WriteFile(p, data[:len(data)-30], 0o644))
	var out, errb bytes.Buffer
	assert.Equal(t, 1, run([]string{"replay", p}, &out, &errb))
	assert.Contains(t, out.String(), "frames 14,")
	assert.Contains(t, errb.String(), "frame 14")
}

// The progress line: frames, octets, rate and, for a file, time left.
func TestProgressLine(t *testing.T) {
	p := &progress{now: time.Now}
	p.begin("replay")
	p.frames = 123456
	assert.Equal(t, "mparx: replay: 123456 frames, 500.0 MB of 2.00 GB, 250.0 MB/s, 6s left", p.line(500e6, 2e9, 2*time.Second))
	assert.Equal(t, "mparx: replay: 123456 frames, 500.0 MB, 250.0 MB/s", p.line(500e6, -1, 2*time.Second))
	assert.Nil(t, newProgress(&bytes.Buffer{}), "no progress line but on a terminal")
}
