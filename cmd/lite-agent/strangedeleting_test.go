//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/nonregular"
)

// Something other than a regular file at the name a delete sets a log
// aside under (s1.jsonl.deleting: a directory with a file of its own, a
// symlink, a named pipe) is not a delete's: no command removes, follows or
// opens it. sessions list notes it with what to do, sessions show and
// verify say it is to be removed by hand, and sessions delete refuses it
// before removing anything (it removed the session's task list and archive,
// then failed on the directory, or removed the link or pipe).
func TestAStrangeSetAsideLogIsLeftToTheUser(t *testing.T) {
	for _, tc := range nonregular.Kinds() {
		t.Run(tc.Name, func(t *testing.T) {
			isolateEnv(t)
			home, p := referenceHome(t)
			log := filepath.Join(p.SessionsDir, "s1.jsonl")
			if err := os.Remove(log); err != nil {
				t.Fatal(err)
			}
			tc.Make(t, log+".deleting")
			before := paths(t, p.ProjectDir())
			base := []string{"--home", home, "--workdir", "/srv/app"}
			saysByHand := func(what, out string) {
				t.Helper()
				if !strings.Contains(out, "session s1 is being deleted") || !strings.Contains(out, tc.Word) || !strings.Contains(out, "by hand") {
					t.Errorf("%s: %q does not say s1's %s is to be removed by hand", what, out, tc.Word)
				}
			}

			r := runCLI(t, append(base, "sessions", "list")...)
			if r.code != 0 || strings.Contains(r.stdout, "s1") {
				t.Errorf("sessions list: exit %d, stdout %q; want 0 and no s1", r.code, r.stdout)
			}
			saysByHand("sessions list", r.stderr)

			r = runCLI(t, append(base, "sessions", "show", "s1")...)
			if r.code != 1 {
				t.Errorf("sessions show: exit %d, want 1", r.code)
			}
			saysByHand("sessions show", r.stderr)

			r = runCLI(t, append(base, "sessions", "delete", "s1")...)
			if r.code != 1 {
				t.Errorf("sessions delete: exit %d, want 1", r.code)
			}
			saysByHand("sessions delete", r.stderr)

			r = runCLI(t, append(base, "verify")...)
			if r.code == 0 {
				t.Errorf("verify: exit 0, want a problem")
			}
			saysByHand("verify", r.stdout+r.stderr)

			if after := paths(t, p.ProjectDir()); !slices.Equal(before, after) {
				t.Errorf("the project changed:\n before %v\n after  %v", before, after)
			}
		})
	}
}
