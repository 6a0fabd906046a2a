package storage

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultNamespace is the namespace used when [Options.Namespace] is empty.
const DefaultNamespace = "lite-agent"

// HomeEnv is the environment variable that sets the data home of the default
// namespace. Custom namespaces ignore it.
const HomeEnv = "LITE_AGENT_HOME"

// validNamespace reports whether ns matches ^[a-z][a-z0-9_-]{0,63}$.
func validNamespace(ns string) bool {
	if len(ns) == 0 || len(ns) > 64 || ns[0] < 'a' || ns[0] > 'z' {
		return false
	}
	for i := 1; i < len(ns); i++ {
		if c := ns[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Options selects where and how the SDK persists its runtime state: the
// namespace, the data home and the record codec. The zero value means the
// default namespace, its default home and plaintext records.
type Options struct {
	// Namespace names the project config directory (<workdir>/.<namespace>)
	// and the default home (~/.<namespace>). It must match
	// ^[a-z][a-z0-9_-]{0,63}$; "" means [DefaultNamespace].
	Namespace string
	// Home is the data home. "" means [DefaultHome] of the namespace. A
	// relative path is made absolute against the working directory when the
	// layout is resolved; a home of only whitespace is rejected.
	Home string
	// Codec encodes every record of the built-in file stores. nil stores
	// plaintext.
	Codec Codec
}

// namespaceOrDefault returns ns, or DefaultNamespace when ns is empty.
func namespaceOrDefault(ns string) string {
	if ns == "" {
		return DefaultNamespace
	}
	return ns
}

// ValidateNamespace reports whether ns is a valid namespace: 1 to 64
// characters, a lowercase ASCII letter first, then lowercase letters, digits,
// underscores or hyphens. The error is a *[Error].
func ValidateNamespace(ns string) error {
	if !validNamespace(ns) {
		return &Error{Op: "validate", Message: "storage.namespace must be 1-64 lowercase letters, digits, underscores or hyphens, starting with a letter"}
	}
	return nil
}

// DefaultHome returns the default data home of namespace ("" means
// [DefaultNamespace]): the value of LITE_AGENT_HOME when it is set and
// non-empty and namespace is the default one, else ~/.<namespace>. Custom
// namespaces never read LITE_AGENT_HOME. The result is absolute. A
// LITE_AGENT_HOME of only whitespace is an error, as a Storage.Home of only
// whitespace is.
func DefaultHome(namespace string) (string, error) {
	namespace = namespaceOrDefault(namespace)
	if err := ValidateNamespace(namespace); err != nil {
		return "", err
	}
	if namespace == DefaultNamespace {
		if h := os.Getenv(HomeEnv); h != "" {
			if strings.TrimSpace(h) == "" {
				// Like a Storage.Home of only whitespace: a typo, not a
				// data home named "   " in the working directory.
				return "", &Error{Op: "resolve", Message: HomeEnv + " must not be empty"}
			}
			return absPath(h)
		}
	}
	userHome, err := os.UserHomeDir()
	if err != nil {
		return "", (&Error{Op: "resolve", Message: "cannot find the user's home directory"}).WithCause(err)
	}
	return absPath(filepath.Join(userHome, "."+namespace))
}

// absPath makes p absolute and lexically clean without resolving symlinks.
// A relative path is joined to the process's physical working directory as
// the kernel reports it (not $PWD), so that the result, and the project hash
// made from it, match other implementations that call getcwd(3).
func absPath(p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	wd, err := syscall.Getwd()
	if err != nil {
		return "", (&Error{Op: "resolve", File: p, Message: "cannot make path absolute"}).WithCause(err)
	}
	return filepath.Join(wd, p), nil
}
