// Package rx is the golden MPA receiver (RFC 5044) with DDP placement (RFC
// 5041): Ethernet frames in, the ULPDUs it passes, places and delivers and
// the errors it finds out, as Events. docs/design.md section 7 describes how
// it reassembles, finds FPDUs and hands streams over to a hardware fast path.
package rx
