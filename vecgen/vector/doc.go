// Package vector is the on-disk format of mparx conformance vectors: a
// directory of frames.pcap, setup.json, expected.jsonl and buffers.bin
// (vectors/README.md). vecgen writes vectors; mparx, vecgen/replay and the
// co-simulation read them.
package vector
