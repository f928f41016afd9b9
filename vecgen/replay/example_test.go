package replay_test

import (
	"fmt"
	"path/filepath"

	"github.com/mparx/mparx/golden/rx"
	"github.com/mparx/mparx/vecgen/replay"
	"github.com/mparx/mparx/vecgen/vector"
)

// Checking a committed vector: the golden receiver, set up as setup.json
// says, reports over frames.pcap exactly the records of expected.jsonl and
// leaves the buffers as buffers.bin holds them.
func ExampleCheck() {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(replay.Check(v))
	// Output: <nil>
}

// The golden receiver set up for a vector, fed its frames one by one.
func ExampleNewGolden() {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := replay.NewGolden(&v.Setup, rx.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range v.Frames {
		g.Receiver.Frame(f.Data)
	}
	for _, h := range g.Receiver.Halves() {
		fmt.Println(h.Tuple, h.State, h.ErrorCode == 0)
	}
	// Output:
	// 10.0.0.1:40000>10.0.0.2:4791 full true
	// 10.0.0.2:4791>10.0.0.1:40000 full true
}
