package rx_test

import (
	"fmt"
	"path/filepath"

	"github.com/mparx/mparx/cosim/rx"
	"github.com/mparx/mparx/vecgen/vector"
)

// The RTL engine of `mparx run --engine rtl` on one vector: the 64-bit
// integration top (programmed through the driver, host memory behind
// AXI4) beside the hardware model and the software slow path, frame by
// frame, then mpa_rx in lockstep with the cycle model (with idle cycles, a
// bad-FCS copy of a frame now and then and one oversize frame added).
func ExampleRun() {
	v, err := vector.Load(filepath.Join("..", "..", "vectors", "aligned"))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := rx.Run(v, 64)
	fmt.Println(rep.Vector, rep.Frames, err)
	lock, err := rx.RunLockstep(v, rx.LockstepOptions{Width: 64, Pattern: "none", Seed: 1})
	fmt.Println(lock.Vector, err)
	// Output:
	// aligned 229 <nil>
	// aligned <nil>
}
