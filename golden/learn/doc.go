// Package learn infers the DDP setup of a capture that comes without one:
// the tagged and posted receive buffers its traffic needs, so that two
// engines' placements can be compared on real traffic (docs/design.md
// section 7.5).
package learn
