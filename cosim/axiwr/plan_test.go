package axiwr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		name  string
		k     int
		descs []Desc
		want  []Burst
	}{
		{"one", 8, []Desc{{Addr: 0x1003, Len: 20, Flush: true}}, []Burst{{0x1000, 3}}},
		{"shared-word", 8, []Desc{{Addr: 0x1000, Len: 5}, {Addr: 0x1005, Len: 10, Flush: true}}, []Burst{{0x1000, 2}}},
		{"adjacent", 8, []Desc{{Addr: 0x1000, Len: 8}, {Addr: 0x1008, Len: 8, Flush: true}}, []Burst{{0x1000, 2}}},
		{"gap", 8, []Desc{{Addr: 0x1000, Len: 8}, {Addr: 0x1010, Len: 8, Flush: true}}, []Burst{{0x1000, 1}, {0x1010, 1}}},
		{"flush-entry", 8, []Desc{{Addr: 0x1000, Len: 8}, {}, {Addr: 0x1008, Len: 8}, {}}, []Burst{{0x1000, 1}, {0x1008, 1}}},
		// 64 bits: 256 beats (2 KiB) from the first word, then the page end
		{"256-beats", 8, []Desc{{Addr: 0x1100, Len: 0x1000, Flush: true}}, []Burst{{0x1100, 256}, {0x1900, 224}, {0x2000, 32}}},
		// a burst starting in the page's second half ends at the page end
		{"page-end", 8, []Desc{{Addr: 0x1f00, Len: 0x200, Flush: true}}, []Burst{{0x1f00, 32}, {0x2000, 32}}},
		// 512 bits: a page is 64 beats
		{"page-512", 64, []Desc{{Addr: 0xfc0, Len: 0x1041, Flush: true}}, []Burst{{0xfc0, 1}, {0x1000, 64}, {0x2000, 1}}},
		// a continuing descriptor fills the open burst to its limit
		{"continue-split", 64, []Desc{{Addr: 0x0, Len: 0xf80}, {Addr: 0xf80, Len: 0x100, Flush: true}}, []Burst{{0x0, 64}, {0x1000, 2}}},
		// an open burst full to its limit, the next starts in the next page
		{"full-then-adjacent", 64, []Desc{{Addr: 0x0, Len: 0x1000}, {Addr: 0x1000, Len: 64, Flush: true}}, []Burst{{0x0, 64}, {0x1000, 1}}},
		{"not-flushed", 8, []Desc{{Addr: 0, Len: 8}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Plan(tc.descs, tc.k))
		})
	}
}
