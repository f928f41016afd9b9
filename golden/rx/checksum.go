package rx

import (
	"errors"
	"fmt"
	"sort"

	"github.com/mparx/mparx/golden/wire"
)

// Checksums is how a receiver treats IPv4 header and TCP checksums that do
// not verify (Config.Checksums).
type Checksums uint8

// Checksum policies.
const (
	// ChecksumsVerify verifies every IPv4 header and TCP checksum; a frame
	// whose checksum fails is dropped whole (a Dropped event). Vectors use
	// it; it is the zero value.
	ChecksumsVerify Checksums = iota
	// ChecksumsAuto is ChecksumsVerify except for a frame that holds the
	// transmit checksum offload signature: its sending host left a
	// checksum for its NIC to complete, and the capture was taken on that
	// host before the NIC did. The signature is a TCP checksum field
	// holding the pseudo-header sum (wire.Frame.OffloadSignature), or an
	// IPv4 header checksum field of 0 (what Windows leaves with IPv4
	// checksum offload) in a frame whose TCP checksum verifies or holds
	// that sum. Such a frame is taken with its checksums unverified. Any
	// other failing checksum drops the frame.
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
	Verified    Unverified = iota // every checksum verified
	Offloaded                     // the TCP checksum field held the offload signature (ChecksumsAuto)
	Ignored                       // a checksum failed and ChecksumsIgnore took the frame
	OffloadedIP                   // the IPv4 header checksum field held 0, the offload signature (ChecksumsAuto)
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
	case c == ChecksumsAuto && errors.Is(err, wire.ErrIPChecksum) && ipChecksumZero(b):
		g, gerr := wire.ParseWith(b, wire.CheckTCP)
		if gerr == nil || errors.Is(gerr, wire.ErrTCPChecksum) && g.OffloadSignature() {
			return g, OffloadedIP, nil
		}
		if errors.Is(gerr, wire.ErrTCPChecksum) {
			return g, Verified, gerr // the TCP checksum is damaged: dropped for it
		}
		return f, Verified, err
	case c == ChecksumsIgnore && (errors.Is(err, wire.ErrIPChecksum) || errors.Is(err, wire.ErrTCPChecksum)):
		f, err = wire.ParseWith(b, 0)
		if err != nil {
			return f, Verified, err // not TCP, or malformed beyond the checksum
		}
		return f, Ignored, nil
	}
	return f, Verified, err
}

// ipChecksumZero reports whether b, a frame wire.Parse rejected for its
// IPv4 header checksum, holds 0 in that field.
func ipChecksumZero(b []byte) bool {
	ipo := 14
	if b[12] == 0x81 && b[13] == 0x00 {
		ipo = 18
	}
	return b[ipo+10] == 0 && b[ipo+11] == 0
}

// OffloadedDrop reports whether frame b, which policy ChecksumsVerify
// drops with err (f is what wire.Parse returned), holds the transmit
// checksum offload signature, so that ChecksumsAuto would take it, and
// returns its sending host.
func OffloadedDrop(b []byte, f wire.Frame, err error) (wire.Addr, bool) {
	switch {
	case errors.Is(err, wire.ErrTCPChecksum):
		return f.SrcIP, f.OffloadSignature()
	case errors.Is(err, wire.ErrIPChecksum):
		g, u, aerr := ChecksumsAuto.Parse(b)
		return g.SrcIP, aerr == nil && u == OffloadedIP
	}
	return wire.Addr{}, false
}

// Wire returns frame b as its sender's NIC put it on the wire under policy
// c: when c takes the frame although a checksum fails (Parse reports
// Offloaded or Ignored), a copy with the IPv4 and TCP checksums completed;
// otherwise b itself. Hardware sees wire frames: an engine that verifies
// checksums itself (the RTL) is given what Wire returns. It also returns
// why the checksum went unverified and the frame's source address.
func (c Checksums) Wire(b []byte) ([]byte, Unverified, wire.Addr) {
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
	Host      wire.Addr
	Offloaded int // the frame held the offload signature (ChecksumsAuto)
	// OffloadedIP counts the frames of Offloaded whose signature was an
	// IPv4 header checksum field of 0.
	OffloadedIP int
	Ignored     int // a failing checksum taken under ChecksumsIgnore
	// DroppedOffloaded counts frames dropped (ChecksumsVerify) that hold
	// the offload signature: ChecksumsAuto would take them.
	// DroppedOffloadedIP counts those of them dropped for their IPv4
	// header checksum (field 0).
	DroppedOffloaded, DroppedOffloadedIP int
}

// ChecksumTally counts unverified checksums per sending host. The zero
// value is ready to use.
type ChecksumTally struct {
	hosts map[wire.Addr]*HostChecksums
}

// Add counts one frame from host src taken for reason u (Verified is not
// counted).
func (t *ChecksumTally) Add(src wire.Addr, u Unverified) {
	if u == Verified {
		return
	}
	h := t.host(src)
	switch u {
	case Offloaded:
		h.Offloaded++
	case OffloadedIP:
		h.Offloaded++
		h.OffloadedIP++
	default:
		h.Ignored++
	}
}

// AddDropped counts a frame from src dropped for a checksum that holds the
// offload signature, its IPv4 header checksum when ip is set.
func (t *ChecksumTally) AddDropped(src wire.Addr, ip bool) {
	h := t.host(src)
	h.DroppedOffloaded++
	if ip {
		h.DroppedOffloadedIP++
	}
}

// Merge adds the counts of h (another tally's, Hosts) to its host's.
func (t *ChecksumTally) Merge(h HostChecksums) {
	c := t.host(h.Host)
	c.Offloaded += h.Offloaded
	c.OffloadedIP += h.OffloadedIP
	c.Ignored += h.Ignored
	c.DroppedOffloaded += h.DroppedOffloaded
	c.DroppedOffloadedIP += h.DroppedOffloadedIP
}

func (t *ChecksumTally) host(src wire.Addr) *HostChecksums {
	if t.hosts == nil {
		t.hosts = map[wire.Addr]*HostChecksums{}
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
