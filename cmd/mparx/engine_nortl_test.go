//go:build !rtl

package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A pure-Go mparx asked for the RTL engine says in one line how to get it,
// and run defaults to the golden engine.
func TestNoRTLEngine(t *testing.T) {
	vec := filepath.Join("..", "..", "vectors", "aligned")
	for _, args := range [][]string{
		{"replay", "--engine", "rtl", vec},
		{"run", "--engine", "rtl", vec},
	} {
		var out, errb bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errb), args)
		assert.Empty(t, out.String())
		assert.Equal(t, errNoRTL+"\n", errb.String())
		assert.Contains(t, errb.String(), "make sim-libs")
	}
	var out, errb bytes.Buffer
	assert.Equal(t, 0, run([]string{"run", filepath.Join("..", "..", "vectors")}, &out, &errb), errb.String())
	assert.Contains(t, out.String(), "engine golden")
}
