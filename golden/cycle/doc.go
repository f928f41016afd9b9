// Package cycle is the Go cycle model of mpa_rx: the cycle-timing contract
// of docs/design.md section 5 on top of golden/fastpath, stepped a cycle at
// a time (Model), and the bench that drives it or the RTL with a workload
// and checks their outputs (Bench). docs/design.md section 7.3 gives the
// readings of the contract it takes where the text leaves a choice.
package cycle
