package jsonstr_test

import (
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

func TestTimeRoundTripsInTheFormOfJSONStringify(t *testing.T) {
	ts := time.Date(2026, 7, 22, 12, 3, 4, 5_678_000, time.FixedZone("x", 3600))
	s := jsonstr.FormatTime(ts)
	if s != "2026-07-22T11:03:04.005Z" {
		t.Fatalf("FormatTime = %s", s)
	}
	back, ok := jsonstr.ParseTime([]byte(s))
	if !ok || !back.Equal(ts.Truncate(time.Millisecond)) {
		t.Fatalf("ParseTime(%s) = %v, %v", s, back, ok)
	}
	if got := testing.AllocsPerRun(100, func() { jsonstr.ParseTime([]byte(s)) }); got != 0 {
		t.Errorf("ParseTime allocates %v times for the exact form", got)
	}
}

func TestParseTimeRefusesWhatIsNotATime(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"2026-02-30T00:00:00.000Z", false},
		{"2026-13-01T00:00:00.000Z", false},
		{"2026-01-01T24:00:00.000Z", false},
		{"2026-01-01T00:00:00.00xZ", false},
		{"2026-01-01T00:00:00+02:00", true},
		{"2026-01-01T00:00:00.123456789Z", true},
		{"yesterday", false},
	}
	for _, tt := range tests {
		if _, ok := jsonstr.ParseTime([]byte(tt.in)); ok != tt.ok {
			t.Errorf("ParseTime(%s) ok = %v, want %v", tt.in, ok, tt.ok)
		}
	}
}
