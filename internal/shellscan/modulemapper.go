package shellscan

import "strings"

// compilerMapper makes the line opaque when a compiler driver is given
// g++'s -fmodule-mapper (as -fmodule-mapper=V or with V next): a value
// '|PROGRAM ARGS' runs the program, a file or a host:port maps each
// module to the file its compiled interface is written to, anywhere. It
// records as code the file clang's -fpass-plugin=P, -fuse-ld=PATH (a
// path, not a linker's name) and --ld-path=PATH name, which the compiler
// loads or runs.
func (an *analyzer) compilerMapper(name string, args []word) {
	for i, a := range args {
		t := a.text
		switch {
		case t == "-fmodule-mapper" || strings.HasPrefix(t, "-fmodule-mapper=") || a.dynamic && strings.HasPrefix(t, "-fmodule"):
			an.opaque(name + " -fmodule-mapper runs the program it names or writes module interfaces where its map says")
			return
		case strings.HasPrefix(t, "-fpass-plugin="):
			an.usesCode(name, strings.TrimPrefix(t, "-fpass-plugin="))
		case strings.HasPrefix(t, "--ld-path="):
			an.usesCode(name, strings.TrimPrefix(t, "--ld-path="))
		case strings.HasPrefix(t, "-fuse-ld=") && strings.Contains(t, "/"):
			an.usesCode(name, strings.TrimPrefix(t, "-fuse-ld="))
		case t == "--ld-path" && i+1 < len(args):
			an.usesCode(name, args[i+1].text)
		}
	}
}
