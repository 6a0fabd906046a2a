package shellscan

import "strings"

// The options a cloud or cluster tool takes before its first command word
// (gate63). A value option there hides the command word behind it from a
// reader that does not know the option takes one: kubectl --kuberc x
// delete pod p was allowed, read as the plugin x. The tables are the
// tools' documented global options (kubectl options, helm's global flags,
// aws's); an option before the command that they do not hold makes the
// line opaque, since the tool's next release may add one that takes a
// value, and cobra (kubectl, oc, helm) takes the word after any long
// option it does not know as boolean for its value when it looks for the
// command.

// globalOptions are a tool's options before its command: values take
// the next word (or one attached with '=', or to a short option), flags
// take none.
type globalOptions struct{ values, flags map[string]bool }

// firstCommand returns the index in args of the first word that is no
// option nor an option's value (len(args) when there is none, or at
// "--"), or why the tool name is opaque: a word before it is an option g
// does not hold or is only known when the line runs.
func (g globalOptions) firstCommand(name string, args []word) (int, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.text == "--" {
			return len(args), ""
		}
		if unknownWord(a) {
			return i, name + " gets a command word only known when it runs"
		}
		t := a.text
		if !strings.HasPrefix(t, "-") || t == "-" {
			return i, ""
		}
		if strings.HasPrefix(t, "--") {
			opt, _, attached := strings.Cut(t, "=")
			switch {
			case g.values[opt]:
				if !attached {
					i++
				}
			case !g.flags[opt]:
				return i, globalsWhy(name, t)
			}
			continue
		}
		// A cluster of short options, the last of which may take a value
		// (-n prod, -nprod, -n=prod, -v5).
		for j := 1; j < len(t); j++ {
			o := "-" + t[j:j+1]
			if g.values[o] {
				if j+1 == len(t) {
					i++
				}
				break
			}
			if !g.flags[o] {
				return i, globalsWhy(name, t)
			}
		}
	}
	return len(args), ""
}

// optionSet returns the set of the words of list.
func optionSet(list string) map[string]bool { return wordSet(list) }

// kubectlValues are kubectl's, oc's and kubecolor's global options that
// take a value (kubectl options; klog's logging options of older
// releases; oc's --loglevel). kubecolor's --kubecolor-theme is in
// neither table: whether it takes the next word is not documented.
var kubectlValues = lazy[map[string]bool]{build: func() map[string]bool {
	return optionSet(`-n --namespace --context --kubeconfig --kuberc -s --server --cluster --user --token --as
		--as-group --as-uid --as-user-extra --certificate-authority --client-certificate --client-key --cache-dir
		--request-timeout -v --v --tls-server-name --username --password --profile --profile-output --log-file
		--log-dir --log-file-max-size --log-flush-frequency --log-backtrace-at --stderrthreshold --vmodule
		--loglevel`)
}}

// kubectlGlobals are kubectl's (oc's, kubecolor's) options before its
// command.
var kubectlGlobals = lazy[globalOptions]{build: func() globalOptions {
	return globalOptions{values: kubectlValues.get(), flags: optionSet(`-h --help --disable-compression
		--insecure-skip-tls-verify --match-server-version --warnings-as-errors --add-dir-header --alsologtostderr
		--logtostderr --one-output --skip-headers --skip-log-headers --plain --light-background --force-colors
		--kubecolor-version`)}
}}

// helmGlobals are helm's options before its command (helm 3 and 4).
var helmGlobals = lazy[globalOptions]{build: func() globalOptions {
	return globalOptions{values: optionSet(`--kube-context --kubeconfig -n --namespace --registry-config
		--repository-cache --repository-config --kube-apiserver --kube-as-user --kube-as-group --kube-ca-file
		--kube-token --kube-tls-server-name --burst-limit --qps --content-cache --color --colour --log-level`),
		flags: optionSet(`-h --help --version --debug --kube-insecure-skip-tls-verify`)}
}}

// awsGlobals are aws's options before its service and operation (aws
// help topics; argparse takes an abbreviation of one too, which asks).
var awsGlobals = lazy[globalOptions]{build: func() globalOptions {
	return globalOptions{values: optionSet(`--profile --region --output --endpoint-url --query --color --ca-bundle
		--cli-read-timeout --cli-connect-timeout --cli-binary-format`),
		flags: optionSet(`--debug --no-verify-ssl --no-paginate --no-sign-request --no-cli-pager --cli-auto-prompt
		--no-cli-auto-prompt --version`)}
}}

// commands returns the indexes in args of the tool's first n command
// words (fewer when args end before), each found as firstCommand finds
// the first, with options before each, or why the tool is opaque.
func (g globalOptions) commands(name string, args []word, n int) ([]int, string) {
	var at []int
	for from := 0; len(at) < n && from < len(args); {
		i, why := g.firstCommand(name, args[from:])
		if why != "" {
			return nil, why
		}
		if from+i == len(args) {
			break
		}
		at = append(at, from+i)
		from += i + 1
	}
	return at, ""
}

// gsutilGlobals are gsutil's options before its command (getopt's
// dDvo:?h:i:u:mq, and the long ones whose value getopt documents).
var gsutilGlobals = lazy[globalOptions]{build: func() globalOptions {
	return globalOptions{values: optionSet(`-h -i -o -u --trace-token --perf-trace-token
		--impersonate-service-account`),
		flags: optionSet(`-d -D -v -m -q -? --debug --detailedDebug --version --help --multithreaded --quiet
		--testexceptiontraces`)}
}}

// globalsWhy is the reason of an option before a tool's command that
// its table of global options does not hold.
func globalsWhy(name, option string) string {
	return name + " " + clipName(option) + " comes before the command, an option the analysis does not know, which may take the command word as its value"
}

// terraformOperands returns terraform's (tofu's) command and the words
// after it that are no option nor an option's value. Before the command
// no option takes the next word: mitchellh/cli takes the first word that
// does not begin with '-' as the command, and terraform's own -chdir
// needs '=', so terraform -var destroy plan runs destroy.
func terraformOperands(args []word) []word {
	for i, a := range args {
		if a.text == "--" {
			return nil
		}
		if unknownWord(a) || !strings.HasPrefix(a.text, "-") {
			return append([]word{a}, operandsSkipping(args[i+1:], terraformValues)...)
		}
	}
	return nil
}

// commandCandidates returns the operands of args from each word that
// may be the tool's command, for a tool whose options the analysis does
// not list: the first word that commands holds or that is only known when
// the line runs, and, while the word before the last one is an option
// without '=', which may have taken it as its value, the next word that
// is no option when commands holds it (pulumi -C preview destroy and
// rclone --config ls purge r: run destroy and purge).
func commandCandidates(args []word, commands map[string]bool) [][]word {
	isOption := func(w word) bool { return strings.HasPrefix(w.text, "-") && !w.dynamic && w.text != "-" }
	var out [][]word
	for i, a := range args {
		if a.text == "--" {
			break
		}
		if isOption(a) {
			continue
		}
		switch {
		case unknownWord(a) || commands[a.text]:
			out = append(out, operandsSkipping(args[i:], nil))
		case len(out) > 0:
			return out
		default:
			continue
		}
		if i == 0 || !isOption(args[i-1]) || strings.Contains(args[i-1].text, "=") {
			break
		}
	}
	return out
}
