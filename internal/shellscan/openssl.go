package shellscan

import "strings"

// opensslConfig makes an openssl command that is given a configuration
// file (-config FILE, -config=FILE, --config …) opaque: the file may name
// files the command writes, which the line does not show. req writes its
// random state to the file RANDFILE names when it ends (RANDFILE =
// /home/u/.bashrc overwrites it), ca writes the database, serial and
// certificates directory its section names, ts -reply its serial file,
// srp its verifier file. A cloned repository's csr.cnf may say so as
// much as one the line writes. Without -config openssl reads the
// system's configuration, or OPENSSL_CONF's, which the line does not set
// (an assignment of it is opaque).
func (an *analyzer) opensslConfig(name string, args []word) {
	if name != "openssl" {
		return
	}
	for _, a := range args {
		opt, _, _ := strings.Cut(a.text, "=")
		if opt == "-config" || opt == "--config" {
			an.opaque("openssl " + clipName(a.text) + " reads a configuration that may name files it writes (RANDFILE, a CA's database)")
			return
		}
	}
}
