package slash

import "testing"

func TestIsCommand(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"/rewind", true},
		{"/help me", true},
		{"/rewnd", true},
		{"/tmp/x is big?", false},
		{"/", false},
		{"hello /rewind", false},
		{"", false},
	} {
		if got := IsCommand(c.line); got != c.want {
			t.Errorf("IsCommand(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
