package vector

import (
	"bytes"
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sample() *Vector {
	v := &Vector{
		Setup: Setup{
			Format: FormatVersion, Name: "sample", Receiver: Receiver{DDPVersion: 1}, Summary: "two frames", Seed: 7, Scale: 1,
			Tags:  []string{"aligned"},
			Conns: []Conn{{Initiator: "10.0.0.1:40000", Responder: "10.0.0.2:4791", InitiatorSeq: 1, ResponderSeq: 2, Intended: &Negotiated{CRC: true, DDPVersion: 1}}},
			STags: []STag{{STag: 0x100, Conn: 0, Dir: I2R, Addr: 0x1000, Len: 4}},
			Recvs: []Recv{{Conn: 0, Dir: R2I, QN: 0, MSN: 1, Addr: 0x2000, Len: 3}},
		},
		Frames: []Frame{
			{Time: Epoch, Data: []byte{1, 2, 3}},
			{Time: Epoch.Add(FrameGap), Data: bytes.Repeat([]byte{9}, 9000)},
		},
		Buffers: [][]byte{{1, 2, 3, 4}, {5, 6, 7}},
	}
	v.Expected = append([]Record{
		{Type: "ulpdu", Src: "10.0.0.1:40000", Dst: "10.0.0.2:4791", Seq: 5, Len: intp(30), SHA256: "00"},
		{Type: "placed", Seq: 5, Len: intp(4), Addr: 0x1000, DDP: &DDP{Tagged: true, Last: true, Version: 1, STag: 0x100}, Frame: 1},
		{Type: "error", Code: 2, Seq: 99, Frame: 1},
	}, BufferRecords(&v.Setup, v.Buffers, 2)...)
	return v
}

func intp(n int) *int { return &n }

func TestWriteLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	v := sample()
	require.NoError(t, Write(dir, v))
	got, err := Load(dir)
	require.NoError(t, err)
	assert.Equal(t, v, got)
	assert.Len(t, got.Events(), 3)

	// Writing twice gives the same bytes; Files agrees with Write.
	files, err := Files(v)
	require.NoError(t, err)
	for name, b := range files {
		disk, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, b, disk, name)
	}
	dirs, err := Dirs(filepath.Dir(dir))
	require.NoError(t, err)
	assert.Contains(t, dirs, dir)
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(t *testing.T, dir string)
		msg    string
	}{
		{"buffers.bin short", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, BuffersFile), []byte{1, 2}, 0o644))
		}, "buffers total"},
		{"buffers.bin altered", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, BuffersFile), []byte{1, 2, 3, 4, 5, 6, 0}, 0o644))
		}, "contents give"},
		{"unknown field", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ExpectedFile), []byte(`{"type":"ulpdu","bogus":1}`+"\n"), 0o644))
		}, "unknown field"},
		{"bad endpoint", func(t *testing.T, dir string) {
			b, err := os.ReadFile(filepath.Join(dir, SetupFile))
			require.NoError(t, err)
			b = bytes.Replace(b, []byte("10.0.0.1:40000"), []byte("10.0.0.1"), 1)
			require.NoError(t, os.WriteFile(filepath.Join(dir, SetupFile), b, 0o644))
		}, "bad endpoint"},
		{"not a pcap", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, PcapFile), []byte("hello world, not a pcap file"), 0o644))
		}, "vector:"},
		{"wrong format", func(t *testing.T, dir string) {
			b, err := os.ReadFile(filepath.Join(dir, SetupFile))
			require.NoError(t, err)
			b = bytes.Replace(b, []byte(`"format": 1`), []byte(`"format": 2`), 1)
			require.NoError(t, os.WriteFile(filepath.Join(dir, SetupFile), b, 0o644))
		}, "format 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, Write(dir, sample()))
			tt.mutate(t, dir)
			_, err := Load(dir)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestEndpoint(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Endpoint
	}{
		{"192.168.7.9:4791", Endpoint{IP: netip.AddrFrom4([4]byte{192, 168, 7, 9}), Port: 4791}},
		{"[2001:db8::1]:4791", Endpoint{IP: netip.AddrFrom16([16]byte{0x20, 0x01, 0x0d, 0xb8, 15: 1}), Port: 4791}},
	} {
		e, err := ParseEndpoint(tc.in)
		require.NoError(t, err)
		assert.Equal(t, tc.want, e)
		assert.Equal(t, tc.in, e.String())
	}
	for _, bad := range []string{"", "1.2.3.4", "::1:80", "1.2.3.4:99999", "[::ffff:1.2.3.4]:80", "[fe80::1%eth0]:80"} {
		_, err := ParseEndpoint(bad)
		assert.Error(t, err, bad)
	}
}

func FuzzDecodeRecords(f *testing.F) {
	exp, err := EncodeRecords(sample().Expected)
	require.NoError(f, err)
	f.Add(exp)
	f.Add([]byte("{}\n{\"type\":\"x\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := DecodeRecords(b)
		if err != nil {
			return
		}
		again, err := EncodeRecords(recs)
		require.NoError(t, err)
		back, err := DecodeRecords(again)
		require.NoError(t, err)
		assert.Equal(t, recs, back)
	})
}

func FuzzReadPcap(f *testing.F) {
	var buf bytes.Buffer
	require.NoError(f, WritePcap(&buf, sample().Frames))
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ReadPcap(bytes.NewReader(b)) // must not panic
	})
}

func FuzzDecodeSetup(f *testing.F) {
	b, err := EncodeSetup(&sample().Setup)
	require.NoError(f, err)
	f.Add(b)
	f.Add([]byte(`{"format":1,"name":"x","connections":[{"initiator":"1.2.3.4:1"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSetup(b)
		if err != nil {
			return
		}
		again, err := EncodeSetup(&s)
		require.NoError(t, err)
		back, err := DecodeSetup(again)
		require.NoError(t, err)
		assert.Equal(t, s, back)
	})
}
