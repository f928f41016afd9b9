package lutdepth

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// WriteText prints a result for a developer: the cell counts, the depth by
// class, the longest path cell by cell and the worst endpoint groups.
func WriteText(w io.Writer, r *Result) error {
	ew := &errWriter{w: w}
	c := r.Counts
	ew.printf("top %s, method %s\n", r.Top, r.Method)
	ew.printf("cells: LUT %d, FF %d, carry %d, MUXF %d, LUT RAM %d, SRL %d, block RAM %d, DSP %d\n",
		c.LUT, c.FF, c.Carry, c.MuxF, c.LUTRAM, c.SRL, c.BRAM, c.DSP)
	var types []string
	for t := range c.ByType {
		types = append(types, t)
	}
	sort.Strings(types)
	var parts []string
	for _, t := range types {
		parts = append(parts, fmt.Sprintf("%s %d", t, c.ByType[t]))
	}
	ew.printf("  by type: %s\n", strings.Join(parts, ", "))
	var cls []string
	for k := range r.ByClass {
		cls = append(cls, k)
	}
	sort.Strings(cls)
	parts = parts[:0]
	for _, k := range cls {
		parts = append(parts, fmt.Sprintf("%s %d", k, r.ByClass[k]))
	}
	ew.printf("LUT levels: %d (%s; %d carry and %d MUXF cells on the path)\n", r.Levels, r.Path.Class, r.Path.Carry, r.Path.MuxF)
	ew.printf("  by class: %s\n", strings.Join(parts, ", "))
	if r.Undriven > 0 {
		ew.printf("  note: %d net bits on paths are driven by nothing\n", r.Undriven)
	}
	ew.printf("longest path: %s <- %s\n", r.Path.End, r.Path.Start)
	ew.printf("  named nets: %s\n", strings.Join(r.Path.Nets, " "))
	ew.printf("  RTL lines:  %s\n", strings.Join(r.Path.Srcs, " "))
	ew.printf("  level, cell type, pins, net driven, cell:\n")
	writeSteps(ew, r.Path)
	if len(r.Worst) > 0 {
		ew.printf("worst endpoints:\n")
		for _, p := range r.Worst {
			ew.printf("  %3d levels %2d carry %-10s %s <- %s\n", p.Levels, p.Carry, p.Class, p.End, p.Start)
		}
	}
	return ew.err
}

func writeSteps(ew *errWriter, p Path) {
	for i, s := range p.Steps {
		lv := fmt.Sprintf("%3d", s.Level)
		switch {
		case i == 0:
			lv = "  -"
		case s.Delta == 0 && i < len(p.Steps)-1:
			lv += "+"
		default:
			lv += " "
		}
		pin := s.In
		if s.Out != "" {
			if pin != "" {
				pin += "->"
			}
			pin += s.Out
		}
		src := ""
		if x := shortSrc(s.Src); x != "" {
			src = "  " + x
		}
		ew.printf("  %s %-8s %-12s %-40s %s%s\n", lv, s.Type, pin, shortName(s.Net), shortName(s.Cell), src)
	}
}

// shortName shortens the names Yosys generates ("$abc$...", "$auto$...")
// to their last part: they mean nothing to a developer but tell cells
// apart.
func shortName(s string) string {
	if !strings.HasPrefix(s, "$") || len(s) <= 24 {
		return s
	}
	return "$..." + s[len(s)-20:]
}

// shortSrc keeps the last location of a Yosys src attribute that is not
// in Yosys's own techmap files: after flattening the list goes from the
// instance to the cell's own line ("top.v:12.3-12.9|blk.v:4.1-4.9" ->
// "blk.v:4").
func shortSrc(s string) string {
	parts := strings.Split(s, "|")
	s = ""
	for _, p := range parts { // the innermost RTL location: the last one
		if p != "" && !strings.Contains(p, "/share/yosys/") {
			s = p
		}
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if j := strings.IndexByte(s[i:], '.'); j >= 0 {
			s = s[:i+j]
		}
	}
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
