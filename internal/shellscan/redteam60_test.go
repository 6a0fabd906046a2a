package shellscan

import "testing"

// Round redteam60: each opaque line did damage outside the workdir under
// real bash (or, for terraform, under bwrap with /root bound to a
// throwaway home) and "allow bash" allowed it: pydoc imported the x.py the
// line wrote, isympy and postgres --single ran the code of their standard
// input, dotenv run gave git the GIT_CONFIG_* of a written .env,
// cfn-lint imported the rules of a written .cfnlintrc, rst2html wrote the
// warning_stream of a written docutils.conf in the home, pandoc
// --filter=sh ran ./html, rust-gdb ran its -ex shell command, terraform
// -install-autocomplete appended to ~/.bashrc, ipython profile create
// --reset overwrote ~/.ipython's ipython_config.py and dpkg-buildpackage
// ran a written debian/rules.
func TestRedteam60(t *testing.T) {
	opaque := []string{
		`printf 'import os\nos.system("touch ~/p")\n' > x.py; pydoc x`, "echo x > json.py; pydoc json",
		"echo x > x.py; pydoc3.11 x", "echo x > x.py; pydoc -k x", "echo x > x.py; pydoc -w x",
		"echo x > x.so; pydoc3 x",
		"printf 'import os\\n' | isympy", "isympy < f", "isympy -c python < f",
		`echo "COPY (select 1) TO PROGRAM 'touch ~/p'" | postgres --single -D data postgres`,
		"postgres --single -D data postgres < f", "postmaster --single -D d x < f",
		"echo x > data/postgresql.conf; postgres -D data", "echo x >> data/postgresql.auto.conf; postgres -D data",
		"echo x > data/pg.conf; postmaster -D data",
		"printf 'GIT_CONFIG_COUNT=1\\n' > e; dotenv -f e run git status", "echo x > .env; dotenv run git status",
		"echo x > e; dotenv --file=e run ls", "echo x > e; python3 -m dotenv -f e run git status",
		"echo x > .env; dotenvx run -- ls", "echo x > .env.local; dotenvx run -f .env.local -- ls",
		"echo x > e; env-cmd -f e ls", "echo x > .env-cmdrc; env-cmd -e dev ls", "echo x > e; godotenv -f e ls",
		"echo x > .env; godotenv ls",
		"mkdir r; echo x > r/x.py; printf 'append_rules:\\n  - r\\n' > .cfnlintrc; cfn-lint t.yaml",
		"echo x > .cfnlintrc.yaml; cfn-lint t.yaml", "echo x > c.yaml; cfn-lint --config-file c.yaml t.yaml",
		"echo x > .cfnlintrc; python3 -m cfnlint t.yaml",
		"printf '[general]\\nwarning_stream: ~/w\\n' > docutils.conf; rst2html.py c.rst out",
		"echo x > docutils.conf; rst2html c.rst", "echo x > docutils.conf; rst2man.py c.rst out",
		"echo x > c.conf; rst2html5 --config=c.conf c.rst", "echo x > docutils.conf; python3 -m docutils c.rst out",
		"echo x > docutils.conf; docutils c.rst out",
		"printf 'touch ~/p' > html; pandoc --filter=sh README -t html", "pandoc --filter=sh README",
		"pandoc -F bash README", "pandoc -Fpython3 README", "pandoc --filter make README", "pandoc --filter=$f README",
		"rust-gdb -batch -ex 'shell touch ~/p'", "rust-gdb < f", "rust-gdb x < f", "rust-lldb -o 'platform shell x'",
		"rust-gdbgui", "rustup run stable rust-gdb -batch -ex 'shell x'",
		"terraform -install-autocomplete", "terraform -uninstall-autocomplete", "tofu -install-autocomplete",
		"vault -autocomplete-install", "consul -autocomplete-install", "nomad -autocomplete-uninstall",
		"packer -autocomplete-install", "terraform --install-autocomplete",
		"ipython profile create", "ipython profile create --reset", "ipython profile create x --parallel",
		"ipython3 profile create", "ipython history clear", "ipython history trim", "python3 -m IPython profile create",
		"mkdir debian; printf 'touch ~/p' > debian/rules; dpkg-buildpackage -us -uc -b",
		"echo x > debian/rules; debuild -us -uc", "echo x > debian/x.mk; dpkg-buildpackage",
		"echo x > Kptfile; kpt fn render",
	}
	clean := []string{
		"pydoc x", "pydoc -k x", "pydoc --version", "echo x > notes.txt; pydoc json",
		"isympy --version", "isympy -h",
		"postgres -V", "postgres --describe-config", "postgres -D data", "initdb -D data",
		"dotenv run git status", "dotenv -f e run ls", "dotenv list", "echo x > notes.txt; dotenv run ls",
		"cfn-lint t.yaml", "echo x > t.yaml; cfn-lint t.yaml",
		"rst2html.py c.rst out", "echo x > c.rst; rst2html.py c.rst out",
		"pandoc README", "pandoc --filter pandoc-crossref README", "pandoc -F ./f.py README", "pandoc --lua-filter=f.lua README",
		"terraform plan", "terraform version", "terraform fmt",
		"ipython profile list", "ipython profile locate", "ipython locate", "ipython --version",
		"dpkg-buildpackage -us -uc -b", "echo x > README; dpkg-buildpackage", "kpt fn render",
	}
	checkRT57Lines(t, opaque, clean)
}

// Round redteam60, state in the home: lesskey c wrote ~/.less, whose
// #env LESSOPEN=|cmd then ran cmd at each less; xauth merge wrote
// ~/.Xauthority; gcloud config configurations create wrote and switched
// ~/.config/gcloud's active configuration; python-dotenv is Debian's name
// for dotenv's runner. "allow bash" allowed each.
func TestRedteam60HomeState(t *testing.T) {
	opaque := []string{
		"printf '#env\\nLESSOPEN=|touch ~/p %s\\n' > c; lesskey c", "lesskey", "lesskey c", "lesskey -- c",
		"xauth merge a", "xauth add :5 . 1234", "xauth remove :0", "xauth generate :0", "xauth source c",
		"xauth < c", "xauth -q merge a", "xauth $x",
		"gcloud config configurations create evil", "gcloud config configurations activate x", "gcloud init",
		"gcloud --quiet config configurations create x", "gcloud $x",
		"docker-credential-gcloud configure-docker", "bq init", "gsutil config", "gsutil config -n",
		"migrate-pubring-from-classic-gpg", "echo x > .env; python-dotenv run ls",
	}
	clean := []string{
		"lesskey -o out c", "lesskey --output=out c", "lesskey --version",
		"xauth list", "xauth -f a add :5 . 1234", "xauth -fa merge b", "xauth info", "xauth extract out :0",
		"gcloud config list", "gcloud config get project", "gcloud version", "gcloud compute instances list",
		"docker-credential-gcloud list", "bq ls", "gsutil ls", "gsutil cp gs://b/k .", "python-dotenv list",
	}
	checkRT57Lines(t, opaque, clean)
}

// Round redteam60, a running Java virtual machine: jcmd PID
// JVMTI.agent_load ./a.so ran the library's code in a JVM the line did
// not start (confirmed with real bash); the other commands that write or
// change it are opaque alike. "allow bash" allowed them.
func TestRedteam60JVMAttach(t *testing.T) {
	opaque := []string{
		"jcmd 123 JVMTI.agent_load ./a.so", "jcmd 123 Compiler.directives_add c", "jcmd 123 ManagementAgent.start",
		"jcmd 123 VM.set_flag x 1", "jcmd S JFR.start filename=x", "jcmd 123 GC.heap_dump x", "jcmd 123 $c",
		"jcmd 123 -f cmds", "jcmd -l 123 VM.log output=x", "jinfo -flag x=1 123", "jinfo -flag +PrintGC 123",
		"jmap -dump:file=x 123", "jmap -dump:live,format=b,file=x 123", "jhsdb clhsdb --pid 123", "jhsdb hsdb",
		"jhsdb jmap --binaryheap --pid 123",
	}
	clean := []string{
		"jcmd", "jcmd -l", "jcmd 123 help", "jcmd 123 VM.version", "jcmd 123 Thread.print", "jcmd 123 GC.heap_info",
		"jinfo 123", "jinfo -flag PrintGC 123", "jinfo -flags 123", "jmap -histo 123", "jstack 123",
		"jhsdb jstack --pid 123", "jhsdb jinfo --pid 123",
	}
	checkRT57Lines(t, opaque, clean)
}
