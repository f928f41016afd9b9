package vecgen

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/golden/mpa"
	"github.com/mparx/mparx/golden/wire"
	"github.com/mparx/mparx/vecgen/vector"
)

// builtAll caches one build of every scenario at the default seed.
var builtAll = map[string]*Built{}

func built(t testing.TB, name string) *Built {
	t.Helper()
	if b, ok := builtAll[name]; ok {
		return b
	}
	s, ok := Lookup(name)
	require.True(t, ok, name)
	b := Build(s, Options{Seed: DefaultSeed, Scale: 1})
	builtAll[name] = b
	return b
}

func TestScenariosBuildValidFrames(t *testing.T) {
	for _, s := range Scenarios() {
		t.Run(s.Name, func(t *testing.T) {
			b := built(t, s.Name)
			v := b.Vector
			require.NotEmpty(t, v.Frames)
			require.NoError(t, v.Setup.Validate())
			assert.NotEmpty(t, s.Summary)
			assert.NotEmpty(t, s.Tags)
			mods := 0
			for i, f := range v.Frames {
				assert.Equal(t, vector.Epoch.Add(vector.FrameGap*timeDur(i)), f.Time)
				_, err := wire.Parse(f.Data)
				switch {
				case err == nil:
				case errors.Is(err, wire.ErrIPChecksum), errors.Is(err, wire.ErrTCPChecksum):
					mods++
				case errors.Is(err, wire.ErrNotIP), errors.Is(err, wire.ErrNotTCP):
					assert.Contains(t, s.Tags, "non-mpa", "frame %d", i)
				default:
					t.Fatalf("frame %d: %v", i, err)
				}
			}
			if has(s.Tags, "bad-ip-checksum") || has(s.Tags, "bad-tcp-checksum") {
				assert.NotZero(t, mods)
			} else {
				assert.Zero(t, mods, "damaged frames in a scenario not tagged for them")
			}
		})
	}
}

func TestBuildDeterministic(t *testing.T) {
	for _, name := range []string{"many-connections", "resegment-random", "seq-wrap"} {
		s, _ := Lookup(name)
		a := Build(s, Options{Seed: 9, Scale: 1})
		b := Build(s, Options{Seed: 9, Scale: 1})
		c := Build(s, Options{Seed: 10, Scale: 1})
		fa, err := vector.Files(a.Vector)
		require.NoError(t, err)
		fb, err := vector.Files(b.Vector)
		require.NoError(t, err)
		fc, err := vector.Files(c.Vector)
		require.NoError(t, err)
		assert.Equal(t, fa, fb, name)
		assert.NotEqual(t, fa[vector.PcapFile], fc[vector.PcapFile], name)
	}
}

// TestSpecFigures checks the spec-figures vector against the annotated hex
// dumps of draft-ietf-rddp-mpa-01 Figures 5 and 6 (the fixed points).
func TestSpecFigures(t *testing.T) {
	b := built(t, "spec-figures")
	fig5 := unhex(t, "00000000 002a 4003 00000000 00000000 00000001 00000000"+strings.Repeat("00", 24)+"4c86b384")
	fig6 := unhex(t, "002a 4003 00000000 00000000 00000002 00000000 00000014"+strings.Repeat("00", 24)+"a19cd103")
	var payloads [][]byte
	for _, f := range b.Vector.Frames {
		p, err := wire.Parse(f.Data)
		require.NoError(t, err)
		payloads = append(payloads, p.Payload)
	}
	assert.Contains(t, payloads, fig5)
	var found bool
	for _, p := range payloads {
		if bytes.HasSuffix(p, fig6) && len(p) == len(fig6) {
			found = true
		}
	}
	assert.True(t, found, "Figure 6 FPDU in its own segment")
}

func unhex(t testing.TB, s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err)
	return b
}

func TestOneFPDUPerSegmentFlag(t *testing.T) {
	// Vectors tagged one-per-segment must come out with the flag set;
	// re-segmented ones must not.
	for _, s := range Scenarios() {
		b := built(t, s.Name)
		if has(s.Tags, "one-per-segment") {
			assert.True(t, b.Vector.Setup.OneFPDUPerSegment, s.Name)
		}
		if has(s.Tags, "resegment") || has(s.Tags, "startup-split") || has(s.Tags, "packed") {
			assert.False(t, b.Vector.Setup.OneFPDUPerSegment, s.Name)
		}
	}
}

func TestDDPHeaderEncoding(t *testing.T) {
	tests := []struct {
		d    DDP
		want string
	}{
		{DDP{Tagged: true, Last: true, DV: 1, RDMAP: 0x40, STag: 0x01020304, TO: 0x1122334455667788}, "c1 40 01020304 1122334455667788"},
		{DDP{Last: false, DV: 1, RDMAP: 0x43, QN: 2, MSN: 7, MO: 0x100}, "01 43 00000000 00000002 00000007 00000100"},
		{DDP{Last: true, DV: 0, RDMAP: 0x03, QN: 0, MSN: 1}, "40 03 00000000 00000000 00000001 00000000"},
	}
	for _, tt := range tests {
		got := tt.d.Append(nil)
		assert.Equal(t, unhex(t, tt.want), got)
		assert.Len(t, got, tt.d.Len())
	}
}

func TestMULPDUBoundsFPDUs(t *testing.T) {
	// Aligned FPDUs never exceed EMSS on the wire.
	for _, name := range []string{"aligned", "jumbo", "link-headers"} {
		b := built(t, name)
		for _, f := range b.Vector.Frames {
			p, err := wire.Parse(f.Data)
			require.NoError(t, err)
			emss := 1460
			if name == "jumbo" {
				emss = 8960
			}
			assert.LessOrEqual(t, len(p.Payload), emss, name)
		}
	}
	assert.Equal(t, 8960-(6+4*18), mpa.MULPDU(Link{MTU: 9000}.EMSS(), true))
	assert.Equal(t, 1500-40-16-12, Link{IPOptions: true, Timestamps: true}.EMSS())
}

func timeDur(i int) time.Duration { return time.Duration(i) }

// TestCutsLandInsideFields checks that the re-segmenting scenarios really
// cut segments inside ULPDU_Length, inside markers, inside pad and inside
// the CRC field, by locating every segment boundary in the FPDU layout.
func TestCutsLandInsideFields(t *testing.T) {
	for _, name := range []string{"resegment-fields", "resegment-octet"} {
		b := built(t, name)
		kinds := map[string]int{}
		for _, c := range b.gen.conns {
			h := c.I2R()
			starts := map[uint32]bool{}
			for _, f := range b.Vector.Frames {
				p, err := wire.Parse(f.Data)
				require.NoError(t, err)
				if p.SrcPort == h.src.Port && p.SrcIP == wire.Addr(h.src.IP.As16()) && len(p.Payload) > 0 {
					starts[p.Seq] = true
				}
			}
			for _, f := range h.S.FPDUs {
				in := func(lo, hi uint32) bool { // a boundary strictly inside [lo, hi)
					for s := lo + 1; s != hi; s++ {
						if starts[s] {
							return true
						}
					}
					return false
				}
				end := f.Seq + uint32(f.Len)
				crc := end - 4
				padEnd := crc
				if h.S.Half.IsMarker(crc - 4) {
					padEnd -= 4
				}
				if in(f.LengthSeq, f.LengthSeq+2) {
					kinds["length"]++
				}
				if in(crc, end) {
					kinds["crc"]++
				}
				if pad := uint32(mpa.PadLen(f.ULPDULen)); pad > 0 && (in(padEnd-pad, padEnd) || starts[padEnd-pad]) {
					kinds["pad"]++
				}
				for s := f.Seq; s != end; s += 4 {
					if h.S.Half.IsMarker(s) && in(s, s+4) {
						kinds["marker"]++
					}
				}
			}
		}
		for _, k := range []string{"length", "marker", "pad", "crc"} {
			assert.Positive(t, kinds[k], "%s: no segment boundary inside %s", name, k)
		}
	}
}
