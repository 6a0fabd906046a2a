package secretpaths_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
)

func TestBeneathDescriptor(t *testing.T) {
	for p, want := range map[string]bool{
		"/dev/fd/3/.pgpass":               true,
		"/dev/fd/3/x/../y":                true,
		"/dev/stdin/.ssh/id_rsa":          true,
		"/dev/stderr/x":                   true,
		"/proc/self/fd/3/.pgpass":         true,
		"/proc/thread-self/fd/0/x":        true,
		"/proc/1234/task/1234/fd/5/a":     true,
		"/dev/fd/3":                       false,
		"/dev/fd":                         false,
		"/dev/stdin":                      false,
		"/proc/self/fd/3":                 false,
		"/proc/self/fdinfo/3":             false,
		"/proc/sys/fd/3/x":                false,
		"/dev/null":                       false,
		"dev/fd/3/x":                      false,
		"/home/u/dev/fd/3/x":              false,
		"/dev/fd/../fd/3/.pgpass":         true,
		"/proc/self/cwd/fd/3/x":           false,
		"/proc/self/task/1/fd/3/.netrc":   true,
		"/proc/self/task/fd/3/irrelevant": false,
	} {
		if got := secretpaths.BeneathDescriptor(p); got != want {
			t.Errorf("BeneathDescriptor(%q) = %v, want %v", p, got, want)
		}
	}
}
