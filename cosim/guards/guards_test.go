// Package guards checks the parameter guards of the RTL modules: an
// unsupported parameter value stops elaboration in Verilator, Icarus and
// Yosys with the guard's message (the name of the module that does not
// exist, which spells out the rule), and a supported one elaborates.
package guards

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bad is an unsupported parameter value and the guard that rejects it.
type bad struct {
	param, value string
	guard        string // the missing module the guard instantiates
}

// guarded is a module with parameter guards: a parameter set every tool
// accepts and values each guard rejects. Other streams add their modules
// here.
type guarded struct {
	module string
	good   map[string]string
	bad    []bad
}

var modules = []guarded{
	{"mpa_rx_fifo", map[string]string{"DEPTH": "4"}, []bad{
		{"DEPTH", "3", "mpa_rx_fifo_DEPTH_must_be_a_power_of_two"},
		{"DEPTH", "1", "mpa_rx_fifo_DEPTH_must_be_a_power_of_two"},
	}},
	{"mpa_rx_ingress", map[string]string{"FIFO_DEPTH": "64", "MAX_INFLIGHT": "24"}, []bad{
		{"FIFO_DEPTH", "100", "mpa_rx_ingress_FIFO_DEPTH_must_be_a_power_of_two_from_2_to_32768"},
		{"FIFO_DEPTH", "65536", "mpa_rx_ingress_FIFO_DEPTH_must_be_a_power_of_two_from_2_to_32768"},
		{"MAX_INFLIGHT", "64", "mpa_rx_ingress_MAX_INFLIGHT_must_be_1_to_63"},
	}},
	{"mpa_rx_ctx", map[string]string{"CONN_COUNT": "1024"}, []bad{
		{"CONN_COUNT", "12", "mpa_rx_ctx_CONN_COUNT_must_be_a_power_of_two_from_2_to_4096"},
		{"CONN_COUNT", "8192", "mpa_rx_ctx_CONN_COUNT_must_be_a_power_of_two_from_2_to_4096"},
	}},
	{"mpa_rx_feed", map[string]string{"DATA_WIDTH": "512"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_feed_DATA_WIDTH_must_be_64_128_256_or_512"},
	}},
	{"mpa_rx_frame", map[string]string{"DATA_WIDTH": "256", "IDX_BITS": "10", "DEPTH": "32"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_frame_DATA_WIDTH_must_be_64_128_256_or_512"},
		{"DEPTH", "24", "mpa_rx_fifo_DEPTH_must_be_a_power_of_two"},
	}},
	{"mpa_rx_verdict", map[string]string{"IDX_BITS": "10", "DEPTH": "32"}, []bad{
		{"DEPTH", "24", "mpa_rx_fifo_DEPTH_must_be_a_power_of_two"},
	}},
	{"mpa_rx_ddp", map[string]string{"IDX_BITS": "12", "STAG_COUNT": "256", "RQ_DEPTH": "32", "EVT_LANES": "2"}, []bad{
		{"IDX_BITS", "13", "mpa_rx_ddp_IDX_BITS_must_be_1_to_12"},
		{"STAG_COUNT", "48", "mpa_rx_ddp_STAG_COUNT_must_be_a_power_of_two"},
		{"RQ_DEPTH", "3", "mpa_rx_ddp_RQ_DEPTH_must_be_a_power_of_two"},
		{"EVT_LANES", "3", "mpa_rx_ddp_EVT_LANES_must_be_1_or_2"},
	}},
	{"mpa_rx_place", map[string]string{"DATA_WIDTH": "128"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_place_DATA_WIDTH_must_be_64_128_256_or_512"},
	}},
	{"mpa_rx_parse", map[string]string{"DATA_WIDTH": "256"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_parse_DATA_WIDTH_must_be_64_128_256_or_512"},
	}},
	{"mpa_rx", map[string]string{"DATA_WIDTH": "128", "CONN_COUNT": "64"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_DATA_WIDTH_must_be_64_128_256_or_512"},
		{"CONN_COUNT", "12", "mpa_rx_ctx_CONN_COUNT_must_be_a_power_of_two_from_2_to_4096"},
		{"MAX_INFLIGHT", "64", "mpa_rx_ingress_MAX_INFLIGHT_must_be_1_to_63"},
	}},
	{"mpa_rx_axi_wr", map[string]string{"DATA_WIDTH": "256", "MAX_BURSTS": "32", "ID_WIDTH": "6"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_axi_wr_DATA_WIDTH_must_be_64_128_256_or_512"},
		{"MAX_BURSTS", "24", "mpa_rx_axi_wr_MAX_BURSTS_must_be_a_power_of_two_from_2_to_256"},
		{"ADDR_WIDTH", "12", "mpa_rx_axi_wr_ADDR_WIDTH_must_be_13_to_64"},
		{"ID_WIDTH", "0", "mpa_rx_axi_wr_ID_WIDTH_must_be_1_to_16"},
	}},
	{"mpa_rx_axil_regs", map[string]string{"EVT_LANES": "2", "COUNTER_WIDTH": "48"}, []bad{
		{"EVT_LANES", "3", "mpa_rx_axil_regs_EVT_LANES_must_be_1_or_2"},
		{"COUNTER_WIDTH", "16", "mpa_rx_axil_regs_COUNTER_WIDTH_must_be_32_to_64"},
	}},
	{"mpa_rx_axi_gate", map[string]string{"EVT_LANES": "2", "DEPTH": "64"}, []bad{
		{"EVT_LANES", "3", "mpa_rx_axi_gate_EVT_LANES_must_be_1_or_2"},
		{"DEPTH", "48", "mpa_rx_fifo_DEPTH_must_be_a_power_of_two"},
	}},
	{"mpa_rx_axi_top", map[string]string{"DATA_WIDTH": "128", "CONN_COUNT": "64"}, []bad{
		{"DATA_WIDTH", "96", "mpa_rx_DATA_WIDTH_must_be_64_128_256_or_512"},
		{"AXI_MAX_BURSTS", "12", "mpa_rx_axi_wr_MAX_BURSTS_must_be_a_power_of_two_from_2_to_256"},
		{"GATE_DEPTH", "100", "mpa_rx_fifo_DEPTH_must_be_a_power_of_two"},
	}},
}

// tool elaborates a module with parameters and returns its output and error.
type tool struct {
	name string
	run  func(module string, params map[string]string) (string, error)
}

var root = filepath.Join("..", "..")

func command(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var tools = []tool{
	{"verilator", func(m string, p map[string]string) (string, error) {
		args := []string{"verilator", "--lint-only", "-Irtl", "-y", "rtl", "--top-module", m}
		for k, v := range p {
			args = append(args, fmt.Sprintf("-G%s=%s", k, v))
		}
		return command(append(args, "rtl/"+m+".v")...)
	}},
	{"iverilog", func(m string, p map[string]string) (string, error) {
		args := []string{"iverilog", "-g2005", "-I", "rtl", "-y", "rtl", "-s", m, "-o", "/dev/null"}
		for k, v := range p {
			args = append(args, fmt.Sprintf("-P%s.%s=%s", m, k, v))
		}
		return command(append(args, "rtl/"+m+".v")...)
	}},
	{"yosys", func(m string, p map[string]string) (string, error) {
		srcs, err := filepath.Glob(filepath.Join(root, "rtl", "*.v"))
		if err != nil {
			return "", err
		}
		for i, s := range srcs {
			srcs[i], _ = filepath.Rel(root, s)
		}
		// -defer: each module is elaborated only when the hierarchy below
		// the top asks for it, with the top's parameters set by -chparam,
		// instead of every module of rtl/ with its defaults first.
		var ch []string
		for k, v := range p {
			ch = append(ch, fmt.Sprintf("-chparam %s %s", k, v))
		}
		script := fmt.Sprintf("read_verilog -defer -Irtl %s; hierarchy -check -top %s %s",
			strings.Join(srcs, " "), m, strings.Join(ch, " "))
		return command("yosys", "-q", "-p", script)
	}},
}

func with(good map[string]string, k, v string) map[string]string {
	p := map[string]string{}
	for a, b := range good {
		p[a] = b
	}
	p[k] = v
	return p
}

// Every guard stops elaboration in every tool with its message; the
// supported parameter set elaborates.
func TestGuards(t *testing.T) {
	for _, tl := range tools {
		_, err := exec.LookPath(tl.name)
		require.NoError(t, err, "%s is needed (make deps)", tl.name)
	}
	for _, g := range modules {
		t.Run(g.module, func(t *testing.T) {
			for _, tl := range tools {
				out, err := tl.run(g.module, g.good)
				assert.NoError(t, err, "%s %s %v:\n%s", tl.name, g.module, g.good, out)
				for _, b := range g.bad {
					p := with(g.good, b.param, b.value)
					out, err := tl.run(g.module, p)
					if assert.Error(t, err, "%s accepted %s %s=%s", tl.name, g.module, b.param, b.value) {
						assert.Contains(t, out, b.guard, "%s %s %s=%s", tl.name, g.module, b.param, b.value)
					}
				}
			}
		})
	}
}
