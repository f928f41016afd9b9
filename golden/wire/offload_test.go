package wire

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offloaded returns the frame of s as a sending host with transmit checksum
// offload hands it to its NIC: the TCP checksum field holds the sum of the
// pseudo-header alone, computed here with refSum (independent of
// PseudoHeaderSum).
func offloaded(t *testing.T, s spec) []byte {
	b := build(t, s)
	ipo := s.ipOff()
	ihl := int(b[ipo]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(b[ipo+2:]))
	pseudo := append(append([]byte(nil), b[ipo+12:ipo+20]...), 0, ProtocolTCP, byte((total-ihl)>>8), byte(total-ihl))
	binary.BigEndian.PutUint16(b[ipo+ihl+16:], refSum(pseudo))
	return b
}

func TestOffloadSignature(t *testing.T) {
	s := defaultSpec()
	vlan := defaultSpec()
	vlan.vlan, vlan.tci = true, 7
	odd := defaultSpec()
	odd.payload = []byte("odd payload")
	for _, tc := range []struct {
		name string
		s    spec
	}{{"plain", s}, {"vlan", vlan}, {"odd-length", odd}} {
		t.Run(tc.name, func(t *testing.T) {
			b := offloaded(t, tc.s)
			f, err := Parse(b)
			require.ErrorIs(t, err, ErrTCPChecksum)
			// the header is whole: the frame names its ports and sequence number
			assert.Equal(t, tc.s.sport, f.SrcPort)
			assert.Equal(t, tc.s.dport, f.DstPort)
			assert.Equal(t, tc.s.seq, f.Seq)
			assert.Equal(t, tc.s.payload, f.Payload)
			assert.True(t, f.OffloadSignature())

			g, err := ParseWith(b, CheckIP)
			require.NoError(t, err)
			assert.Equal(t, f.FourTuple(), g.FourTuple())

			changed, err := CompleteChecksums(b)
			require.NoError(t, err)
			assert.True(t, changed)
			assert.Equal(t, build(t, tc.s), b, "completed as gopacket computes it")
			f, err = Parse(b)
			require.NoError(t, err)
			assert.False(t, f.OffloadSignature())
			changed, err = CompleteChecksums(b)
			require.NoError(t, err)
			assert.False(t, changed, "a verified frame is left alone")
		})
	}
}

// A damaged checksum (one that is neither right nor the offload signature)
// is not taken for offload.
func TestOffloadSignatureNotDamage(t *testing.T) {
	for _, tc := range errorCases(t) {
		if tc.want != ErrTCPChecksum {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(tc.frame)
			require.ErrorIs(t, err, ErrTCPChecksum)
			assert.False(t, f.OffloadSignature())
		})
	}
}

func TestParseWithoutChecks(t *testing.T) {
	s := defaultSpec()
	b := build(t, s)
	ipo := s.ipOff()
	b[ipo+10] ^= 0x5a   // IPv4 header checksum
	b[len(b)-1] ^= 0x01 // payload under the TCP checksum
	_, err := Parse(b)
	require.ErrorIs(t, err, ErrIPChecksum)
	_, err = ParseWith(b, CheckTCP)
	require.ErrorIs(t, err, ErrTCPChecksum)
	f, err := ParseWith(b, 0)
	require.NoError(t, err)
	assert.Equal(t, s.sport, f.SrcPort)
	changed, err := CompleteChecksums(b)
	require.NoError(t, err)
	assert.True(t, changed)
	_, err = Parse(b)
	require.NoError(t, err)

	_, err = CompleteChecksums(b[:20])
	require.ErrorIs(t, err, ErrMalformed)
}

// Over IPv6 (with extension headers) the offload signature is the IPv6
// pseudo-header's sum, and CompleteChecksums writes the TCP checksum
// gopacket computes.
func TestCompleteChecksumsIPv6(t *testing.T) {
	for _, tc := range validCases6() {
		if tc.final != "" {
			continue // gopacket's checksum takes the header's destination
		}
		t.Run(tc.name, func(t *testing.T) {
			want := build6(t, tc.s)
			f, err := Parse(want)
			require.NoError(t, err)
			b := append([]byte(nil), want...)
			seg := b[tc.s.ipOff()+f.IPHeaderLen:]
			seg = seg[:f.TCPHeaderLen+len(f.Payload)]
			n := len(seg)
			pseudo := append(append([]byte(nil), f.SrcIP[:]...), f.DstIP[:]...)
			pseudo = append(pseudo, byte(n>>24), byte(n>>16), byte(n>>8), byte(n), 0, 0, 0, ProtocolTCP)
			binary.BigEndian.PutUint16(seg[16:], refSum(pseudo))

			g, err := Parse(b)
			require.ErrorIs(t, err, ErrTCPChecksum)
			assert.True(t, g.OffloadSignature())
			changed, err := CompleteChecksums(b)
			require.NoError(t, err)
			assert.True(t, changed)
			assert.Equal(t, want, b)
			changed, err = CompleteChecksums(b)
			require.NoError(t, err)
			assert.False(t, changed)
		})
	}
}
