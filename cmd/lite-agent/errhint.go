package main

import (
	"errors"
	"fmt"

	"github.com/lite-agent/lite-agent-go/storage"
)

// describe is the one line the CLI prints for a failed command: the
// error's text, or, for records written under another codec configuration,
// what to pass instead.
func describe(err error) string {
	var se *storage.Error
	if errors.As(err, &se) && se.CodecMismatch() {
		kind := string(se.Kind)
		if kind == "" {
			kind = "storage"
		}
		return kind + ": " + mismatchHint(se.Found, 0, 0)
	}
	return err.Error()
}

// mismatchHint tells what to do about records written with found ("plaintext"
// or a codec id); records and files, when not zero, say how many.
func mismatchHint(found string, records, files int) string {
	what := "records are"
	if records > 0 {
		verb := "are"
		if records == 1 {
			verb = "is"
		}
		what = fmt.Sprintf("%s in %s %s", plural(records, "record"), plural(files, "file"), verb)
	}
	if found == storage.FoundPlaintext {
		return what + " plaintext; run without --codec, or migrate them (lite-agent migrate)"
	}
	return fmt.Sprintf("%s encoded with %s; pass --codec and the key (--key-env or --key-file)", what, found)
}

// plural returns n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
