package shellscan

import "testing"

// Archive front ends extract the paths their archive names: real aunpack
// of a cpio archive wrote its absolute member outside the workdir, and
// 7zr, 7zz, atool -x, dtrx and patool extract were allowed while 7z and tar
// x were opaque (gate61).
func TestG61Extractors(t *testing.T) {
	opaque := []string{
		`aunpack a.cpio`, `aunpack -X out a.tar`, `arepack -F zip a.tar a.zip`, `dtrx a.tar.gz`, `unp a.deb`,
		`xtract a.tar`, `atool -x a.tar`, `atool --extract a.tar`, `atool -X out a.tar`, `atool --extract-to=out a.tar`,
		`atool -qx a.tar`, `atool -e -x a.tar b.tar`, `atool -r a.tar a.zip`, `atool "$m" a.tar`,
		`patool extract a.tar`, `patool --verbose extract --outdir out a.zip`, `patool repack a.tar a.zip`,
		`patool recompress a.zip`, `patool "$c" a.tar`, `7zr x a.7z`, `7zr e a.7z -oout`, `7zz x a.7z`,
		`7zzs x a.7z`, `7zr -y x a.7z`, `7zr u a.7z x`, `7zr "$c" a.7z`,
	}
	clean := []string{
		`atool -l a.tar`, `atool --list a.tar`, `als a.tar`, `acat a.tar f`, `patool list a.tar`,
		`patool test a.zip`, `patool formats`, `7zr l a.7z`, `7zr t a.7z`, `7zz l a.7z`, `lsar a.rar`,
		`aunpack --version`, `7zr --help`,
	}
	checkRT57Lines(t, opaque, clean)
}
