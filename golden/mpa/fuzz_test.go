package mpa

import (
	"testing"
)

// FuzzParseStartup: the startup-frame parser never panics, never reads past
// its input, and whatever it accepts re-encodes to the same octets.
func FuzzParseStartup(f *testing.F) {
	f.Add(NewStartup(false, true, true, []byte("pd")).Append(nil), false, false)
	f.Add(NewStartup(true, false, true, make([]byte, 512)).Append(nil), true, false)
	f.Add(Startup{Reply: true, R: true, Rev: 0, PDLength: 3, PrivateData: []byte("abc")}.Append(nil), true, true)
	f.Add([]byte("MPA ID Req Frame\x80\x01\x02\x00"), false, true)
	f.Fuzz(func(t *testing.T, b []byte, reply, permissive bool) {
		s, n, err := ParseStartup(b, reply, StartupPolicy{Permissive: permissive})
		if err != nil && err != ErrRejected {
			if n != 0 {
				t.Fatalf("error %v with length %d", err, n)
			}
			return
		}
		if n > len(b) || n != s.Len() || int(s.PDLength) != len(s.PrivateData) {
			t.Fatalf("length %d of %d, frame %+v", n, len(b), s)
		}
		if got := s.Append(nil); string(got) != string(b[:n]) {
			t.Fatalf("re-encoded %x, parsed %x", got, b[:n])
		}
	})
}

// FuzzAppendFPDU: framing any ULPDU anywhere in the marker grid yields an
// FPDU whose length WireLen predicts and whose CRC covers it.
func FuzzAppendFPDU(f *testing.F) {
	f.Add([]byte("hello"), uint32(0), uint32(0), true)
	f.Add(make([]byte, 1500), uint32(0xfffffe00), uint32(0xfffffff0), true)
	f.Fuzz(func(t *testing.T, ulpdu []byte, base, off uint32, markers bool) {
		h := Half{Markers: markers, CRC: true, SeqStart: base}
		seq := base + off&^3
		b := h.AppendFPDU(nil, seq, ulpdu)
		if len(b) != h.WireLen(seq, FPDULen(len(ulpdu))) {
			t.Fatalf("length %d, WireLen %d", len(b), h.WireLen(seq, FPDULen(len(ulpdu))))
		}
		if CRC32C(b[:len(b)-4]) != WireCRC(b[len(b)-4:]) {
			t.Fatal("CRC does not cover the FPDU")
		}
	})
}
