package cosim

// GoRand exposes goRand to the tests.
var GoRand = goRand
