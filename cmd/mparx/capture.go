package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/learn"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// captureOpts is how replay treats a bare capture (a pcap without a
// vector's setup).
type captureOpts struct {
	permissive bool
	checksums  rx.Checksums
	ports      []uint16
	learn      bool
}

// captureFlags declares the bare-capture flags on fs, with their defaults
// in o.
func captureFlags(fs *flag.FlagSet, o *captureOpts) {
	o.checksums, o.learn = rx.ChecksumsAuto, true
	fs.Func("checksums", "verify|ignore|auto (default auto): auto takes a frame whose TCP checksum field holds the transmit-offload signature (the pseudo-header sum, left for the NIC on a capture taken on the sending host) unverified; pcap files only", func(s string) error {
		c, err := rx.ParseChecksums(s)
		o.checksums = c
		return err
	})
	fs.Func("port", "TCP port known to speak MPA (repeatable): its connections are MPA from their first octet, a wrong startup key or Rev is code 4 (Wireshark's Decode As); pcap files only", func(s string) error {
		p, err := strconv.ParseUint(s, 10, 16)
		if err != nil || p == 0 {
			return fmt.Errorf("port %q: want 1-65535", s)
		}
		o.ports = append(o.ports, uint16(p))
		return nil
	})
	fs.BoolVar(&o.learn, "learn", true, "learn the DDP setup from the traffic (an STag per tagged buffer, a receive buffer per message), so ULPDUs are placed; pcap files only")
}

// explicit returns the bare-capture flags given on the command line.
func explicit(fs *flag.FlagSet) []string {
	var out []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "checksums", "port", "learn":
			out = append(out, "--"+f.Name)
		}
	})
	return out
}

// rxConfig is the golden receiver's configuration for a bare capture.
func (o captureOpts) rxConfig() rx.Config {
	return rx.Config{Auto: true, Ports: o.ports, Checksums: o.checksums, Policy: mpa.StartupPolicy{Permissive: o.permissive}}
}

// replayCapture runs the golden receiver over a bare capture and returns
// it with the notes replay prints about the run.
func replayCapture(frames [][]byte, o captureOpts, onEvent func(*rx.Event)) (*rx.Receiver, []string, error) {
	cfg := o.rxConfig()
	cfg.Digests, cfg.OnEvent = true, onEvent
	var setup *learn.Setup
	if o.learn {
		setup = learn.Learn(frames, o.rxConfig())
		cfg.Placer = ddp.NewPlacer(ddp.NewMemory())
	}
	r := rx.New(cfg)
	for i, f := range frames {
		if setup != nil {
			if err := setup.Apply(i, cfg.Placer, r.Stream); err != nil {
				return nil, nil, err
			}
		}
		r.Frame(f)
	}
	notes := checksumNotes(o.checksums, r.UnverifiedHosts(), false)
	if setup != nil {
		notes = append(notes, setup.Summary())
	}
	return r, notes, nil
}

// checksumNotes says how many checksums went unverified, per sending host,
// and why. completed says the frames were given to the hardware with their
// checksums completed.
func checksumNotes(c rx.Checksums, hosts []rx.HostChecksums, completed bool) []string {
	n, dropped, droppedIP := 0, 0, 0
	var per, hint []string
	for _, h := range hosts {
		if h.DroppedOffloaded > 0 {
			dropped += h.DroppedOffloaded
			droppedIP += h.DroppedOffloadedIP
			hint = append(hint, fmt.Sprintf("%s: %d", h.Host, h.DroppedOffloaded))
		}
		n += h.Offloaded + h.Ignored
		host := h.Host.String()
		switch {
		case h.Offloaded > 0 && h.OffloadedIP > 0:
			per = append(per, fmt.Sprintf("%s: %d with the transmit checksum offload signature (the TCP checksum field holds the pseudo-header sum, or, in %d of them, the IPv4 header checksum field holds 0; the capture was taken on that host before its NIC completed the checksums)", host, h.Offloaded, h.OffloadedIP))
		case h.Offloaded > 0:
			per = append(per, fmt.Sprintf("%s: %d with the transmit checksum offload signature (the field holds the pseudo-header sum; the capture was taken on that host before its NIC completed the checksum)", host, h.Offloaded))
		}
		if h.Ignored > 0 {
			per = append(per, fmt.Sprintf("%s: %d with a checksum that does not verify", host, h.Ignored))
		}
	}
	if n == 0 && dropped > 0 {
		which := "TCP checksum"
		if droppedIP > 0 {
			which = "TCP or IPv4 header checksum"
		}
		return []string{fmt.Sprintf("checksums %v: no frame taken unverified; %d frames dropped for their %s hold the transmit checksum offload signature (%s): a capture taken on the sending host? --checksums auto takes them",
			c, dropped, which, strings.Join(hint, ", "))}
	}
	if n == 0 {
		return []string{fmt.Sprintf("checksums %v: no frame taken unverified", c)}
	}
	out := []string{fmt.Sprintf("checksums %v: %d frames taken with a checksum not verified; %s", c, n, strings.Join(per, "; "))}
	if completed {
		out = append(out, fmt.Sprintf("rtl: those %d frames were given to the hardware with their checksums completed, as the wire carried them", n))
	}
	return out
}

// wireFrames returns the frames as the wire carried them under checksum
// policy c (rx.Checksums.Wire: checksums completed where c takes a frame
// unverified), for an engine that verifies checksums itself, with the count
// per sending host.
func wireFrames(frames [][]byte, c rx.Checksums) ([][]byte, []rx.HostChecksums) {
	var t rx.ChecksumTally
	out := make([][]byte, len(frames))
	for i, f := range frames {
		w, u, src := c.Wire(f)
		t.Add(src, u)
		out[i] = w
	}
	return out, t.Hosts()
}

// writeNotes prints the notes after the table, or to stderr with --json
// (stdout keeps the expected.jsonl format).
func writeNotes(w io.Writer, notes []string, jsonOut bool) {
	for _, n := range notes {
		if jsonOut {
			fmt.Fprintf(w, "mparx: %s\n", n)
		} else {
			fmt.Fprintln(w, n)
		}
	}
}

// unionNote says what the hardware and software passed together per half
// connection (the table shows software's own counts).
func unionNote(evs []rx.Event) string {
	type counts struct{ ulpdus, placed, delivered int }
	var order []wire.FourTuple
	per := map[wire.FourTuple]*counts{}
	for _, e := range evs {
		c := per[e.Half]
		if c == nil {
			if e.Kind != rx.ULPDU {
				continue
			}
			c = &counts{}
			per[e.Half] = c
			order = append(order, e.Half)
		}
		switch e.Kind {
		case rx.ULPDU:
			c.ulpdus++
		case rx.Placed:
			c.placed++
		case rx.Delivered:
			c.delivered++
		}
	}
	if len(order) == 0 {
		return "rtl: hardware and software passed no ULPDU"
	}
	var parts []string
	for _, h := range order {
		c := per[h]
		parts = append(parts, fmt.Sprintf("%v %d ULPDUs, %d placed, %d delivered", h, c.ulpdus, c.placed, c.delivered))
	}
	return "rtl: hardware and software together: " + strings.Join(parts, "; ")
}
