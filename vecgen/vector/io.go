package vector

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// Snaplen is the snapshot length written in the pcap file header.
const Snaplen = 65535

// WritePcap writes frames as a pcap file (Ethernet link type, microsecond
// timestamps) to w.
func WritePcap(w io.Writer, frames []Frame) error {
	pw := pcapgo.NewWriter(w)
	if err := pw.WriteFileHeader(Snaplen, layers.LinkTypeEthernet); err != nil {
		return err
	}
	for i, f := range frames {
		if f.Time.IsZero() {
			return fmt.Errorf("vector: frame %d has no timestamp", i)
		}
		ci := gopacket.CaptureInfo{Timestamp: f.Time, CaptureLength: len(f.Data), Length: len(f.Data)}
		if err := pw.WritePacket(ci, f.Data); err != nil {
			return err
		}
	}
	return nil
}

// ReadPcap reads every frame of a pcap file with the Ethernet link type.
func ReadPcap(r io.Reader) ([]Frame, error) {
	pr, err := pcapgo.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("vector: %w", err)
	}
	if pr.LinkType() != layers.LinkTypeEthernet {
		return nil, fmt.Errorf("vector: pcap link type %v, want Ethernet", pr.LinkType())
	}
	var out []Frame
	for {
		data, ci, err := pr.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("vector: frame %d: %w", len(out), err)
		}
		if ci.CaptureLength != ci.Length {
			return nil, fmt.Errorf("vector: frame %d truncated by the capture (%d of %d octets)", len(out), ci.CaptureLength, ci.Length)
		}
		out = append(out, Frame{Time: ci.Timestamp.UTC(), Data: data})
	}
}

// EncodeSetup returns setup.json: indented JSON with a trailing newline.
func EncodeSetup(s *Setup) ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// EncodeRecords returns expected.jsonl: one compact JSON object per line.
func EncodeRecords(recs []Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// DecodeRecords parses expected.jsonl. Unknown fields are errors, so that a
// reader notices a format it does not understand.
func DecodeRecords(b []byte) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var r Record
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("vector: %s line %d: %w", ExpectedFile, line, err)
		}
		if r.Type == "" {
			return nil, fmt.Errorf("vector: %s line %d: no type", ExpectedFile, line)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// DecodeSetup parses and validates setup.json.
func DecodeSetup(b []byte) (Setup, error) {
	var s Setup
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("vector: %s: %w", SetupFile, err)
	}
	return s, s.Validate()
}

// Files returns the files of a vector directory, by name, exactly as Write
// writes them.
func Files(v *Vector) (map[string][]byte, error) {
	setup, err := EncodeSetup(&v.Setup)
	if err != nil {
		return nil, err
	}
	exp, err := EncodeRecords(v.Expected)
	if err != nil {
		return nil, err
	}
	var pcap bytes.Buffer
	if err := WritePcap(&pcap, v.Frames); err != nil {
		return nil, err
	}
	files := map[string][]byte{SetupFile: setup, ExpectedFile: exp, PcapFile: pcap.Bytes()}
	if len(v.Buffers) > 0 {
		files[BuffersFile] = bytes.Join(v.Buffers, nil)
	}
	return files, nil
}

// Write writes v into dir (created if needed), replacing the vector files
// there and removing a stale buffers.bin.
func Write(dir string, v *Vector) error {
	files, err := Files(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if _, ok := files[BuffersFile]; !ok {
		if err := os.Remove(filepath.Join(dir, BuffersFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Load reads the vector in dir and checks that its parts agree: the
// buffers.bin length matches the setup, and the buffer records' digests match
// buffers.bin.
func Load(dir string) (*Vector, error) {
	v := &Vector{}
	b, err := os.ReadFile(filepath.Join(dir, SetupFile))
	if err != nil {
		return nil, err
	}
	if v.Setup, err = DecodeSetup(b); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, PcapFile))
	if err != nil {
		return nil, err
	}
	v.Frames, err = ReadPcap(bufio.NewReaderSize(f, 1<<16))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if b, err = os.ReadFile(filepath.Join(dir, ExpectedFile)); err != nil {
		return nil, err
	}
	if v.Expected, err = DecodeRecords(b); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	bufs := v.Setup.Buffers()
	var raw []byte
	if len(bufs) > 0 {
		if raw, err = os.ReadFile(filepath.Join(dir, BuffersFile)); err != nil {
			return nil, err
		}
	}
	if v.Buffers, err = SplitBuffers(raw, bufs); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if err := v.CheckBufferRecords(); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return v, nil
}

// SplitBuffers cuts the contents of buffers.bin into one slice per buffer.
func SplitBuffers(raw []byte, bufs []Buffer) ([][]byte, error) {
	var total uint64
	for _, b := range bufs {
		total += b.Len
	}
	if uint64(len(raw)) != total {
		return nil, fmt.Errorf("vector: %s has %d octets, setup buffers total %d", BuffersFile, len(raw), total)
	}
	out := make([][]byte, len(bufs))
	for i, b := range bufs {
		out[i], raw = raw[:b.Len:b.Len], raw[b.Len:]
	}
	return out, nil
}

// BufferRecords returns the "buffer" records for the final contents of the
// setup's buffers; frames is the number of frames in the vector.
func BufferRecords(s *Setup, contents [][]byte, frames int) []Record {
	var out []Record
	for i, b := range s.Buffers() {
		sum := sha256.Sum256(contents[i])
		out = append(out, Record{Type: "buffer", Addr: b.Addr, BufLen: b.Len, SHA256: hex.EncodeToString(sum[:]), Frame: frames})
	}
	return out
}

// CheckBufferRecords checks that the buffer records at the end of Expected
// describe Buffers.
func (v *Vector) CheckBufferRecords() error {
	ev := v.Events()
	got := v.Expected[len(ev):]
	want := BufferRecords(&v.Setup, v.Buffers, len(v.Frames))
	if len(got) != len(want) {
		return fmt.Errorf("vector: %d buffer records, setup has %d buffers", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			return fmt.Errorf("vector: buffer record %d is %+v, contents give %+v", i, got[i], want[i])
		}
	}
	return nil
}

// LoadAll loads every vector directory directly under root (directories with
// a setup.json), sorted by name.
func LoadAll(root string) ([]*Vector, error) {
	dirs, err := Dirs(root)
	if err != nil {
		return nil, err
	}
	out := make([]*Vector, 0, len(dirs))
	for _, d := range dirs {
		v, err := Load(d)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Dirs lists the vector directories directly under root, sorted.
func Dirs(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(d, SetupFile)); err == nil {
			out = append(out, d)
		}
	}
	return out, nil
}
