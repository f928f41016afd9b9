package mpa

import (
	"encoding/binary"
	"hash/crc32"
)

// castagnoli is the CRC32C table (RFC 3720 polynomial, as used by MPA).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CRC32C returns the CRC32C of b: reflected, initial value 0xFFFFFFFF and
// final XOR 0xFFFFFFFF, exactly as iSCSI (RFC 3720 B.4) and MPA (RFC 5044
// section 4.4).
func CRC32C(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// UpdateCRC32C extends a running CRC32C (as returned by CRC32C or a previous
// UpdateCRC32C) with b.
func UpdateCRC32C(crc uint32, b []byte) uint32 { return crc32.Update(crc, castagnoli, b) }

// AppendCRC appends the four wire octets of the CRC value v: least
// significant octet first, as iSCSI digests are sent.
func AppendCRC(dst []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(dst, v) }

// WireCRC reads the CRC value from its four wire octets.
func WireCRC(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
