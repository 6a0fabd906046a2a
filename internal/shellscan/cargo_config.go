package shellscan

// cargoConfig records, for cargo but for a question of its version or
// help, the files below a .cargo directory (config.toml, config) of the
// working directory or of one above it as code cargo runs: they name
// programs it runs (build.rustc-wrapper, build.rustc, a target's runner
// and linker, credential providers), so a line that writes one and then
// runs cargo runs code of its own (see runsWrittenCode). cargo -C DIR
// reads those of DIR and above, which the candidates of "/" cover.
func (an *analyzer) cargoConfig(name string, args []word) {
	if name != "cargo" || onlyVersion(args) {
		return
	}
	an.usesCode(name, "/", ".cargo/")
}
