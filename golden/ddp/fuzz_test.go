package ddp

import (
	"bytes"
	"testing"
)

// FuzzPlace places arbitrary ULPDUs on the test fixture. Place must not
// panic; on error memory and log are unchanged; on success exactly the
// payload was written, inside a buffer that the stream owns.
func FuzzPlace(f *testing.F) {
	f.Add(uint8(s1), tagged(stagA, 100, 50))
	f.Add(uint8(s2), tagged(stagB, 500, 12))
	f.Add(uint8(s1), untagged(0, 2, 10, 90))
	f.Add(uint8(s1), untagged(0, 1, 256, 0))
	f.Add(uint8(s1), figure5ULPDU)
	f.Fuzz(func(t *testing.T, stream uint8, ulpdu []byte) {
		p := fixture(t)
		s := StreamID(stream % 4)
		before := p.Image().Digest()
		pl, err := p.Place(s, ulpdu)
		log := p.Memory().Log()
		if err != nil {
			if len(log) != 0 || p.Image().Digest() != before {
				t.Fatalf("%v, yet memory changed", err)
			}
			return
		}
		h, payload, _ := ParseHeader(ulpdu)
		if len(log) != 1 || !bytes.Equal(log[0].Data, payload) || log[0].Addr != pl.Addr || pl.Len != len(payload) {
			t.Fatalf("log %+v does not record the %d-octet payload at %#x", log, len(payload), pl.Addr)
		}
		end := pl.Addr + uint64(len(payload))
		for _, r := range p.Image() {
			if r.Stream == s && r.Tagged == h.Tagged && pl.Addr >= r.Base && end <= r.Base+r.Length {
				return
			}
		}
		t.Fatalf("placed [%#x, %#x) outside every buffer of stream %d (%v)", pl.Addr, end, s, h)
	})
}
