//go:build linux

package permission_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// TestReview126Decisions holds the lines the review of round 126 found
// allowed: bazel's versioned binaries read the .bazelrc as bazel does
// (bazel-4 version wrote the home through --output_user_root), and
// pytest's addopts may name an @file of more options (pytest 8.2 and
// later read it; 7.2.1 is installed here, so the decision alone is
// checked). Ordinary projects stay allowed.
func TestReview126Decisions(t *testing.T) {
	t.Parallel()
	bazelrc := map[string]string{"WORKSPACE": "", ".bazelrc": "startup --output_user_root=../home/bz\n"}
	tests := []struct {
		line  string
		files map[string]string
		want  permission.Decision
	}{
		{"bazel-4 version", bazelrc, permission.Ask},
		{"bazel-7.1.0 version", bazelrc, permission.Ask},
		{"bazel-real version", bazelrc, permission.Ask},
		{"bazel-4 version", map[string]string{"WORKSPACE": "", ".bazelrc": "build --jobs=4\n"}, permission.Allow},
		{"pytest -q", map[string]string{"pytest.ini": "[pytest]\naddopts = -ra @rsp\n", "rsp": "--junitxml=../home/x.xml\n"}, permission.Ask},
		{"pytest -q", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"@rsp\"\n"}, permission.Ask},
		{"pytest -q", map[string]string{"pytest.ini": "[pytest]\naddopts = -ra -q\n"}, permission.Allow},
	}
	for _, tt := range tests {
		home, wd := unlinkedFixture(t)
		writeTreeMode(t, wd, tt.files, 0o644)
		if v := secretDecider(t, home, wd)(tt.line); v.Decision != tt.want {
			t.Errorf("%q with %q: %v (%s), want %v", tt.line, tt.files, v.Decision, v.Reason, tt.want)
		}
	}
}
