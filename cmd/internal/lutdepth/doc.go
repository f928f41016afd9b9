// Package lutdepth measures the logic depth of a technology-mapped Yosys
// netlist (write_json after a flattening synthesis such as synth_xilinx
// -flatten): the longest register-to-register (or port) path counted in LUT
// levels, with the cells, nets and source lines on it, by the method of the
// project's timing anchors (docs/synth.md).
package lutdepth
