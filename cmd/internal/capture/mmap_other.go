//go:build !linux

package capture

import "os"

// mapFile returns nil: the reader reads the file (memory mapping is used
// on Linux only).
func mapFile(*os.File, int64) []byte { return nil }

func unmapFile([]byte) {}

func dropPages([]byte) {}
