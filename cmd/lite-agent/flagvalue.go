package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// A flagValueError reports a flag given a value it cannot take, in one
// line that names the flag, the value and what the flag expects:
//
//	invalid --max-bytes "12k": want a whole number
//
// It wraps the parser's *pflag.InvalidValueError, whose own text ends in
// the parser's (strconv.ParseInt: parsing "12k": invalid syntax).
type flagValueError struct {
	// Flag is the flag's name, without dashes.
	Flag string
	// Value is the value given.
	Value string
	// Want says what the flag expects.
	Want string

	err error
}

func (e *flagValueError) Error() string {
	return fmt.Sprintf("invalid --%s %q: %s", e.Flag, e.Value, e.Want)
}

func (e *flagValueError) Unwrap() error { return e.err }

// flagError returns the error to report for err, an error of cobra's flag
// parsing: a *flagValueError for a value the flag cannot take, err itself
// otherwise.
func flagError(err error) error {
	var ie *pflag.InvalidValueError
	if !errors.As(err, &ie) || ie.GetFlag() == nil {
		return err
	}
	f := ie.GetFlag()
	return &flagValueError{Flag: f.Name, Value: ie.GetValue(), Want: flagWant(f.Value.Type(), ie.GetValue(), ie.Unwrap()), err: err}
}

// flagWant says what a flag of pflag type typ expects, given that value
// failed with cause. A flag type of this package (one whose Set says what
// it wants) keeps its own text.
func flagWant(typ, value string, cause error) string {
	var ne *strconv.NumError
	isNum := errors.As(cause, &ne)
	outOfRange := isNum && errors.Is(ne.Err, strconv.ErrRange)
	switch {
	case typ == "bool" && isNum:
		return "want true or false"
	case typ == "duration":
		return "want a duration such as 90s, 15m or 1h30m"
	case strings.HasPrefix(typ, "float") && isNum:
		return "want a number such as 2 or 0.5"
	case strings.HasPrefix(typ, "int") && isNum:
		bits := typeBits(typ, "int")
		switch {
		case !outOfRange:
			return "want a whole number"
		case strings.HasPrefix(value, "-"):
			return fmt.Sprintf("want a whole number no smaller than %d", int64(-1)<<(bits-1))
		default:
			return fmt.Sprintf("want a whole number no larger than %d", int64(uint64(1)<<(bits-1)-1))
		}
	case strings.HasPrefix(typ, "uint") && isNum:
		bits := typeBits(typ, "uint")
		if outOfRange {
			return fmt.Sprintf("want a whole number from 0 to %d", uint64(math.MaxUint64)>>(64-bits))
		}
		return "want a whole number, 0 or more"
	case cause != nil:
		return cause.Error()
	}
	return "want a valid " + typ
}

// typeBits returns the size in bits of the pflag integer type typ, which
// starts with prefix ("int" or "uint"): int8 is 8 bits, int the
// platform's int.
func typeBits(typ, prefix string) int {
	if n, err := strconv.Atoi(strings.TrimPrefix(typ, prefix)); err == nil {
		return n
	}
	return strconv.IntSize
}
