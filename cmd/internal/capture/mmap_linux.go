package capture

import (
	"os"
	"syscall"
)

// mapFile maps the size octets of f into memory, read-only (a frame of a
// link type without an Ethernet header is rewritten in a copy: Reader.alloc).
// It returns nil when the file cannot be mapped; the reader then reads it.
func mapFile(f *os.File, size int64) []byte {
	if size <= 0 || int64(int(size)) != size {
		return nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	_ = syscall.Madvise(b, syscall.MADV_SEQUENTIAL) // a hint: read ahead, drop behind
	return b
}

// unmapFile undoes mapFile.
func unmapFile(b []byte) { _ = syscall.Munmap(b) }

// dropPages gives back the pages of b (page-aligned) to the kernel: the
// process's resident size no longer counts them, and a later access reads
// the file again.
func dropPages(b []byte) { _ = syscall.Madvise(b, syscall.MADV_DONTNEED) }
