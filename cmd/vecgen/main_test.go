package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

func TestList(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"list"}, &out, &errb))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	assert.Len(t, lines, len(vecgen.Scenarios()))
	assert.True(t, strings.HasPrefix(lines[0], "aligned "))
}

func TestGenOneScenarioDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{"gen", "--scenario", "spec-figures,crc-off", "--seed", "7", "-o", dir}, &out, &errb), errb.String())
		assert.Contains(t, errb.String(), "[2/2] crc-off")
	}
	for _, name := range []string{"crc-off", "spec-figures"} {
		va, err := vector.Load(filepath.Join(a, name))
		require.NoError(t, err)
		vb, err := vector.Load(filepath.Join(b, name))
		require.NoError(t, err)
		assert.Equal(t, va, vb)
		assert.Equal(t, uint64(7), va.Setup.Seed)
		require.NoError(t, replay.Check(va))
	}
}

func TestGenPruneAndCoverage(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "renamed-scenario")
	require.NoError(t, os.MkdirAll(stale, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(stale, vector.SetupFile), []byte("{}"), 0o644))
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"gen", "--scenario", "markers-none", "-o", dir, "--prune", "-q"}, &out, &errb), errb.String())
	assert.NoDirExists(t, stale)
	assert.Empty(t, errb.String())
	cov := filepath.Join(dir, "COVERAGE.md")
	require.Equal(t, 0, run([]string{"coverage", "-o", cov}, &out, &errb))
	b, err := os.ReadFile(cov)
	require.NoError(t, err)
	assert.Contains(t, string(b), "| 8-e |")
}

func TestUsageErrors(t *testing.T) {
	tests := [][]string{nil, {"bogus"}, {"gen", "--scenario", "no-such"}, {"gen", "--scale", "0"}, {"gen", "extra"}}
	for _, args := range tests {
		var out, errb bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errb), "%v", args)
		assert.NotEmpty(t, errb.String(), "%v", args)
	}
}
