package rx

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/wire"
)

// Checksums is how a receiver treats IPv4 and TCP checksums that do not
// verify (Config.Checksums).
type Checksums uint8

// Checksum policies.
const (
	// ChecksumsVerify verifies every IPv4 header and TCP checksum; a frame
	// whose checksum fails is dropped whole (a Dropped event). Vectors use
	// it; it is the zero value.
	ChecksumsVerify Checksums = iota
	// ChecksumsAuto is ChecksumsVerify except for a frame whose TCP
	// checksum field holds the transmit checksum offload signature (the
	// pseudo-header sum, wire.Frame.OffloadSignature): its sending host
	// left the checksum for its NIC to complete, and the capture was taken
	// on that host before the NIC did. Such a frame is taken with its TCP
	// checksum unverified. Any other failing checksum drops the frame.
	ChecksumsAuto
	// ChecksumsIgnore verifies no checksum (as Wireshark does by default).
	ChecksumsIgnore
)

var checksumNames = [...]string{"verify", "auto", "ignore"}

func (c Checksums) String() string {
	if int(c) < len(checksumNames) {
		return checksumNames[c]
	}
	return fmt.Sprintf("checksums(%d)", c)
}

// ParseChecksums returns the policy named "verify", "auto" or "ignore".
func ParseChecksums(s string) (Checksums, error) {
	for i, n := range checksumNames {
		if s == n {
			return Checksums(i), nil
		}
	}
	return 0, fmt.Errorf("checksums %q: want verify, auto or ignore", s)
}

// Unverified says why a frame was taken although a checksum of it did not
// verify.
type Unverified uint8

// Reasons a frame's checksum went unverified.
const (
	Verified  Unverified = iota // every checksum verified
	Offloaded                   // the TCP checksum field held the offload signature (ChecksumsAuto)
	Ignored                     // a checksum failed and ChecksumsIgnore took the frame
)

// Parse parses an Ethernet frame as a receiver with policy c does: it
// returns the frame, the error that drops it or makes it non-TCP (nil when
// the frame is taken), and, for a frame taken, whether and why a checksum
// of it went unverified.
func (c Checksums) Parse(b []byte) (wire.Frame, Unverified, error) {
	f, err := wire.Parse(b)
	if err == nil || c == ChecksumsVerify {
		return f, Verified, err
	}
	switch {
	case c == ChecksumsAuto && errors.Is(err, wire.ErrTCPChecksum) && f.OffloadSignature():
		return f, Offloaded, nil
	case c == ChecksumsIgnore && (errors.Is(err, wire.ErrIPChecksum) || errors.Is(err, wire.ErrTCPChecksum)):
		f, err = wire.ParseWith(b, 0)
		if err != nil {
			return f, Verified, err // not TCP, or malformed beyond the checksum
		}
		return f, Ignored, nil
	}
	return f, Verified, err
}

// Wire returns frame b as its sender's NIC put it on the wire under policy
// c: when c takes the frame although a checksum fails (Parse reports
// Offloaded or Ignored), a copy with the IPv4 and TCP checksums completed;
// otherwise b itself. Hardware sees wire frames: an engine that verifies
// checksums itself (the RTL) is given what Wire returns. It also returns
// why the checksum went unverified and the frame's source address.
func (c Checksums) Wire(b []byte) ([]byte, Unverified, [4]byte) {
	f, u, err := c.Parse(b)
	if err != nil || u == Verified {
		return b, Verified, f.SrcIP
	}
	out := append([]byte(nil), b...)
	if _, err := wire.CompleteChecksums(out); err != nil {
		return b, Verified, f.SrcIP // not reached: Parse took the frame
	}
	return out, u, f.SrcIP
}

// HostChecksums counts, for one sending host, the frames taken with a
// checksum that did not verify.
type HostChecksums struct {
	Host      [4]byte
	Offloaded int // TCP checksum field held the offload signature (ChecksumsAuto)
	Ignored   int // a failing checksum taken under ChecksumsIgnore
	// DroppedOffloaded counts frames dropped (ChecksumsVerify) whose TCP
	// checksum field holds the offload signature: ChecksumsAuto would take
	// them.
	DroppedOffloaded int
}

// ChecksumTally counts unverified checksums per sending host. The zero
// value is ready to use.
type ChecksumTally struct {
	hosts map[[4]byte]*HostChecksums
}

// Add counts one frame from host src taken for reason u (Verified is not
// counted).
func (t *ChecksumTally) Add(src [4]byte, u Unverified) {
	if u == Verified {
		return
	}
	h := t.host(src)
	if u == Offloaded {
		h.Offloaded++
	} else {
		h.Ignored++
	}
}

// AddDropped counts a frame from src dropped for its TCP checksum, whose
// checksum field holds the offload signature.
func (t *ChecksumTally) AddDropped(src [4]byte) { t.host(src).DroppedOffloaded++ }

func (t *ChecksumTally) host(src [4]byte) *HostChecksums {
	if t.hosts == nil {
		t.hosts = map[[4]byte]*HostChecksums{}
	}
	h := t.hosts[src]
	if h == nil {
		h = &HostChecksums{Host: src}
		t.hosts[src] = h
	}
	return h
}

// Hosts returns the counts per sending host, ordered by address.
func (t *ChecksumTally) Hosts() []HostChecksums {
	out := make([]HostChecksums, 0, len(t.hosts))
	for _, h := range t.hosts {
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool { return string(out[i].Host[:]) < string(out[j].Host[:]) })
	return out
}

// Total returns the number of frames taken unverified.
func (t *ChecksumTally) Total() int {
	n := 0
	for _, h := range t.hosts {
		n += h.Offloaded + h.Ignored
	}
	return n
}
