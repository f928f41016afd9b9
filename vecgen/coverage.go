package vecgen

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Requirement is one MUST / SHOULD / REQUIRED statement of RFC 5044
// sections 4 to 8 and how the vectors cover it.
type Requirement struct {
	ID      string // stable row id: section and letter
	Section string // RFC 5044 section
	Level   string // MUST, MUST NOT, SHOULD, REQUIRED
	// Quote is the requirement's text, verbatim (up to white space) from
	// the spec texts in shared/spec: RFC 5044 for sections 5 to 8, and
	// draft-ietf-rddp-mpa-01 for section 4, whose RFC text is not there.
	Quote string
	// Tags select the vectors that exercise the requirement: every
	// scenario carrying one of them.
	Tags []string
	// Reason says why no wire vector can show the requirement (when Tags
	// select nothing).
	Reason string
	// Paraphrase marks a row whose Quote restates the rule in the
	// project's words (RFC 6581 rows: its text is not in shared/spec, so
	// no test can check a quote against it).
	Paraphrase bool
	// Note says where RFC 5044 differs from the draft-01 quote (shown
	// after it).
	Note string
}

// Requirements6581 are the rules of RFC 6581 (enhanced connection
// establishment, MPA Rev 2) that a receiver's behaviour on the wire shows,
// as golden/mpa and golden/rx implement them. Only row 6581-p2p-a is a
// verbatim quote (as cited from section 9.2 in an implementation's bug
// report); the others are paraphrases, marked as such in the table.
var Requirements6581 = []Requirement{
	{ID: "6581-rev", Section: "RFC 6581 (Rev field)", Level: "MUST", Paraphrase: true, Quote: "To use any enhanced connection establishment feature a sender MUST set Rev to 2; a Rev 2 frame with the enhanced flag (octet 16, 0x10) begins its private data with the enhanced header", Tags: []string{"rev2"}},
	{ID: "6581-hdr", Section: "RFC 6581 (enhanced header)", Level: "MUST", Paraphrase: true, Quote: "The enhanced header MUST be the first 4 octets of the private data, counted in PD_Length: IRD and ORD in 14 bits each, flags A (peer-to-peer) and B (Send RTR) above IRD, C (Write RTR) and D (Read RTR) above ORD; the ULP's private data follows", Tags: []string{"rev2-ird-ord", "rev2-private-data", "rev2-malformed"}},
	{ID: "6581-interop", Section: "RFC 6581 (interoperability)", Level: "MUST", Paraphrase: true, Quote: "A Reply MUST NOT carry a higher Rev than the Request; a Rev 1 Reply to a Rev 2 Request leaves the connection under RFC 5044 (no enhanced header, no RTR)", Tags: []string{"rev2-fallback", "rev2-malformed", "startup-rev"}},
	{ID: "6581-p2p-a", Section: "RFC 6581 9.2", Level: "MUST", Quote: "If Control Flag A is 1 in the MPA Request message, then the responder MUST set Control Flag A to 1 in the MPA reply message.", Tags: []string{"rev2-p2p", "rtr-mismatch"}},
	{ID: "6581-p2p-pick", Section: "RFC 6581 (peer-to-peer)", Level: "MUST", Paraphrase: true, Quote: "A peer-to-peer Reply MUST set exactly one RTR flag, one of those the Request offered; otherwise the Initiator reports No Matching RTR Option", Tags: []string{"rev2-p2p", "rtr-mismatch", "rev2-malformed"}},
	{ID: "6581-rtr-first", Section: "RFC 6581 (peer-to-peer)", Level: "MUST", Paraphrase: true, Quote: "In peer-to-peer mode the Initiator MUST send the agreed RTR (a zero-length Send, RDMA Write or RDMA Read Request) as its first FPDU after the Reply", Tags: []string{"rtr-send", "rtr-write", "rtr-read", "rtr-mismatch"}},
	{ID: "6581-rtr-wait", Section: "RFC 6581 (peer-to-peer); RFC 5044 7.1.2 rule 4", Level: "MUST NOT", Paraphrase: true, Quote: "The Responder MUST NOT send FPDUs before it has received the RTR", Tags: []string{"rev2-p2p", "rtr-early-responder"}},
	{ID: "6581-ird", Section: "RFC 6581 (IRD/ORD negotiation)", Level: "MUST", Paraphrase: true, Quote: "An end MUST NOT issue more outstanding RDMA Read Requests than the peer's IRD allows (Insufficient IRD, error 6, when the values cannot be met)", Reason: "whether an end can meet the peer's IRD/ORD is its local resource decision (Linux siw relaxes it by default): the receiver reports the values (replay, established records) and checks nothing"},
}

// draft-01 section numbers of the section 4 texts, for the table.
var draftSection = map[string]string{
	"4.1": "4", "4.2": "4.1", "4.3": "5.1", "4.4": "5.2", "4.5": "5.3.2",
}

// Requirements is the coverage map's content.
var Requirements = []Requirement{
	// 4.1 FPDU format
	{ID: "4.1-a", Section: "4.1", Level: "MUST", Quote: "The format of an FPDU shown below MUST be used for all MPA FPDUs", Tags: []string{"aligned", "packed", "spec-figure"}},
	{ID: "4.1-b", Section: "4.1", Level: "MUST", Quote: "The pad data MUST be set to zero by the sender and ignored by the receiver (except for CRC checking)", Tags: []string{"pad-nonzero", "pad"}},
	{ID: "4.1-c", Section: "4.1", Level: "MUST NOT", Quote: "When CRCs are not enabled, this field is still present, may contain any value, and MUST NOT be checked", Tags: []string{"crc-off"}},
	// 4.2 Marker format
	{ID: "4.2-a", Section: "4.2", Level: "MUST", Quote: "The format of a marker MUST be as specified in Figure 3", Tags: []string{"markers-both", "markers-one-way"}},
	{ID: "4.2-b", Section: "4.2", Level: "MUST", Quote: "The Reserved field MUST be set to zero on transmit and ignored on receive (except for CRC calculation)", Tags: []string{"marker-reserved"}},
	// 4.3 MPA markers
	{ID: "4.3-a", Section: "4.3", Level: "MUST", Quote: "All MPA senders MUST be able to generate markers when their use is declared by the opposing receiver", Tags: []string{"markers-one-way", "markers-both"}},
	{ID: "4.3-b", Section: "4.3", Level: "MUST", Quote: "MPA senders MUST insert a marker into the data stream at a 512 octet periodic interval in the TCP Sequence Number Space", Tags: []string{"markers-both", "seq-wrap", "jumbo"}},
	{ID: "4.3-c", Section: "4.3", Level: "MUST", Quote: "FPDUPTR MUST contain the number of octets in the TCP stream from the beginning of the current FPDU to the first octet of the marker, unless the marker falls between FPDUs", Tags: []string{"marker-error", "markers-both", "fpduptr-rfc5044", "fpduptr-draft01", "fpduptr-wrong"},
		Note: "RFC 5044 counts FPDUPTR from the first octet of the FPDU's ULPDU_Length field (shared/spec/NOTES.md): 4 less than this reading for an FPDU that begins with a marker and holds a later one. The vectors carry RFC 5044's value; fpduptr-draft01 carries this one, which a receiver that interoperates with both accepts in exactly that case"},
	{ID: "4.3-d", Section: "4.3", Level: "MUST", Quote: "the marker MUST be placed in the following FPDU and viewed as being part of that FPDU (e.g. for CRC calculation)", Tags: []string{"marker-between", "marker-first", "spec-figure"}},
	{ID: "4.3-e", Section: "4.3", Level: "MUST", Quote: "MPA reserves these bits so they MUST be treated as zero for computation at the receiver", Tags: []string{"fpduptr-low-bits"}},
	{ID: "4.3-f", Section: "4.3", Level: "MUST", Quote: "the MPA markers MUST be inserted immediately following MPA", Tags: []string{"marker-first"}},
	{ID: "4.3-g", Section: "4.3", Level: "MUST", Quote: "If an FPDU is large enough to contain multiple markers, they MUST all point to the same point in the TCP stream: the first octet of the FPDU", Tags: []string{"jumbo", "aligned", "marker-error", "fpduptr-grid"},
		Note: "RFC 5044: the first octet of the FPDU's ULPDU_Length field"},
	{ID: "4.3-h", Section: "4.3", Level: "MUST", Quote: "the marker MUST point to the start of the FPDU containing the marker unless the marker falls between FPDUs, in which case the marker MUST be zero", Tags: []string{"marker-between", "marker-error"}},
	{ID: "4.3-i", Section: "4.3", Level: "MUST", Quote: "MPA Receivers MUST preserve ULPDU boundaries when passing data to DDP", Tags: []string{"packed", "resegment", "ooo"}},
	{ID: "4.3-j", Section: "4.3", Level: "MUST", Quote: "MPA Receivers MUST pass the ULPDU data and the ULPDU Length to DDP and not the markers, headers, and CRC", Tags: []string{"markers-both", "cut-marker", "ooo-markers"}},
	// 4.4 CRC
	{ID: "4.4-a", Section: "4.4", Level: "MUST", Quote: "An MPA implementation MUST implement CRC support", Tags: []string{"crc-on", "crc-error"}},
	{ID: "4.4-b", Section: "4.4", Level: "MUST", Quote: "The default configuration for a connection MUST be to use CRCs", Reason: "a configuration default is not on the wire: a capture shows only the C bits that were sent; the vectors cover every negotiated outcome (crc-off, crc-request-only, crc-reply-only, CRC on)"},
	{ID: "4.4-c", Section: "4.4", Level: "MUST", Quote: "After receipt of an MPA startup declaration indicating that its peer requires CRCs, an MPA instance MUST continue generating and checking CRCs until the connection terminates", Tags: []string{"crc-one-side"}},
	{ID: "4.4-d", Section: "4.4", Level: "MUST", Quote: "it MUST turn off CRC checking immediately after receipt of an MPA mode declaration indicating that its peer also does not require CRCs", Tags: []string{"crc-off"}},
	{ID: "4.4-e", Section: "4.4", Level: "MUST", Quote: "When sending an FPDU, the sender MUST include a CRC field", Tags: []string{"crc-off", "crc-on"}},
	{ID: "4.4-f", Section: "4.4", Level: "MUST", Quote: "When CRCs are enabled, the CRC field in the MPA FPDU MUST be computed using the CRC32C polynomial in the manner described in the iSCSI Protocol", Tags: []string{"spec-figure", "crc-on", "crc-error"}},
	{ID: "4.4-g", Section: "4.4", Level: "MUST", Quote: "The fields which MUST be included in the CRC calculation when sending an FPDU are as follows", Tags: []string{"marker-first", "marker-between", "spec-figure", "pad-nonzero", "marker-reserved"}},
	{ID: "4.4-h", Section: "4.4", Level: "MUST", Quote: "If not, the receiver MUST treat the FPDU as an invalid FPDU", Tags: []string{"crc-error"}},
	// 4.5 FPDU size
	{ID: "4.5-a", Section: "4.5", Level: "MUST", Quote: "The maximum ULPDU Length for a single ULPDU when markers are present MUST be computed as", Tags: []string{"aligned", "jumbo"}},
	{ID: "4.5-b", Section: "4.5", Level: "MUST", Quote: "The maximum ULPDU Length for a single ULPDU when markers are NOT present MUST be computed as", Tags: []string{"markers-none"}},
	{ID: "4.5-c", Section: "4.5", Level: "SHOULD", Quote: "DDP SHOULD provide ULPDUs that are as large as possible, but less than or equal to MULPDU", Tags: []string{"aligned", "jumbo"}},
	{ID: "4.5-d", Section: "4.5", Level: "MUST NOT", Quote: "the MPA on TCP sender MUST NOT shrink the MULPDU below 128 octets", Reason: "a sender's choice when EMSS shrinks; a receiver accepts every ULPDU_Length, so no receiver behaviour depends on it"},
	{ID: "4.5-e", Section: "4.5", Level: "MUST NOT", Quote: "MPA MUST NOT provide a MULPDU smaller than 128", Reason: "a sender's choice when packing; a receiver accepts every ULPDU_Length, so no receiver behaviour depends on it"},
	// 5 interactions with TCP
	{ID: "5.1-a", Section: "5.1", Level: "SHOULD", Quote: "MPA transmitters SHOULD calculate a MULPDU as described in Section 4.5", Tags: []string{"aligned", "jumbo"}},
	{ID: "5.1-b", Section: "5.1", Level: "SHOULD", Quote: "MPA transmitters SHOULD also use whatever facilities the TCP stack presents to cause the TCP transmitter to start TCP segments at FPDU boundaries", Tags: []string{"aligned", "one-per-segment"}},
	{ID: "5.1-c", Section: "5.1", Level: "REQUIRED", Quote: "MPA receivers are REQUIRED to be able to operate correctly even if alignment is lost", Tags: []string{"resegment", "octet", "cut-length", "cut-crc"}},
	{ID: "5.2-a", Section: "5.2", Level: "MUST", Quote: "The receivers MUST identify FPDU boundaries by using the ULPDU_LENGTH field", Tags: []string{"resegment", "packed", "markers-none"}},
	// 6 FPDU identification
	{ID: "6-a", Section: "6", Level: "MUST", Quote: "An MPA receiver MUST first verify the FPDU before passing the ULPDU to DDP", Tags: []string{"crc-error", "marker-error"}},
	{ID: "6-a2", Section: "6", Level: "MUST", Quote: "To do this, the receiver MUST: * locate the start of the FPDU unambiguously, * verify its CRC (if CRC checking is enabled)", Tags: []string{"resegment", "crc-error", "crc-off"}},
	{ID: "6-b", Section: "6", Level: "MUST", Quote: "To detect the start of the FPDU unambiguously one of the following MUST be used", Tags: []string{"ooo-markers", "ooo-no-markers", "resegment"}},
	{ID: "6-c", Section: "6", Level: "MUST", Quote: "The ULPDU Length field (see Section 4) MUST be used to determine if the entire FPDU is present before forwarding the ULPDU to DDP", Tags: []string{"cut-length", "cut-crc", "octet", "fin"}},
	// 7.1 connection setup
	{ID: "7.1-a", Section: "7.1", Level: "MUST", Quote: "MPA requires that the Consumer MUST activate MPA, and any TCP enhancements for MPA, on a TCP half connection at the same location in the octet stream at both the sender and the receiver", Tags: []string{"marker-first", "startup-split"}},
	{ID: "7.1-b", Section: "7.1", Level: "MUST", Quote: "A DDP endpoint MUST be \"bound\" to the MPA connection at entry to this phase", Tags: []string{"ddp-tagged", "ddp-untagged"}},
	{ID: "7.1.1-0a", Section: "7.1.1", Level: "MUST", Quote: "Initiator mode senders MUST set this field to the fixed value \"MPA ID Req Frame\"", Tags: []string{"startup-key", "private-data"}},
	{ID: "7.1.1-0b", Section: "7.1.1", Level: "MUST", Quote: "Responder mode senders MUST set this field to the fixed value \"MPA ID Rep Frame\"", Tags: []string{"startup-key", "startup-initiator-initiator"}},
	{ID: "7.1.1-0c", Section: "7.1.1", Level: "REQUIRED", Quote: "When this bit is '1' in an MPA Request Frame, the Initiator declares that Markers are REQUIRED in FPDUs sent from the Responder", Tags: []string{"markers-one-way", "markers-both"}},
	{ID: "7.1.1-0d", Section: "7.1.1", Level: "REQUIRED", Quote: "When set to '1' in an MPA Reply Frame, this bit declares that Markers are REQUIRED in FPDUs sent from the Initiator", Tags: []string{"markers-one-way", "markers-both"}},
	{ID: "7.1.1-a", Section: "7.1.1", Level: "MUST", Quote: "Responder mode receivers MUST check this field for the same value, and close the connection and report an error locally if any other value is detected", Tags: []string{"startup-key"}},
	{ID: "7.1.1-b", Section: "7.1.1", Level: "MUST", Quote: "Initiator mode receivers MUST check this field for the same value, and close the connection and report an error locally if any other value is detected", Tags: []string{"startup-key", "startup-initiator-initiator"}},
	{ID: "7.1.1-c", Section: "7.1.1", Level: "MUST NOT", Quote: "When in a received MPA Request Frame or MPA Reply Frame and the value is '0', Markers MUST NOT be added to the data stream by that endpoint", Tags: []string{"markers-one-way", "markers-none"}},
	{ID: "7.1.1-d", Section: "7.1.1", Level: "MUST", Quote: "When '1' Markers MUST be added as described in Section 4.3", Tags: []string{"markers-one-way", "markers-both"}},
	{ID: "7.1.1-e", Section: "7.1.1", Level: "MUST NOT", Quote: "When this field is '0' in the MPA Request Frame and the MPA Reply Frame, CRCs MUST not be checked", Tags: []string{"crc-off"}},
	{ID: "7.1.1-f", Section: "7.1.1", Level: "MUST", Quote: "When this bit is '1' in either the MPA Request Frame or MPA Reply Frame, CRCs MUST be generated and checked by both endpoints", Tags: []string{"crc-one-side"}},
	{ID: "7.1.1-g", Section: "7.1.1", Level: "MUST", Quote: "When CRCs are not in use, the CRC field MUST be considered valid for FPDU checking regardless of its contents", Tags: []string{"crc-off"}},
	{ID: "7.1.1-h", Section: "7.1.1", Level: "MUST", Quote: "It MUST be set to zero when sending, and not checked on reception", Tags: []string{"startup-res"}},
	{ID: "7.1.1-i", Section: "7.1.1", Level: "MUST", Quote: "MPA receivers compliant with this version of the specification MUST check this field", Tags: []string{"startup-rev", "startup-rev0-strict", "startup-rev0-permissive"}},
	{ID: "7.1.1-i2", Section: "7.1.1", Level: "MUST", Quote: "For this version of the specification, senders MUST set this field to one", Tags: []string{"startup-rev", "startup-rev0-permissive"}},
	{ID: "7.1.1-j", Section: "7.1.1", Level: "MUST", Quote: "If the MPA receiver cannot interoperate with the received version, then it MUST close the connection and report an error locally", Tags: []string{"startup-rev", "startup-rev0-strict"}},
	{ID: "7.1.1-k", Section: "7.1.1", Level: "MUST", Quote: "PD_Length: This field MUST contain the length in octets of the Private Data field", Tags: []string{"private-data", "startup-pd-mismatch"}},
	{ID: "7.1.1-l", Section: "7.1.1", Level: "MUST", Quote: "If the receiver detects that the PD_Length field does not match the length of the Private Data field, or if the length of the Private Data field exceeds 512 octets, the receiver MUST close the connection and report an error locally", Tags: []string{"startup-pd-mismatch", "startup-pd-long", "startup-truncated"}},
	{ID: "7.1.1-m", Section: "7.1.1", Level: "MUST", Quote: "The Private Data field MUST be between 0 and 512 octets in length", Tags: []string{"private-data", "startup-pd-long"}},
	// 7.1.2 startup rules
	{ID: "7.1.2-1", Section: "7.1.2 rule 1", Level: "MUST", Quote: "When MPA is started in the Initiator mode, the MPA implementation MUST send a valid MPA Request Frame", Tags: []string{"private-data", "startup-split", "startup-key"}},
	{ID: "7.1.2-2a", Section: "7.1.2 rule 2", Level: "MUST", Quote: "MUST wait until an MPA Request Frame is received and validated before entering Full MPA/DDP Operation", Tags: []string{"startup-split", "startup-key", "startup-truncated"}},
	{ID: "7.1.2-2b", Section: "7.1.2 rule 2", Level: "MUST", Quote: "If the MPA Request Frame is improperly formatted, the implementation MUST close the TCP connection and exit MPA", Tags: []string{"startup-key", "startup-rev", "startup-pd-long", "startup-pd-mismatch", "startup-truncated"}},
	{ID: "7.1.2-2c", Section: "7.1.2 rule 2", Level: "SHOULD", Quote: "the implementation SHOULD return an MPA Reply Frame with the Rejected Connection bit set to '1'", Tags: []string{"startup-rejected"}},
	{ID: "7.1.2-2d", Section: "7.1.2 rule 2", Level: "MUST", Quote: "the implementation MUST exit MPA, leaving the TCP connection open", Tags: []string{"startup-rejected"}},
	{ID: "7.1.2-3a", Section: "7.1.2 rule 3", Level: "MUST", Quote: "MPA Initiator mode implementations MUST receive and validate an MPA Reply Frame", Tags: []string{"startup-key", "startup-rev", "startup-pd-long"}},
	{ID: "7.1.2-3b", Section: "7.1.2 rule 3", Level: "MUST", Quote: "If the MPA Reply Frame is improperly formatted, the implementation MUST close the TCP connection and exit MPA", Tags: []string{"startup-key", "startup-rev", "startup-truncated"}},
	{ID: "7.1.2-3c", Section: "7.1.2 rule 3", Level: "MUST", Quote: "or if the Rejected Connection bit is set to '1', the implementation MUST exit MPA, leaving the TCP connection open", Tags: []string{"startup-rejected"}},
	{ID: "7.1.2-4", Section: "7.1.2 rule 4", Level: "MUST", Quote: "MPA Responder mode implementations MUST receive and validate at least one FPDU before sending any FPDUs or Markers", Tags: []string{"markers-both", "markers-one-way"}},
	{ID: "7.1.2-5", Section: "7.1.2 rule 5", Level: "MUST", Quote: "the TCP/DDP connection MUST be closed, and an error returned to the ULP", Tags: []string{"startup-key"}},
	{ID: "7.1.2-8a", Section: "7.1.2 rule 8", Level: "MUST", Quote: "MPA implementations MUST use the difference between the MPA Request Frame and the MPA Reply Frame to check for incorrect \"Initiator/Initiator\" startups", Tags: []string{"startup-initiator-initiator"}},
	{ID: "7.1.2-8b", Section: "7.1.2 rule 8", Level: "SHOULD", Quote: "Implementations SHOULD put a timeout on waiting for the MPA Request Frame when started in Responder mode", Reason: "a timeout depends on time, not on the octets of a capture; vectors carry fixed frame spacing and no timing semantics"},
	{ID: "7.1.2-9a", Section: "7.1.2 rule 9", Level: "MUST", Quote: "MPA implementations MUST validate the PD_Length field", Tags: []string{"startup-pd-long", "startup-pd-mismatch"}},
	{ID: "7.1.2-9d", Section: "7.1.2 rule 9", Level: "MUST", Quote: "The buffer that receives the Private Data field MUST be large enough to receive that data", Tags: []string{"private-data", "startup-pd-long"}},
	{ID: "7.1.2-9b", Section: "7.1.2 rule 9", Level: "MUST", Quote: "the amount of Private Data MUST not exceed the PD_Length or the application buffer", Tags: []string{"startup-pd-mismatch"}},
	{ID: "7.1.2-9c", Section: "7.1.2 rule 9", Level: "MUST", Quote: "If any of the above fails, the startup frame MUST be considered improperly formatted", Tags: []string{"startup-pd-long", "startup-pd-mismatch"}},
	{ID: "7.1.2-10a", Section: "7.1.2 rule 10", Level: "SHOULD", Quote: "MPA implementations SHOULD implement a reasonable timeout while waiting for the entire set of startup frames", Reason: "a timeout depends on time, not on the octets of a capture (a truncated frame ended by FIN is covered: startup-truncated)"},
	{ID: "7.1.2-10b", Section: "7.1.2 rule 10", Level: "SHOULD", Quote: "ULPs SHOULD implement a reasonable timeout while waiting for FPDUs, ULPDUs, and application level messages", Reason: "a ULP timeout depends on time, not on the octets of a capture"},
	{ID: "7.1.5-a", Section: "7.1.5", Level: "SHOULD", Quote: "Enabling the DDP/MPA stack SHOULD be done only when no incoming stream data is expected", Reason: "advice on when a dual-stack host switches stacks internally; the switch point is not on the wire (the vectors give it as InitiatorSeq/ResponderSeq)"},
	{ID: "7.1.5-b", Section: "7.1.5", Level: "MUST", Quote: "TCP's rules MUST be followed", Tags: []string{"loss", "retransmit", "duplicate", "ooo"}},
	{ID: "7.1.5-c", Section: "7.1.5", Level: "MUST", Quote: "TCP MUST recover appropriately even when this occurs while switching stacks", Tags: []string{"startup-split", "loss"}},
	{ID: "7.2-a", Section: "7.2", Level: "SHOULD", Quote: "A mechanism SHOULD be provided by MPA to DDP for DDP to be made aware that a graceful close of the TCP connection has been received by the TCP", Tags: []string{"fin"}},
	// 8 errors
	{ID: "8-a", Section: "8", Level: "MUST", Quote: "The following errors MUST be detected by MPA and the codes SHOULD be provided to DDP or other Consumer", Tags: []string{"fin", "rst", "crc-error", "marker-error", "startup-key"}},
	{ID: "8-b", Section: "8", Level: "SHOULD", Quote: "If the FPDU start determined from previous ULPDU Length fields does not match with the MPA Marker position, MPA SHOULD deliver an error to DDP", Tags: []string{"marker-error"}},
	{ID: "8-c", Section: "8", Level: "SHOULD", Quote: "the check SHOULD be made when a gap creating an out-of-order sequence is closed and any time a Marker points to an already identified FPDU", Tags: []string{"marker-error"}},
	{ID: "8-d", Section: "8", Level: "MUST", Quote: "Invalid MPA Request Frame or MPA Response Frame received. In this case, the TCP connection MUST be immediately closed", Tags: []string{"startup-key", "startup-rev", "startup-pd-long", "startup-truncated", "startup-rejected"}},
	{ID: "8-e", Section: "8", Level: "MUST NOT", Quote: "Once MPA delivers an error of any type, it MUST NOT pass or deliver any additional FPDUs on that half connection", Tags: []string{"after-error"}},
	{ID: "8-f", Section: "8", Level: "MUST NOT", Quote: "For Error codes 2 and 3, MPA MUST NOT close the TCP connection following a reported error", Tags: []string{"half-independence"}},
}

// WireRow is a feature of the wire below MPA (IPv6, link headers, frame
// sizes) and the tags of the vectors that carry it.
type WireRow struct {
	Feature string
	Tags    []string
}

// WireRows are the rows of the coverage map's section on the wire.
var WireRows = []WireRow{
	{"IPv6 (RFC 8200): TCP over IPv6, the IPv6 pseudo-header in the TCP checksum", []string{"ipv6"}},
	{"an IPv6 extension header (Destination Options) between the fixed header and TCP", []string{"ipv6-ext"}},
	{"IPv4 and IPv6 connections on one link", []string{"dual-stack"}},
	{"a bad TCP checksum over IPv6", []string{"ipv6-bad-tcp-checksum"}},
	{"a bad IPv4 header checksum, a bad TCP checksum over IPv4", []string{"bad-ip-checksum"}},
	{"802.1Q tags", []string{"vlan"}},
	{"IPv4 options", []string{"ip-options"}},
	{"TCP timestamps (RFC 7323)", []string{"tcp-timestamps"}},
	{"jumbo frames (9000-octet MTU)", []string{"jumbo"}},
	{"TCP segments longer than the wire carries (a capture on a sender with TCP segmentation offload)", []string{"super-frames"}},
	{"traffic that is not MPA: plain TCP, UDP, ICMP, IPv6, ARP", []string{"non-mpa"}},
}

// VectorsFor returns the names of the scenarios carrying any of the tags.
func VectorsFor(tags []string) []string {
	var out []string
	for _, s := range Scenarios() {
		for _, t := range tags {
			if has(s.Tags, t) {
				out = append(out, s.Name)
				break
			}
		}
	}
	return out
}

func has(tags []string, t string) bool {
	for _, x := range tags {
		if x == t {
			return true
		}
	}
	return false
}

// CheckCoverage returns an error naming every requirement row that has
// neither a vector nor a reason, or both (a reason must not hide vectors).
func CheckCoverage() error {
	var bad []string
	seen := map[string]bool{}
	for _, r := range append(append([]Requirement(nil), Requirements...), Requirements6581...) {
		if seen[r.ID] {
			bad = append(bad, r.ID+" (duplicate id)")
		}
		seen[r.ID] = true
		v := VectorsFor(r.Tags)
		switch {
		case len(r.Tags) > 0 && len(v) == 0:
			bad = append(bad, r.ID+" (tags select no vector)")
		case len(v) == 0 && r.Reason == "":
			bad = append(bad, r.ID+" (no vector and no reason)")
		case len(v) > 0 && r.Reason != "":
			bad = append(bad, r.ID+" (vectors and a reason)")
		}
	}
	for _, w := range WireRows {
		if len(VectorsFor(w.Tags)) == 0 {
			bad = append(bad, "wire: "+w.Feature+" (tags select no vector)")
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("vecgen: coverage map rows: %s", strings.Join(bad, "; "))
	}
	return nil
}

// CoverageMarkdown renders vectors/COVERAGE.md. It fails if CheckCoverage
// does.
func CoverageMarkdown() ([]byte, error) {
	if err := CheckCoverage(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(`# RFC 5044 coverage map

Generated by ` + "`vecgen coverage`" + ` (` + "`make vectors`" + `); do not edit by hand.

Every MUST, MUST NOT, SHOULD and REQUIRED of RFC 5044 sections 4 to 8 whose
effect a receiver's behaviour on the wire can show, with the vectors that
exercise it, or the reason no wire vector can. Sender-side rules are covered
by vectors whose traffic follows them (a receiver must accept that traffic),
and where breaking the rule is detectable, by vectors that break it. The
quotes are checked against the spec texts (RFC 5044 sections 5 to 10; for
section 4, whose RFC text is not in the spec folder, the same rules in
draft-ietf-rddp-mpa-01, section given in brackets). A test fails if a row
has neither vectors nor a reason.

| Id | Section | Level | Requirement | Vectors |
| --- | --- | --- | --- | --- |
`)
	for _, r := range Requirements {
		sec := r.Section
		if d, ok := draftSection[r.Section]; ok {
			sec += " [draft-01 " + d + "]"
		}
		cov := ""
		if v := VectorsFor(r.Tags); len(v) > 0 {
			cov = "`" + strings.Join(v, "`, `") + "`"
		} else {
			cov = "none: " + r.Reason
		}
		q := mdEscape(r.Quote)
		if r.Note != "" {
			q += " *(" + mdEscape(r.Note) + ")*"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.ID, sec, r.Level, q, cov)
	}
	b.WriteString(`
## RFC 6581: enhanced connection establishment (MPA Rev 2)

The rules as golden/mpa (Negotiate, CheckRTR) and golden/rx apply them.
RFC 6581's text is not in the spec folder: rows marked *paraphrase* state
the rule in this project's words and are not checked against the RFC; the
one verbatim quote is section 9.2 as an implementation's bug report cites
it. Error codes: 4 for invalid enhanced frames and for a Responder that
sends before the RTR; 7 (RFC 6581's No Matching RTR Option) when Request
and Reply do not agree on an RTR or the Initiator's first FPDU is not the
agreed RTR.

| Id | Section | Level | Requirement | Vectors |
| --- | --- | --- | --- | --- |
`)
	for _, r := range Requirements6581 {
		q := mdEscape(r.Quote)
		if r.Paraphrase {
			q = "*paraphrase:* " + q
		}
		cov := ""
		if v := VectorsFor(r.Tags); len(v) > 0 {
			cov = "`" + strings.Join(v, "`, `") + "`"
		} else {
			cov = "none: " + r.Reason
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.ID, r.Section, r.Level, q, cov)
	}
	b.WriteString(`
## Beyond RFC 5044: DDP (RFC 5041 section 7) errors at the Data Sink

| Error | Vectors |
| --- | --- |
`)
	for _, e := range []struct{ name, tag string }{
		{"invalid STag (unknown)", "error-unknown-stag"},
		{"STag not associated with the DDP stream (other connection, other direction)", "ddp-error-stag-stream"},
		{"base or bounds violation", "error-out-of-bounds"},
		{"TO wrap", "error-to-wrap"},
		{"invalid DDP version (tagged and untagged)", "error-version"},
		{"invalid QN", "error-bad-qn"},
		{"invalid MSN: no buffer / MSN range", "error-no-buffer"},
		{"invalid MO, message too long for the buffer", "error-mo-bounds"},
	} {
		fmt.Fprintf(&b, "| %s | `%s` |\n", e.name, strings.Join(VectorsFor([]string{e.tag}), "`, `"))
	}
	b.WriteString(`
## Beyond RFC 5044: the wire below MPA

| Feature | Vectors |
| --- | --- |
`)
	for _, w := range WireRows {
		fmt.Fprintf(&b, "| %s | `%s` |\n", mdEscape(w.Feature), strings.Join(VectorsFor(w.Tags), "`, `"))
	}
	b.WriteString(`
## Vectors

| Vector | Tags | What it exercises |
| --- | --- | --- |
`)
	for _, s := range Scenarios() {
		tags := append([]string(nil), s.Tags...)
		sort.Strings(tags)
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", s.Name, strings.Join(tags, ", "), mdEscape(s.Summary))
	}
	return b.Bytes(), nil
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
