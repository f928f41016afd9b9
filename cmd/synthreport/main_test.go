package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogs(t *testing.T) {
	dir := t.TempDir()
	pnr := filepath.Join(dir, "p.txt")
	require.NoError(t, os.WriteFile(pnr, []byte("Info: Max frequency for clock 'clk': 20.00 MHz (PASS at 12.00 MHz)\n"+
		"Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 14.20 MHz (FAIL at 200.00 MHz)\n"), 0o644))
	f, nofit := pnrLog(pnr)
	assert.Equal(t, 14.2, f, "the last line is post-route")
	assert.Empty(t, nofit)

	fail := filepath.Join(dir, "f.txt")
	require.NoError(t, os.WriteFile(fail, []byte("ERROR: Unable to place cell 'x'\nnextpnr_failed\n"), 0o644))
	f, nofit = pnrLog(fail)
	assert.Zero(t, f)
	assert.Equal(t, "ERROR: Unable to place cell 'x'", nofit)

	ylog := filepath.Join(dir, "y.log")
	require.NoError(t, os.WriteFile(ylog, []byte("...\nEnd of script. Logfile hash: 1, CPU: user 40.26s system 0.48s, MEM: 337.24 MB peak\n"), 0o644))
	cpu, mem := yosysLog(ylog)
	assert.InDelta(t, 40.74, cpu, 1e-9)
	assert.Equal(t, 337.24, mem)
}

func TestTable(t *testing.T) {
	dir := t.TempDir()
	put := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	put("mpa_rx_parse_w64.depth.json", `{"counts": {"lut": 1309, "ff": 321, "lutram": 0, "srl": 0,
		"by_type": {"RAMB18E1": 1, "RAMB36E1": 2}}, "levels": 34,
		"path": {"class": {"from": "port", "to": "reg"}, "carry": 29, "start": "port in_data[4]", "end": "f_drop", "nets": ["in_data", "c_tcpsum"]}}`)
	put("mpa_rx_parse_w64.pnr.txt", "Max frequency for clock 'clk': 14.20 MHz (FAIL at 200.00 MHz)\n")
	put("mpa_rx_parse_w64.wall", "62.2\n")
	put("mpa_rx_w512.fail", "Yosys ran out of memory (limit 12000000 KB)\n")
	rows := collect(dir, []string{"mpa_rx_parse", "mpa_rx"}, []int{64, 512})
	require.Len(t, rows, 2)
	var b bytes.Buffer
	require.NoError(t, write(&b, rows))
	out := b.String()
	// 1309 LUT, 321 FF, 1 + 2*2 BRAM18, 34 levels, 14.2 MHz = 0.9 Gb/s at
	// 64 bits; 1000/(0.6*34) = 49 MHz, 1000/(0.4*34) = 74 MHz
	assert.Contains(t, out, "| mpa_rx_parse | 64 | 1309 | 321 | 5 | 0 | **34** | port->reg | 29 | 14.2 | 0.9 | 49-74 | 3.1-4.7 | 62 / 0 (0) |")
	assert.Contains(t, out, "| mpa_rx | 512 | not run: Yosys ran out of memory (limit 12000000 KB) |")
	assert.Contains(t, out, "f_drop <- port in_data[4]: in_data c_tcpsum")
}
