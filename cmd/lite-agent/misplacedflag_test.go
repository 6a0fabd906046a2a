package main

import (
	"strings"
	"testing"
)

// TestAFlagBeforeItsCommandSaysWhereItGoes: a command's flag given before
// the command ("lite-agent --json paths"), which the root or a command
// group does not have, is a usage error that says where it goes, with an
// example; before, only "unknown flag: --json".
func TestAFlagBeforeItsCommandSaysWhereItGoes(t *testing.T) {
	isolateEnv(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--json", "paths"}, `lite-agent: unknown flag: --json; it is a flag of commands, given after the command, such as "lite-agent paths --json"` + "\n"},
		{[]string{"sessions", "--json", "list"}, `lite-agent: unknown flag: --json; it is a flag of commands, given after the command, such as "lite-agent sessions list --json"` + "\n"},
		// The command named does not have it: one below it that does.
		{[]string{"--json", "sessions"}, `lite-agent: unknown flag: --json; it is a flag of commands, given after the command, such as "lite-agent sessions checkpoints --json"` + "\n"},
		{[]string{"--json", "sessions", "lst"}, `lite-agent: unknown flag: --json; it is a flag of commands, given after the command, such as "lite-agent sessions checkpoints --json"` + "\n"},
		{[]string{"--dry-run", "cleanup"}, `lite-agent: unknown flag: --dry-run; it is a flag of commands, given after the command, such as "lite-agent cleanup --dry-run"` + "\n"},
		// No command has it: cobra's line as it was.
		{[]string{"--jsn", "paths"}, "lite-agent: unknown flag: --jsn\n"},
		{[]string{"paths", "--jsn"}, "lite-agent: unknown flag: --jsn\n"},
	} {
		r := runCLI(t, tt.args...)
		if r.code != exitUsage || r.stdout != "" || r.stderr != tt.want {
			t.Errorf("%s: code %d stdout %q stderr %q, want %d and %q", strings.Join(tt.args, " "), r.code, r.stdout, r.stderr, exitUsage, tt.want)
		}
	}
}
