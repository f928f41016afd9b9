package lutdepth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
)

// Bit is one net bit of a Yosys JSON netlist: a non-negative net number, or
// one of the constants Const0, Const1, ConstX, ConstZ.
type Bit int

// The constant bits, as Yosys writes them ("0", "1", "x", "z").
const (
	Const0 Bit = -1 - iota
	Const1
	ConstX
	ConstZ
)

// IsConst reports whether b is a constant rather than a net.
func (b Bit) IsConst() bool { return b < 0 }

// UnmarshalJSON reads a net number or a constant string.
func (b *Bit) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		switch s {
		case "0":
			*b = Const0
		case "1":
			*b = Const1
		case "x":
			*b = ConstX
		case "z":
			*b = ConstZ
		default:
			return fmt.Errorf("lutdepth: bad constant bit %q", s)
		}
		return nil
	}
	n, err := strconv.Atoi(string(data))
	if err != nil || n < 0 {
		return fmt.Errorf("lutdepth: bad net bit %s", data)
	}
	*b = Bit(n)
	return nil
}

// Port is a module port of a Yosys JSON netlist.
type Port struct {
	Direction string `json:"direction"`
	Bits      []Bit  `json:"bits"`
}

// Cell is a cell instance of a Yosys JSON netlist.
type Cell struct {
	HideName       int               `json:"hide_name"`
	Type           string            `json:"type"`
	Attributes     map[string]any    `json:"attributes"`
	PortDirections map[string]string `json:"port_directions"`
	Connections    map[string][]Bit  `json:"connections"`
}

// NetName is a named net (a wire) of a Yosys JSON netlist.
type NetName struct {
	HideName int            `json:"hide_name"`
	Bits     []Bit          `json:"bits"`
	Offset   int            `json:"offset"` // index of the first bit (wire [7:4]: 4)
	Upto     int            `json:"upto"`   // 1 for a wire declared [0:7]
	Attr     map[string]any `json:"attributes"`
}

// Module is one module of a Yosys JSON netlist.
type Module struct {
	Attributes map[string]any     `json:"attributes"`
	Ports      map[string]Port    `json:"ports"`
	Cells      map[string]Cell    `json:"cells"`
	NetNames   map[string]NetName `json:"netnames"`
}

// Netlist is a Yosys JSON netlist (the output of `write_json`).
type Netlist struct {
	Creator string            `json:"creator"`
	Modules map[string]Module `json:"modules"`
}

// Read parses a Yosys JSON netlist.
func Read(r io.Reader) (*Netlist, error) {
	var n Netlist
	dec := json.NewDecoder(r)
	if err := dec.Decode(&n); err != nil {
		return nil, fmt.Errorf("lutdepth: reading the JSON netlist: %w", err)
	}
	if len(n.Modules) == 0 {
		return nil, fmt.Errorf("lutdepth: the netlist has no modules")
	}
	return &n, nil
}

// attrTrue reports whether a Yosys attribute is set to a non-zero value
// (write_json writes attributes as binary strings or numbers).
func attrTrue(attrs map[string]any, name string) bool {
	v, ok := attrs[name]
	if !ok {
		return false
	}
	switch x := v.(type) {
	case string:
		for _, c := range x {
			if c == '1' {
				return true
			}
		}
		return false
	case float64:
		return x != 0
	}
	return true
}

// attrString returns a string attribute (such as "src"), or "".
func attrString(attrs map[string]any, name string) string {
	if s, ok := attrs[name].(string); ok {
		return s
	}
	return ""
}

// Top picks the module to analyse: name if it is not empty, else the module
// with the "top" attribute, else the only module that is not a blackbox.
func (n *Netlist) Top(name string) (string, error) {
	if name != "" {
		if _, ok := n.Modules[name]; !ok {
			return "", fmt.Errorf("lutdepth: no module %q in the netlist", name)
		}
		return name, nil
	}
	var tops, real []string
	for m, mod := range n.Modules {
		if attrTrue(mod.Attributes, "blackbox") {
			continue
		}
		real = append(real, m)
		if attrTrue(mod.Attributes, "top") {
			tops = append(tops, m)
		}
	}
	sort.Strings(tops)
	sort.Strings(real)
	switch {
	case len(tops) == 1:
		return tops[0], nil
	case len(real) == 1:
		return real[0], nil
	}
	return "", fmt.Errorf("lutdepth: cannot tell the top module (candidates %v): name it", real)
}
