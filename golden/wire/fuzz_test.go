package wire

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/require"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz/FuzzParse from the test tables")

const corpusDir = "testdata/fuzz/FuzzParse"

// seedFrames are the table frames, valid and invalid, named for the corpus.
func seedFrames(t testing.TB) map[string][]byte {
	seeds := map[string][]byte{}
	for _, tc := range validCases() {
		seeds["valid-"+tc.name] = build(t, tc.s)
	}
	for _, tc := range errorCases(t) {
		seeds["error-"+tc.name] = tc.frame
	}
	return seeds
}

func corpusFile(b []byte) string {
	return "go test fuzz v1\n[]byte(" + strconv.Quote(string(b)) + ")\n"
}

// TestSeedCorpus keeps the committed seed corpus equal to the test tables
// (go test -run TestSeedCorpus -update-corpus rewrites it).
func TestSeedCorpus(t *testing.T) {
	for name, b := range seedFrames(t) {
		path := filepath.Join(corpusDir, name)
		if *updateCorpus {
			require.NoError(t, os.MkdirAll(corpusDir, 0o755))
			require.NoError(t, os.WriteFile(path, []byte(corpusFile(b)), 0o644))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "seed corpus out of date: run go test -run TestSeedCorpus -update-corpus")
		require.Equal(t, corpusFile(b), string(got), "seed corpus %s out of date", name)
	}
}

// FuzzParse checks that Parse never panics, and that whenever it accepts a
// frame the result is consistent: the payload is the sub-slice of the input
// right after the headers, the lengths agree with the IPv4 total length, and
// gopacket (an independent decoder) reads the same fields where it decodes
// the frame without error. Random inputs almost never carry correct
// checksums, so each input is also parsed a second time with both checksums
// recomputed, which takes the fuzzer past them to the rest of the parser.
func FuzzParse(f *testing.F) {
	for _, b := range seedFrames(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check(t, b)
		c := append([]byte(nil), b...)
		if fixChecksums(c) {
			_, err := Parse(c)
			if errors.Is(err, ErrIPChecksum) || errors.Is(err, ErrTCPChecksum) {
				t.Fatalf("checksum error after both checksums were recomputed: %v", err)
			}
			check(t, c)
		}
	})
}

// fixChecksums recomputes the IPv4 and TCP checksums of b in place with the
// reference sum, where the frame's length fields allow it.
func fixChecksums(b []byte) bool {
	ipo := 14
	if len(b) >= 18 && b[12] == 0x81 && b[13] == 0x00 {
		ipo = 18
	}
	if len(b) < ipo+20 || b[ipo-2] != 0x08 || b[ipo-1] != 0x00 {
		return false
	}
	ihl := int(b[ipo]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(b[ipo+2:]))
	if ihl < 20 || total < ihl+20 || ipo+total > len(b) {
		return false
	}
	fixIP(b, ipo)
	seg := b[ipo+ihl : ipo+total]
	seg[16], seg[17] = 0, 0
	pseudo := append(append([]byte(nil), b[ipo+12:ipo+20]...), 0, ProtocolTCP, byte(len(seg)>>8), byte(len(seg)))
	binary.BigEndian.PutUint16(seg[16:], ^refSum(append(pseudo, seg...)))
	return true
}

// check asserts the invariants of an accepted frame (see FuzzParse).
func check(t *testing.T, b []byte) {
	fr, err := Parse(b)
	if err != nil {
		return
	}
	ipo := 14
	if fr.VLAN {
		ipo = 18
	}
	off := ipo + fr.IPHeaderLen + fr.TCPHeaderLen
	end := off + len(fr.Payload)
	if end > len(b) || fr.IPHeaderLen < 20 || fr.TCPHeaderLen < 20 {
		t.Fatalf("accepted frame with inconsistent lengths: off %d payload %d input %d", off, len(fr.Payload), len(b))
	}
	if len(fr.Payload) > 0 && &b[off] != &fr.Payload[0] {
		t.Fatalf("payload is not the sub-slice of the input at %d", off)
	}
	if total := int(binary.BigEndian.Uint16(b[ipo+2:])); end != ipo+total {
		t.Fatalf("payload ends at %d, IPv4 packet at %d", end, ipo+total)
	}
	crossCheck(t, b, fr)
}

func crossCheck(t *testing.T, b []byte, fr Frame) {
	pkt := gopacket.NewPacket(b, layers.LayerTypeEthernet, gopacket.DecodeOptions{NoCopy: true})
	if pkt.ErrorLayer() != nil {
		return // e.g. IPv4 or TCP options gopacket refuses: Parse does not read them
	}
	ip, _ := pkt.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
	tcp, _ := pkt.Layer(layers.LayerTypeTCP).(*layers.TCP)
	if ip == nil || tcp == nil {
		t.Fatalf("gopacket finds no IPv4/TCP in a frame Parse accepted")
	}
	got := fmt.Sprint(fr.SrcIP, fr.DstIP, fr.IPHeaderLen, fr.TCPHeaderLen, fr.SrcPort, fr.DstPort,
		fr.Seq, fr.Ack, fr.Window, len(fr.Payload))
	want := fmt.Sprint([4]byte(ip.SrcIP.To4()), [4]byte(ip.DstIP.To4()), int(ip.IHL)*4, int(tcp.DataOffset)*4,
		uint16(tcp.SrcPort), uint16(tcp.DstPort), tcp.Seq, tcp.Ack, tcp.Window, len(tcp.Payload))
	if got != want {
		t.Fatalf("Parse and gopacket disagree:\n parse    %s\n gopacket %s", got, want)
	}
}
