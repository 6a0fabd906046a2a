package permission_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// Round redteam60, compressors' output options: lzop -d -p../home f.lzo
// wrote f in the home (real lzop), since a value attached to a short
// option of a compressor was not read as a path it writes. The same holds
// for lzop -o, zstd -o and brotli -o.
func TestRedteam60CompressorOutputs(t *testing.T) {
	t.Parallel()
	home, wd := gateFixture(t)
	allow := permission.PolicyFunc(func(context.Context, permission.Call) (permission.Verdict, error) {
		return permission.Verdict{Decision: permission.Allow}, nil
	})
	g := permission.NewGate(permission.GateOptions{Policy: allow, Workdir: wd, HomeDir: home,
		Protected: []string{filepath.Join(wd, ".git", "config")}})
	for _, line := range []string{
		"lzop -d -p../home f.lzo", "lzop -d -o../x f.lzo", "lzop -dp../x f.lzo", "lzop -d -p ~ f.lzo",
		"lzop -d --path=~ f.lzo", "lzop -d -o ~/x f.lzo", "zstd -d -o../x a.zst", "zstd -d a.zst -o ~/x",
		"zstd -d --output-dir-flat=../x a.zst", "unzstd --output-dir-mirror ~ a.zst", "brotli -d -o../x a.br",
		"brotli -d --output=~/x a.br",
	} {
		if out := authorize(t, g, line); out.Decision == permission.Allow {
			t.Errorf("%q is allowed", line)
		}
	}
	for _, line := range []string{
		"lzop -d f.lzo", "lzop -d -pout f.lzo", "lzop -d -o out f.lzo", "zstd -d a.zst -o out", "zstd -d -oout a.zst",
		"brotli -d a.br", "brotli -d -o out a.br", "zstd -19 README", "lzop -9 README", "zstd -T0 -d a.zst",
	} {
		if out := authorize(t, g, line); out.Decision != permission.Allow {
			t.Errorf("%q: %s (%s), want allow", line, out.Decision, out.Verdict.Reason)
		}
	}
}
