// Package tcpseq is TCP sequence-number arithmetic: 32-bit numbers that wrap,
// compared and subtracted modulo 2^32 (RFC 9293 section 3.4).
package tcpseq

// Num is a TCP sequence number. Its order is modulo 2^32: a number is before
// the numbers up to 2^31 - 1 ahead of it and after those up to 2^31 behind
// it, so use its methods, not < or >, to compare two of them.
type Num uint32

// Add returns the sequence number n octets after s (before it if n is
// negative), modulo 2^32.
func (s Num) Add(n int) Num { return s + Num(n) }

// Diff returns the signed distance s - t: positive when s is after t,
// negative when it is before, in [-2^31, 2^31).
func (s Num) Diff(t Num) int { return int(int32(s - t)) }

// Before reports whether s comes before t.
func (s Num) Before(t Num) bool { return s.Diff(t) < 0 }

// Offset returns how far s lies after base counting forward, modulo 2^32 (0
// to 2^32 - 1): the index of octet s in a run of octets that starts at base.
func (s Num) Offset(base Num) uint32 { return uint32(s - base) }
