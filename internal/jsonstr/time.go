package jsonstr

import (
	"encoding/binary"
	"time"
)

// TimeLayout is the form JSON.stringify gives a Date (its toISOString):
// UTC, milliseconds, and a Z.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime returns t in [TimeLayout].
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime parses a timestamp: the exact [TimeLayout] form without
// allocating, or else any RFC 3339 time. A string of the layout's length
// with its separators in place is read as that form only: a field out of
// range (month 13, February 30, hour 24) makes it no time at all.
func ParseTime(b []byte) (time.Time, bool) {
	if len(b) == len(TimeLayout) && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' &&
		b[16] == ':' && b[19] == '.' && b[23] == 'Z' {
		return LayoutTime(b)
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

// The digits of TimeLayout in its three eight-byte words, read
// little-endian: 0xff at each digit, 0 at each separator.
const (
	digits0 = 0x00ffff00ffffffff // 2006-01-
	digits1 = 0xffff00ffff00ffff // 02T15:04
	digits2 = 0x00ffffff00ffff00 // :05.000Z
)

// LayoutTime parses b if it is a time in exactly [TimeLayout], as
// ParseTime reads that form, and reports false for anything else. It
// gives the time time.Date would (UTC, proleptic Gregorian) by counting
// days rather than calling it, which costs more than the rest of a session
// record's checks together.
func LayoutTime(b []byte) (time.Time, bool) {
	c, ok := layoutFields(b)
	if !ok {
		return time.Time{}, false
	}
	sec := daysSinceEpoch(c.year, c.month, c.day)*86400 + int64(c.hour*3600+c.min*60+c.sec)
	return time.Unix(sec, int64(c.ms)*int64(time.Millisecond)).UTC(), true
}

// IsLayoutTime reports whether LayoutTime accepts b, without computing
// the time.
func IsLayoutTime(b []byte) bool {
	_, ok := layoutFields(b)
	return ok
}

// civil is a time's fields as TimeLayout writes them.
type civil struct{ year, month, day, hour, min, sec, ms int }

// layoutFields reads the fields of b, a time in exactly TimeLayout, and
// reports whether they make a time: separators in place, digits (checked
// eight bytes at a time) elsewhere, and each field in range.
func layoutFields(b []byte) (civil, bool) {
	if len(b) != len(TimeLayout) {
		return civil{}, false
	}
	b = b[:len(TimeLayout)]
	w0 := binary.LittleEndian.Uint64(b)
	w1 := binary.LittleEndian.Uint64(b[8:])
	w2 := binary.LittleEndian.Uint64(b[16:])
	if w0&^digits0 != 0x2d00002d00000000 || w1&^digits1 != 0x00003a0000540000 || w2&^digits2 != 0x5a0000002e00003a {
		return civil{}, false // a separator is wrong
	}
	if !allDigits(w0, digits0) || !allDigits(w1, digits1) || !allDigits(w2, digits2) {
		return civil{}, false
	}
	two := func(k int) int { return int(b[k]-'0')*10 + int(b[k+1]-'0') }
	c := civil{year: two(0)*100 + two(2), month: two(5), day: two(8),
		hour: two(11), min: two(14), sec: two(17), ms: two(20)*10 + int(b[22]-'0')}
	if c.month < 1 || c.month > 12 || c.day < 1 || c.day > daysIn(c.year, c.month) || c.hour > 23 || c.min > 59 || c.sec > 59 {
		return civil{}, false
	}
	return c, true
}

// allDigits reports whether the bytes of w that mask marks are all ASCII
// digits. Such a byte xor '0' is 0 to 9, so its high nibble is 0 and adding
// 6 leaves bit 4 clear; any other byte fails one of the two tests (and a
// carry out of it only matters once the test has failed already).
func allDigits(w, mask uint64) bool {
	x := (w ^ ones*'0') & mask
	return x&(mask&(ones*0xf0)) == 0 && (x+mask&(ones*0x06))&(mask&(ones*0x10)) == 0
}

// daysIn returns the number of days of month mo (1 to 12) of year y.
func daysIn(y, mo int) int {
	switch mo {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch returns the number of days from 1970-01-01 to the date
// y-mo-d of the proleptic Gregorian calendar, for y from 0 to 9999: the
// days of whole 400-year eras since year 0 and of the years, months
// (counted from March, so that a leap day ends a year) and days since.
func daysSinceEpoch(y, mo, d int) int64 {
	if mo <= 2 {
		y-- // January and February end the year before
	}
	era := (y+400)/400 - 1 // rounds down for y = -1
	yoe := y - era*400     // 0 to 399
	mp := (mo + 9) % 12    // March is 0
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}
