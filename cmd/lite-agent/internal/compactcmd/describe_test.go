package compactcmd

import (
	"strings"
	"testing"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/model"
)

// A session too long for the provider's count endpoint is counted once
// compacted (engine.Compact): Before is an estimate, After the provider's
// count, and the report says so of each figure. Before, the report called
// both figures estimates, and the count failure line said all figures
// were estimated.
func TestDescribeACountAfterAnOverflowSaysWhichFigureIsCounted(t *testing.T) {
	overflow := model.NewError(model.ClassContextOverflow, 400, "prompt is too long", nil)
	for _, tc := range []struct {
		name string
		res  liteagent.CompactResult
		want []string
	}{
		{
			name: "committed",
			res:  liteagent.CompactResult{Committed: true, Before: 250000, After: 31000, AfterCounted: true, CountErr: overflow, Generation: 1},
			want: []string{"about 250000 tokens (estimated) → 31000 (counted by the provider", "token count failed, the figure before estimated"},
		},
		{
			name: "counted before, the count after failed",
			res:  liteagent.CompactResult{Committed: true, Before: 50000, BeforeCounted: true, After: 9000, CountErr: overflow, Generation: 1},
			want: []string{"50000 tokens (counted by the provider) → about 9000 (estimated", "token count failed, the figure after estimated"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Describe("s1", tc.res)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Describe = %q; want it to say %q", got, w)
				}
			}
		})
	}
}
