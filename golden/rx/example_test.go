package rx_test

import (
	"encoding/binary"
	"fmt"

	"github.com/mparx/mparx/golden/ddp"
	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/golden/wire"
)

// The receiver follows one MPA connection from its startup frames: the
// Initiator's Request, the Responder's Reply (both ask for CRC and no
// markers), then one FPDU from the Initiator holding a whole untagged DDP
// message (an 18-octet header and 6 octets of payload). The ULPDU_Length
// field of the first FPDU is the first octet after the Request.
func ExampleReceiver() {
	t := wire.FourTuple{SrcIP: [4]byte{10, 0, 0, 1}, DstIP: [4]byte{10, 0, 0, 2}, SrcPort: 40000, DstPort: 4791}
	const iseq, rseq = 1000, 5000
	req := mpa.NewStartup(false, false, true, nil).Append(nil)
	rep := mpa.NewStartup(true, false, true, nil).Append(nil)

	r := rx.New(rx.Config{})
	r.AddConn(rx.ConnSpec{Tuple: t, InitiatorSeq: iseq, ResponderSeq: rseq})
	r.Frame(tcpFrame(t, iseq, req))
	r.Frame(tcpFrame(t.Reverse(), rseq, rep))

	h := mpa.Half{CRC: true, SeqStart: iseq + uint32(len(req))}
	ulpdu := ddp.Header{Version: 1, Last: true, QN: 0, MSN: 1}.AppendTo(nil)
	ulpdu = append(ulpdu, "hello!"...)
	r.Frame(tcpFrame(t, h.SeqStart, h.AppendFPDU(nil, h.SeqStart, ulpdu)))

	for _, e := range r.Events() {
		fmt.Println(e.Kind, e.Half, e.Seq, e.Len)
	}
	// Output:
	// established 10.0.0.1:40000>10.0.0.2:4791 1020 0
	// established 10.0.0.2:4791>10.0.0.1:40000 5020 0
	// ulpdu 10.0.0.1:40000>10.0.0.2:4791 1020 24
	// deliver 10.0.0.1:40000>10.0.0.2:4791 1020 0
}

// tcpFrame builds an Ethernet II / IPv4 / TCP frame of half connection t
// (ACK set) with the checksums that verify.
func tcpFrame(t wire.FourTuple, seq uint32, payload []byte) []byte {
	b := make([]byte, 14+20+20, 14+20+20+len(payload))
	binary.BigEndian.PutUint16(b[12:], wire.EtherTypeIPv4)
	ip := b[14:]
	ip[0] = 0x45 // IPv4, 20-octet header
	binary.BigEndian.PutUint16(ip[2:], uint16(20+20+len(payload)))
	ip[8], ip[9] = 64, 6 // TTL, TCP
	copy(ip[12:], t.SrcIP[:])
	copy(ip[16:], t.DstIP[:])
	tcp := ip[20:]
	binary.BigEndian.PutUint16(tcp[0:], t.SrcPort)
	binary.BigEndian.PutUint16(tcp[2:], t.DstPort)
	binary.BigEndian.PutUint32(tcp[4:], seq)
	tcp[12], tcp[13] = 5<<4, wire.FlagACK // 20-octet header
	binary.BigEndian.PutUint16(tcp[14:], 65535)
	b = append(b, payload...)
	if _, err := wire.CompleteChecksums(b); err != nil {
		panic(err)
	}
	return b
}
