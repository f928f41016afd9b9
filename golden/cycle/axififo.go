package cycle

// queue is a first-word-fall-through FIFO with the cycle behaviour of
// mpa_rx_fifo (docs/design.md section 3): a RAM of depth entries with a
// registered read port, then the output register. Its input ready is a
// register (low exactly while the RAM holds depth entries); an entry
// written into an empty queue in cycle t is at the head from t + 2; one
// push and one pop per cycle are sustained.
type queue[T any] struct {
	depth  int
	mem    []T
	wr, rd int // modulo 2 depth
	out    T
	outV   bool
	full   bool
}

func newQueue[T any](depth int) *queue[T] {
	return &queue[T]{depth: depth, mem: make([]T, depth)}
}

// ready is the input ready of the cycle.
func (q *queue[T]) ready() bool { return !q.full }

// head returns the output register and its valid.
func (q *queue[T]) head() (T, bool) { return q.out, q.outV }

// edge takes the clock edge: valid/in on the input, pop the output ready.
func (q *queue[T]) edge(valid bool, in T, ready bool) {
	m := 2 * q.depth
	ramEmpty := q.wr == q.rd
	push := valid && !q.full
	pop := q.outV && ready
	load := !ramEmpty && (!q.outV || pop)
	almostFull := (q.wr-q.rd+m)%m == q.depth-1
	if load {
		q.out = q.mem[q.rd%q.depth]
	}
	if push {
		q.mem[q.wr%q.depth] = in
		q.wr = (q.wr + 1) % m
	}
	if load {
		q.rd = (q.rd + 1) % m
	}
	q.full = !load && (q.full || (almostFull && push))
	if load {
		q.outV = true
	} else if pop {
		q.outV = false
	}
}

// count returns the entries held (the RAM and the output register).
func (q *queue[T]) count() int {
	m := 2 * q.depth
	n := (q.wr - q.rd + m) % m
	if q.outV {
		n++
	}
	return n
}
