// Package vecgen generates the mparx conformance vectors: named scenarios
// that build TCP/MPA/DDP traffic deterministically from a seed, serialize it
// as Ethernet frames with gopacket, and record the setup a receiver needs.
// The expected results come from the golden receiver (vecgen/replay).
package vecgen
