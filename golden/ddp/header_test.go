package ddp

import (
	"bytes"
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// figure5ULPDU is the ULPDU of draft-ietf-rddp-mpa-01 Figure 5 (the octets
// after ULPDU_Length 0x002a): an untagged Send with L set, DDP version 0,
// QN 0, MSN 1, MO 0 and 24 zero octets of data.
var figure5ULPDU = append([]byte{
	0x40, 0x03, // DDP control: L; RDMAP control: Send
	0x00, 0x00, 0x00, 0x00, // reserved for the ULP
	0x00, 0x00, 0x00, 0x00, // QN 0
	0x00, 0x00, 0x00, 0x01, // MSN 1
	0x00, 0x00, 0x00, 0x00, // MO 0
}, make([]byte, 24)...)

func TestParseHeaderFigure5(t *testing.T) {
	require.Len(t, figure5ULPDU, 0x2a)
	h, payload, err := ParseHeader(figure5ULPDU)
	require.NoError(t, err)
	assert.Equal(t, Header{Last: true, Version: 0, ULPCtrl: 0x03, QN: 0, MSN: 1, MO: 0}, h)
	assert.Equal(t, make([]byte, 24), payload)
	assert.Equal(t, figure5ULPDU[:UntaggedHeaderLen], h.AppendTo(nil))
}

func TestHeaderEncoding(t *testing.T) {
	tests := []struct {
		name string
		h    Header
		wire []byte
	}{
		{"tagged-all-bits",
			Header{Tagged: true, Last: true, Version: 1, Rsvd: 0xf, ULPCtrl: 0x42, STag: 0x01020304, TO: 0x0a0b0c0d0e0f1011},
			[]byte{0xfd, 0x42, 1, 2, 3, 4, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11}},
		{"tagged-rdma-write-middle",
			Header{Tagged: true, Version: 1, ULPCtrl: 0x40, STag: 0xffffffff, TO: 0xffffffffffffffff},
			[]byte{0x81, 0x40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{"untagged-send-last",
			Header{Last: true, Version: 1, ULPCtrl: 0x43, ULP: 0xdeadbeef, QN: 2, MSN: 0x80000001, MO: 0x10203040},
			[]byte{0x41, 0x43, 0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 2, 0x80, 0, 0, 1, 0x10, 0x20, 0x30, 0x40}},
		{"untagged-reserved-bits-v3",
			Header{Version: 3, Rsvd: 0x5, QN: 1, MSN: 7, MO: 0},
			[]byte{0x17, 0x00, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wire, tc.h.AppendTo(nil))
			assert.Equal(t, len(tc.wire), tc.h.Len())
			in := append(append([]byte(nil), tc.wire...), "payload"...)
			h, payload, err := ParseHeader(in)
			require.NoError(t, err)
			assert.Equal(t, tc.h, h)
			assert.Equal(t, "payload", string(payload))
			assert.Same(t, &in[len(tc.wire)], &payload[0], "payload is a sub-slice")
		})
	}
}

func TestParseHeaderShort(t *testing.T) {
	tagged := Header{Tagged: true, Version: 1, STag: 9}.AppendTo(nil)
	untagged := Header{Version: 1, MSN: 1}.AppendTo(nil)
	for _, tc := range []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"empty", nil, false},
		{"one-octet", []byte{0x80}, false},
		{"tagged-13", tagged[:13], false},
		{"tagged-14", tagged, true},
		{"untagged-17", untagged[:17], false},
		{"untagged-18", untagged, true},
		{"untagged-14", untagged[:14], false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, payload, err := ParseHeader(tc.in)
			if tc.ok {
				require.NoError(t, err)
				assert.Empty(t, payload)
				return
			}
			require.ErrorIs(t, err, KindShortHeader)
			var de *Error
			require.ErrorAs(t, err, &de)
			assert.Equal(t, uint8(TypeLocalCatastrophic), de.Kind.Type())
		})
	}
}

func randomHeader(r *rand.Rand) Header {
	h := Header{
		Tagged: r.Intn(2) == 0, Last: r.Intn(2) == 0,
		Version: uint8(r.Intn(4)), Rsvd: uint8(r.Intn(16)), ULPCtrl: uint8(r.Uint32()),
	}
	if h.Tagged {
		h.STag, h.TO = r.Uint32(), r.Uint64()
	} else {
		h.ULP, h.QN, h.MSN, h.MO = r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()
	}
	return h
}

func TestHeaderRoundTripRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		h := randomHeader(r)
		body := make([]byte, r.Intn(64))
		r.Read(body)
		wire := append(h.AppendTo(nil), body...)
		require.Len(t, wire, h.Len()+len(body))
		got, payload, err := ParseHeader(wire)
		require.NoError(t, err)
		require.Equal(t, h, got)
		require.Equal(t, body, payload[:len(payload):len(payload)])
	}
}

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz/FuzzParseHeader")

func headerSeeds() map[string][]byte {
	r := rand.New(rand.NewSource(3))
	seeds := map[string][]byte{"figure5": figure5ULPDU, "empty": {}, "tagged-short": {0x81, 0, 1}}
	for i := 0; i < 6; i++ {
		h := randomHeader(r)
		seeds["random-"+strconv.Itoa(i)] = append(h.AppendTo(nil), byte(i), 0xaa)
	}
	return seeds
}

// TestSeedCorpusHeader keeps testdata/fuzz/FuzzParseHeader equal to
// headerSeeds (rewrite with -update-corpus).
func TestSeedCorpusHeader(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzParseHeader")
	for name, b := range headerSeeds() {
		want := "go test fuzz v1\n[]byte(" + strconv.Quote(string(b)) + ")\n"
		path := filepath.Join(dir, name)
		if *updateCorpus {
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
			continue
		}
		got, err := os.ReadFile(path)
		require.NoError(t, err, "run go test -run TestSeedCorpusHeader -update-corpus")
		require.Equal(t, want, string(got))
	}
}

// FuzzParseHeader: ParseHeader never panics; when it accepts, the payload is
// the input after the header, and re-encoding the header gives back exactly
// the header octets (every bit of a DDP header is a field).
func FuzzParseHeader(f *testing.F) {
	for _, b := range headerSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		h, payload, err := ParseHeader(in)
		if err != nil {
			if len(in) >= UntaggedHeaderLen {
				t.Fatalf("rejected %d octets: %v", len(in), err)
			}
			return
		}
		if len(payload) != len(in)-h.Len() || (len(payload) > 0 && &payload[0] != &in[h.Len()]) {
			t.Fatalf("payload is not the input after the %d-octet header", h.Len())
		}
		if enc := h.AppendTo(nil); !bytes.Equal(enc, in[:h.Len()]) {
			t.Fatalf("re-encoded % x, input % x", enc, in[:h.Len()])
		}
	})
}
