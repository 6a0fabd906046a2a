package main

import (
	"errors"

	"github.com/lite-agent/lite-agent-go/cmd/lite-agent/internal/verify"
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
		return kind + ": " + verify.MismatchHint(se.Found, 0, 0)
	}
	return err.Error()
}
