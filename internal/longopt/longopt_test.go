package longopt

import "testing"

// curlN are curl's long options that begin with n (curl --help all).
var curlN = Table{"--negotiate", "--netrc", "--netrc-file", "--netrc-optional", "--next", "--no-alpn",
	"--no-buffer", "--no-clobber", "--no-keepalive", "--no-npn", "--no-progress-meter", "--no-sessionid",
	"--noproxy", "--ntlm", "--ntlm-wb"}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		w, opt string
		ok     bool
	}{
		{"--netrc", "--netrc", true},             // exact, though a prefix of two more
		{"--netrc-o", "--netrc-optional", true},  // unique prefix (curl took it, round 92)
		{"--netrc-op", "--netrc-optional", true}, // longer prefix
		{"--netrc-optional=x", "--netrc-optional", true},
		{"--netr", "", false},      // ambiguous: curl said so
		{"--ntlm", "--ntlm", true}, // exact beside --ntlm-wb
		{"--ntlm-", "--ntlm-wb", true},
		{"--n", "", false},
		{"--", "", false},
		{"-n", "", false},
		{"netrc", "", false},
		{"--netrc-optionalx", "", false}, // longer than any option
		{"--x", "", false},
	} {
		opt, ok := curlN.Match(c.w)
		if opt != c.opt || ok != c.ok {
			t.Errorf("Match(%q) = %q, %v; want %q, %v", c.w, opt, ok, c.opt, c.ok)
		}
	}
}

func TestIsAny(t *testing.T) {
	grep := Table{"--recursive", "--regexp", "--dereference-recursive", "--devices", "--directories"}
	if !grep.Is("--recur", "--recursive") || grep.Is("--re", "--recursive") || grep.Is("--recur", "--regexp") {
		t.Error("Is: --recur is --recursive, --re is ambiguous")
	}
	if !grep.Any([]string{"x", "--derefer", "y"}, "--recursive", "--dereference-recursive") {
		t.Error("Any: --derefer is --dereference-recursive")
	}
	if grep.Any([]string{"--d", "-r", "--devices=skip"}, "--recursive", "--dereference-recursive") {
		t.Error("Any: none of --d, -r, --devices=skip is a recursive long option")
	}
}
