// Package auditcmd is the audit log of the lite-agent command: the keys
// it takes, the audit verify report, and the log run and chat write with
// --audit-log.
package auditcmd

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lite-agent/lite-agent-go/audit"
	"github.com/lite-agent/lite-agent-go/internal/termtext"
)

// MinKeySize is the least number of bytes an audit key may have.
const MinKeySize = 16

// maxKeyFileSize bounds how much of a key file is read.
const maxKeyFileSize = 4096

// errMalformedKey reports key text that is not a key. Its message never
// includes the text.
var errMalformedKey = fmt.Errorf("an audit key must be at least %d bytes, written as hex or standard base64", MinKeySize)

// ParseKey decodes an audit (HMAC) key written as hex (either case) or as
// standard, padded base64, ignoring surrounding whitespace. Errors never
// quote the text.
func ParseKey(text []byte) ([]byte, error) {
	text = bytes.TrimSpace(text)
	if key, err := hex.DecodeString(string(text)); err == nil && len(key) >= MinKeySize {
		return key, nil
	}
	if key, err := base64.StdEncoding.Strict().DecodeString(string(text)); err == nil && len(key) >= MinKeySize {
		return key, nil
	}
	return nil, errMalformedKey
}

// LoadKey returns the key held by the environment variable env or the
// file file (at most one may be given; nil when neither is). Errors name
// the variable or the file, never the key.
func LoadKey(env, file string) ([]byte, error) {
	switch {
	case env != "" && file != "":
		return nil, errors.New("give the audit key in an environment variable or a file, not both")
	case env != "":
		text, ok := os.LookupEnv(env)
		if !ok || text == "" {
			return nil, fmt.Errorf("audit key environment variable %s is not set", env)
		}
		key, err := ParseKey([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("audit key environment variable %s: %w", env, err)
		}
		return key, nil
	case file != "":
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("read audit key file: %w", err)
		}
		defer f.Close()
		text, err := io.ReadAll(io.LimitReader(f, maxKeyFileSize+1))
		if err != nil {
			return nil, fmt.Errorf("read audit key file: %w", err)
		}
		if len(text) > maxKeyFileSize {
			return nil, fmt.Errorf("audit key file %s is larger than %d bytes", file, maxKeyFileSize)
		}
		key, err := ParseKey(text)
		if err != nil {
			return nil, fmt.Errorf("audit key file %s: %w", file, err)
		}
		return key, nil
	}
	return nil, nil
}

// A BrokenError reports a chain that verify found broken; its message
// names the first broken record.
type BrokenError struct{ Break *audit.ChainError }

func (e *BrokenError) Error() string { return "the audit chain is broken: " + e.Break.Error() }

// Verify verifies the audit log files args, oldest first, and writes the
// report to out, as text or, with asJSON, as the JSON of [audit.Report].
// One argument stands for its log's rotated files too (see [audit.FilesContext]).
// A broken chain is a *BrokenError, after the report.
func Verify(ctx context.Context, out io.Writer, args []string, key []byte, asJSON bool) error {
	files := args
	if len(args) == 1 {
		all, err := audit.FilesContext(ctx, args[0])
		if err != nil {
			return err
		}
		if len(all) > 0 {
			files = all
		}
	}
	rep, err := audit.Verify(ctx, files, key)
	if err != nil {
		return err
	}
	if asJSON {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(out, "%s\n", b); err != nil {
			return err
		}
	} else {
		writeText(out, &rep)
	}
	if !rep.OK() {
		return &BrokenError{Break: rep.Broken}
	}
	return nil
}

// writeText writes rep for a person.
func writeText(out io.Writer, rep *audit.Report) {
	hash := "SHA-256"
	if rep.Keyed {
		hash = "HMAC-SHA256"
	}
	fmt.Fprintf(out, "files: %s\n", termtext.Line(strings.Join(rep.Files, ", ")))
	switch {
	case rep.Records == 0:
		fmt.Fprintf(out, "records: none intact (%s)\n", hash)
	default:
		fmt.Fprintf(out, "records: %d intact, seq %d to %d (%s)\n", rep.Records, rep.FirstSeq, rep.LastSeq, hash)
		fmt.Fprintf(out, "last hash: %s\n", termtext.Line(rep.LastHash))
		if !rep.Start {
			fmt.Fprintf(out, "note: the chain begins at seq %d: earlier records were rotated away or are in files not given\n", rep.FirstSeq)
		}
	}
	if rep.Torn != nil {
		fmt.Fprintf(out, "note: %s\n", termtext.Line(rep.Torn.Error()))
	}
	if rep.Broken != nil {
		fmt.Fprintf(out, "BROKEN: %s\n", termtext.Line(rep.Broken.Error()))
		return
	}
	fmt.Fprintln(out, "chain: intact")
}
