package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A port block as Verilator 5.006 writes it into V<prefix>.h.
const header = `class alignas(VL_CACHE_LINE_BYTES) Vx_w8 VL_NOT_FINAL : public VerilatedModel {
  public:
    VL_IN8(&clk,0,0);
    VL_IN8(&rst,0,0);
    VL_OUT8(&ready,0,0);
    VL_IN16(&cfg,11,0);
    VL_OUT(&crc,31,0);
    VL_IN64(&keep,63,0);
    VL_INW(&data,71,0,3);
    VL_OUTW(&wide_out,95,0,3);
`

func TestParseAndLayout(t *testing.T) {
	all, err := parsePorts(strings.NewReader(header))
	require.NoError(t, err)
	require.Len(t, all, 8)
	ports, in, out, err := layout(all)
	require.NoError(t, err)
	assert.Equal(t, 1+1+1+2, in) // rst, cfg, keep, data (72 bits: 2 words)
	assert.Equal(t, 1+1+2, out)  // ready, crc, wide_out
	byName := map[string]port{}
	for _, p := range ports {
		byName[p.name] = p
	}
	assert.NotContains(t, byName, "clk")
	assert.Equal(t, port{name: "data", in: true, width: 72, kind: "W", offset: 3}, byName["data"])
	assert.Equal(t, port{name: "wide_out", width: 96, kind: "W", offset: 2}, byName["wide_out"])

	var b bytes.Buffer
	writeShim(&b, "x_w8", ports, in, out)
	s := b.String()
	for _, want := range []string{
		`#include "Vx_w8.h"`,
		`{"data", MPARX_IN, 72, 3, 2},`,
		`m->cfg = static_cast<SData>(w[1] & UINT64_C(0xfff));`,
		`m->keep = static_cast<QData>(w[2] & ~UINT64_C(0));`,
		`std::memcpy(m->data.data(), w + 3, 12);`,
		`m->data.data()[2] &= 0xffu;`,
		`w[3] = 0;`, // wide_out: 3 words of 32 bits leave half a 64-bit word
		`std::memcpy(w + 2, m->wide_out.data(), 12);`,
		`mparx::SimBase *mparx_create_x_w8(bool trace)`,
	} {
		assert.Contains(t, s, want)
	}
}

func TestParseErrors(t *testing.T) {
	_, err := parsePorts(strings.NewReader("VL_INOUT8(&pad,0,0);\n"))
	assert.ErrorContains(t, err, "inout")
	_, err = parsePorts(strings.NewReader("nothing here\n"))
	assert.Error(t, err)
	all, err := parsePorts(strings.NewReader("VL_IN8(&rst,0,0);\n"))
	require.NoError(t, err)
	_, _, _, err = layout(all)
	assert.ErrorContains(t, err, "no clk")
}

func TestRegistry(t *testing.T) {
	var b bytes.Buffer
	writeRegistry(&b, []string{"a_w64", "b_w8"})
	assert.Contains(t, b.String(), `{"a_w64", mparx_create_a_w64, mparx_plain_a_w64},`)
	assert.Contains(t, b.String(), `{nullptr, nullptr, nullptr},`)
}
