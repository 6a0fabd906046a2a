package bash

import (
	"strings"
	"unicode/utf8"
)

// validText returns b as a string, with every invalid UTF-8 sequence
// replaced by U+FFFD, as a UTF-8 decoder reading text for the model does.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
