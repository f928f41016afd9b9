package tcpseq_test

import (
	"fmt"

	"github.com/mparx/mparx/golden/tcpseq"
)

// A segment that starts just before the sequence space wraps ends after it.
func Example() {
	start := tcpseq.Num(0xfffffff0)
	end := start.Add(0x20)
	fmt.Println(end, start.Before(end), end.Diff(start), end.Offset(start))
	// Output: 16 true 32 32
}
