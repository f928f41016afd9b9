// Package mpa implements the wire formats of MPA (RFC 5044, and Rev 2 of RFC
// 6581): FPDU framing with markers and CRC32C, the startup frames and their
// negotiation, MULPDU, and the segmentation policies a sender applies. It is
// the sender half of the golden model; package rx is the receiver.
package mpa
