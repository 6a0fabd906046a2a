// Package backlog gathers records read newest first (a log read
// backwards) and returns them in the order they were written.
package backlog

// A Collector gathers records read newest first, in chunks, so that a long
// run of records is copied once, by Result, instead of at every growth of
// one slice. The zero Collector is empty and ready.
type Collector[T any] struct {
	chunks [][]T
	n      int
}

// chunkLen is the length of a chunk.
const chunkLen = 1024

// Add takes r, the record before those taken so far.
func (c *Collector[T]) Add(r T) {
	k := len(c.chunks) - 1
	if k < 0 || len(c.chunks[k]) == chunkLen {
		c.chunks, k = append(c.chunks, make([]T, 0, chunkLen)), k+1
	}
	c.chunks[k], c.n = append(c.chunks[k], r), c.n+1
}

// Len returns the number of records taken.
func (c *Collector[T]) Len() int { return c.n }

// Result returns the records taken, oldest first, in a new slice.
func (c *Collector[T]) Result() []T {
	out, i := make([]T, c.n), c.n
	for _, chunk := range c.chunks {
		for _, r := range chunk {
			i--
			out[i] = r
		}
	}
	return out
}
