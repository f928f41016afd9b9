// Package axiwr verifies rtl/mpa_rx_axi_wr.v, the AXI4 write master of
// the receiver's host writes, in Verilator against the Go AXI4 slave model
// of cosim/internal/axi, and holds Plan, the burst plan the master makes
// from the placement descriptors (docs/axi.md), written from the rules
// alone.
package axiwr

import "fmt"

// Widths are the DATA_WIDTH values built as co-simulation variants.
var Widths = []int{64, 128, 256, 512}

// Variant returns the co-simulation variant name for a data width.
func Variant(dataWidth int) string { return fmt.Sprintf("mpa_rx_axi_wr_w%d", dataWidth) }

// Desc is a placement descriptor on s_desc: the host address and length of
// an FPDU's payload, or with Len 0 a flush entry; Flush closes the burst
// after the descriptor.
type Desc struct {
	Addr  uint64
	Len   int
	Flush bool
}

// Burst is a planned burst: the address of its first word and its beats.
type Burst struct {
	Addr  uint64
	Beats int
}

// Plan returns the bursts the master issues for descs on a bus of k
// octets per beat when every descriptor (and flush) reaches the planner
// before the write side needs the burst it ends up in:
//   - a descriptor continues the open burst when it starts in the burst's
//     last word or the word after it; otherwise the open burst is closed
//     and a new one starts at its first word;
//   - a burst reaches at most 256 beats from its first word and never past
//     the end of its 4 KiB page: a descriptor that does not fit fills the
//     burst to that limit and goes on in the next;
//   - a flush (the flag, or a descriptor of length 0) closes the open
//     burst.
//
// A burst still open after the last descriptor is not returned.
func Plan(descs []Desc, k int) []Burst {
	pageWords := uint64(4096 / k)
	limit := func(w uint64) uint64 { return min(w+255, w|(pageWords-1)) }
	var out []Burst
	open := false
	var s, e, lim uint64 // the open burst: first and last word, limit
	emit := func(first, last uint64) {
		out = append(out, Burst{Addr: first * uint64(k), Beats: int(last-first) + 1})
	}
	for _, d := range descs {
		if d.Len == 0 {
			if open {
				emit(s, e)
				open = false
			}
			continue
		}
		fw, lw := d.Addr/uint64(k), (d.Addr+uint64(d.Len)-1)/uint64(k)
		p := fw
		if open && (fw == e || fw == e+1) {
			if lw <= lim {
				e = lw
			} else {
				emit(s, lim)
				open = false
				p = lim + 1
			}
		} else if open {
			emit(s, e)
			open = false
		}
		for !open {
			l := limit(p)
			if lw <= l {
				s, e, lim, open = p, lw, l, true
				break
			}
			emit(p, l)
			p = l + 1
		}
		if d.Flush {
			emit(s, e)
			open = false
		}
	}
	return out
}
