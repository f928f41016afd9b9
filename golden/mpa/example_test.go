package mpa_test

import (
	"fmt"

	"github.com/mparx/mparx/golden/mpa"
)

// The CRC32C of 32 zero octets, the first test vector of RFC 3720 section
// B.4, whose CRC octets on the wire are aa 36 91 8a.
func ExampleCRC32C() {
	crc := mpa.CRC32C(make([]byte, 32))
	fmt.Printf("%#08x, on the wire % x\n", crc, mpa.AppendCRC(nil, crc))
	// Output: 0x8a9136aa, on the wire aa 36 91 8a
}

// Framing a ULPDU of 18 octets with CRC and no markers (RFC 5044 section
// 4): ULPDU_Length (2), the ULPDU, 0 pad octets (2 + 18 is a multiple of
// 4) and the CRC (4) make 24 octets; the receiver's Deframe checks the CRC
// and returns the ULPDU.
func ExampleHalf_AppendFPDU() {
	h := mpa.Half{CRC: true, SeqStart: 1000}
	ulpdu := []byte("eighteen octets!!!")
	fpdu := h.AppendFPDU(nil, h.SeqStart, ulpdu)
	var scratch []byte
	got, err := h.Deframe(h.SeqStart, fpdu, &scratch)
	fmt.Println(len(fpdu), string(got), err)
	// Output: 24 eighteen octets!!! <nil>
}
