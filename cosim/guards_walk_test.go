package cosim_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// walkGuardModules are the walker's modules; each guards DATA_WIDTH
// (rtl/mpa_rx_walk.vh).
var walkGuardModules = []string{
	"mpa_rx_walk", "mpa_rx_walk_word", "mpa_rx_walk_chain", "mpa_rx_walk_step",
	"mpa_rx_walk_fpdu", "mpa_rx_walk_rec", "mpa_rx_walk_store", "mpa_rx_walk_sum",
}

// walkGuardTool runs one tool on module m of rtl/ with the parameters
// given (NAME VALUE pairs) and returns its combined output and whether it
// succeeded.
func walkGuardTool(t *testing.T, tool, m string, params ...string) (string, bool) {
	t.Helper()
	rtl := filepath.Join("..", "rtl")
	src := filepath.Join(rtl, m+".v")
	var cmd *exec.Cmd
	switch tool {
	case "verilator":
		args := []string{"--lint-only", "-Wall", "-y", rtl, "--top-module", m}
		for i := 0; i < len(params); i += 2 {
			args = append(args, fmt.Sprintf("-G%s=%s", params[i], params[i+1]))
		}
		cmd = exec.Command("verilator", append(args, src)...)
	case "iverilog":
		args := []string{"-g2005", "-I", rtl, "-y", rtl, "-s", m, "-o", "/dev/null"}
		for i := 0; i < len(params); i += 2 {
			args = append(args, fmt.Sprintf("-P%s.%s=%s", m, params[i], params[i+1]))
		}
		cmd = exec.Command("iverilog", append(args, src)...)
	case "yosys":
		srcs, err := filepath.Glob(filepath.Join(rtl, "mpa_rx_walk*.v"))
		require.NoError(t, err)
		for _, f := range []string{"mpa_rx_delay.v", "mpa_rx_fifo.v", "crc32c.v"} {
			srcs = append(srcs, filepath.Join(rtl, f))
		}
		chparam := ""
		for i := 0; i < len(params); i += 2 {
			chparam += fmt.Sprintf(" -set %s %s", params[i], params[i+1])
		}
		script := fmt.Sprintf("read_verilog -I%s %s; chparam%s %s; hierarchy -check -top %s", rtl, strings.Join(srcs, " "), chparam, m, m)
		cmd = exec.Command("yosys", "-q", "-p", script)
	}
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: %v", tool, err)
	}
	return string(out), err == nil
}

// TestWalkGuards elaborates every walker module with an unsupported
// DATA_WIDTH (and the record store with a MAX_FPDUS too small for two
// records per bank) in Verilator, Icarus and Yosys: each must fail, naming
// the guard, while the same module with supported parameters elaborates.
func TestWalkGuards(t *testing.T) {
	type bad struct {
		m, guard string
		params   []string
	}
	var cases []bad
	for _, m := range walkGuardModules {
		cases = append(cases, bad{m, "DATA_WIDTH_must_be_64_128_256_or_512", []string{"DATA_WIDTH", "96"}})
	}
	cases = append(cases, bad{"mpa_rx_walk_store", "MAX_FPDUS_out_of_range", []string{"DATA_WIDTH", "512", "MAX_FPDUS", "5"}})
	for _, tool := range []string{"verilator", "iverilog", "yosys"} {
		for _, c := range cases {
			t.Run(tool+"/"+c.m+"/"+c.params[len(c.params)-2], func(t *testing.T) {
				t.Parallel()
				out, ok := walkGuardTool(t, tool, c.m, c.params...)
				require.False(t, ok, "%s accepted %s with %v:\n%s", tool, c.m, c.params, out)
				require.Contains(t, out, c.guard)
				out, ok = walkGuardTool(t, tool, c.m, "DATA_WIDTH", "64")
				require.True(t, ok, "%s rejected %s with DATA_WIDTH 64:\n%s", tool, c.m, out)
			})
		}
	}
}
