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

// seedFrames are the table frames, valid and invalid, IPv4 and IPv6, named
// for the corpus (the jumbograms are left out: they would take 300 kB of
// corpus each).
func seedFrames(t testing.TB) map[string][]byte {
	seeds := map[string][]byte{}
	for _, tc := range validCases() {
		seeds["valid-"+tc.name] = build(t, tc.s)
	}
	for _, tc := range errorCases(t) {
		seeds["error-"+tc.name] = tc.frame
	}
	for _, tc := range validCases6() {
		seeds["valid6-"+tc.name] = build6(t, tc.s)
	}
	for _, tc := range errorCases6(t) {
		seeds["error6-"+tc.name] = tc.frame
	}
	for name, b := range seeds {
		if len(b) > 0xffff {
			delete(seeds, name)
		}
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

// FuzzParse checks that Parse and ParseDual never panic, and that whenever
// they accept a frame the result is consistent: the payload is the
// sub-slice of the input right after the headers, the lengths agree with
// the IPv4 total length or the IPv6 payload length, and gopacket (an
// independent decoder) reads the same fields where it decodes the frame
// without error; ParseDual gives what Parse gives for every frame that is
// not IPv6. Random inputs almost never carry correct checksums, so each
// input is also parsed a second time with its checksums recomputed, which
// takes the fuzzer past them to the rest of the parser.
func FuzzParse(f *testing.F) {
	for _, b := range seedFrames(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		check(t, b)
		checkDual(t, b)
		c := append([]byte(nil), b...)
		if fixChecksums(c) {
			_, err := Parse(c)
			if errors.Is(err, ErrIPChecksum) || errors.Is(err, ErrTCPChecksum) {
				t.Fatalf("checksum error after both checksums were recomputed: %v", err)
			}
			check(t, c)
			checkDual(t, c)
		} else if fixChecksum6(c) {
			if _, err := ParseDual(c, CheckAll); errors.Is(err, ErrTCPChecksum) {
				t.Fatalf("checksum error after the checksum was recomputed: %v", err)
			}
			checkDual(t, c)
		}
	})
}

// fixChecksum6 recomputes the TCP checksum of an IPv6 frame in place with
// the reference sum, where ParseDual finds the TCP header.
func fixChecksum6(b []byte) bool {
	fr, err := ParseDual(b, 0)
	if err != nil || !fr.IPv6 {
		return false
	}
	ipo := 14
	if fr.VLAN {
		ipo = 18
	}
	seg := b[ipo+fr.IPHeaderLen : ipo+fr.IPHeaderLen+fr.TCPHeaderLen+len(fr.Payload)]
	seg[16], seg[17] = 0, 0
	n := len(seg)
	pseudo := append(append([]byte(nil), fr.SrcAddr[:]...), fr.DstAddr[:]...)
	pseudo = append(pseudo, byte(n>>24), byte(n>>16), byte(n>>8), byte(n), 0, 0, 0, ProtocolTCP)
	binary.BigEndian.PutUint16(seg[16:], ^refSum(append(pseudo, seg...)))
	return true
}

// checkDual asserts that ParseDual agrees with Parse on every frame that
// is not IPv6, and the invariants of an IPv6 frame it accepts.
func checkDual(t *testing.T, b []byte) {
	fr, err := ParseDual(b, CheckAll)
	pf, perr := Parse(b)
	et := -1 // the EtherType after an optional tag
	if len(b) >= 18 && b[12] == 0x81 && b[13] == 0 {
		et = int(binary.BigEndian.Uint16(b[16:]))
	} else if len(b) >= 14 {
		et = int(binary.BigEndian.Uint16(b[12:]))
	}
	switch {
	case et == EtherTypeIPv6 || errors.Is(err, ErrNotIP):
		if !errors.Is(perr, ErrNotIPv4) {
			t.Fatalf("ParseDual: %v; Parse: %v", err, perr)
		}
	default:
		if fmt.Sprint(err) != fmt.Sprint(perr) || fmt.Sprint(fr) != fmt.Sprint(pf) {
			t.Fatalf("ParseDual and Parse disagree on a frame that is not IPv6: %v / %v", err, perr)
		}
		return
	}
	if err != nil {
		return
	}
	if !fr.IPv6 || fr.SrcIP != [4]byte{} || fr.DstIP != [4]byte{} {
		t.Fatalf("IPv6 frame without IPv6 set or with IPv4 addresses")
	}
	ipo := 14
	if fr.VLAN {
		ipo = 18
	}
	off := ipo + fr.IPHeaderLen + fr.TCPHeaderLen
	end := off + len(fr.Payload)
	if end > len(b) || fr.ExtHeaderLen != fr.IPHeaderLen-40 || fr.ExtHeaderLen%8 != 0 || fr.TCPHeaderLen < 20 {
		t.Fatalf("accepted IPv6 frame with inconsistent lengths: ip %d ext %d tcp %d payload %d input %d",
			fr.IPHeaderLen, fr.ExtHeaderLen, fr.TCPHeaderLen, len(fr.Payload), len(b))
	}
	if len(fr.Payload) > 0 && &b[off] != &fr.Payload[0] {
		t.Fatalf("payload is not the sub-slice of the input at %d", off)
	}
	if plen := int(binary.BigEndian.Uint16(b[ipo+4:])); plen != 0 && end != ipo+40+plen {
		t.Fatalf("payload ends at %d, IPv6 packet at %d", end, ipo+40+plen)
	} else if plen == 0 && (b[ipo+6] != ProtocolHopByHop || end-ipo-40 <= 0xffff) {
		t.Fatalf("payload length 0 taken without a jumbogram's Hop-by-Hop header")
	}
	if fr.SrcAddr.Is4() || fr.DstAddr.Is4() {
		t.Fatalf("IPv6 frame with an IPv4-mapped address")
	}
	crossCheckDual(t, b, fr)
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
