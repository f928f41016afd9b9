package capture

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// LinkType is a capture link type: the LINKTYPE_ value of the pcap and
// pcapng formats (the tcpdump.org link-layer header types registry).
type LinkType uint32

// The link types the reader turns into Ethernet II frames. For a link
// without an Ethernet header the reader writes one: destination and source
// MAC 00:00:00:00:00:00 (what Linux's loopback device carries), except
// that a Linux cooked capture's source address becomes the source MAC when
// it is 6 octets long (the destination is not in that header).
const (
	// LinkNull is BSD loopback: a 4-octet address family in the byte
	// order of the capturing host (either order is recognised), AF_INET
	// (2) giving EtherType IPv4 and the AF_INET6 values of Linux (10),
	// Windows (23), NetBSD and OpenBSD (24), FreeBSD (28) and Darwin (30)
	// giving IPv6; another family gives EtherType 0 (not IP).
	LinkNull LinkType = 0
	// LinkEthernet is Ethernet II (and 802.3), passed on as captured,
	// 802.1Q tags included.
	LinkEthernet LinkType = 1
	// LinkRawBSD is DLT_RAW as most BSDs and Linux wrote it into old files
	// (value 12): read as LinkRaw.
	LinkRawBSD LinkType = 12
	// LinkRaw is raw IP: the EtherType comes from the IP version field (4
	// or 6; another version gives EtherType 0, not IP).
	LinkRaw LinkType = 101
	// LinkLoop is OpenBSD loopback: LinkNull with the family in network
	// byte order (either order is recognised).
	LinkLoop LinkType = 108
	// LinkLinuxSLL is the Linux cooked capture (tcpdump -i any): its
	// protocol field is the EtherType. An 802.1Q tag that libpcap
	// re-inserted after the header (protocol 0x8100, then the tag) is kept
	// as the frame's tag. A protocol below 0x0600 (802.3, 802.2 LLC, CAN,
	// ...) is copied as it is, which an Ethernet parser reads as an 802.3
	// length: not IP.
	LinkLinuxSLL LinkType = 113
	// LinkIPv4 is raw IPv4.
	LinkIPv4 LinkType = 228
	// LinkIPv6 is raw IPv6.
	LinkIPv6 LinkType = 229
	// LinkLinuxSLL2 is the Linux cooked capture version 2 (tcpdump -i any
	// with libpcap 1.10 and later), read as LinkLinuxSLL.
	LinkLinuxSLL2 LinkType = 276
)

const (
	ethHeaderLen  = 14
	etherTypeIPv4 = 0x0800
	etherTypeIPv6 = 0x86dd
)

// linkHeader is the length of each supported link type's header (0 for
// raw IP); ok is false for an unsupported link type.
func linkHeader(lt LinkType) (n int, ok bool) {
	switch lt {
	case LinkEthernet, LinkRaw, LinkRawBSD, LinkIPv4, LinkIPv6:
		return 0, true
	case LinkNull, LinkLoop:
		return 4, true
	case LinkLinuxSLL:
		return 16, true
	case LinkLinuxSLL2:
		return 20, true
	}
	return 0, false
}

func supportedLink(lt LinkType) error {
	if _, ok := linkHeader(lt); !ok {
		return &UnsupportedLinkTypeError{LinkType: lt}
	}
	return nil
}

// linkNames are the registry names (LINKTYPE_ without the prefix) of the
// supported link types and of common ones that are not, for messages.
var linkNames = map[LinkType]string{
	0: "NULL", 1: "ETHERNET", 3: "AX25", 6: "IEEE802_5", 7: "ARCNET_BSD",
	8: "SLIP", 9: "PPP", 10: "FDDI", 12: "DLT_RAW", 50: "PPP_HDLC",
	51: "PPP_ETHER", 100: "ATM_RFC1483", 101: "RAW", 104: "C_HDLC",
	105: "IEEE802_11", 107: "FRELAY", 108: "LOOP", 113: "LINUX_SLL",
	114: "LTALK", 117: "PFLOG", 119: "IEEE802_11_PRISM", 122: "IP_OVER_FC",
	123: "SUNATM", 127: "IEEE802_11_RADIOTAP", 129: "ARCNET_LINUX",
	138: "APPLE_IP_OVER_IEEE1394", 139: "MTP2_WITH_PHDR", 140: "MTP2",
	141: "MTP3", 142: "SCCP", 143: "DOCSIS", 144: "LINUX_IRDA",
	147: "USER0", 163: "IEEE802_11_AVS", 165: "BACNET_MS_TP",
	166: "PPP_PPPD", 169: "GPRS_LLC", 177: "LINUX_LAPD",
	187: "BLUETOOTH_HCI_H4", 189: "USB_LINUX", 192: "PPI",
	195: "IEEE802_15_4_WITHFCS", 201: "BLUETOOTH_HCI_H4_WITH_PHDR",
	215: "IEEE802_15_4_NONASK_PHY", 220: "USB_LINUX_MMAPPED", 224: "FC_2",
	227: "CAN_SOCKETCAN", 228: "IPV4", 229: "IPV6", 239: "NFLOG",
	240: "NETANALYZER", 247: "INFINIBAND", 249: "USBPCAP",
	251: "BLUETOOTH_LE_LL", 253: "NETLINK", 254: "BLUETOOTH_LINUX_MONITOR",
	276: "LINUX_SLL2",
}

// String returns the link type's registry name (LINKTYPE_ without the
// prefix), or "unknown" for a value not in the table.
func (lt LinkType) String() string {
	if n, ok := linkNames[lt]; ok {
		return n
	}
	return "unknown"
}

func supportedNames() string {
	var s []string
	for _, lt := range []LinkType{LinkEthernet, LinkLinuxSLL, LinkLinuxSLL2, LinkRaw, LinkIPv4, LinkIPv6, LinkNull, LinkLoop} {
		s = append(s, fmt.Sprintf("%d %v", uint32(lt), lt))
	}
	return strings.Join(s, ", ")
}

// ethernet returns the captured octets buf[p:q] of a frame of link type lt
// as an Ethernet II frame, and how many octets longer the Ethernet header
// is than the link-layer header it replaced. buf[h:p] is the record header, already read: the Ethernet
// header of a link without one is written over it (and over the link
// header) when it fits, else the frame is copied to the reader's scratch
// buffer.
func (r *Reader) ethernet(lt LinkType, buf []byte, h, p, q int) ([]byte, int) {
	link, _ := linkHeader(lt)
	if lt == LinkEthernet {
		return buf[p:q], 0
	}
	delta := ethHeaderLen - link
	if q-p < link || (link == 0 && q == p) {
		return buf[p:p], delta
	}
	b := buf[p:q]
	var etype uint16
	switch lt {
	case LinkLinuxSLL:
		// packet type, ARPHRD type, address length, 8 octets of
		// address, protocol: the Ethernet header is b[2:16] with the
		// protocol already in place.
		if binary.BigEndian.Uint16(b[4:]) == 6 {
			copy(b[8:14], b[6:12])
		} else {
			clear(b[8:14])
		}
		clear(b[2:8])
		return b[2:], delta
	case LinkLinuxSLL2:
		// protocol, reserved, interface index, ARPHRD type, packet
		// type, address length, 8 octets of address: the Ethernet
		// header is b[6:20] with the source already in place.
		proto := binary.BigEndian.Uint16(b[0:])
		if b[11] != 6 {
			clear(b[12:18])
		}
		clear(b[6:12])
		binary.BigEndian.PutUint16(b[18:], proto)
		return b[6:], delta
	case LinkNull, LinkLoop:
		etype = familyType(b[:4])
	case LinkIPv4:
		etype = etherTypeIPv4
	case LinkIPv6:
		etype = etherTypeIPv6
	default: // LinkRaw, LinkRawBSD
		switch b[0] >> 4 {
		case 4:
			etype = etherTypeIPv4
		case 6:
			etype = etherTypeIPv6
		}
	}
	start := p + link - ethHeaderLen
	if start >= h {
		e := buf[start : p+link]
		clear(e[:12])
		binary.BigEndian.PutUint16(e[12:], etype)
		return buf[start:q], delta
	}
	n := ethHeaderLen + q - p - link
	if r.retain {
		r.buf = nil // the frame must outlive the next one: a buffer of its own
	}
	if cap(r.buf) < n {
		r.buf = make([]byte, n, max(n, 2*cap(r.buf)))
	}
	out := r.buf[:n]
	clear(out[:12])
	binary.BigEndian.PutUint16(out[12:], etype)
	copy(out[ethHeaderLen:], b[link:])
	return out, delta
}

// familyType maps a BSD loopback address family, in either byte order, to
// an EtherType.
func familyType(b []byte) uint16 {
	fam := binary.LittleEndian.Uint32(b)
	if fam&0xffff0000 != 0 {
		fam = binary.BigEndian.Uint32(b)
	}
	switch fam {
	case 2:
		return etherTypeIPv4
	case 10, 23, 24, 28, 30:
		return etherTypeIPv6
	}
	return 0
}
