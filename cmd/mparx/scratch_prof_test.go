package main

import (
	"io"
	"os"
	"testing"
)

func TestScratchProf(t *testing.T) {
	p := os.Getenv("SCRATCH_CAP")
	if p == "" {
		t.Skip()
	}
	args := []string{"replay", p}
	if os.Getenv("SCRATCH_JSON") != "" {
		args = []string{"replay", "--json", p}
	}
	if rc := run(args, io.Discard, io.Discard); rc != 0 {
		t.Fatal(rc)
	}
}
