package tcpseq

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The order wraps: each number is before the 2^31 - 1 numbers after it and
// after the 2^31 numbers before it (the one exactly half the space away
// counts as before: int32(s - t) is -2^31).
func TestOrder(t *testing.T) {
	tests := []struct {
		name       string
		s, t       Num
		diff       int
		before     bool
		offset     uint32
		afterAdd10 Num
	}{
		{"equal", 100, 100, 0, false, 0, 110},
		{"one before", 99, 100, -1, true, 0xffffffff, 109},
		{"one after", 101, 100, 1, false, 1, 111},
		{"across the wrap, after", 5, 0xfffffffb, 10, false, 10, 15},
		{"across the wrap, before", 0xfffffffb, 5, -10, true, 0xfffffff6, 5},
		{"2^31 - 1 ahead", 0x7fffffff, 0, 1<<31 - 1, false, 0x7fffffff, 0x80000009},
		{"2^31 away", 0x80000000, 0, -1 << 31, true, 0x80000000, 0x8000000a},
		{"2^31 + 1 away", 0x80000001, 0, -(1<<31 - 1), true, 0x80000001, 0x8000000b},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.diff, tt.s.Diff(tt.t), "Diff")
			assert.Equal(t, tt.before, tt.s.Before(tt.t), "Before")
			assert.Equal(t, tt.offset, tt.s.Offset(tt.t), "Offset")
			assert.Equal(t, tt.afterAdd10, tt.s.Add(10), "Add")
			assert.Equal(t, tt.s, tt.s.Add(10).Add(-10), "Add back")
		})
	}
}

// Before is a strict order on any window shorter than 2^31: never both ways,
// never for equal numbers, and transitive along a run that wraps.
func TestBeforeStrict(t *testing.T) {
	base := Num(0xffffff00)
	for i := 0; i < 512; i += 7 {
		a := base.Add(i)
		assert.False(t, a.Before(a))
		for j := i + 1; j < 512; j += 13 {
			b := base.Add(j)
			assert.True(t, a.Before(b), "%#x before %#x", a, b)
			assert.False(t, b.Before(a), "%#x not before %#x", b, a)
			assert.Equal(t, j-i, b.Diff(a))
			assert.Equal(t, uint32(j-i), b.Offset(a))
		}
	}
}
