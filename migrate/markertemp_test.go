package migrate_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
)

func TestIsMarkerTemp(t *testing.T) {
	m := migrate.MarkerName
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"." + m + ".0123456789ab.tmp", true},  // safefs's atomic writes
		{"." + m + ".2718281828.tmp", true},    // os.CreateTemp of earlier versions
		{"." + m + ".0123456789aZ.tmp", false}, // neither hex nor digits
		{"." + m + "..tmp", false},
		{"." + m + ".12.tmp.x", false},
		{"." + m + ".12", false},
		{m + ".12.tmp", false},
		{"." + m + ".lock.12.tmp", false},
		{m, false},
	} {
		if got := migrate.IsMarkerTemp(tc.name); got != tc.want {
			t.Errorf("IsMarkerTemp(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
