package vector_test

import (
	"fmt"
	"path/filepath"

	"github.com/mparx/mparx/vecgen/vector"
)

// Loading a committed vector: its setup (one connection, 9 registered
// STags and 6 posted receive buffers), its 229 frames, and the expected
// records, of which the last 15 describe the final contents of its 15
// buffers.
func ExampleLoad() {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	if err != nil {
		fmt.Println(err)
		return
	}
	s := v.Setup
	fmt.Println(s.Name, len(s.Conns), len(s.STags), len(s.Recvs), len(v.Frames))
	fmt.Println(len(v.Expected)-len(v.Events()), len(s.Buffers()), len(v.Buffers))
	// Output:
	// aligned 1 9 6 229
	// 15 15 15
}
