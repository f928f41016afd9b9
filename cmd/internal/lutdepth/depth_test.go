package lutdepth

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builder makes small netlists by hand: nets by name, cells with their
// connections, written as Yosys JSON and read back through Read.
type builder struct {
	nets  map[string]Bit
	cells map[string]Cell
	ports map[string]Port
}

func newBuilder() *builder {
	return &builder{nets: map[string]Bit{}, cells: map[string]Cell{}, ports: map[string]Port{}}
}

// n returns the bits of the named nets ("0" and "1" are constants).
func (b *builder) n(names ...string) []Bit {
	var out []Bit
	for _, name := range names {
		switch name {
		case "0":
			out = append(out, Const0)
			continue
		case "1":
			out = append(out, Const1)
			continue
		}
		bit, ok := b.nets[name]
		if !ok {
			bit = Bit(len(b.nets) + 2) // Yosys numbers nets from 2
			b.nets[name] = bit
		}
		out = append(out, bit)
	}
	return out
}

// cell adds a cell; conns is "PIN=net,net PIN=net" (bits LSB first).
func (b *builder) cell(name, typ, conns string) {
	c := Cell{Type: typ, Connections: map[string][]Bit{}, PortDirections: map[string]string{},
		Attributes: map[string]any{"src": "t.v:" + name}}
	for _, f := range strings.Fields(conns) {
		pin, nets, _ := strings.Cut(f, "=")
		c.Connections[pin] = b.n(strings.Split(nets, ",")...)
	}
	b.cells[name] = c
}

// dirs sets port directions of a cell ("PIN:input PIN:output").
func (b *builder) dirs(name, dirs string) {
	c := b.cells[name]
	for _, f := range strings.Fields(dirs) {
		pin, d, _ := strings.Cut(f, ":")
		c.PortDirections[pin] = d
	}
}

func (b *builder) port(name, dir string, nets ...string) {
	b.ports[name] = Port{Direction: dir, Bits: b.n(nets...)}
}

// ff adds a flip-flop from d to q.
func (b *builder) ff(name, d, q string) {
	b.cell(name, "FDRE", "C=clk CE=1 R=0 D="+d+" Q="+q)
}

// lut adds a LUT with output o and inputs ins.
func (b *builder) lut(name, o string, ins ...string) {
	conns := "O=" + o
	for i, in := range ins {
		conns += " I" + string(rune('0'+i)) + "=" + in
	}
	b.cell(name, "LUT"+string(rune('0'+len(ins))), conns)
}

func (b *builder) netlist(t *testing.T) *Netlist {
	t.Helper()
	m := map[string]any{
		"attributes": map[string]any{"top": "00000000000000000000000000000001"},
		"ports":      b.ports,
		"cells":      b.cells,
	}
	nn := map[string]any{}
	for name, bit := range b.nets {
		nn[name] = map[string]any{"hide_name": 0, "bits": []Bit{bit}}
	}
	m["netnames"] = nn
	doc := map[string]any{"creator": "test", "modules": map[string]any{
		"top":  m,
		"FDRE": map[string]any{"attributes": map[string]any{"blackbox": "00000000000000000000000000000001"}},
	}}
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	n, err := Read(strings.NewReader(string(data)))
	require.NoError(t, err)
	return n
}

func (b *builder) analyze(t *testing.T) *Result {
	t.Helper()
	r, err := Analyze(b.netlist(t), Options{Worst: 10})
	require.NoError(t, err)
	return r
}

// MarshalJSON writes a bit as Yosys does.
func (b Bit) MarshalJSON() ([]byte, error) {
	switch b {
	case Const0:
		return []byte(`"0"`), nil
	case Const1:
		return []byte(`"1"`), nil
	case ConstX:
		return []byte(`"x"`), nil
	case ConstZ:
		return []byte(`"z"`), nil
	}
	return json.Marshal(int(b))
}

func stepCells(p Path) []string {
	var out []string
	for _, s := range p.Steps {
		out = append(out, s.Cell)
	}
	return out
}

func TestLUTChain(t *testing.T) {
	b := newBuilder()
	b.port("clk", "input", "clk")
	b.ff("r0", "d0", "q0")
	b.ff("r1", "d1", "q1")
	b.lut("l1", "a", "q0")
	b.lut("l2", "c", "a", "q1")
	b.lut("l3", "d1", "c", "q0", "q1")
	b.lut("short", "d0", "q1") // a one-level path beside it
	r := b.analyze(t)
	assert.Equal(t, 3, r.Levels)
	assert.Equal(t, Class{"reg", "reg"}, r.Path.Class)
	assert.Equal(t, []string{"r0", "l1", "l2", "l3", "r1"}, stepCells(r.Path))
	assert.Equal(t, "q0", r.Path.Start)
	assert.Equal(t, "q1", r.Path.End)
	assert.Equal(t, []string{"q0", "a", "c", "d1"}, r.Path.Nets)
	assert.Equal(t, map[string]int{"reg->reg": 3}, r.ByClass)
	assert.Equal(t, 4, r.Counts.LUT)
	assert.Equal(t, 2, r.Counts.FF)
	require.Len(t, r.Worst, 2)
	assert.Equal(t, 1, r.Worst[1].Levels)
	assert.Equal(t, "q0", r.Worst[1].End)
}

func TestCarryAndMuxPassTheirPath(t *testing.T) {
	tests := []struct {
		name          string
		build         func(b *builder)
		levels, carry int
		muxf          int
	}{
		{"carry chain between two LUTs", func(b *builder) {
			b.ff("r0", "q1x", "q0")
			b.lut("l1", "s0", "q0")
			b.cell("c0", "CARRY4", "CI=0 CYINIT=0 DI=0,0,0,0 S=s0,1,1,1 O=o0,o1,o2,o3 CO=k0,k1,k2,k3")
			b.cell("c1", "CARRY4", "CI=k3 CYINIT=0 DI=0,0,0,0 S=1,1,1,1 O=p0,p1,p2,p3 CO=m0,m1,m2,m3")
			b.lut("l2", "d", "p2")
			b.ff("r1", "d", "q1x")
		}, 2, 2, 0},
		{"MUXF7 and MUXF8 count zero", func(b *builder) {
			b.ff("r0", "q1x", "q0")
			b.lut("l1", "a", "q0")
			b.lut("l1b", "a2", "q0")
			b.cell("m7", "MUXF7", "I0=a I1=a2 S=q0 O=f7")
			b.cell("m8", "MUXF8", "I0=f7 I1=q0 S=q0 O=f8")
			b.ff("r1", "f8", "q1x")
		}, 1, 0, 2},
		{"a path into S[3] leaves by O[3]", func(b *builder) {
			b.ff("r0", "x", "q0")
			b.lut("l1", "a", "q0")
			b.lut("l2", "s3", "a")
			b.cell("c0", "CARRY4", "CI=0 CYINIT=0 DI=q0,q0,q0,q0 S=q0,q0,q0,s3 O=o0,o1,o2,o3 CO=k0,k1,k2,k3")
			b.ff("r1", "o0", "q1")
			b.ff("r2", "k2", "q2")
			b.ff("r3", "q0", "x") // keeps l2's path on its own endpoint: 2 levels to o3
			b.ff("r4", "o3", "q4")
		}, 2, 1, 0},
		{"a tie goes to the path with more carry cells", func(b *builder) {
			b.ff("r0", "x", "q0")
			b.lut("l0", "a", "q0")
			b.lut("l1", "s", "q0")
			b.cell("c0", "CARRY4", "CI=0 CYINIT=0 DI=0,0,0,0 S=s,1,1,1 O=o0,o1,o2,o3 CO=k0,k1,k2,k3")
			b.lut("l2", "d", "a", "k3") // a (I0) and k3 (I1) both arrive at level 1
			b.ff("r1", "d", "x")
		}, 2, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuilder()
			tt.build(b)
			r := b.analyze(t)
			assert.Equal(t, tt.levels, r.Levels)
			assert.Equal(t, tt.carry, r.Path.Carry)
			assert.Equal(t, tt.muxf, r.Path.MuxF)
		})
	}
}

func TestCarry4OutputDependencies(t *testing.T) {
	// Each output of one CARRY4 to its own flip-flop, each S[i] from its
	// own chain of i+1 LUTs: O[i] and CO[i] see S[0..i] only, so the depth
	// at O[i] and CO[i] is i+1 (S[i]'s own chain is the deepest).
	b := newBuilder()
	b.ff("r0", "x", "q0")
	for i := 0; i < 4; i++ {
		prev := "q0"
		for j := 0; j <= i; j++ {
			o := "s" + string(rune('0'+i))
			if j < i {
				o += "_" + string(rune('0'+j))
			}
			b.lut("l"+string(rune('0'+i))+string(rune('0'+j)), o, prev)
			prev = o
		}
	}
	b.cell("c", "CARRY4", "CI=0 CYINIT=0 DI=q0,q0,q0,q0 S=s0,s1,s2,s3 O=o0,o1,o2,o3 CO=k0,k1,k2,k3")
	for i := 0; i < 4; i++ {
		c := string(rune('0' + i))
		b.ff("ro"+c, "o"+c, "qo"+c)
		b.ff("rk"+c, "k"+c, "qk"+c)
	}
	b.ff("rx", "q0", "x")
	r := b.analyze(t)
	got := map[string]int{}
	for _, p := range r.Worst {
		got[p.End] = p.Levels
	}
	for i := 0; i < 4; i++ {
		c := string(rune('0' + i))
		assert.Equal(t, i+1, got["qo"+c], "O[%d]", i)
		assert.Equal(t, i+1, got["qk"+c], "CO[%d]", i)
	}
}

func TestMemories(t *testing.T) {
	tests := []struct {
		name   string
		build  func(b *builder)
		levels int
		start  string
		end    string
	}{
		{"LUT RAM read counts one", func(b *builder) {
			b.ff("r0", "x", "q0")
			b.lut("l1", "ad", "q0")
			b.cell("m", "RAM32M", "WCLK=clk WE=0 ADDRA=ad,ad,ad,ad,ad ADDRB=0,0,0,0,0 ADDRC=0,0,0,0,0 ADDRD=0,0,0,0,0 "+
				"DIA=0,0 DIB=0,0 DIC=0,0 DID=0,0 DOA=da0,da1 DOB=db0,db1 DOC=dc0,dc1 DOD=dd0,dd1")
			b.lut("l2", "d", "da1")
			b.ff("r1", "d", "x")
		}, 3, "q0", "x"},
		{"LUT RAM write data ends a path", func(b *builder) {
			b.ff("r0", "x", "q0")
			b.lut("l1", "a", "q0")
			b.lut("l2", "w", "a")
			b.cell("m", "RAM64X1D", "WCLK=clk WE=q0 D=w A0=0 A1=0 A2=0 A3=0 A4=0 A5=0 "+
				"DPRA0=0 DPRA1=0 DPRA2=0 DPRA3=0 DPRA4=0 DPRA5=0 SPO=spo DPO=dpo")
			b.ff("r1", "q0", "x")
		}, 2, "q0", "LUT RAM m"},
		{"a LUT RAM read at a constant address starts at its contents", func(b *builder) {
			b.cell("m", "RAM64X1D", "WCLK=clk WE=0 D=0 A0=0 A1=0 A2=0 A3=0 A4=0 A5=0 "+
				"DPRA0=0 DPRA1=1 DPRA2=0 DPRA3=0 DPRA4=0 DPRA5=0 SPO=spo DPO=dpo")
			b.lut("l1", "d", "dpo")
			b.ff("r1", "d", "x")
		}, 2, "m", "x"},
		{"SRL read counts one, the cascade output is a register", func(b *builder) {
			b.ff("r0", "x", "q0")
			b.cell("s", "SRLC32E", "CLK=clk CE=1 D=q0 A=q0,q0,0,0,0 Q=sq Q31=s31")
			b.lut("l1", "d", "sq", "s31")
			b.ff("r1", "d", "x")
		}, 2, "q0", "x"},
		{"block RAM cuts the path", func(b *builder) {
			b.ff("r0", "x", "q0")
			b.lut("l1", "a", "q0")
			b.cell("m", "RAMB18E1", "CLKARDCLK=clk DIADI=a ADDRARDADDR=q0 DOADO=do")
			b.dirs("m", "CLKARDCLK:input DIADI:input ADDRARDADDR:input DOADO:output")
			b.lut("l2", "e", "do")
			b.lut("l3", "d", "e")
			b.ff("r1", "d", "x")
		}, 2, "do", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuilder()
			tt.build(b)
			r := b.analyze(t)
			assert.Equal(t, tt.levels, r.Levels)
			assert.Equal(t, tt.start, r.Path.Start)
			assert.Equal(t, tt.end, r.Path.End)
		})
	}
}

func TestPortClasses(t *testing.T) {
	b := newBuilder()
	b.port("i", "input", "i0", "i1")
	b.port("o", "output", "o0", "o1")
	b.cell("ib", "IBUF", "I=i0 O=i0b")
	b.lut("l1", "a", "i0b")
	b.lut("l2", "c", "a", "i1")
	b.lut("l3", "o0", "c")
	b.ff("r0", "c", "q0")
	b.lut("l4", "o1", "q0")
	r := b.analyze(t)
	assert.Equal(t, 3, r.Levels)
	assert.Equal(t, Class{"port", "port"}, r.Path.Class)
	assert.Equal(t, "port i[0]", r.Path.Start)
	assert.Equal(t, map[string]int{"port->port": 3, "port->reg": 2, "reg->port": 1}, r.ByClass)
}

func TestConstantsAndUndriven(t *testing.T) {
	b := newBuilder()
	b.ff("r0", "x", "q0")
	b.lut("l1", "a", "q0", "1", "floating")
	b.lut("l2", "d", "a", "0")
	b.ff("r1", "d", "x")
	r := b.analyze(t)
	assert.Equal(t, 2, r.Levels)
	assert.Equal(t, 1, r.Undriven)
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(b *builder)
		want  string
	}{
		{"combinational loop", func(b *builder) {
			b.lut("l1", "a", "c")
			b.lut("l2", "c", "a")
			b.ff("r", "c", "q")
		}, "combinational loop"},
		{"unknown cell type", func(b *builder) {
			b.cell("x", "$_AND_", "A=a B=b Y=y")
		}, "not a primitive"},
		{"pin not modelled", func(b *builder) {
			b.cell("x", "LUT2", "I0=a I1=b I2=c O=y")
		}, "pin I2 is not modelled"},
		{"two drivers", func(b *builder) {
			b.lut("l1", "a", "b")
			b.lut("l2", "a", "c")
		}, "two drivers"},
		{"block RAM without port directions", func(b *builder) {
			b.cell("m", "RAMB36E1", "DIADI=a")
		}, "no port direction"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuilder()
			tt.build(b)
			_, err := Analyze(b.netlist(t), Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// A netlist written out as text, the way Yosys does: constant bits as
// strings, the cell library as blackbox modules, a hierarchical design.
func TestReadYosysJSON(t *testing.T) {
	const flat = `{
  "creator": "Yosys 0.23",
  "modules": {
    "LUT1": { "attributes": { "blackbox": "00000000000000000000000000000001" }, "ports": {}, "cells": {}, "netnames": {} },
    "top": {
      "attributes": { "top": "00000000000000000000000000000001", "src": "t.v:1.1-9.10" },
      "ports": { "clk": { "direction": "input", "bits": [ 2 ] } },
      "cells": {
        "$auto$ff.cc:266:slice$1": { "hide_name": 1, "type": "FDRE", "parameters": {}, "attributes": { "src": "t.v:5.3-5.20" },
          "port_directions": { "C": "input", "CE": "input", "D": "input", "Q": "output", "R": "input" },
          "connections": { "C": [ 2 ], "CE": [ "1" ], "D": [ 4 ], "Q": [ 3 ], "R": [ "0" ] } },
        "$abc$9$lut": { "hide_name": 1, "type": "LUT1", "parameters": { "INIT": "01" }, "attributes": {},
          "port_directions": { "I0": "input", "O": "output" },
          "connections": { "I0": [ 3 ], "O": [ 4 ] } }
      },
      "netnames": {
        "r": { "hide_name": 0, "bits": [ 3 ], "attributes": {} },
        "$0\\r[0:0]": { "hide_name": 1, "bits": [ 4 ], "attributes": {} },
        "w": { "hide_name": 0, "bits": [ "0", 3 ], "offset": 4, "attributes": {} }
      }
    }
  }
}`
	n, err := Read(strings.NewReader(flat))
	require.NoError(t, err)
	r, err := Analyze(n, Options{})
	require.NoError(t, err)
	assert.Equal(t, "top", r.Top)
	assert.Equal(t, 1, r.Levels)
	assert.Equal(t, "r", r.Path.Start)
	assert.Equal(t, "r", r.Path.End)
	assert.Equal(t, "t.v:5", r.Path.Srcs[0])

	hier := strings.Replace(flat, `"type": "LUT1"`, `"type": "sub"`, 1)
	hier = strings.Replace(hier, `"top": {`, `"sub": { "attributes": {}, "ports": {}, "cells": {}, "netnames": {} }, "top": {`, 1)
	n, err = Read(strings.NewReader(hier))
	require.NoError(t, err)
	_, err = Analyze(n, Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not flattened")

	_, err = Read(strings.NewReader(`{"modules": {"m": {"ports": {"a": {"direction": "input", "bits": ["q"]}}}}}`))
	require.Error(t, err)
}

func TestLTPEmulationCutsAtUnselectedCells(t *testing.T) {
	b := newBuilder()
	b.ff("r0", "x", "q0")
	b.lut("l1", "s", "q0")
	b.cell("c0", "CARRY4", "CI=0 CYINIT=0 DI=0,0,0,0 S=s,1,1,1 O=o0,o1,o2,o3 CO=k0,k1,k2,k3")
	b.lut("l2", "e", "k3")
	b.lut("l3", "d", "e")
	b.ff("r1", "d", "x")
	for _, c := range []string{"r0", "r1"} {
		b.dirs(c, "C:input CE:input R:input D:input Q:output")
	}
	for _, c := range []string{"l1", "l2", "l3"} {
		b.dirs(c, "I0:input O:output")
	}
	b.dirs("c0", "CI:input CYINIT:input DI:input S:input O:output CO:output")
	n := b.netlist(t)
	tests := []struct {
		ltp  []string
		want int
	}{
		{nil, 3},
		{[]string{"LUT*"}, 2},
		{[]string{"LUT*", "CARRY4"}, 4},
	}
	for _, tt := range tests {
		r, err := Analyze(n, Options{LTP: tt.ltp})
		require.NoError(t, err)
		assert.Equal(t, tt.want, r.Levels, "ltp %v", tt.ltp)
	}
}
