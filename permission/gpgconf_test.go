package permission

import "testing"

// A gpg settings file is sound when each option names no path and no
// program.
func TestGpgConfUnsound(t *testing.T) {
	t.Parallel()
	for text, unsafe := range map[string]bool{
		"armor\nkeyid-format long\n# c\n\n":                 false,
		"default-cache-ttl 600\n--pinentry-mode=loopback\n": false,
		"logger-file /x\n":                                  true,
		"log-file /x\n":                                     true,
		"agent-program ./a\n":                               true,
		"pinentry-program ./p\n":                            true,
		"photo-viewer ./p\n":                                true,
		"list-options show-photos\n":                        true,
		"options ./o\n":                                     true,
		"load-extension x\n":                                true,
		"=\n":                                               true,
		"armor\n= =\n":                                      true,
	} {
		if got := gpgConfUnsound(text); (got != "") != unsafe {
			t.Errorf("%q: unsound %q, want unsound %v", text, got, unsafe)
		}
	}
}
