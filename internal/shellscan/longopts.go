package shellscan

import (
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/longopt"
)

// curlNLong are curl's long options that begin with n (curl --help all,
// 8.x), among which an abbreviation of --netrc or --netrc-optional is
// matched: curl takes --netrc-o, and rejects --netr as ambiguous.
var curlNLong = longopt.Table{"--negotiate", "--netrc", "--netrc-file", "--netrc-optional", "--next", "--no-alpn",
	"--no-buffer", "--no-clobber", "--no-keepalive", "--no-npn", "--no-progress-meter", "--no-sessionid",
	"--noproxy", "--ntlm", "--ntlm-wb"}

// wgetDLong are wget's long options that begin with d (wget --help,
// 1.21), among which an abbreviation of --debug is matched (--deb; --de
// is ambiguous).
var wgetDLong = longopt.Table{"--debug", "--default-page", "--delete-after", "--directory-prefix", "--dns-timeout",
	"--domains"}

// s3cmdDLong are s3cmd's long options that begin with d (s3cmd --help,
// 2.3), among which an abbreviation of --dump-config is matched: Python's
// optparse took --dump and --du, which printed ~/.s3cfg's secret_key.
var s3cmdDLong = longopt.Table{"--debug", "--default-mime-type", "--delay-updates", "--delete-after",
	"--delete-after-fetch", "--delete-removed", "--disable", "--disable-multipart", "--dry-run", "--dump-config"}

// envLong are GNU env's long options (coreutils 9, env --help), among
// which an abbreviation of one that takes a value is matched: env --uns
// NAME printed the environment as env --unset NAME does.
var envLong = longopt.Table{"--block-signal", "--chdir", "--debug", "--default-signal", "--help",
	"--ignore-environment", "--ignore-signal", "--list-signal-handling", "--null", "--split-string", "--unset", "--version"}

// awsDecryptLong are the long options of aws ssm get-parameter(s) that
// begin with w or no-w: the AWS CLI's parser (argparse) takes any unique
// prefix, so --with-decr and even --w decrypt the parameter (aws --debug
// showed "WithDecryption": true for --w).
var awsDecryptLong = longopt.Table{"--with-decryption", "--no-with-decryption"}

// awsDecrypts reports whether aws args ask ssm for decrypted values:
// --with-decryption or an abbreviation of it.
func awsDecrypts(args []word) bool {
	return slices.ContainsFunc(args, func(w word) bool { return !w.dynamic && awsDecryptLong.Is(w.text, "--with-decryption") || w.dynamic })
}
