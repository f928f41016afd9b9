package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/driver/regmap"
)

// TestGeneratedFilesCurrent fails when a generated file is not what the
// generator writes from driver/regmap (run `go generate ./driver`).
func TestGeneratedFilesCurrent(t *testing.T) {
	for _, o := range Outputs {
		got, err := os.ReadFile(filepath.Join("..", "..", o.Path))
		require.NoError(t, err)
		require.Equal(t, string(o.Gen()), string(got), "%s is stale: run go generate ./driver", o.Path)
	}
}

// The map itself: offsets aligned, distinct, inside the address space and
// below the counters; one name each.
func TestRegmapConsistent(t *testing.T) {
	used := map[uint32]string{}
	names := map[string]bool{}
	for _, r := range regmap.Regs {
		require.False(t, names[r.Name], "name %s twice", r.Name)
		names[r.Name] = true
		n := max(r.Count, 1)
		for i := 0; i < n; i++ {
			off := r.Offset + 4*uint32(i)
			require.Zero(t, off%4, "%s not aligned", r.Name)
			require.Less(t, off, uint32(regmap.CounterBase), "%s above the counters", r.Name)
			require.Empty(t, used[off], "%s and %s share %#x", r.Name, used[off], off)
			used[off] = r.Name
		}
		require.Equal(t, r.Name, strings.ToUpper(r.Name))
	}
	end := regmap.CounterBase + 8*len(regmap.Counters)
	require.LessOrEqual(t, end, 1<<regmap.AddrWidth)
	for _, c := range regmap.Counters {
		require.False(t, names[c.Name], "name %s twice", c.Name)
		names[c.Name] = true
	}
}

func TestCamel(t *testing.T) {
	require.Equal(t, "FramesPlace", camel("FRAMES_PLACE"))
	require.Equal(t, "ID", camel("ID"))
	require.Equal(t, "AXIIDWidth", camel("AXI_ID_WIDTH"))
	require.Equal(t, "DropIPv4Csum", camel("DROP_IPV4_CSUM"))
	require.Equal(t, "CfgData", camel("CFG_DATA"))
}
