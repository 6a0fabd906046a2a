package shellscan

import "testing"

// Round redteam63: each opaque line of the first group, or its variant in
// permission's canary round 73, did damage under real bash (in bwrap, a
// throwaway directory) and "allow bash" allowed it: ghostscript without
// its SAFER mode ran the PostScript's deletefile and (%pipe%cmd) file;
// make-first-existing-target ran the recipe of a makefile the line wrote;
// llvm-jitlink and llvm-rtdyld -execute ran the machine code of an object
// file the line assembled; c_rehash and openssl rehash with no directory
// rehashed /usr/lib/ssl/certs (as root: the system's trusted
// authorities), as catman writes the system's cache of manual pages;
// x86_64-linux-gnu-ld, not judged as ld, linked an object the line
// assembled into a shared object whose constructor nm --plugin ran;
// setsid started a process in a session of its own, which outlived the
// kill of the line's process group that ends every line.
func TestRedteam63(t *testing.T) {
	opaque := []string{
		"gs -dNOSAFER x.ps", "gs -q -DNOSAFER -dBATCH x.ps", "gs -dNOSAFER=true x.ps", "gs -dDELAYSAFER x.ps",
		"gs -dSAFER=false x.ps", "gs -dSAFER#false x.ps", "gs -dnosafer x.ps", "gs @opts x.ps", "gs -c '(c) deletefile' -dNOSAFER",
		"gs --permit-file-all=/ x.ps", "gs --permit-file-write=/root/ x.ps", "ghostscript -dNOSAFER x.ps",
		"ps2pdf -dNOSAFER x.ps", "ps2ps -DNOSAFER x.ps o.ps", "eps2eps -dNOSAFER a.eps b.eps", "pdf2ps -dNOSAFER a.pdf",
		"gs $opt x.ps", "/usr/bin/gs -dNOSAFER x.ps", "nice gs -dNOSAFER x.ps",
		"make-first-existing-target all", "make-first-existing-target -c 'make -k' all",
		"llvm-jitlink j.o", "llvm-jitlink-14 j.o", "llvm-rtdyld -execute j.o", "llvm-rtdyld-14 -execute j.o",
		"llvm-exegesis -mode=latency -snippets-file=x.s", "bugpoint --run-custom --exec-command=./x x.bc",
		"lli-child-target-14 3 4",
		"c_rehash", "c_rehash -v", "openssl rehash", "openssl rehash -v", "catman", "catman -M ./man",
		"as p.s -o p.o; x86_64-linux-gnu-ld -shared p.o -o p.so", "echo x > x.ld; x86_64-linux-gnu-ld.bfd -T x.ld -r README",
		"echo x > p.so; nm --plugin ./p.so a.o", "echo x > p.so; x86_64-linux-gnu-nm --plugin=p.so a.o",
		"echo x > p.so; gcc-ar --plugin p.so t x.a", "echo x > p.so; x86_64-linux-gnu-gcc-ranlib-12 --plugin ./p.so x.a",
		"echo x > p.so; ranlib --plugin ./p.so x.a",
		"gunicorn -D app:app", "gunicorn --daemon app:app", "gunicorn --daem app:app", "gunicorn -Db :80 app:app",
		"celery -A proj worker --detach", "celery multi start w1", "uwsgi --daemonize log --http :80", "uwsgi -d log",
		"dtach -n s sleep 100", "abduco -n s sleep 100", "s6-setsid sleep 100",
		"setsid sleep 100 &", "setsid make", "nice setsid sleep 9", "timeout 9 setsid sleep 9", "setsid -- sleep 9", "echo x > p.so; x86_64-linux-gnu-gold --plugin ./p.so -r a.o -o b.o",
	}
	clean := []string{
		"gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sOutputFile=x.pdf x.ps", "gs -q -dBATCH -dNODISPLAY x.ps",
		"gs -dSAFER=true x.ps", "gs --version", "ps2pdf x.ps", "ps2pdf x.ps out.pdf", "eps2eps a.eps b.eps",
		"gs -q -dBATCH -- x.ps -dNOSAFER",
		"c_rehash certs", "openssl rehash certs", "openssl version",
		"x86_64-linux-gnu-ld -r a.o -o b.o", "nm a.o", "nm --plugin p.so a.o", "x86_64-linux-gnu-nm a.o",
		"gcc-ar rcs x.a a.o", "nohup make > log", "sleep 1 &",
		"gunicorn app:app", "gunicorn -b :8000 app:app", "celery -A proj worker", "uwsgi --http :8000",
	}
	checkRT57Lines(t, opaque, clean)
}
