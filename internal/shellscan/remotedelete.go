package shellscan

import (
	"slices"
	"strings"
)

// Deleting or destroying what a cloud, a cluster, a database server or a
// web service holds is opaque, as gh's deletions are (ghState): git cannot
// restore it, and neither can the gate (gate62). The cloud and cluster
// tools' grammars are too open to list each command, so the rule is a
// table of verbs: a command word (not an option, not after "--") that,
// split at '-' and ':', holds one of deletingVerbs makes the line ask
// (aws ec2 terminate-instances, gcloud … remove-iam-policy-binding, heroku
// pg:reset), unless the word begins with a verb that only reads
// (get-deletion-status). Every command word counts, the names of groups,
// resources and values too (a group may be named as a reading verb: az
// appservice plan delete, az search service delete), so a resource
// named reset-1 asks. Tools whose commands are few are modelled one by
// one: kubectl, helm, terraform, pulumi, gsutil, rclone, the HTTP
// clients' DELETE method. Commands that run a
// command on another machine (kubectl exec, heroku run, aws ssm
// send-command) are opaque as ssh is, and so are scp and rsync to or from
// another host: they run ssh, which writes ~/.ssh/known_hosts (a known
// host's other keys, UpdateHostKeys), and overwrite or delete the files
// there.

// remoteVerbs are the tables of verbs of the command words, built on
// first use: deleting are the words of a command name
// that delete, destroy, replace or take offline what a remote service
// holds; reading begin the command names that only read, so such a word
// is no deleting one (aws kms get-key-rotation-status, list-deleted-x);
// run are the command words that run a command on another machine (a
// container, a virtual machine, a dyno), as ssh does.
var remoteVerbs = lazy[struct{ deleting, reading, run map[string]bool }]{build: func() struct{ deleting, reading, run map[string]bool } {
	set := func(words string) map[string]bool {
		m := map[string]bool{}
		for _, v := range strings.Fields(words) {
			m[v] = true
		}
		return m
	}
	return struct{ deleting, reading, run map[string]bool }{
		deleting: set(`delete deletion del rm rb remove terminate destroy purge drop reset revoke
		detach deregister unregister disassociate disable unset uninstall undeploy deprovision decommission wipe
		erase flush truncate evict rollback restore undo prune clear unpublish yank mv move`),
		reading: set(`get list ls describe show read view status search lookup check validate
		estimate preview simulate test verify history explain help info inspect diff plan logs tail print wait
		version whoami output synth`),
		run: set(`ssh scp sftp exec console run-command send-command execute-command start-session`),
	}
}}

// deletingVerbs returns remoteVerbs' deleting verbs.
func deletingVerbs() map[string]bool { return remoteVerbs.get().deleting }

// readingVerbs returns remoteVerbs' reading verbs.
func readingVerbs() map[string]bool { return remoteVerbs.get().reading }

// remoteRunVerbs returns remoteVerbs' verbs that run a command on another
// machine.
func remoteRunVerbs() map[string]bool { return remoteVerbs.get().run }

// kubeconfigWriters are the cloud tools' commands that write the
// user's ~/.kube/config (or $KUBECONFIG), as kubectl config does (see
// configWriters): aws eks update-kubeconfig, gcloud container clusters
// get-credentials, az aks get-credentials, doctl kubernetes cluster
// kubeconfig save and create (which saves it too).
var kubeconfigWriters = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	doctl := []string{"save", "create"}
	return map[string]map[string][]string{
		"aws":    {"eks": {"update-kubeconfig"}},
		"gcloud": {"container": {"get-credentials"}},
		"az":     {"aks": {"get-credentials"}},
		"doctl":  {"kubernetes": doctl, "k8s": doctl, "kube": doctl, "k": doctl},
	}
}}

// cloudPluginInstalls are the cloud tools' commands that install code
// or credentials the tool loads on each later run, in the home: heroku's
// plugins (npm packages), pulumi's plugins (programs), az's extensions
// (Python packages, from a wheel the line may have written), fly auth
// docker (~/.docker/config.json), as gcloud components install does.
var cloudPluginInstalls = lazy[map[string]map[string][]string]{build: func() map[string]map[string][]string {
	every := []string{""}
	return map[string]map[string][]string{
		"heroku": {"plugins:install": every, "plugins:link": every, "plugins:update": every, "plugins:uninstall": every,
			"plugins:add": every},
		"pulumi": {"plugin": {"install", "rm", "remove"}},
		"az":     {"extension": {"add", "update", "remove"}},
		"fly":    {"auth": {"docker"}},
		"flyctl": {"auth": {"docker"}},
	}
}}

// verbCLIs are the tools judged by the table of verbs alone, with their
// options that take the next word as a value (a value is no command word).
var verbCLIs = lazy[map[string][]string]{build: func() map[string][]string {
	gcloud := []string{"--project", "--account", "--configuration", "--format", "--verbosity", "--billing-project",
		"--impersonate-service-account", "--trace-token", "--zone", "--region", "--filter", "--flags-file"}
	az := []string{"--subscription", "-o", "--output", "--query", "-g", "--resource-group", "-n", "--name"}
	return map[string][]string{
		"gcloud": gcloud, "az": az, "doctl": {"--context", "-o", "--output", "-t", "--access-token"},
		"flyctl": {"-a", "--app", "-c", "--config", "-r", "--region"}, "fly": {"-a", "--app", "-c", "--config", "-r", "--region"},
		"heroku": {"-a", "--app", "-r", "--remote"}, "vercel": {"--scope", "--token", "-t", "--cwd"},
		"netlify": {"--site", "--auth"}, "firebase": {"-P", "--project", "--only", "--token"},
		"wrangler": {"-c", "--config", "-e", "--env"}, "cdk": {"--profile", "-a", "--app", "-c", "--context"},
		"serverless": {"--stage", "-s", "--region", "-r", "--aws-profile"}, "sls": {"--stage", "-s", "--region", "-r", "--aws-profile"},
		"sam": {"--stack-name", "--region", "--profile"}, "vault": {"-address", "-namespace", "-format"},
		"consul": {"-http-addr", "-token", "-datacenter"}, "s3cmd": {"-c", "--config"},
	}
}}

// remoteState returns why the command name args deletes, destroys or
// replaces what a remote service holds, or runs a command on another
// machine, as this file models it, or "". stdinFed tells whether the line
// gives a command a standard input (echo yes | terraform apply).
func remoteState(name string, args []word, stdinFed bool) string {
	known := !slices.ContainsFunc(args, unknownWord) // writingSubcommand takes such a word as writing
	if sub := writingSubcommand(kubeconfigWriters.get(), name, args); known && sub != "" {
		return name + " " + sub + " writes ~/.kube/config, whose credential plugins later kubectl and helm run"
	}
	if sub := writingSubcommand(cloudPluginInstalls.get(), name, args); known && sub != "" {
		return name + " " + sub + " installs plugins or credentials in the home, which later runs of the tool load"
	}
	if why := stackReplace(name, args, stdinFed); why != "" {
		return why
	}
	switch name {
	case "kubectl", "oc", "kubecolor":
		return kubectlRemote(name, args)
	case "helm", "helm3":
		return helmRemote(name, args)
	case "terraform", "tofu", "terragrunt":
		return terraformRemote(name, args, stdinFed)
	case "pulumi":
		return pulumiRemote(args)
	case "aws":
		return awsRemote(args)
	case "gsutil":
		return gsutilRemote(args)
	case "mosh", "autossh":
		if onlyVersion(args) {
			return ""
		}
		return name + " runs ssh, which runs commands on another host and writes ~/.ssh/known_hosts"
	case "dropdb", "dropuser":
		if onlyVersion(args) {
			return ""
		}
		return name + " drops what a database server holds, which git cannot restore"
	case "rclone":
		return rcloneRemote(args)
	case "curl", "curlie", "wget", "http", "https", "xh", "xhs":
		return httpDelete(name, args)
	case "scp", "rsync":
		return remoteCopy(name, args)
	}
	if values, ok := verbCLIs.get()[name]; ok {
		return verbRemote(name, args, values)
	}
	return ""
}

// remoteWhy ends the reason of a command that deletes what a remote
// service holds.
const remoteWhy = " deletes, destroys or replaces what a remote service holds, which git cannot restore"

// remoteRunWhy ends the reason of a command that runs a command on
// another machine.
const remoteRunWhy = " runs a command on another machine, which may delete what it holds (as ssh HOST CMD does)"

// operandsSkipping returns the words of args that are no option, skipping
// the value of each option of values given as the next word, up to "--".
func operandsSkipping(args []word, values []string) []word {
	var ops []word
	for i := 0; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			break
		}
		if strings.HasPrefix(t, "-") && !args[i].dynamic && t != "-" {
			if contains(values, t) {
				i++
			}
			continue
		}
		ops = append(ops, args[i])
	}
	return ops
}

// unknownWord reports whether w is only known when the line runs.
func unknownWord(w word) bool {
	return w.dynamic || w.pattern || w.special
}

// verbSegments splits a command word at '-' and ':', in lower case.
func verbSegments(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == '-' || r == ':' })
}

// deletingWord returns the kind of the command word w: "delete" when a
// segment is a deleting verb and the first no reading verb, "run" for a
// command run on another machine, or "".
func deletingWord(w string) string {
	segs := verbSegments(w)
	if len(segs) == 0 {
		return ""
	}
	if remoteRunVerbs()[strings.ToLower(w)] {
		return "run"
	}
	if readingVerbs()[segs[0]] {
		return ""
	}
	for _, s := range segs {
		if deletingVerbs()[s] {
			return "delete"
		}
	}
	return ""
}

// verbRemote judges a tool by the table of verbs: each of its command
// words.
func verbRemote(name string, args []word, values []string) string {
	if len(args) == 0 || onlyVersion(args) {
		return ""
	}
	if why := toolSpecific(name, args); why != "" {
		return why
	}
	for _, op := range operandsSkipping(args, values) {
		if unknownWord(op) {
			return name + " gets a command word only known when it runs"
		}
		switch deletingWord(op.text) {
		case "run":
			return name + " " + clipName(op.text) + remoteRunWhy
		case "delete":
			return name + " " + clipName(op.text) + remoteWhy
		}
		if name == "heroku" && (op.text == "run" || strings.HasPrefix(op.text, "run:") || op.text == "pg:psql" ||
			op.text == "psql" || op.text == "pg:push" || op.text == "pg:copy" || op.text == "ps:exec") {
			return "heroku " + op.text + remoteRunWhy
		}
		if name == "firebase" && op.text == "database:set" {
			return "firebase database:set" + remoteWhy
		}
	}
	return ""
}

// toolSpecific returns why a tool judged by the table of verbs deletes
// by an option or an operation name the table does not see: az rest's
// method, netlify api's operation, wrangler d1 execute but --local, s3cmd
// sync --delete-removed, gcloud storage rsync's deleting option.
func toolSpecific(name string, args []word) string {
	ops := operandsSkipping(args, nil)
	first := ""
	if len(ops) > 0 {
		first = ops[0].text
	}
	switch name {
	case "az":
		if first == "rest" && (httpMethod(args, "-m", "--method") == "delete") {
			return "az rest --method delete" + remoteWhy
		}
	case "netlify":
		if first == "api" && len(ops) > 1 {
			op := ops[1].text
			verb := op[:len(op)-len(strings.TrimLeftFunc(op, isLower))] // deleteSite: delete
			if unknownWord(ops[1]) || deletingVerbs()[verb] {
				return "netlify api " + clipName(op) + remoteWhy
			}
		}
	case "wrangler":
		// wrangler before 3.33 executes in the remote database unless
		// --local.
		if hasAny(args, "execute") && !hasAny(args, "--local") {
			return "wrangler d1 execute runs SQL in the remote database (without --local), which may drop what it holds"
		}
	case "s3cmd":
		if hasPrefix(args, "--delete-removed") || hasAny(args, "expire") {
			return "s3cmd" + remoteWhy
		}
	case "gcloud":
		if hasPrefix(args, "--delete-unmatched-destination-objects") {
			return "gcloud storage rsync --delete-unmatched-destination-objects" + remoteWhy
		}
	}
	return ""
}

// isLower reports whether r is an ASCII lower-case letter.
func isLower(r rune) bool { return r >= 'a' && r <= 'z' }

// httpMethod returns the lower-case value of the first of opts in args
// (as the next word or after '='), "?" when it is only known when the line
// runs, or "".
func httpMethod(args []word, opts ...string) string {
	for i, a := range args {
		for _, o := range opts {
			v, ok := word{}, false
			switch {
			case a.text == o && i+1 < len(args):
				v, ok = args[i+1], true
			case strings.HasPrefix(a.text, o+"=") && strings.HasPrefix(o, "--"):
				v, ok = word{text: a.text[len(o)+1:], dynamic: a.dynamic, pattern: a.pattern}, true
			}
			if ok {
				if unknownWord(v) {
					return "?"
				}
				return strings.ToLower(v.text)
			}
		}
	}
	return ""
}

// dryRun reports whether args ask only for a dry run (kubectl
// --dry-run=client or server, helm --dry-run, aws s3 --dryrun).
func dryRun(args []word) bool {
	for _, a := range args {
		switch a.text {
		case "--dry-run", "--dryrun", "--dry-run=client", "--dry-run=server", "--dry-run=true":
			return true
		}
	}
	return false
}
