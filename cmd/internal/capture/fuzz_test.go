package capture

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"
)

// FuzzReader checks that the reader (with a small read buffer to start
// with) never panics on any input, ends every
// read with io.EOF or an error of the documented kinds, and keeps its frame
// invariants: the data fit the length on the wire, an Ethernet link's
// frame is the captured octets, and the frame indices count up.
func FuzzReader(f *testing.F) {
	eth := []byte("\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01\x08\x00E\x00\x00\x28\x00\x01\x40\x00\x40\x06\x00\x00\x0a\x00\x00\x01\x0a\x00\x00\x02\x9c\x40\x12\xb7\x00\x00\x00\x01\x00\x00\x00\x02\x50\x10\xff\xff\x00\x00\x00\x00")
	t0 := time.Unix(1700000000, 5000)
	recs := []rec{{data: eth, t: t0}, {data: eth[:20], orig: len(eth), t: t0}}
	f.Add(writePcap(false, false, LinkEthernet, recs))
	f.Add(writePcap(true, true, LinkLinuxSLL, []rec{{data: toSLL(eth), t: t0}}))
	f.Add(writePcap(false, false, LinkNull, []rec{{data: toNull(false, 2)(eth), t: t0}}))
	f.Add(writePcapng(ngSection{extra: true, ifaces: []ngIfaceSpec{{lt: LinkEthernet}, {lt: LinkLinuxSLL2, tsresol: 9}, {lt: LinkRaw, tsresol: 0x80 | 20}}, recs: []rec{
		{data: eth, t: t0, block: ngSPB}, {data: toSLL2(eth), iface: 1, t: t0}, {data: toRaw(eth), iface: 2, t: t0, block: ngPB},
	}}, ngSection{be: true, ifaces: []ngIfaceSpec{{lt: LinkLoop, snap: 30}}, recs: []rec{{data: toNull(true, 24)(eth), t: t0}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := newReader(bytes.NewReader(b), 32) // a small buffer: growth and compaction on every input
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("NewReader: %v is not a format error", err)
			}
			return
		}
		for i := 0; ; i++ {
			fr, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				if !errors.Is(err, ErrFormat) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("Next: %v is neither a format error nor an unexpected end", err)
				}
				if _, err2 := r.Next(); err2 != err {
					t.Fatalf("the error does not stick: %v then %v", err, err2)
				}
				return
			}
			if fr.Index != i {
				t.Fatalf("frame index %d, want %d", fr.Index, i)
			}
			if fr.Length < len(fr.Data) {
				t.Fatalf("frame %d: length %d below its %d captured octets", i, fr.Length, len(fr.Data))
			}
			if fr.Offset < 0 || fr.Offset >= int64(len(b)) || r.Offset() > int64(len(b)) {
				t.Fatalf("frame %d: offset %d, reader at %d, in %d octets", i, fr.Offset, r.Offset(), len(b))
			}
			if fr.LinkType == LinkEthernet && !bytes.Contains(b[fr.Offset:r.Offset()], fr.Data) {
				t.Fatalf("frame %d: Ethernet frame not the captured octets of its record", i)
			}
		}
	})
}
