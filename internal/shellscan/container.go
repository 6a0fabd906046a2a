package shellscan

import (
	"strings"
)

// Container engines run programs in containers that may bind-mount any
// host path (a protected one included) and run as root there, and build
// images whose steps run programs and may export files anywhere on the
// host (docker build --output). What a container does is set by the
// line's options, by an image, by a Dockerfile and by a compose file
// that a cloned repository may bring: nothing the analysis can read. So
// every subcommand of these engines is opaque but the ones known to only
// show state (docker ps, images, logs, inspect, version …) or fetch an
// image (pull), and only
// after the global options known to choose no program or configuration.

// containerEngines are the engines modelled, with the compose tools,
// which take compose's subcommands directly.
var containerEngines = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"docker": true, "podman": true, "podman-remote": true, "nerdctl": true, "finch": true, "buildah": true,
		"docker-compose": true, "podman-compose": true,
	}
}}

// containerReadOnly are the subcommands that only show state, for an
// engine; a management command (container, image …) maps to its own
// read-only subcommands.
var containerReadOnly = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"ps": nil, "images": nil, "version": nil, "info": nil, "logs": nil, "inspect": nil, "history": nil,
		"top": nil, "port": nil, "diff": nil, "stats": nil, "events": nil, "search": nil, "help": nil,
		"pull":       nil, // stores an image, runs nothing
		"containers": nil, // buildah
		"container":  {"ls", "list", "ps", "inspect", "logs", "top", "port", "diff", "stats"},
		"image":      {"ls", "list", "inspect", "history", "pull"},
		"network":    {"ls", "list", "inspect"},
		"volume":     {"ls", "list", "inspect"},
		"system":     {"df", "info", "events"},
		"context":    {"ls", "list", "inspect", "show"},
		"pod":        {"ps", "ls", "list", "inspect", "logs", "top", "stats"},
		"buildx":     {"ls", "version"},
		"compose":    nil, // see composeReadOnly
	}
}}

// composeReadOnly are the compose subcommands that only show state.
var composeReadOnly = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"ps": true, "ls": true, "images": true, "version": true, "top": true, "logs": true, "port": true,
		"events": true, "help": true,
	}
}}

// containerRuns are the subcommands that run or build containers; an
// engine's name guessed among the words of a command the analysis does
// not model (helm install docker ./chart) is only taken as the engine
// when one of these follows.
var containerRuns = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"run": true, "exec": true, "start": true, "restart": true, "create": true, "build": true, "buildx": true,
		"compose": true, "up": true, "builder": true, "bud": true, "from": true, "commit": true, "cp": true,
		"attach": true, "unshare": true, "machine": true, "kube": true, "play": true, "load": true, "import": true,
		"save": true, "export": true, "plugin": true, "login": true, "context": true, "container": true,
		"image": true, "volume": true, "pod": true, "stack": true, "service": true, "bake": true,
	}
}}

// containerGlobal are the global options (before the subcommand) known to
// choose only which daemon is asked and how much it says, with whether
// each takes a value: a configuration directory (--config, whose
// cli-plugins are programs), a storage root or TLS files are not among
// them.
var containerGlobal = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"-D": false, "--debug": false, "-l": true, "--log-level": true, "-c": true, "--context": true,
		"-H": true, "--host": true, "--remote": false, "-r": false, "--url": true, "--connection": true,
		"--namespace": true, "-n": true,
	}
}}

// composeGlobal are compose's global options, which only choose the
// project whose state is shown, with whether each takes a value.
var composeGlobal = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"-f": true, "--file": true, "-p": true, "--project-name": true, "--profile": true, "--env-file": true,
		"--project-directory": true, "--ansi": true, "--progress": true, "--parallel": true, "--compatibility": false,
		"--all-resources": false,
	}
}}

// subcommand skips the global options of args known to opts and returns
// the first operand's index, or -1 with why when an option is unknown or
// a word is only known when the line runs.
func subcommand(args []word, opts map[string]bool) (int, string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.dynamic {
			return -1, "gets a word only known when it runs"
		}
		if !strings.HasPrefix(a.text, "-") {
			return i, ""
		}
		name, _, attached := strings.Cut(a.text, "=")
		value, ok := opts[name]
		if !ok && len(a.text) > 2 && a.text[1] != '-' {
			// -Hunix:///x: a one-letter option with its value attached.
			name = a.text[:2]
			value, ok = opts[name]
			attached = value
		}
		if !ok {
			return -1, "takes the option " + clipName(a.text) + ", which the analysis does not know to be harmless"
		}
		if value && !attached {
			i++
		}
	}
	return len(args), ""
}

// container decides the command name args of a container engine. It
// reports whether the command only shows state; otherwise the line is
// opaque, and what the container seems to run is recorded for deny rules.
func (an *analyzer) container(name string, args []word, depth, chain int) bool {
	if onlyVersion(args) {
		return true
	}
	compose := name == "docker-compose" || name == "podman-compose"
	opts := containerGlobal.get()
	if compose {
		opts = composeGlobal.get()
	}
	i, why := subcommand(args, opts)
	sub := ""
	if i >= 0 && i < len(args) {
		sub = args[i].text
	}
	if an.guess && !containerRuns.get()[sub] && !compose {
		// A data word named like the engine (an image, a release), not
		// the engine run.
		return true
	}
	if why == "" {
		switch {
		case sub == "":
			return true // the engine's usage
		case compose:
			if composeReadOnly.get()[sub] {
				return true
			}
		case sub == "compose":
			j, w := subcommand(args[i+1:], composeGlobal.get())
			if w == "" && i+1+j < len(args) {
				if composeReadOnly.get()[args[i+1+j].text] {
					return true
				}
				sub += " " + args[i+1+j].text
			}
			why = w
		default:
			if subs, ok := containerReadOnly.get()[sub]; ok && (len(subs) == 0 && sub != "compose" ||
				i+1 < len(args) && contains(subs, args[i+1].text)) {
				return true
			}
		}
	}
	if why == "" {
		why = clipName(sub) + " may run or build containers, which may mount any host path and run any program"
	}
	an.opaque(name + " " + why)
	an.seeInside(name, args, depth, chain)
	return false
}
