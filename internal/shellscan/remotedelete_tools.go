package shellscan

import (
	"strings"
)

// The tools remoteState models one by one (see remotedelete.go).

// kubectlRemote returns why kubectl (oc, kubecolor) args deletes cluster
// objects, changes them in place where no file on disk holds what was
// there (patch, scale, taint …) or runs a command in a container, or "".
// apply and create stay allowed, as git push does: the files they apply
// are the record; apply --prune and --force delete what they do not name.
// set (image, env, resources) stays allowed too: each change is a
// revision of the deployment that rollout undo restores; label and
// annotate only change an object's metadata.
func kubectlRemote(name string, args []word) string {
	at, why := kubectlGlobals.get().firstCommand(name, args)
	if why != "" || at == len(args) {
		return why
	}
	sub := args[at].text
	rest := args[at+1:]
	if dryRun(rest) || hasAny(rest, "--help", "-h") {
		return ""
	}
	if name == "oc" && sub == "adm" {
		if op := firstOperand(rest); op == "" || op == "top" || op == "inspect" {
			return ""
		}
		return "oc adm " + clipName(firstOperand(rest)) + remoteWhy
	}
	switch sub {
	case "delete", "drain", "cordon", "uncordon", "taint", "scale", "autoscale", "patch", "rollback":
		// rollback: oc's, of a deployment configuration.
		return name + " " + sub + " deletes cluster objects or changes them in place, which no file restores"
	case "exec", "attach", "cp", "debug", "rsh", "rsync":
		// rsh and rsync: oc's shell in a container and copy to one.
		return name + " " + sub + remoteRunWhy
	case "rollout":
		if op := firstOperand(rest); op != "" && op != "status" && op != "history" {
			return name + " rollout " + clipName(op) + " changes what the cluster runs in place, which no file restores"
		}
	case "apply":
		if hasPrefix(rest, "--prune") || hasAny(rest, "--force", "--force=true") {
			return name + " apply --prune or --force deletes cluster objects the files do not name"
		}
	case "replace":
		if hasAny(rest, "--force", "--force=true") {
			return name + " replace --force deletes and recreates cluster objects"
		}
	}
	return ""
}

// helmCommands are helm's own commands; any other first word is a
// plugin, a program helm runs from its plugins directory.
var helmCommands = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`completion create dependency dep dependencies env get help history hist install
		lint list ls package plugin pull fetch push registry repo rollback search show inspect status template test
		uninstall delete del un upgrade verify version`) {
		m[n] = true
	}
	return m
}}

// helmRemote returns why helm args uninstalls or rolls back a release,
// forces a replacement or runs a plugin, or "".
func helmRemote(name string, args []word) string {
	if dryRun(args) || hasAny(args, "--help", "-h") {
		return ""
	}
	at, why := helmGlobals.get().firstCommand(name, args)
	if why != "" || at == len(args) {
		return why
	}
	sub := args[at]
	if !helmCommands.get()[sub.text] {
		return name + " " + clipName(sub.text) + " runs a plugin, a program the analysis does not model, which may change the cluster"
	}
	switch sub.text {
	case "uninstall", "delete", "del", "un", "rollback":
		return name + " " + sub.text + remoteWhy
	case "upgrade", "install":
		if hasAny(args, "--force", "--force=true", "--force-replace") {
			return name + " " + sub.text + " --force deletes and recreates the release's objects"
		}
	}
	return ""
}

// terraformValues are the options of terraform's commands that may take
// the next word as their value (terraform apply -var x=1).
var terraformValues = []string{"-var", "-var-file", "-target", "-replace", "-parallelism", "-lock-timeout",
	"-state", "-state-out", "-backup", "--var", "--var-file", "--target", "--replace"}

// terraformRemote returns why terraform (tofu, terragrunt) args destroys
// or changes infrastructure without the plan being confirmed, or edits
// the state, or "". terraform apply alone asks for "yes" on its standard
// input, which a line without one does not give.
func terraformRemote(name string, args []word, stdinFed bool) string {
	if name != "terragrunt" {
		return terraformJudge(name, args, terraformOperands(args), stdinFed)
	}
	// terragrunt run-all CMD, run --all CMD, run -- CMD, and options
	// whose values the analysis does not know: the command is a word that
	// is one of terraform's.
	for _, ops := range commandCandidates(args, terraformCommands.get()) {
		if why := terraformJudge(name, args, ops, stdinFed); why != "" {
			return why
		}
	}
	return ""
}

// terraformJudge is terraformRemote's judgment of the command ops[0]
// with its operands.
func terraformJudge(name string, args, ops []word, stdinFed bool) string {
	if len(ops) == 0 || hasAny(args, "-help", "--help", "-h") {
		return ""
	}
	sub := ops[0]
	if unknownWord(sub) {
		return name + " gets a command word only known when it runs"
	}
	switch sub.text {
	case "destroy", "import", "taint", "force-unlock":
		return name + " " + sub.text + remoteWhy
	case "apply":
		for _, a := range args {
			t := strings.TrimPrefix(a.text, "-")
			if t == "-destroy" || t == "destroy" || strings.HasPrefix(t, "auto-approve") || strings.HasPrefix(t, "-auto-approve") ||
				strings.HasPrefix(t, "replace") || strings.HasPrefix(t, "-replace") {
				return name + " apply " + clipName(a.text) + " changes or destroys infrastructure without asking"
			}
		}
		if len(ops) > 1 {
			return name + " apply of a saved plan changes or destroys infrastructure without asking"
		}
		if stdinFed {
			return name + " apply gets a standard input, which may confirm the plan"
		}
	case "state":
		if len(ops) > 1 {
			switch op := ops[1]; {
			case unknownWord(op):
				return name + " state gets a command word only known when it runs"
			case op.text == "rm" || op.text == "mv" || op.text == "push" || op.text == "replace-provider":
				return name + " state " + op.text + " edits the state, which git cannot restore"
			}
		}
	case "workspace":
		if len(ops) > 1 && (ops[1].text == "delete" || unknownWord(ops[1])) {
			return name + " workspace delete" + remoteWhy
		}
	}
	return ""
}

// pulumiRemote returns why pulumi args destroys a stack's resources,
// updates them without a preview being confirmed, or removes a stack or
// its state, or "".
func pulumiRemote(args []word) string {
	// The command is a word that is one of pulumi's: an option the
	// analysis does not know may take the next word (--tracing URL).
	for _, ops := range commandCandidates(args, pulumiCommands.get()) {
		if why := pulumiJudge(args, ops); why != "" {
			return why
		}
	}
	return ""
}

// pulumiJudge is pulumiRemote's judgment of the command ops[0] with its
// operands.
func pulumiJudge(args, ops []word) string {
	if len(ops) == 0 || hasAny(args, "--help", "-h") {
		return ""
	}
	sub := ops[0]
	second := ""
	if len(ops) > 1 {
		second = ops[1].text
	}
	switch {
	case unknownWord(sub):
		return "pulumi gets a command word only known when it runs"
	case sub.text == "destroy" || sub.text == "down":
		if !hasAny(args, "--preview-only") {
			return "pulumi " + sub.text + remoteWhy
		}
	case sub.text == "watch" || sub.text == "cancel":
		return "pulumi " + sub.text + " changes the stack's resources without asking"
	case sub.text == "up" || sub.text == "update" || sub.text == "import":
		if hasAny(args, "-y", "--yes", "--yes=true", "-f", "--skip-preview") {
			return "pulumi " + sub.text + " --yes changes or deletes the stack's resources without asking"
		}
	case sub.text == "stack" && (second == "rm" || second == "remove"):
		return "pulumi stack rm" + remoteWhy
	case sub.text == "state" && (second == "delete" || second == "unprotect" || second == "move" || second == "edit"):
		return "pulumi state " + second + " edits the state, which git cannot restore"
	}
	return ""
}

// awsRemote returns why aws args deletes, replaces or runs a command,
// or "": s3's rm, rb, mv and sync --delete, and for any service the verb
// table on the operation name, with put-* (which replaces a whole policy,
// configuration or object) and the commands run on an instance.
func awsRemote(args []word) string {
	if dryRun(args) || hasAny(args, "help") {
		return ""
	}
	at, why := awsGlobals.get().commands("aws", args, 2)
	if why != "" || len(at) < 2 {
		return why
	}
	svc, op := args[at[0]], args[at[1]]
	if svc.text == "s3" {
		switch op.text {
		case "rm", "rb", "mv":
			return "aws s3 " + op.text + remoteWhy
		case "sync":
			if hasAny(args, "--delete") {
				return "aws s3 sync --delete" + remoteWhy
			}
		}
		return ""
	}
	segs := verbSegments(op.text)
	switch {
	case remoteRunVerbs()[op.text]:
		return "aws " + svc.text + " " + op.text + remoteRunWhy
	case len(segs) == 0 || readingVerbs()[segs[0]]:
		return ""
	case segs[0] == "put":
		return "aws " + clipName(svc.text+" "+op.text) + " replaces what a remote service holds, which git cannot restore"
	}
	for _, s := range segs {
		if deletingVerbs()[s] {
			return "aws " + clipName(svc.text+" "+op.text) + remoteWhy
		}
	}
	return ""
}

// gsutilRemote returns why gsutil args deletes, moves or replaces a
// bucket's objects or settings, or "".
func gsutilRemote(args []word) string {
	at, why := gsutilGlobals.get().firstCommand("gsutil", args)
	if why != "" || at == len(args) {
		return why
	}
	sub, rest := args[at], args[at+1:]
	ops := operandsSkipping(args[at:], nil)
	switch sub.text {
	case "rm", "del", "delete", "remove", "rb", "mv", "move", "ren", "rename":
		return "gsutil " + sub.text + remoteWhy
	case "rsync":
		if anyShortFlag(rest, "d") {
			return "gsutil rsync -d" + remoteWhy
		}
	case "acl", "defacl", "iam", "lifecycle", "retention", "versioning", "notification", "cors", "web":
		if len(ops) > 1 && ops[1].text != "get" && ops[1].text != "list" {
			return "gsutil " + sub.text + " " + clipName(ops[1].text) + remoteWhy
		}
	}
	return ""
}

// rcloneRemote returns why rclone args deletes files of a remote (or
// makes a destination match its source, deleting the rest), or "".
func rcloneRemote(args []word) string {
	// The command is a word that is one of rclone's: most of its options
	// take a value (--bwlimit 1M sync a b:).
	for _, ops := range commandCandidates(args, rcloneCommands.get()) {
		if why := rcloneJudge(args, ops); why != "" {
			return why
		}
	}
	return ""
}

// rcloneJudge is rcloneRemote's judgment of the command ops[0] with its
// operands.
func rcloneJudge(args, ops []word) string {
	if len(ops) == 0 || hasAny(args, "--dry-run", "-n", "--help", "-h") {
		return ""
	}
	switch sub := ops[0]; {
	case unknownWord(sub):
		return "rclone gets a command word only known when it runs"
	case contains([]string{"delete", "deletefile", "purge", "rmdir", "rmdirs", "cleanup", "sync", "bisync",
		"move", "moveto", "dedupe"}, sub.text):
		return "rclone " + sub.text + remoteWhy
	}
	return ""
}

// wordSet returns the set of the words of list.
func wordSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(list) {
		m[w] = true
	}
	return m
}

// terraformCommands, pulumiCommands and rcloneCommands are the tools'
// commands (see commandCandidates).
var (
	terraformCommands = lazy[map[string]bool]{build: func() map[string]bool {
		return wordSet(`init validate plan apply destroy console fmt force-unlock get graph import login logout
			metadata output providers refresh show state taint test untaint version workspace modules`)
	}}
	pulumiCommands = lazy[map[string]bool]{build: func() map[string]bool {
		return wordSet(`about ai cancel config console convert deployment destroy down env gen-completion import
			install login logout logs new org package plugin policy preview refresh schema stack state template up
			update version watch whoami`)
	}}
	rcloneCommands = lazy[map[string]bool]{build: func() map[string]bool {
		return wordSet(`about authorize backend bisync cat check checksum cleanup completion config copy copyto
			copyurl cryptcheck cryptdecode dedupe delete deletefile genautocomplete gendocs gitannex hashsum link
			listremotes ls lsd lsf lsjson lsl md5sum mkdir mount move moveto ncdu nfsmount obscure purge rc rcat rcd
			rmdir rmdirs selfupdate serve settier sha1sum size sync test touch tree version`)
	}}
)

// httpDelete returns why the HTTP client name args sends the DELETE
// method (or asks the server to take a request as one: a
// X-HTTP-Method-Override header, a _method field), or "". POST, PUT and data stay allowed: they are the everyday
// requests to a local development server.
func httpDelete(name string, args []word) string {
	method := ""
	switch name {
	case "wget":
		method = httpMethod(args, "--method")
	case "curl", "curlie":
		method = curlMethod(args)
	}
	if name != "curl" && name != "wget" && method == "" {
		// httpie, xh, curlie: the method is an operand before the URL.
		for _, op := range operandsSkipping(args, nil) {
			if strings.EqualFold(op.text, "delete") {
				method = "delete"
				break
			}
		}
	}
	for _, a := range args {
		// A method override servers honour: the X-HTTP-Method-Override
		// header, a form's _method field (Rails, Laravel).
		lower := strings.ToLower(a.text)
		if strings.Contains(lower, "delete") && (strings.Contains(lower, "method-override") || strings.Contains(lower, "_method")) {
			method = "delete"
		}
	}
	switch method {
	case "delete":
		return name + " sends the DELETE method, which deletes what a remote service holds"
	case "?":
		return name + " gets a method only known when it runs"
	}
	return ""
}

// curlMethod returns the lower-case method curl's -X or --request names
// (attached, -XDELETE, or in a cluster, -sX DELETE), "?" when it is only
// known when the line runs, or "".
func curlMethod(args []word) string {
	values := fileCommands.get()["curl"].short
	for i := 0; i < len(args); i++ {
		t := args[i].text
		switch {
		case t == "--request" && i+1 < len(args):
			return methodOf(args[i+1])
		case strings.HasPrefix(t, "--request="):
			return methodOf(word{text: t[len("--request="):], dynamic: args[i].dynamic, pattern: args[i].pattern})
		case len(t) > 1 && t[0] == '-' && t[1] != '-':
			for j := 1; j < len(t); j++ {
				if !strings.ContainsRune(values, rune(t[j])) {
					continue
				}
				rest := t[j+1:]
				if t[j] == 'X' {
					if rest != "" {
						return methodOf(word{text: rest, dynamic: args[i].dynamic, pattern: args[i].pattern})
					}
					if i+1 < len(args) {
						return methodOf(args[i+1])
					}
				}
				if rest == "" {
					i++ // the value is the next word
				}
				break
			}
		}
	}
	return ""
}

// methodOf returns w's text in lower case, or "?" when it is only known
// when the line runs.
func methodOf(w word) string {
	if unknownWord(w) {
		return "?"
	}
	return strings.ToLower(w.text)
}

// remoteCopy returns why scp or rsync args copies to or from another
// host, or "": they run ssh (rsync also its daemon's protocol), which
// writes ~/.ssh/known_hosts when a known host offers keys it has not
// recorded (UpdateHostKeys, on by default) or the user's settings accept a
// new host, and they overwrite or delete the files there. A local name
// with a colon is written as a path (./a:b), as both tools document; a
// URL of another scheme (gs://b, which gsutil rsync takes) is no host.
func remoteCopy(name string, args []word) string {
	spec := fileCommands.get()[name]
	for _, op := range eachOption(args, spec.short, spec.long, true, nil) {
		if unknownWord(op) {
			continue // judged as any word only known when the line runs
		}
		t := op.text
		lower := strings.ToLower(t)
		i := strings.IndexByte(t, ':')
		scheme, _, url := strings.Cut(lower, "://")
		if url && (scheme == "scp" || scheme == "rsync") || !url && i > 0 && !strings.Contains(t[:i], "/") {
			return name + " copies to or from another host: it runs ssh, which may write ~/.ssh/known_hosts, and overwrites or deletes the files there"
		}
	}
	return ""
}
