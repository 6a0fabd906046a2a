package shellscan

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCopiedExecutableHanded checks that a file a copy, move or link may
// make executable, handed by any spelling to a command the analysis does
// not model (which may run it: hyperfine './t c' ran cp /bin/rm's copy in
// real bash), is code that command runs, and that a copy of a data file
// stays data. gate66.
func TestCopiedExecutableHanded(t *testing.T) {
	dir := t.TempDir()
	files := map[string]os.FileMode{"run.sh": 0o755, "data.txt": 0o644, "d/x.txt": 0o644, "e/run": 0o755, "old": 0o755}
	for name, mode := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range []string{
		`cp /bin/rm t && mytool ./t c`,
		`cp /bin/rm t && mytool t c`,
		`cp /bin/rm t && mytool './t c'`,
		`cp /bin/rm t && mytool --run=./t`,
		`cp /bin/rm t && mytool -x./t`,
		`cp run.sh t && mytool ./t`,
		`cp -p run.sh t && mytool ./t`,
		`cp -t sub run.sh && mytool sub/run.sh`,
		`cp -vt sub run.sh && mytool sub/run.sh`,
		`cp --target-dir=sub data.txt run.sh && mytool sub/run.sh`,
		`cp -- run.sh t && mytool ./t`,
		`cp data.txt old && mytool old`,
		`cp missing.txt t && mytool ./t`,
		`cp -r e f && mytool f/run`,
		`cp "$X" t && mytool ./t`,
		`cp *.sh t && mytool ./t`,
		`mv run.sh t && mytool ./t`,
		`ln -s run.sh e/t && mytool e/t`,
		`rsync host:x t && mytool ./t`,
		`setfacl -m u::rwx data.txt && mytool ./data.txt`,
		// A name built from the words: hyperfine -P and -L fill in {n}.
		`cp /bin/rm t1 && hyperfine -P n 1 1 './t{n} c'`,
		`cp run.sh tx && hyperfine -L v x './t{v} c'`,
		`chmod +x data.txt && mytool './dat?.txt'`,
		`cp run.sh d/t && mytool d`,
		`cp run.sh d/t && mytool .`,
		`cp run.sh d/t && mytool --dir=./d/`,
		// A file written over keeps its mode.
		`echo 'rm -rf ~' > e/run && mytool e run`,
		`sed -i 1d e/run && mytool e r`,
	} {
		if a := analyzeBash(line, "/home/u", dir); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque (units %v)", line, a.units)
		}
	}
	for _, line := range []string{
		`cp data.txt t && mytool ./t`,
		`cp data.txt t && mytool t`,
		`cp -p data.txt d/y.txt && mytool 'd/y.txt x'`,
		`cp -t d data.txt && mytool d/data.txt`,
		`cp -r d d2 && cat d2/x.txt`,
		`cp run.sh t && mytool ./other`,
		`cp run.sh d/t && mytool e`,
		`echo x > data.txt && mytool ./dat`,
	} {
		if a := analyzeBash(line, "/home/u", dir); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %v", line, a.reasons)
		}
	}
}
