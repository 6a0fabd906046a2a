package backlog

import (
	"slices"
	"testing"
)

func TestCollectorReturnsWriteOrder(t *testing.T) {
	for _, n := range []int{0, 1, chunkLen - 1, chunkLen, chunkLen + 1, 3*chunkLen + 7} {
		var c Collector[int]
		want := make([]int, n)
		for i := n - 1; i >= 0; i-- {
			want[i] = i
			c.Add(i)
		}
		if got := c.Result(); c.Len() != n || !slices.Equal(got, want) {
			t.Errorf("n=%d: Len %d, Result %v…", n, c.Len(), got[:min(len(got), 5)])
		}
	}
}
