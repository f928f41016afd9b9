package lutdepth

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestYosysKnownDepth synthesises testdata/known.v with Yosys
// (synth_xilinx -flatten, as make synth does) and checks the depth of each
// output register against its structure, and the ltp emulation against
// Yosys's own `ltp -noff` on the same netlist.
func TestYosysKnownDepth(t *testing.T) {
	yosys, err := exec.LookPath("yosys")
	require.NoError(t, err, "yosys is needed (make deps)")
	dir := t.TempDir()
	src, err := filepath.Abs("testdata/known.v")
	require.NoError(t, err)
	js := filepath.Join(dir, "known.json")
	ltp := filepath.Join(dir, "ltp.txt")
	cmd := exec.Command(yosys, "-q", "-p", "read_verilog "+src+"; synth_xilinx -flatten -top known; write_json "+js+
		"; tee -q -o "+ltp+" ltp -noff t:LUT* w:*; tee -q -a "+ltp+" ltp -noff t:LUT* t:CARRY4 t:MUXF* w:*")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)

	f, err := os.Open(js)
	require.NoError(t, err)
	defer f.Close()
	n, err := Read(f)
	require.NoError(t, err)
	r, err := Analyze(n, Options{Worst: 20})
	require.NoError(t, err)

	type want struct{ levels, carry int }
	wants := map[string]want{
		"o6":  {1, 0}, // one LUT6
		"o36": {2, 0}, // 36 inputs need 2 levels of LUT6
		"sum": {1, 8}, // LUT, then the carry chain of 32 bits
		"q":   {2, 0}, // LUT on the address, LUT RAM read
	}
	got := map[string]want{}
	for _, p := range r.Worst {
		if p.Class == (Class{"reg", "reg"}) {
			got[p.End] = want{p.Levels, p.Carry}
		}
	}
	assert.Equal(t, wants, got)
	assert.Equal(t, 2, r.Levels)
	assert.Positive(t, r.Counts.LUTRAM, "the memory should map to LUT RAM")

	// Yosys ltp over the same netlist, restricted as the method says
	text, err := os.ReadFile(ltp)
	require.NoError(t, err)
	m := regexp.MustCompile(`Longest topological path in \S+ \(length=(\d+)\)`).FindAllStringSubmatch(string(text), -1)
	require.Len(t, m, 2, "%s", text)
	for i, pat := range [][]string{{"LUT*"}, {"LUT*", "CARRY4", "MUXF*"}} {
		wantLen, _ := strconv.Atoi(m[i][1])
		e, err := Analyze(n, Options{LTP: pat})
		require.NoError(t, err)
		assert.Equal(t, wantLen, e.Levels, "ltp %v", pat)
	}
}
