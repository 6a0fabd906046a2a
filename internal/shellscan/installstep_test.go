package shellscan

import "testing"

// A build system's install step copies what was built to the configured
// prefix, /usr/local unless the project says otherwise, where PATH finds
// it; setup.py install and develop install into the python's environment.
// Each line of the first list was allowed before.
func TestInstallStepsAreOpaque(t *testing.T) {
	for _, line := range []string{
		"make install", "make -j4 install", "make DESTDIR=x install", "make uninstall", "gmake install",
		"sudo make install", "ninja install", "ninja -C b install", "samu -C b install",
		"cmake --install build", "cmake --install . --prefix p", "cmake --build build --target install",
		"cmake --build build -t install", "cmake --build build --target=install", "meson install",
		"meson install -C b", "scons install", "dune install", "python3 setup.py install",
		"python3 setup.py develop", "python setup.py -q install --user", "python3 -W ignore setup.py install",
		".venv/bin/python setup.py install", "logsave /dev/null make install",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); !opaqueOrFoundByPath(a) {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"make", "make test", "make -j4", "make install-deps", "ninja -C b", "ninja", "cmake -B build",
		"cmake --build build", "cmake --build build --target all", "meson setup b", "meson compile -C b",
		"meson test -C b", "scons", "dune build", "python3 setup.py build", "python3 setup.py sdist bdist_wheel",
		"python3 setup.py --version",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
}
