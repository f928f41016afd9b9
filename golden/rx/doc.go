// Package rx is the golden MPA receiver (RFC 5044) with DDP placement (RFC
// 5041): Ethernet frames in; out, as Events, the ULPDUs it passes, places
// and delivers and the errors it finds. Beside a hardware fast path it plays
// software (HardwareConsumed, HardwareAdvance). docs/design.md section 7.1
// says how it is laid out.
package rx
