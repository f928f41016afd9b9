package rx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A failing RTL assertion stops the test loudly. The mpa_rx variants are
// built with Verilator --assert (mk/rtl.mk), so the immediate assertions in
// rtl/mpa_rx*.v run in every co-simulation. A failing one prints
// "%Error: ... Assertion failed in TOP.mpa_rx...: <message>" and calls
// $stop, which in a Verilated model is fatal: the runtime flushes stdout
// and aborts the process (SIGABRT), so the Go test binary dies with the
// message on its output rather than going on or hanging. This test shows
// it in a child process: it offers mpa_rx a beat whose tkeep has a hole
// (lanes 0 and 2), which the input-contract assertion rejects.
func TestAssertionFailsLoudly(t *testing.T) {
	if os.Getenv("MPARX_ASSERT_CHILD") != "" {
		assertChild(t)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestAssertionFailsLoudly$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MPARX_ASSERT_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, ctx.Err(), "the child hung: %s", out)
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "the child did not fail: %v\n%s", err, out)
	require.NotContains(t, string(out), "child survived")
	require.Contains(t, string(out), "Assertion failed in TOP.mpa_rx")
	require.Contains(t, string(out), "mpa_rx: s_axis_tkeep 05 not contiguous from lane 0")
	t.Logf("child exit: %v; its output starts:\n%.400s", err, out)
}

func assertChild(t *testing.T) {
	r, err := Open(64)
	require.NoError(t, err)
	defer r.Close()
	words := make([]uint64, r.src.PayloadWords())
	data := r.p["s_axis_tdata"]
	words[0] = 0x0000_0000_00aa_00bb
	words[data.Words] = 0x05 // tkeep: lanes 0 and 2
	words[data.Words+1] = 1  // tlast
	r.src.Push(0, words)
	r.run(batch)
	fmt.Println("child survived")
}
