package main

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
)

// keySize is the size of an AEAD key in bytes.
const keySize = 32

// maxKeyFileSize bounds how much of a key file is read. A key takes at most
// 64 characters plus surrounding whitespace.
const maxKeyFileSize = 4096

// errMalformedKey reports key text that is not 32 bytes in hex or base64. Its
// message never includes the text.
var errMalformedKey = errors.New("key must be 32 bytes written as 64 hex characters or standard base64")

// errKeyAsName reports a key given where the name of the variable or file
// holding it belongs. Its message does not repeat what was given.
var errKeyAsName = errors.New("the key flags take the name of an environment variable (--key-env) or the path of a file (--key-file) holding the key, not the key itself; what was given looks like a key and is not shown")

// looksLikeKey reports whether s, given as a variable name or a path, is
// itself a key.
func looksLikeKey(s string) bool {
	_, err := parseKey([]byte(s))
	return err == nil
}

// keySource says where the key of an encrypting codec comes from: an
// environment variable or a file. The zero value has no key.
type keySource struct {
	env  string // name of the environment variable holding the key, or ""
	file string // path of the file holding the key, or ""
}

// isZero reports whether k names no key.
func (k keySource) isZero() bool { return k.env == "" && k.file == "" }

// load reads the key k names and parses it with parseKey. Errors name the
// variable or the file, never the key.
func (k keySource) load() ([]byte, error) {
	switch {
	case k.env != "":
		text, ok := os.LookupEnv(k.env)
		if !ok || text == "" {
			if looksLikeKey(k.env) {
				return nil, errKeyAsName
			}
			return nil, fmt.Errorf("key environment variable %s is not set", k.env)
		}
		key, err := parseKey([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("key environment variable %s: %w", k.env, err)
		}
		return key, nil
	case k.file != "":
		text, err := readKeyFile(k.file)
		if err != nil {
			if looksLikeKey(k.file) {
				return nil, errKeyAsName
			}
			return nil, err
		}
		key, err := parseKey(text)
		if err != nil {
			return nil, fmt.Errorf("key file %s: %w", k.file, err)
		}
		return key, nil
	}
	return nil, errors.New("no key source")
}

// readKeyFile returns the contents of the key file at path, refusing files
// larger than maxKeyFileSize.
func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read key file: %w", err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxKeyFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read key file: %w", err)
	}
	if len(text) > maxKeyFileSize {
		return nil, fmt.Errorf("key file %s is larger than %d bytes", path, maxKeyFileSize)
	}
	return text, nil
}

// parseKey decodes a 32-byte key written as 64 hexadecimal characters (either
// case) or as standard, padded base64, ignoring surrounding whitespace. The
// error is errMalformedKey; like every error here it never quotes the text,
// not even the offending character a decoder would name.
func parseKey(text []byte) ([]byte, error) {
	text = bytes.TrimSpace(text)
	if len(text) == hex.EncodedLen(keySize) {
		key := make([]byte, keySize)
		if _, err := hex.Decode(key, text); err == nil {
			return key, nil
		}
	}
	if len(text) == base64.StdEncoding.EncodedLen(keySize) {
		key := make([]byte, base64.StdEncoding.DecodedLen(len(text)))
		n, err := base64.StdEncoding.Strict().Decode(key, text)
		if err == nil && n == keySize {
			return key[:n], nil
		}
	}
	return nil, errMalformedKey
}
