package jsonstr_test

import (
	"fmt"
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

// oldParseTime is ParseTime as it was before it counted days itself: the
// exact form through time.Date, the oracle of the tests below.
func oldParseTime(b []byte) (time.Time, bool) {
	if len(b) == len(jsonstr.TimeLayout) && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' &&
		b[16] == ':' && b[19] == '.' && b[23] == 'Z' {
		num := func(s []byte) int {
			n := 0
			for _, c := range s {
				if c < '0' || c > '9' {
					return -1
				}
				n = n*10 + int(c-'0')
			}
			return n
		}
		y, mo, d := num(b[0:4]), num(b[5:7]), num(b[8:10])
		h, mi, s, ms := num(b[11:13]), num(b[14:16]), num(b[17:19]), num(b[20:23])
		if y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && h >= 0 && h < 24 && mi >= 0 && mi < 60 && s >= 0 && s < 60 && ms >= 0 {
			t := time.Date(y, time.Month(mo), d, h, mi, s, ms*int(time.Millisecond), time.UTC)
			if t.Day() == d {
				return t, true
			}
		}
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

func sameParse(t *testing.T, s string) {
	t.Helper()
	got, ok := jsonstr.ParseTime([]byte(s))
	want, wantOK := oldParseTime([]byte(s))
	// The exact form is read in UTC and must match to the representation
	// (==); time.Parse gives each other offset a new *Location, so zones
	// are compared by name and offset.
	gn, gOff := got.Zone()
	wn, wOff := want.Zone()
	same := got.Equal(want) && gn == wn && gOff == wOff && (want.Location() != time.UTC || got == want)
	if ok != wantOK || !same {
		t.Fatalf("ParseTime(%q) = %v (%#v), %v; time.Date gives %v (%#v), %v", s, got, got, ok, want, want, wantOK)
	}
	// LayoutTime takes the exact form only.
	b := []byte(s)
	layout := len(b) == len(jsonstr.TimeLayout) && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' &&
		b[16] == ':' && b[19] == '.' && b[23] == 'Z'
	lt, lok := jsonstr.LayoutTime(b)
	if layout && (lok != wantOK || lt != want) || !layout && lok || jsonstr.IsLayoutTime(b) != lok {
		t.Fatalf("LayoutTime(%q) = %v, %v; time.Date gives %v, %v", s, lt, lok, want, wantOK && layout)
	}
}

// TestParseTimeAgreesWithTimeDate checks the exact form, read by counting
// days, against time.Date: every day (and the days past each month's end)
// of years around every leap-year rule and the ends of the range, every
// value of each time field around its limits, and each digit replaced by
// every byte.
func TestParseTimeAgreesWithTimeDate(t *testing.T) {
	for _, y := range []int{0, 1, 3, 4, 99, 100, 399, 400, 1600, 1700, 1899, 1900, 1969, 1970, 1971, 2000, 2024, 2026, 2100, 2400, 9998, 9999} {
		for mo := 0; mo <= 13; mo++ {
			for d := 0; d <= 32; d++ {
				sameParse(t, fmt.Sprintf("%04d-%02d-%02dT12:00:00.000Z", y, mo, d))
			}
		}
	}
	for v := 0; v <= 99; v++ {
		sameParse(t, fmt.Sprintf("2026-07-22T%02d:00:00.000Z", v))
		sameParse(t, fmt.Sprintf("2026-07-22T23:%02d:00.000Z", v))
		sameParse(t, fmt.Sprintf("1969-12-31T23:59:%02d.999Z", v))
		sameParse(t, fmt.Sprintf("0000-01-01T00:00:00.%03dZ", v*10+9))
	}
	base := []byte("2024-02-29T23:59:59.999Z")
	for k := range base {
		for v := range 256 {
			b := append([]byte(nil), base...)
			b[k] = byte(v)
			sameParse(t, string(b))
		}
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2026-07-22T12:00:00.000Z", "2024-02-29T23:59:59.999Z", "2023-02-29T00:00:00.000Z",
		"0000-02-29T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "2026-07-22T12:00:00+02:00", "2026-07-22T12:00:00.000z"} {
		f.Add(s)
	}
	f.Fuzz(sameParse)
}
