package jsonstr

import "time"

// TimeLayout is the form JSON.stringify gives a Date (its toISOString):
// UTC, milliseconds, and a Z.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime returns t in [TimeLayout].
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime parses a timestamp: the exact [TimeLayout] form without
// allocating, or else any RFC 3339 time.
func ParseTime(b []byte) (time.Time, bool) {
	if len(b) == len(TimeLayout) && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' &&
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
