package rx

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Error codes and half-connection states print as names with %v and %s
// (the codes as numbers with %d, as the reports show them).
func TestNames(t *testing.T) {
	tests := []struct {
		v    fmt.Stringer
		want string
	}{
		{CodeClosed, "TCP connection closed"},
		{CodeCRC, "CRC error"},
		{CodeMarker, "marker and ULPDU_Length disagree"},
		{CodeStartup, "invalid MPA Request or Reply"},
		{CodeNoMatchingRTR, "no matching RTR"},
		{ErrorCode(5), "MPA error code 5"},
		{StateIdle, "idle"},
		{StateStartup, "startup"},
		{StateWaitPeer, "wait-peer"},
		{StateFull, "full"},
		{StateClosed, "closed"},
		{State(9), "state(9)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.v.String())
		assert.Equal(t, tt.want, fmt.Sprintf("%v", tt.v))
	}
	assert.Equal(t, "2", fmt.Sprintf("%d", CodeCRC))
}
