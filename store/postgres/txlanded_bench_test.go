package postgres_test

import (
	"testing"
)

// BenchmarkTxLandedWrite runs b.N truncations of a session to its head:
// each is one transaction of the writes asked after by their id once a
// reply is lost (Store.txLanded), which reads nothing else than the
// lease's and the session's rows and commits, so that what it costs
// beside them (the round trips of BEGIN and of reading the transaction's
// id) shows.
func BenchmarkTxLandedWrite(b *testing.B) {
	st := benchStore(b)
	p, err := st.Project(benchProject())
	if err != nil {
		b.Fatal(err)
	}
	cp := p.Checkpointer()
	if _, err := cp.Append(b.Context(), "s", benchEvents(1, 100), 0); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if err := cp.Truncate(b.Context(), "s", 1, 1); err != nil {
			b.Fatal(err)
		}
	}
}
