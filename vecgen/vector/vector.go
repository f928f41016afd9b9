package vector

import (
	"fmt"
	"net/netip"
	"strconv"
	"time"
)

// FormatVersion is the value of Setup.Format that this package writes and
// accepts.
const FormatVersion = 1

// File names inside a vector directory.
const (
	PcapFile     = "frames.pcap"
	SetupFile    = "setup.json"
	ExpectedFile = "expected.jsonl"
	BuffersFile  = "buffers.bin"
)

// Directions of a half connection, as used in STag and Recv.
const (
	I2R = "i2r" // data sent by the Initiator, received by the Responder
	R2I = "r2i" // data sent by the Responder, received by the Initiator
)

// Epoch is the timestamp of the first frame of every generated vector; frame
// i is stamped Epoch + i*FrameGap so that the files are reproducible.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// FrameGap is the time between consecutive frames of a generated vector.
const FrameGap = 10 * time.Microsecond

// Setup is the content of setup.json.
type Setup struct {
	Format  int    `json:"format"`  // FormatVersion
	Name    string `json:"name"`    // vector (scenario) name, the directory name
	Summary string `json:"summary"` // one line: what the vector exercises
	Seed    uint64 `json:"seed"`    // generator seed
	Scale   int    `json:"scale"`   // generator scale (1 for the committed set)
	// Tags name the features the vector exercises (see vectors/COVERAGE.md).
	Tags []string `json:"tags"`
	// OneFPDUPerSegment is true when every TCP segment that carries MPA
	// full-operation data carries exactly one whole FPDU (and each startup
	// frame is whole in one segment): the layout Wireshark's MPA dissector
	// can follow.
	OneFPDUPerSegment bool     `json:"one_fpdu_per_segment"`
	Receiver          Receiver `json:"receiver"`
	Conns             []Conn   `json:"connections"`
	STags             []STag   `json:"stags"`
	Recvs             []Recv   `json:"recvs"`
}

// Receiver holds the receiver-wide configuration.
type Receiver struct {
	// Window is the number of octets beyond rcv_nxt the receiver accepts
	// per half connection (0: the receiver's default, 1 MiB).
	Window uint32 `json:"window"`
	// DDPVersion is the DDP version (DV) the Data Sink accepts: 1 (RFC
	// 5041), or 0 for vectors whose connections negotiate Rev 0 MPA and so
	// the RDMA Consortium's DDP.
	DDPVersion uint8 `json:"ddp_version"`
}

// Conn is one MPA connection whose startup the receiver follows.
type Conn struct {
	Initiator    string `json:"initiator"`     // "ip:port" of the MPA Initiator
	Responder    string `json:"responder"`     // "ip:port" of the MPA Responder
	InitiatorSeq uint32 `json:"initiator_seq"` // TCP seq of the MPA Request's first octet
	ResponderSeq uint32 `json:"responder_seq"` // TCP seq of the MPA Reply's first octet
	// Permissive: the receiver accepts Rev 0 startup frames (RFC 5044
	// Appendix C); otherwise only Rev 1.
	Permissive bool `json:"permissive"`
	// Intended is what the generator negotiated for the connection, for
	// people reading the vector; nil when the startup is meant to fail.
	// Receivers must derive the parameters from the startup frames.
	Intended *Negotiated `json:"intended,omitempty"`
}

// Negotiated is a connection's negotiated MPA parameters.
type Negotiated struct {
	I2RMarkers bool  `json:"i2r_markers"` // markers in the Initiator's FPDUs
	R2IMarkers bool  `json:"r2i_markers"` // markers in the Responder's FPDUs
	CRC        bool  `json:"crc"`
	DDPVersion uint8 `json:"ddp_version"`
	// Rev is 2 for a connection that runs MPA Rev 2 (RFC 6581), omitted
	// otherwise; RTR names the peer-to-peer RTR message when there is one.
	Rev int    `json:"rev,omitempty"`
	RTR string `json:"rtr,omitempty"`
}

// STag is a registered tagged buffer.
type STag struct {
	STag uint32 `json:"stag"`
	Conn int    `json:"conn"` // index in Setup.Conns of the owning connection
	Dir  string `json:"dir"`  // I2R or R2I: the half connection whose data may target it
	Addr uint64 `json:"addr"` // host address of TO 0
	Len  uint64 `json:"len"`  // octets
}

// Recv is a posted untagged receive buffer.
type Recv struct {
	Conn int    `json:"conn"` // index in Setup.Conns
	Dir  string `json:"dir"`  // I2R or R2I: the half connection whose data it receives
	QN   uint32 `json:"qn"`   // DDP queue number
	MSN  uint32 `json:"msn"`  // message sequence number it receives (posted in MSN order)
	Addr uint64 `json:"addr"` // host address of MO 0
	Len  uint64 `json:"len"`  // octets
}

// Buffer is a host-memory range whose final contents a vector records.
type Buffer struct {
	Addr uint64
	Len  uint64
}

// Buffers returns the registered STag buffers then the posted receive
// buffers, in setup order: the order of buffers.bin and of the "buffer"
// records at the end of expected.jsonl.
func (s *Setup) Buffers() []Buffer {
	out := make([]Buffer, 0, len(s.STags)+len(s.Recvs))
	for _, t := range s.STags {
		out = append(out, Buffer{t.Addr, t.Len})
	}
	for _, r := range s.Recvs {
		out = append(out, Buffer{r.Addr, r.Len})
	}
	return out
}

// Validate checks the internal consistency of a setup.
func (s *Setup) Validate() error {
	if s.Format != FormatVersion {
		return fmt.Errorf("vector: format %d, want %d", s.Format, FormatVersion)
	}
	if s.Name == "" {
		return fmt.Errorf("vector: setup has no name")
	}
	for i, c := range s.Conns {
		if _, err := ParseEndpoint(c.Initiator); err != nil {
			return fmt.Errorf("vector: connection %d: %w", i, err)
		}
		if _, err := ParseEndpoint(c.Responder); err != nil {
			return fmt.Errorf("vector: connection %d: %w", i, err)
		}
	}
	checkHalf := func(what string, i, conn int, dir string) error {
		if conn < 0 || conn >= len(s.Conns) {
			return fmt.Errorf("vector: %s %d: connection %d out of range", what, i, conn)
		}
		if dir != I2R && dir != R2I {
			return fmt.Errorf("vector: %s %d: direction %q", what, i, dir)
		}
		return nil
	}
	for i, t := range s.STags {
		if err := checkHalf("stag", i, t.Conn, t.Dir); err != nil {
			return err
		}
	}
	for i, r := range s.Recvs {
		if err := checkHalf("recv", i, r.Conn, r.Dir); err != nil {
			return err
		}
	}
	return nil
}

// Endpoint is an IPv4 address and TCP port.
type Endpoint struct {
	IP   [4]byte
	Port uint16
}

// String returns "ip:port".
func (e Endpoint) String() string {
	return netip.AddrFrom4(e.IP).String() + ":" + strconv.Itoa(int(e.Port))
}

// ParseEndpoint parses "ip:port" with an IPv4 address.
func ParseEndpoint(s string) (Endpoint, error) {
	ap, err := netip.ParseAddrPort(s)
	if err != nil || !ap.Addr().Is4() {
		return Endpoint{}, fmt.Errorf("vector: bad IPv4 endpoint %q", s)
	}
	return Endpoint{IP: ap.Addr().As4(), Port: ap.Port()}, nil
}

// Record is one line of expected.jsonl. Type is one of "established",
// "ulpdu", "placed", "deliver", "error", "ddp_error", "drop" (events of the
// golden receiver, in order) or "buffer" (final contents of one buffer, after
// all events). Fields that do not apply to a type are omitted. The "ulpdu"
// and "error" lines carry the same fields, in the same order, as the lines
// of `mparx replay --json`.
type Record struct {
	Type   string `json:"type"`
	Src    string `json:"src,omitempty"` // half connection: sender "ip:port"
	Dst    string `json:"dst,omitempty"` // half connection: receiver "ip:port"
	Seq    uint32 `json:"seq"`           // see the event kinds in golden/rx
	Len    *int   `json:"len,omitempty"` // ulpdu, placed: octets
	SHA256 string `json:"sha256,omitempty"`
	Code   int    `json:"code,omitempty"` // error: RFC 5044 section 8 code 1-4
	// DDP header fields (placed, deliver, ddp_error).
	DDP  *DDP   `json:"ddp,omitempty"`
	Addr uint64 `json:"addr,omitempty"` // placed, buffer: host address
	// Err is the kind of a ddp_error or drop (a short stable name).
	Err   string `json:"err,omitempty"`
	Frame int    `json:"frame"` // index (from 0) of the frame being processed
	// BufLen is the length of a buffer record's buffer.
	BufLen uint64 `json:"buf_len,omitempty"`
	// Rev is set on the established records of a connection that runs MPA
	// Rev 2 (RFC 6581); omitted for Rev 0 and 1.
	Rev int `json:"rev,omitempty"`
	// Enhanced is set on the established records of a Rev 2 connection
	// whose frames carry the enhanced header.
	Enhanced *Enhanced `json:"enhanced,omitempty"`
}

// Enhanced is what an established record says of RFC 6581's enhanced
// header: the IRD and ORD that the half connection's sender declared in its
// startup frame, and in peer-to-peer mode the agreed RTR message ("send",
// "write" or "read").
type Enhanced struct {
	IRD uint16 `json:"ird"`
	ORD uint16 `json:"ord"`
	RTR string `json:"rtr,omitempty"`
}

// DDP holds the DDP header fields of a record.
type DDP struct {
	Tagged  bool   `json:"tagged"`
	Last    bool   `json:"last"`
	Version uint8  `json:"dv"`
	STag    uint32 `json:"stag,omitempty"`
	TO      uint64 `json:"to,omitempty"`
	QN      uint32 `json:"qn,omitempty"`
	MSN     uint32 `json:"msn,omitempty"`
	MO      uint32 `json:"mo,omitempty"`
}

// Frame is one captured Ethernet frame (without FCS).
type Frame struct {
	Time time.Time
	Data []byte
}

// Vector is a loaded (or generated) vector.
type Vector struct {
	Setup    Setup
	Frames   []Frame
	Expected []Record // events then buffer records, as in expected.jsonl
	Buffers  [][]byte // final buffer contents, in Setup.Buffers order
}

// Events returns the expected event records (without the buffer records).
func (v *Vector) Events() []Record {
	for i, r := range v.Expected {
		if r.Type == "buffer" {
			return v.Expected[:i]
		}
	}
	return v.Expected
}

// Data returns the frame payloads as a slice of byte slices.
func (v *Vector) Data() [][]byte {
	out := make([][]byte, len(v.Frames))
	for i, f := range v.Frames {
		out[i] = f.Data
	}
	return out
}
