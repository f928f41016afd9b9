// Command mparx replays captures through the mparx MPA receiver.
//
// Usage:
//
//	mparx run [--engine golden] [DIR]
//	mparx replay [--json] [--permissive] [--engine golden] FILE.pcap
//
// run replays every conformance vector under DIR (default vectors) and
// compares the results with the vector's expected results (the project's
// main job; `make run`).
//
// replay reads a pcap of Ethernet frames, follows every TCP connection that
// starts with MPA startup frames (as Wireshark's heuristic finds them),
// configures each half connection from them (markers, CRC, SeqStart), runs
// the golden receiver and prints a summary per half connection, or with
// --json one JSON object per line for every event.
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: mparx run [--engine golden] [DIR]
       mparx replay [--json] [--permissive] [--engine golden] FILE.pcap`

// run is main without the process: it returns the exit status (0 ok, 2 bad
// usage or unreadable input).
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) >= 1 && args[0] == "run" {
		return runVectors(args[1:], stdout, stderr)
	}
	if len(args) < 1 || args[0] != "replay" {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print one JSON object per event")
	permissive := fs.Bool("permissive", false, "accept MPA Rev 0 startup frames (RFC 5044 Appendix C)")
	engine := fs.String("engine", "golden", "receiver engine: golden")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if *engine != "golden" {
		fmt.Fprintf(stderr, "mparx: engine %q is not available\n", *engine)
		return 2
	}
	frames, err := readPcap(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "mparx: %v\n", err)
		return 2
	}
	r := rx.New(rx.Config{Auto: true, Digests: true, Policy: mpa.StartupPolicy{Permissive: *permissive}})
	for _, f := range frames {
		r.Frame(f)
	}
	if *jsonOut {
		if err := writeJSON(stdout, r.Events()); err != nil {
			fmt.Fprintf(stderr, "mparx: %v\n", err)
			return 2
		}
		return 0
	}
	writeTable(stdout, r)
	return 0
}

// readPcap returns the frames of an Ethernet pcap file.
func readPcap(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pr, err := pcapgo.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a pcap file: %v", path, err)
	}
	if lt := pr.LinkType(); lt != layers.LinkTypeEthernet {
		return nil, fmt.Errorf("%s: link type %v, want Ethernet", path, lt)
	}
	var frames [][]byte
	for {
		data, _, err := pr.ReadPacketData()
		if errors.Is(err, io.EOF) {
			return frames, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: frame %d: %v", path, len(frames), err)
		}
		frames = append(frames, data)
	}
}

// jsonEvent is the --json form of an event.
type jsonEvent struct {
	Type   string `json:"type"`
	Src    string `json:"src"`
	Dst    string `json:"dst"`
	Seq    uint32 `json:"seq"`
	Len    *int   `json:"len,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Code   int    `json:"code,omitempty"`
	Frame  int    `json:"frame"`
	Detail string `json:"detail,omitempty"`
}

func writeJSON(w io.Writer, evs []rx.Event) error {
	enc := json.NewEncoder(w)
	for _, e := range evs {
		j := jsonEvent{Type: e.Kind.String(), Src: e.Half.Src(), Dst: e.Half.Dst(), Seq: e.Seq, Frame: e.Frame}
		switch e.Kind {
		case rx.ULPDU:
			n := e.Len
			j.Len, j.SHA256 = &n, hex.EncodeToString(e.SHA256[:])
		case rx.Placed:
			n := e.Len
			j.Len = &n
		case rx.MPAError:
			j.Code = e.Code
		}
		if e.Err != nil {
			j.Detail = e.Err.Error()
		}
		if err := enc.Encode(j); err != nil {
			return err
		}
	}
	return nil
}

func writeTable(w io.Writer, r *rx.Receiver) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HALF CONNECTION\tROLE\tSTATE\tMARKERS\tCRC\tSEQSTART\tFRAMES\tOCTETS\tDUP\tULPDUS\tDELIVERED\tDROPPED\tERROR")
	for _, h := range r.Halves() {
		role := "responder"
		if h.Initiator {
			role = "initiator"
		}
		errc := "-"
		if h.ErrorCode != 0 {
			errc = fmt.Sprint(h.ErrorCode)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t%v\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", h.Tuple, role, h.State,
			onoff(h.Params.Markers), onoff(h.Params.CRC), h.Params.SeqStart, h.Frames, h.Octets, h.Dup, h.ULPDUs, h.Delivered, h.Dropped, errc)
	}
	s := r.Stats()
	fmt.Fprintf(tw, "\nframes %d, non-TCP %d, untracked TCP %d, dropped %d\n", s.Frames, s.NonTCP, s.Untracked, s.Dropped)
	tw.Flush()
}

func onoff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
