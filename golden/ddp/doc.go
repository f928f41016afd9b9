// Package ddp is the golden model of Direct Data Placement (RFC 5041) at a
// Data Sink: DDP headers, the tagged buffer and untagged receive-queue
// tables, and placement into a model of host memory whose writes tests
// compare byte for byte (docs/design.md section 7.4).
package ddp
