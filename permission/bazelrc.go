package permission

import (
	"path/filepath"
	"strings"
	"sync"
)

// A workspace's .bazelrc gives bazel its options for every command,
// `bazel version` too: startup options that name where its server keeps
// its output (--output_user_root, --output_base, --install_base), the
// java it runs and that java's options, and options of the commands
// (--disk_cache, --repository_cache); import and try-import read more
// files. Real `bazel version` wrote ../home through --output_user_root
// and --output_base at round redteam123 while the gate allowed it. The
// gate reads the .bazelrc of the working directory and of the
// directories above it in the workdir and the files they import, and
// makes the line opaque when a word names a path outside the workdir
// (see tokenUnsound), a startup option names a java, or a JVM option is
// not one jvmOptionHarmless knows.

// bazelJavaOptions are bazel's startup options that name the java its
// server runs, or a file that java writes.
var bazelJavaOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"--server_javabase": true, "--host_javabase": true, "--host_jvm_profile": true, "--server_jvm_out": true,
		"--bazelrc": true, "--install_base": true,
	}
})

// bazelPathOptions are bazel's options that name a directory it writes:
// each must lie in the workdir.
var bazelPathOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"--output_user_root": true, "--output_base": true, "--disk_cache": true, "--repository_cache": true,
		"--distdir": true, "--execution_log_json_file": true, "--execution_log_binary_file": true,
		"--profile": true, "--build_event_json_file": true, "--build_event_text_file": true,
		"--build_event_binary_file": true, "--symlink_prefix": true,
	}
})

// bazelrcUnsound says why the .bazelrc text in dir, read by bazel running
// in cwd, may make bazel write outside the workdir or run a java or code
// the project holds, or "", and returns the files it imports. Its paths
// are judged from dir and from cwd: bazel --bazelrc=sub/ci.rc version
// took --output_user_root=../home/x from the working directory and wrote
// there (round redteam126).
func (g *Gate) bazelrcUnsound(cwd, dir, text string) (string, []string) {
	var more []string
	// Bazel joins a line ending in a backslash to the next with nothing
	// between (rc_file.cc): "--output_user_root=.\" and "./home/x" are
	// --output_user_root=../home/x (round redteam125).
	text = strings.ReplaceAll(text, "\\\r\n", "")
	text = strings.ReplaceAll(text, "\\\n", "")
	for _, line := range configLines(text) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		if strings.ContainsAny(line, `"'\`) {
			return "has a quoted word or an escape, which the gate does not read: " + clip(line), nil
		}
		if words[0] == "import" || words[0] == "try-import" {
			if len(words) != 2 {
				return "has an import the gate does not read: " + clip(line), nil
			}
			p := strings.ReplaceAll(words[1], "%workspace%", dir)
			if why := g.settingsPathUnsound(dir, p); why != "" {
				return "imports " + clip(words[1]) + ": " + why, nil
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			more = append(more, filepath.Clean(p))
			continue
		}
		for i, w := range words[1:] {
			name, value, _ := strings.Cut(w, "=")
			if bazelJavaOptions()[name] {
				return "sets " + clip(name) + ", a java bazel runs or a file it writes", nil
			}
			if value == "" && !strings.Contains(w, "=") && i+2 < len(words) {
				value = words[i+2]
			}
			if bazelPathOptions()[name] {
				if why := firstUnsound(g.settingsPathUnsound, strings.ReplaceAll(value, "%workspace%", dir), dir, cwd); why != "" {
					return "sets " + clip(name) + " to " + clip(value) + ": " + why, nil
				}
			}
			if name == "--host_jvm_args" {
				if !jvmOptionHarmless(value) {
					return "gives bazel's java " + clip(value) + ", an option the gate does not know to be harmless", nil
				}
			}
			w = strings.ReplaceAll(w, "%workspace%", dir)
			if why := firstUnsound(g.tokenUnsound, w, dir, cwd); why != "" {
				return "sets " + clip(w) + ": " + why, nil
			}
		}
	}
	return "", more
}
