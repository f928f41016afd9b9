package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	notPcap := filepath.Join(dir, "x.pcap")
	require.NoError(t, os.WriteFile(notPcap, []byte("this is not a capture"), 0o644))
	tests := []struct {
		name string
		args []string
	}{
		{"no command", nil},
		{"unknown command", []string{"frobnicate"}},
		{"missing file", []string{"replay", filepath.Join(dir, "absent.pcap")}},
		{"not a pcap", []string{"replay", notPcap}},
		{"two files", []string{"replay", notPcap, notPcap}},
		{"unknown engine", []string{"replay", "--engine", "warp", notPcap}},
		{"run on an empty dir", []string{"run", dir}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			assert.Equal(t, 2, run(tt.args, &out, &errb))
			assert.NotEmpty(t, errb.String())
			assert.Empty(t, out.String())
		})
	}
}

// Replaying a vector's pcap without its setup (as a capture from elsewhere)
// finds the connections from their startup frames and reports the same
// ULPDUs as the vector's expected results.
func TestReplayFindsVectorULPDUs(t *testing.T) {
	for _, name := range []string{"aligned", "seq-wrap", "crc-corrupt", "markers-initiator-only", "out-of-order",
		"fpduptr-first-fpdu", "fpduptr-grid-start", "fpduptr-draft01", "fpduptr-wrong"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "vectors", name)
			v, err := vector.Load(dir)
			require.NoError(t, err)
			var out, errb bytes.Buffer
			require.Equal(t, 0, run([]string{"replay", "--json", filepath.Join(dir, vector.PcapFile)}, &out, &errb), errb.String())
			type ev struct {
				Type, Src, Dst, SHA256 string
				Seq                    uint32
				Code                   int
			}
			var got, want []ev
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var e ev
				require.NoError(t, json.Unmarshal([]byte(line), &e), line)
				if e.Type == "ulpdu" || (e.Type == "error" && e.Code != 1) {
					got = append(got, e)
				}
			}
			for _, r := range v.Expected {
				if r.Type == "ulpdu" || (r.Type == "error" && r.Code != 1) {
					want = append(want, ev{Type: r.Type, Src: r.Src, Dst: r.Dst, SHA256: r.SHA256, Seq: r.Seq, Code: r.Code})
				}
			}
			require.NotEmpty(t, want)
			assert.Equal(t, want, got)
		})
	}
}

func TestReplayTable(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"replay", filepath.Join("..", "..", "vectors", "aligned", vector.PcapFile)}, &out, &errb))
	assert.Contains(t, out.String(), "HALF CONNECTION")
	assert.Contains(t, out.String(), "initiator")
	assert.Contains(t, out.String(), "full")
}

func TestRunVectors(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, 0, run([]string{"run", filepath.Join("..", "..", "vectors")}, &out, &errb), out.String()+errb.String())
	assert.Contains(t, out.String(), " 0 failed")
}

// Replaying a vector directory reproduces its expected.jsonl byte for byte.
func TestReplayVectorDirEqualsExpected(t *testing.T) {
	dirs, err := vector.Dirs(filepath.Join("..", "..", "vectors"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		want, err := os.ReadFile(filepath.Join(dir, vector.ExpectedFile))
		require.NoError(t, err)
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{"replay", "--json", dir}, &out, &errb), errb.String())
		assert.Equal(t, string(want), out.String(), dir)
	}
}

// The summary's last line counts the FPDUs that began with a marker and held
// a later one by FPDUPTR form, on both engines: a capture of an RFC 5044
// sender shows only that form, one of a draft-01 sender only the other.
func TestReplayFPDUPTRForms(t *testing.T) {
	re := regexp.MustCompile(`FPDUPTR after a leading marker: (\d+) FPDUs in the RFC 5044 form, (\d+) in the draft-01 form`)
	for _, tt := range []struct {
		vector string
		draft  bool
	}{{"fpduptr-first-fpdu", false}, {"fpduptr-grid-start", false}, {"fpduptr-draft01", true}} {
		for _, engine := range engines() {
			t.Run(tt.vector+"/"+engine, func(t *testing.T) {
				var out, errb bytes.Buffer
				pcap := filepath.Join("..", "..", "vectors", tt.vector, vector.PcapFile)
				require.Equal(t, 0, run([]string{"replay", "--engine", engine, pcap}, &out, &errb), errb.String())
				m := re.FindStringSubmatch(out.String())
				require.NotNil(t, m, out.String())
				rfc, draft := m[1], m[2]
				if tt.draft {
					rfc, draft = draft, rfc
				}
				assert.Equal(t, "0", draft, out.String())
				assert.NotEqual(t, "0", rfc, out.String())
			})
		}
	}
}

// engines are the engines this build of mparx has.
func engines() []string {
	if rtlWidths == nil {
		return []string{"golden"}
	}
	return []string{"golden", "rtl"}
}
