package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mparx/mparx/vecgen/vector"
)

// The replay table shows, per half connection, the MPA revision the
// connection runs, the IRD/ORD its sender declared in the enhanced header
// (RFC 6581) and the peer-to-peer RTR type; the values are those the
// vectors' startup frames carry (vecgen/scenarios_rev2.go).
func TestReplayTableRev2(t *testing.T) {
	tests := []struct {
		vector string
		want   [][3]string // per row in table order: REV, IRD/ORD, RTR
	}{
		{"rev2-p2p-read", [][3]string{{"2", "16/8", "read"}, {"2", "8/16", "read"}}},
		{"rev2-p2p-send", [][3]string{{"2", "16/8", "send"}, {"2", "8/16", "send"}}},
		{"rev2-fallback-rev1", [][3]string{{"1", "-", "-"}, {"1", "-", "-"}, {"1", "-", "-"}, {"1", "-", "-"}}},
		{"rev2-enhanced", [][3]string{{"2", "32/16", "-"}, {"2", "16/32", "-"}, {"2", "16383/1", "-"}, {"2", "1/16383", "-"}, {"2", "-", "-"}, {"2", "-", "-"}}},
		{"aligned", [][3]string{{"1", "-", "-"}, {"1", "-", "-"}}},
	}
	for _, tt := range tests {
		t.Run(tt.vector, func(t *testing.T) {
			var out, errb bytes.Buffer
			pcap := filepath.Join("..", "..", "vectors", tt.vector, vector.PcapFile)
			require.Equal(t, 0, run([]string{"replay", pcap}, &out, &errb), errb.String())
			lines := strings.Split(out.String(), "\n")
			head := strings.Fields(lines[0])
			col := func(name string) int {
				for i, h := range head {
					if h == name {
						return i
					}
				}
				t.Fatalf("no column %s in %q", name, lines[0])
				return 0
			}
			// "HALF CONNECTION" is two words in the header, one field in rows.
			rev, io, rtr := col("REV")-1, col("IRD/ORD")-1, col("RTR")-1
			var got [][3]string
			for _, l := range lines[1:] {
				f := strings.Fields(l)
				if len(f) < len(head)-1 {
					break
				}
				got = append(got, [3]string{f[rev], f[io], f[rtr]})
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// Replaying a Rev 2 vector's pcap without its setup finds the same ULPDUs
// and errors as the vector's expected results.
func TestReplayRev2MatchesExpected(t *testing.T) {
	for _, name := range []string{"rev2-enhanced", "rev2-fallback-rev1", "rev2-p2p-send", "rev2-p2p-write", "rev2-p2p-read", "rev2-malformed", "rev2-rtr-errors"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("..", "..", "vectors", name)
			v, err := vector.Load(dir)
			require.NoError(t, err)
			var out, errb bytes.Buffer
			require.Equal(t, 0, run([]string{"replay", "--json", filepath.Join(dir, vector.PcapFile)}, &out, &errb), errb.String())
			recs, err := vector.DecodeRecords(out.Bytes())
			require.NoError(t, err)
			key := func(r vector.Record) string {
				if r.Type != "ulpdu" && r.Type != "error" && r.Type != "established" {
					return ""
				}
				var e vector.Enhanced
				if r.Enhanced != nil {
					e = *r.Enhanced
				}
				return fmt.Sprintf("%s %s>%s seq=%d %s code=%d rev=%d %+v", r.Type, r.Src, r.Dst, r.Seq, r.SHA256, r.Code, r.Rev, e)
			}
			var got, want []string
			for _, r := range recs {
				if k := key(r); k != "" {
					got = append(got, k)
				}
			}
			for _, r := range v.Events() {
				if k := key(r); k != "" {
					want = append(want, k)
				}
			}
			assert.NotEmpty(t, want)
			assert.Equal(t, want, got)
		})
	}
}
