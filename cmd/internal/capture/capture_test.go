package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sharedCapture is the public SoftUiWarp / Linux siw capture of
// ../shared/captures: 15 Ethernet frames, classic pcap, microseconds.
var sharedCapture = filepath.Join("..", "..", "..", "..", "shared", "captures", "softuiwarp-siw-rping-2021.pcap")

// readAll reads every frame of a capture, copying each frame's data.
func readAll(t testing.TB, r *Reader) []Frame {
	t.Helper()
	var out []Frame
	for {
		f, err := r.Next()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		f.Data = append([]byte(nil), f.Data...)
		out = append(out, f)
	}
}

func readFile(t testing.TB, path string) []Frame {
	t.Helper()
	r, err := Open(path)
	require.NoError(t, err)
	defer r.Close()
	return readAll(t, r)
}

func readBytes(t testing.TB, b []byte) []Frame {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	return readAll(t, r)
}

func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

// sharedRecs returns the shared capture's frames as records, read with
// the pcap format's definition (not with the reader under test).
func sharedRecs(t testing.TB) []rec {
	t.Helper()
	b, err := os.ReadFile(sharedCapture)
	require.NoError(t, err)
	require.Equal(t, []byte{0xd4, 0xc3, 0xb2, 0xa1}, b[:4], "little-endian microsecond pcap")
	var recs []rec
	for p := 24; p < len(b); {
		le := func(i int) int { return int(b[p+i]) | int(b[p+i+1])<<8 | int(b[p+i+2])<<16 | int(b[p+i+3])<<24 }
		n := le(8)
		recs = append(recs, rec{data: b[p+16 : p+16+n], orig: le(12), t: time.Unix(int64(le(0)), int64(le(4))*1000)})
		p += 16 + n
	}
	require.Len(t, recs, 15)
	return recs
}

// tsharkFrame is what tshark reads of one frame.
type tsharkFrame struct {
	iface, length, caplen int
	epoch                 string
	src, dst              string // IPv4 addresses, empty when tshark finds none
}

// tshark reads a capture with tshark (an implementation independent of
// this package).
func tshark(t testing.TB, path string) []tsharkFrame {
	t.Helper()
	out, err := exec.Command("tshark", "-r", path, "-T", "fields", "-E", "separator=/t",
		"-e", "frame.interface_id", "-e", "frame.len", "-e", "frame.cap_len", "-e", "frame.time_epoch",
		"-e", "ip.src", "-e", "ip.dst").Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("tshark -r %s: %v: %s", path, err, ee.Stderr)
	}
	require.NoError(t, err)
	var rows []tsharkFrame
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if line == "" {
			continue
		}
		c := strings.Split(line, "\t")
		require.Len(t, c, 6, line)
		atoi := func(s string) int {
			if s == "" {
				return 0
			}
			n, err := strconv.Atoi(s)
			require.NoError(t, err, line)
			return n
		}
		rows = append(rows, tsharkFrame{iface: atoi(c[0]), length: atoi(c[1]), caplen: atoi(c[2]), epoch: c[3], src: c[4], dst: c[5]})
	}
	return rows
}

func epoch(tm time.Time) string {
	return fmt.Sprintf("%d.%09d", tm.Unix(), tm.Nanosecond())
}

// assertTshark checks the frames read from path against tshark's reading
// of the same file (see assertRows).
func assertTshark(t *testing.T, path string, frames []Frame) {
	t.Helper()
	assertRows(t, path, tshark(t, path), frames, true)
}

// assertRows checks frames against tshark's rows for them: the count, each
// frame's interface (when iface is set), timestamp, and lengths (tshark's
// count the link-layer header of each frame's link type, the reader's an
// Ethernet header instead), and that both find the same IPv4 addresses at
// the offset the link type puts them.
func assertRows(t *testing.T, name string, rows []tsharkFrame, frames []Frame, iface bool) {
	t.Helper()
	require.Len(t, frames, len(rows), "%s: frame count", name)
	addrs, whole := 0, 0 // frames in which tshark found IPv4 addresses; frames that hold them
	for i, f := range frames {
		row := rows[i]
		link, ok := linkHeader(f.LinkType)
		require.True(t, ok)
		delta := ethDelta(f.LinkType)
		if iface {
			assert.Equal(t, row.iface, f.Interface, "%s: frame %d interface", name, i)
		}
		assert.Equal(t, row.length+delta, f.Length, "%s: frame %d length", name, i)
		if f.LinkType == LinkEthernet || (row.caplen >= link && row.caplen > 0) {
			assert.Equal(t, row.caplen+delta, len(f.Data), "%s: frame %d captured length", name, i)
		} else {
			assert.Empty(t, f.Data, "%s: frame %d captured inside its link header", name, i)
		}
		assert.Equal(t, row.caplen < row.length, f.Truncated, "%s: frame %d truncated", name, i)
		if !f.Time.IsZero() {
			assert.Equal(t, row.epoch, epoch(f.Time), "%s: frame %d time", name, i)
		}
		if len(f.Data) >= 34 {
			whole++
		}
		if row.src != "" && len(f.Data) >= 34 {
			addrs++
			assert.Equal(t, row.src, fmt.Sprintf("%d.%d.%d.%d", f.Data[26], f.Data[27], f.Data[28], f.Data[29]), "%s: frame %d ip.src", name, i)
			assert.Equal(t, row.dst, fmt.Sprintf("%d.%d.%d.%d", f.Data[30], f.Data[31], f.Data[32], f.Data[33]), "%s: frame %d ip.dst", name, i)
		}
	}
	if whole > 0 {
		assert.NotZero(t, addrs, "%s: tshark finds IPv4 in none of the frames", name)
	}
}

// tsharkBatch collects captures to check against tshark in one run (tshark
// takes about a second to start).
type tsharkBatch struct {
	paths  []string
	frames [][]Frame
}

func (c *tsharkBatch) add(path string, frames []Frame) {
	c.paths = append(c.paths, path)
	c.frames = append(c.frames, frames)
}

// run concatenates the captures with mergecap -a, which reads each with
// Wireshark's readers, and checks the result with tshark. Interface
// numbers are the merged file's, so they are not compared.
func (c *tsharkBatch) run(t *testing.T) {
	t.Helper()
	merged := filepath.Join(t.TempDir(), "merged.pcapng")
	out, err := exec.Command("mergecap", append([]string{"-a", "-F", "pcapng", "-w", merged}, c.paths...)...).CombinedOutput()
	require.NoError(t, err, "mergecap: %s", out)
	rows := tshark(t, merged)
	n := 0
	for _, f := range c.frames {
		n += len(f)
	}
	require.Len(t, rows, n, "frames in all files")
	for i, f := range c.frames {
		assertRows(t, c.paths[i], rows[:len(f)], f, false)
		rows = rows[len(f):]
	}
}

// ethDelta is how many octets longer the Ethernet header is than the link
// type's header.
func ethDelta(lt LinkType) int {
	if lt == LinkEthernet {
		return 0
	}
	link, _ := linkHeader(lt)
	return ethHeaderLen - link
}

func TestSharedCapture(t *testing.T) {
	frames := readFile(t, sharedCapture)
	recs := sharedRecs(t)
	require.Len(t, frames, len(recs))
	for i, f := range frames {
		assert.Equal(t, recs[i].data, f.Data)
		assert.Equal(t, recs[i].t, f.Time)
		assert.Equal(t, i, f.Index)
		assert.Equal(t, LinkEthernet, f.LinkType)
		assert.False(t, f.Truncated)
	}
	assertTshark(t, sharedCapture, frames)
}

// TestLinkTypes writes the shared capture's Ethernet frames as each
// supported link type carries them, in pcap and pcapng, and expects the
// same Ethernet frames back (with the MAC addresses the link lacks zeroed),
// and tshark to read the same lengths and addresses.
func TestLinkTypes(t *testing.T) {
	recs := sharedRecs(t)
	var batch tsharkBatch
	dir := t.TempDir() // the batch reads the files after the subtests
	same := func(b []byte) []byte { return b }
	for _, tc := range []struct {
		name string
		lt   LinkType
		conv func([]byte) []byte
		want func([]byte) []byte
	}{
		{"ethernet", LinkEthernet, same, same},
		{"sll", LinkLinuxSLL, toSLL, keepSrc},
		{"sll2", LinkLinuxSLL2, toSLL2, keepSrc},
		{"raw", LinkRaw, toRaw, noMACs},
		{"dlt-raw-12", LinkRawBSD, toRaw, noMACs},
		{"ipv4", LinkIPv4, toRaw, noMACs},
		{"null-le", LinkNull, toNull(false, 2), noMACs},
		{"null-be", LinkNull, toNull(true, 2), noMACs},
		{"loop-be", LinkLoop, toNull(true, 2), noMACs},
		{"loop-le", LinkLoop, toNull(false, 2), noMACs},
	} {
		conv := make([]rec, len(recs))
		for i, x := range recs {
			conv[i] = x
			conv[i].data = tc.conv(x.data)
			conv[i].orig = x.orig - ethDelta(tc.lt)
		}
		files := map[string][]byte{
			"pcap-le":      writePcap(false, false, tc.lt, conv),
			"pcap-be-nano": writePcap(true, true, tc.lt, conv),
			"pcapng":       writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: tc.lt}}, recs: conv}),
		}
		for kind, b := range files {
			ok := t.Run(tc.name+"/"+kind, func(t *testing.T) {
				path := filepath.Join(dir, tc.name+"."+kind)
				require.NoError(t, os.WriteFile(path, b, 0o644))
				frames := readFile(t, path)
				require.Len(t, frames, len(recs))
				for i, f := range frames {
					assert.Equal(t, tc.want(recs[i].data), f.Data, "frame %d", i)
					assert.Equal(t, recs[i].origLen(), f.Length, "frame %d", i)
					assert.Equal(t, tc.lt, f.LinkType)
				}
				// tshark reads 12 as raw IP only on some systems, and
				// LOOP's family only in network byte order
				if tc.name != "dlt-raw-12" && tc.name != "loop-le" {
					batch.add(path, frames)
				}
			})
			require.True(t, ok)
		}
	}
	batch.run(t)
}

// TestEditcap reads the shared capture as editcap converts it: pcapng, and
// pcap with nanosecond timestamps.
func TestEditcap(t *testing.T) {
	want := readFile(t, sharedCapture)
	var batch tsharkBatch
	dir := t.TempDir() // the batch reads the files after the subtests
	for _, format := range []string{"pcapng", "nsecpcap"} {
		ok := t.Run(format, func(t *testing.T) {
			path := filepath.Join(dir, "shared."+format)
			out, err := exec.Command("editcap", "-F", format, sharedCapture, path).CombinedOutput()
			require.NoError(t, err, "%s", out)
			r, err := Open(path)
			require.NoError(t, err)
			defer r.Close()
			assert.Equal(t, map[string]Format{"pcapng": FormatPcapng, "nsecpcap": FormatPcap}[format], r.Format())
			frames := readAll(t, r)
			require.Len(t, frames, len(want))
			for i := range frames {
				assert.Equal(t, want[i].Data, frames[i].Data)
				assert.Equal(t, want[i].Time, frames[i].Time)
				assert.Equal(t, want[i].Length, frames[i].Length)
			}
			batch.add(path, frames)
		})
		require.True(t, ok)
	}
	batch.run(t)
}

// TestPcapngInterfaces reads a pcapng file with three sections: the first
// (little-endian) with an Ethernet interface in microseconds, a Linux
// cooked v2 one in nanoseconds and a raw IPv4 one in 2^-20 s with a
// timestamp offset, their frames interleaved, in Enhanced, obsolete and
// Simple Packet Blocks, among blocks the reader skips; the second
// (big-endian) with a BSD loopback interface; the third with an interface
// whose link type is unsupported but which carries no frame.
func TestPcapngInterfaces(t *testing.T) {
	recs := sharedRecs(t)
	base := time.Unix(1700000000, 123456789)
	var sec1, sec2 []rec
	var want []Frame
	for i, x := range recs {
		ifc := i % 3
		if i == 0 {
			ifc = 0 // the Simple Packet Block below is on interface 0
		}
		y := rec{iface: ifc, t: base.Add(time.Duration(i) * 1001 * time.Microsecond)}
		w := Frame{Interface: ifc, Length: len(x.data), Time: y.t}
		switch ifc {
		case 0:
			y.data, w.Data, w.LinkType = x.data, x.data, LinkEthernet
			w.Time = y.t.Truncate(time.Microsecond)
		case 1:
			y.data, w.Data, w.LinkType = toSLL2(x.data), keepSrc(x.data), LinkLinuxSLL2
		case 2:
			y.data, w.Data, w.LinkType = toRaw(x.data), noMACs(x.data), LinkIPv4
			w.Time = time.Unix(y.t.Unix(), int64(y.t.Nanosecond())*(1<<20)/1e9*1e9/(1<<20))
		}
		switch i {
		case 0:
			y.block = ngSPB
			w.Time = time.Time{}
		case 4:
			y.block = ngPB
		}
		y.orig = len(y.data)
		if i < 12 {
			sec1 = append(sec1, y)
		} else {
			y.iface = 0
			y.data = toNull(true, 24)(x.data)
			y.orig = len(y.data)
			w.Data, w.LinkType, w.Interface = noMACs(x.data), LinkNull, 0
			w.Time = y.t.Truncate(time.Microsecond)
			sec2 = append(sec2, y)
		}
		want = append(want, w)
	}
	// Loopback frames of an IPv6 family carry EtherType IPv6.
	for i := 12; i < len(want); i++ {
		want[i].Data[12], want[i].Data[13] = 0x86, 0xdd
	}
	b := writePcapng(
		ngSection{extra: true, ifaces: []ngIfaceSpec{{lt: LinkEthernet}, {lt: LinkLinuxSLL2, tsresol: 9}, {lt: LinkIPv4, tsresol: 0x80 | 20, tsoffset: 3600}}, recs: sec1},
		ngSection{be: true, extra: true, ifaces: []ngIfaceSpec{{lt: LinkNull}}, recs: sec2},
		ngSection{ifaces: []ngIfaceSpec{{lt: 127}}},
	)
	path := writeTemp(t, "ifaces.pcapng", b)
	frames := readFile(t, path)
	require.Len(t, frames, len(want))
	for i, f := range frames {
		w := want[i]
		assert.Equal(t, w.Data, f.Data, "frame %d", i)
		assert.Equal(t, w.Interface, f.Interface, "frame %d", i)
		assert.Equal(t, w.LinkType, f.LinkType, "frame %d", i)
		assert.Equal(t, w.Length, f.Length, "frame %d", i)
		assert.True(t, w.Time.Equal(f.Time), "frame %d: time %v, want %v", i, f.Time, w.Time)
	}
	assertTshark(t, path, frames)
}

// TestTruncated reads frames cut by the snap length: flagged, with both
// lengths, whatever the link type; cut inside the link-layer header they
// come out empty.
func TestTruncated(t *testing.T) {
	recs := sharedRecs(t)
	var batch tsharkBatch
	dir := t.TempDir() // the batch reads the files after the subtests
	for _, tc := range []struct {
		name   string
		lt     LinkType
		conv   func([]byte) []byte
		snap   int
		length func(int) int // captured Ethernet frame length of a record cut at snap
	}{
		{"ethernet-54", LinkEthernet, func(b []byte) []byte { return b }, 54, func(n int) int { return n }},
		{"ethernet-10", LinkEthernet, func(b []byte) []byte { return b }, 10, func(n int) int { return n }},
		{"sll-58", LinkLinuxSLL, toSLL, 58, func(n int) int { return n - 2 }},
		{"sll-10", LinkLinuxSLL, toSLL, 10, func(int) int { return 0 }},
		{"sll2-19", LinkLinuxSLL2, toSLL2, 19, func(int) int { return 0 }},
		{"raw-40", LinkRaw, toRaw, 40, func(n int) int { return n + 14 }},
		{"null-3", LinkNull, toNull(false, 2), 3, func(int) int { return 0 }},
	} {
		for _, ng := range []bool{false, true} {
			ok := t.Run(fmt.Sprintf("%s/pcapng=%v", tc.name, ng), func(t *testing.T) {
				link, _ := linkHeader(tc.lt)
				conv := make([]rec, len(recs))
				for i, x := range recs {
					full := tc.conv(x.data)
					conv[i] = rec{data: full[:tc.snap], orig: len(full), t: x.t}
				}
				b := writePcap(false, false, tc.lt, conv)
				if ng {
					b = writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: tc.lt, snap: uint32(tc.snap)}}, recs: conv})
				}
				path := filepath.Join(dir, fmt.Sprintf("%s-%v", tc.name, ng))
				require.NoError(t, os.WriteFile(path, b, 0o644))
				frames := readFile(t, path)
				require.Len(t, frames, len(recs))
				for i, f := range frames {
					assert.True(t, f.Truncated, "frame %d", i)
					assert.Equal(t, len(recs[i].data), f.Length, "frame %d: the length on the wire", i)
					require.Len(t, f.Data, tc.length(tc.snap), "frame %d", i)
					if len(f.Data) > 0 {
						w := tc.conv(recs[i].data)[link:tc.snap]
						assert.Equal(t, w, f.Data[len(f.Data)-len(w):], "frame %d: the captured octets", i)
					}
				}
				batch.add(path, frames)
			})
			require.True(t, ok)
		}
	}
	batch.run(t)
}

func TestUnsupportedLinkType(t *testing.T) {
	x := sharedRecs(t)[0]
	t.Run("pcap", func(t *testing.T) {
		path := writeTemp(t, "radiotap.pcap", writePcap(false, false, 127, []rec{x}))
		_, err := Open(path)
		require.Error(t, err)
		var ult *UnsupportedLinkTypeError
		require.ErrorAs(t, err, &ult)
		assert.Equal(t, LinkType(127), ult.LinkType)
		require.ErrorIs(t, err, ErrFormat)
		assert.Equal(t, path+": unsupported link type 127 (IEEE802_11_RADIOTAP); supported: 1 ETHERNET, 113 LINUX_SLL, 276 LINUX_SLL2, 101 RAW, 228 IPV4, 229 IPV6, 0 NULL, 108 LOOP", err.Error())
	})
	t.Run("pcap-unknown", func(t *testing.T) {
		_, err := NewReader(bytes.NewReader(writePcap(true, false, 60000, nil)))
		assert.ErrorContains(t, err, "unsupported link type 60000 (unknown)")
	})
	t.Run("pcapng", func(t *testing.T) {
		b := writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: LinkEthernet}, {lt: 189}}, recs: []rec{
			{data: x.data, t: x.t}, {data: x.data, t: x.t, iface: 1}, {data: x.data, t: x.t},
		}})
		r, err := NewReader(bytes.NewReader(b))
		require.NoError(t, err)
		_, err = r.Next()
		require.NoError(t, err)
		_, err = r.Next()
		var ult *UnsupportedLinkTypeError
		require.ErrorAs(t, err, &ult)
		assert.NotContains(t, err.Error(), "\n")
		assert.Contains(t, err.Error(), "frame 1 at offset ")
		assert.Contains(t, err.Error(), "pcapng interface 1: unsupported link type 189 (USB_LINUX); supported: ")
		_, err2 := r.Next()
		assert.Equal(t, err, err2, "the error sticks")
	})
}

// TestStdin reads a capture from standard input through a pipe.
func TestStdin(t *testing.T) {
	b, err := os.ReadFile(sharedCapture)
	require.NoError(t, err)
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	old := os.Stdin
	os.Stdin = pr
	defer func() { os.Stdin = old; pr.Close() }()
	go func() {
		// small writes: records arrive split across reads
		for i := 0; i < len(b); i += 7 {
			pw.Write(b[i:min(i+7, len(b))])
		}
		pw.Close()
	}()
	r, err := Open("-")
	require.NoError(t, err)
	assert.Equal(t, int64(-1), r.Size())
	frames := readAll(t, r)
	require.NoError(t, r.Close())
	want := readFile(t, sharedCapture)
	require.Len(t, frames, len(want))
	for i := range frames {
		assert.Equal(t, want[i].Data, frames[i].Data)
	}
	assert.Equal(t, int64(len(b)), r.Offset())
}

// TestStdinFile reads a file redirected to standard input, whose size is
// known.
func TestStdinFile(t *testing.T) {
	f, err := os.Open(sharedCapture)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old }()
	r, err := Open("-")
	require.NoError(t, err)
	assert.Equal(t, st.Size(), r.Size())
	assert.Len(t, readAll(t, r), 15)
	assert.Equal(t, st.Size(), r.Offset())
}

func TestSizeAndOffset(t *testing.T) {
	st, err := os.Stat(sharedCapture)
	require.NoError(t, err)
	r, err := Open(sharedCapture)
	require.NoError(t, err)
	defer r.Close()
	assert.Equal(t, st.Size(), r.Size())
	assert.Equal(t, int64(24), r.Offset())
	f, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, int64(24), f.Offset)
	assert.Equal(t, int64(24+16+len(f.Data)), r.Offset())
	readAll(t, r)
	assert.Equal(t, st.Size(), r.Offset())
}

// TestRecordLargerThanBuffer reads records larger than the read buffer,
// and records split across its end.
func TestRecordLargerThanBuffer(t *testing.T) {
	var recs []rec
	for _, n := range []int{100, ReadBuffer - 30, 3*ReadBuffer + 5, 60, ReadBuffer / 2, ReadBuffer/2 + 1} {
		d := make([]byte, n)
		for i := range d {
			d[i] = byte(i * 31)
		}
		recs = append(recs, rec{data: d, t: time.Unix(int64(n), 0)})
	}
	for _, lt := range []LinkType{LinkEthernet, LinkRaw} {
		for _, ng := range []bool{false, true} {
			b := writePcap(false, false, lt, recs)
			if ng {
				b = writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: lt}}, recs: recs})
			}
			frames := readBytes(t, b)
			require.Len(t, frames, len(recs))
			for i, f := range frames {
				if lt == LinkEthernet {
					assert.Equal(t, recs[i].data, f.Data)
				} else {
					assert.Equal(t, recs[i].data, f.Data[ethHeaderLen:])
				}
			}
		}
	}
}

// TestDamaged checks the errors for inputs that are not captures or whose
// records do not hold together.
func TestDamaged(t *testing.T) {
	x := sharedRecs(t)[0]
	pcap := writePcap(false, false, LinkEthernet, []rec{x, x})
	ng := writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: LinkEthernet}}, recs: []rec{x, x}})
	set := func(b []byte, off int, v ...byte) []byte {
		b = append([]byte(nil), b...)
		copy(b[off:], v)
		return b
	}
	shb := int(binary.LittleEndian.Uint32(ng[4:]))           // the Interface Description Block's offset
	epb := shb + int(binary.LittleEndian.Uint32(ng[shb+4:])) // the first Enhanced Packet Block's
	for _, tc := range []struct {
		name    string
		in      []byte
		open    string // error from NewReader
		next    string // error from Next, after the frames before
		before  int
		unexpEO bool // the error is io.ErrUnexpectedEOF
	}{
		{name: "empty", in: nil, open: "empty input"},
		{name: "three-octets", in: []byte{0xd4, 0xc3, 0xb2}, open: "too short"},
		{name: "text", in: []byte("hello, world\n"), open: "not a pcap or pcapng file (first octets 68656c6c)"},
		{name: "gzip", in: []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0}, open: "gzip-compressed"},
		{name: "kuznetzov", in: set(pcap, 0, 0x34, 0xcd, 0xb2, 0xa1), open: "modified pcap"},
		{name: "pcap-version", in: set(pcap, 4, 3), open: "pcap version 3.4"},
		{name: "pcap-header-cut", in: pcap[:20], open: "pcap file header cut short"},
		{name: "pcap-record-cut", in: pcap[:len(pcap)-1], before: 1, unexpEO: true},
		{name: "pcap-record-header-cut", in: pcap[:24+16+len(x.data)+9], before: 1, unexpEO: true},
		{name: "pcap-caplen-huge", in: set(pcap, 24+8, 0xff, 0xff, 0xff, 0x7f), next: "captured length 2147483647 exceeds"},
		{name: "pcapng-shb-cut", in: ng[:20], open: "section header cut short"},
		{name: "pcapng-bom", in: set(ng, 8, 1, 2, 3, 4), open: "byte-order magic 01020304"},
		{name: "pcapng-version", in: set(ng, 12, 2), open: "pcapng version 2.0"},
		{name: "pcapng-shb-trailer", in: set(ng, shb-4, 1), open: "ends with length 1"},
		{name: "pcapng-block-short", in: set(ng, shb+4, 8), next: "of length 8 (a multiple of 4, at least 20)"},
		{name: "pcapng-block-odd", in: set(ng, shb+4, 41), next: "of length 41"},
		{name: "pcapng-block-huge", in: set(ng, shb+4, 0, 0, 0, 0x40), next: "exceeds the"},
		{name: "pcapng-epb-caplen", in: set(ng, epb+20, 0xff), next: "captured length 255 in a block of"},
		{name: "pcapng-epb-iface", in: set(ng, epb+8, 5), next: "interface 5, which its section does not describe (1 interfaces)"},
		{name: "pcapng-option-overrun", in: set(ng, shb+16+2, 0xff), next: "option 2 of length 255 overruns"},
		{name: "pcapng-tsresol", in: set(ng, shb+16, 9, 0, 1, 0, 20), next: "timestamp resolution 10^-20"},
		{name: "pcapng-block-cut", in: ng[:len(ng)-3], before: 1, unexpEO: true},
	} {
		for _, mapped := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/mapped=%v", tc.name, mapped), func(t *testing.T) {
				damaged(t, tc.in, mapped, tc.open, tc.next, tc.before, tc.unexpEO)
			})
		}
	}
}

// damaged opens in, from memory or mapped from a file, and checks the
// error: open from opening it, else next (io.ErrUnexpectedEOF when
// unexpEOF) after before frames.
func damaged(t *testing.T, in []byte, mapped bool, open, next string, before int, unexpEOF bool) {
	var r *Reader
	var err error
	if mapped {
		r, err = Open(writeTemp(t, "damaged", in))
		if err == nil {
			defer r.Close()
			assert.True(t, r.Mapped())
		}
	} else {
		r, err = NewReader(bytes.NewReader(in))
	}
	if open != "" {
		require.ErrorIs(t, err, ErrFormat)
		assert.ErrorContains(t, err, open)
		return
	}
	require.NoError(t, err)
	for range before {
		_, err := r.Next()
		require.NoError(t, err)
	}
	_, err = r.Next()
	require.Error(t, err)
	assert.NotEqual(t, io.EOF, err)
	if unexpEOF {
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	} else {
		assert.ErrorIs(t, err, ErrFormat)
		assert.ErrorContains(t, err, next)
	}
}

// TestNextDoesNotAllocate reads frames in steady state, with and without
// a synthesised Ethernet header, in both formats.
func TestNextDoesNotAllocate(t *testing.T) {
	recs := sharedRecs(t)
	var many []rec
	for range 200 {
		many = append(many, recs...)
	}
	sll := make([]rec, len(many))
	for i, x := range many {
		sll[i] = rec{data: toSLL(x.data), t: x.t}
	}
	raw := make([]rec, len(many))
	for i, x := range many {
		raw[i] = rec{data: toRaw(x.data), t: x.t, block: ngSPB}
	}
	for name, b := range map[string][]byte{
		"pcap":       writePcap(false, false, LinkEthernet, many),
		"pcap-sll":   writePcap(true, true, LinkLinuxSLL, sll),
		"pcapng-raw": writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: LinkRaw, tsresol: 9}}, recs: raw}),
	} {
		t.Run(name, func(t *testing.T) {
			r, err := NewReader(bytes.NewReader(b))
			require.NoError(t, err)
			_, err = r.Next() // the scratch buffer of the SPB case
			require.NoError(t, err)
			allocs := testing.AllocsPerRun(len(many)-10, func() {
				if _, err := r.Next(); err != nil {
					panic(err)
				}
			})
			assert.Zero(t, allocs)
		})
	}
}

// TestMapped reads captures of every kind mapped from a file, giving pages
// back after every frame, and expects what the reader of the same octets
// from memory gives; with Retain, every frame not yet released is still
// intact after the last one is read.
func TestMapped(t *testing.T) {
	recs := sharedRecs(t)
	var many, sll, raw, big []rec
	for range 100 {
		many = append(many, recs...)
	}
	for _, x := range many {
		sll = append(sll, rec{data: toSLL2(x.data), t: x.t})
		raw = append(raw, rec{data: toRaw(x.data), t: x.t, block: ngSPB})
	}
	for _, n := range []int{100, 3*ReadBuffer + 5, 60, 5000} {
		d := make([]byte, n)
		for i := range d {
			d[i] = byte(i * 31)
		}
		big = append(big, rec{data: d, t: time.Unix(int64(n), 0)})
	}
	pcap := writePcap(false, false, LinkEthernet, many)
	for name, b := range map[string][]byte{
		"pcap":        pcap,
		"pcap-cut":    pcap[:len(pcap)-7],
		"pcap-raw":    writePcap(true, true, LinkRaw, raw),
		"pcapng-sll2": writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: LinkLinuxSLL2, tsresol: 9}}, recs: sll}),
		"pcapng-spb":  writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: LinkRaw}}, recs: raw}),
		"pcapng-big":  writePcapng(ngSection{ifaces: []ngIfaceSpec{{lt: LinkEthernet}}, recs: big}),
	} {
		want, wantErr := framesOf(t, b)
		path := writeTemp(t, name, b)
		for _, retain := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/retain=%v", name, retain), func(t *testing.T) {
				r, err := Open(path)
				require.NoError(t, err)
				defer r.Close()
				require.True(t, r.Mapped())
				r.chunk = 0 // give pages back as soon as a whole one is behind
				if retain {
					require.True(t, r.Retain())
				}
				var got []Frame
				kept := 0 // got[kept:] are not released
				for {
					f, err := r.Next()
					if err != nil {
						assert.Equal(t, wantErr, err.Error())
						break
					}
					if !retain {
						f.Data = append([]byte(nil), f.Data...)
					}
					got = append(got, f)
					if retain && len(got)%7 == 0 {
						kept = len(got) - 3 // done with the frames before
						r.Release(got[kept].Offset)
					}
				}
				require.Len(t, got, len(want))
				for i := kept; i < len(got); i++ {
					assert.Equal(t, want[i].Data, got[i].Data, "frame %d", i)
					assert.Equal(t, want[i].Offset, got[i].Offset, "frame %d", i)
				}
			})
		}
	}
}

// framesOf reads the capture b from memory: its frames (copied) and the
// error that ends them ("EOF" at the end).
func framesOf(t *testing.T, b []byte) ([]Frame, string) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	var out []Frame
	for {
		f, err := r.Next()
		if err != nil {
			return out, err.Error()
		}
		f.Data = append([]byte(nil), f.Data...)
		out = append(out, f)
	}
}
