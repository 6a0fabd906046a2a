package permission

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Maven's .mvn/jvm.config holds options of the JVM that runs maven (the
// mvn script puts its words on java's command line unquoted, so each is
// also a glob) and .mvn/maven.config options of maven itself. Many of
// them write a file or run code: the JVM's -Xlog:…:file=, -Xloggc:,
// -XX:HeapDumpPath=, -XX:ErrorFile=, -XX:LogFile=,
// -XX:StartFlightRecording=filename=, -XX:OnOutOfMemoryError= and
// -XX:OnError= (a command), -XX:VMOptionsFile= and @file (more options
// from a file), -javaagent: and -agentpath: (code), system properties
// such as maven.conf (classworlds loads its logging directory, which may
// set a log file or hold classes) and org.slf4j.simpleLogger.logFile;
// maven's -l. At round 122 each of those wrote ../home on `mvn --version`
// while the gate allowed it: its old check took a word for a path only
// when it looked like one, and resolved a relative path from .mvn rather
// than from where java runs. The gate now judges each word against
// allow-lists of options and of the shapes of their values: a word it
// does not know, or a value that may name a file or a program, makes the
// line opaque. The paths maven's -l, -s, -gs, -t, -gt and -f name must
// lie in the workdir, from the working directory and from the project's
// directory.

// mavenConfigUnsound says why the text of the maven options file p (a
// jvm.config, a maven.config or mvnd's mvnd.properties) may make mvn run in cwd write outside the
// workdir or run code the line does not show, or "", and returns the
// settings files its -s and -gs name.
func (g *Gate) mavenConfigUnsound(cwd, p, text string) (string, []string) {
	project := filepath.Dir(filepath.Dir(p))
	switch filepath.Base(p) {
	case "jvm.config":
		return jvmConfigUnsound(text), nil
	case "mvnd.properties":
		return mvndPropertiesUnsound(text), nil
	}
	var more []string
	for _, line := range configLines(text) {
		words := splitWords(line, " \t\v\f")
		if len(words) == 0 || strings.HasPrefix(words[0], "#") {
			// maven 3.9 skips the line; 3.8 refuses to start.
			continue
		}
		for i := 0; i < len(words); i++ {
			w := words[i]
			opt, _, _ := strings.Cut(w, "=")
			kind, value, next := mavenOption(w)
			if next {
				if i+1 >= len(words) {
					return "gives maven " + clip(w) + " without its value", nil
				}
				i++
				value = words[i]
				w += " " + value
			}
			switch kind {
			case "":
				return "gives maven " + clip(w) + ", which is not among the options the gate knows to write nothing outside the workdir and run no code", nil
			case "flag":
			case "define":
				name, v, _ := strings.Cut(value, "=")
				if !mavenProperty(name, v, false) {
					return "sets the property " + clip(value) + ", which the gate does not know to be harmless (a system property, or a value that may name a file or a program)", nil
				}
			case "path":
				for _, dir := range []string{cwd, project} {
					if why := g.settingsPathUnsound(dir, value); why != "" {
						return "gives maven " + clip(w) + ": " + why, nil
					}
				}
				switch opt {
				case "-s", "-gs", "--settings", "--global-settings":
					if filepath.IsAbs(value) {
						more = append(more, value)
					} else {
						more = append(more, filepath.Join(cwd, value), filepath.Join(project, value))
					}
				}
			default:
				if !mavenValues()[kind].MatchString(value) {
					return "gives maven " + clip(w) + ", a value of a shape the gate does not know", nil
				}
			}
		}
	}
	return "", more
}

// configLines splits text into lines at any line break (CR, LF).
func configLines(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' })
}

// splitWords splits line into words at the bytes of seps: the separators
// of the program that splits it (maven's \s, the shell's IFS), so that
// any other blank stays inside a word, whose shape it then fails.
func splitWords(line, seps string) []string {
	return strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(seps, r) })
}

// mavenFlags are maven's options that take no value and write nothing.
var mavenFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-B": true, "--batch-mode": true, "-ntp": true, "--no-transfer-progress": true, "-e": true, "--errors": true,
		"-X": true, "--debug": true, "-q": true, "--quiet": true, "-U": true, "--update-snapshots": true, "-o": true,
		"--offline": true, "-nsu": true, "--no-snapshot-updates": true, "-fae": true, "--fail-at-end": true,
		"-ff": true, "--fail-fast": true, "-fn": true, "--fail-never": true, "-C": true, "--strict-checksums": true,
		"-c": true, "--lax-checksums": true, "-V": true, "--show-version": true, "-am": true, "--also-make": true,
		"-amd": true, "--also-make-dependents": true, "-N": true, "--non-recursive": true, "-llr": true,
		"--legacy-local-repository": true, "-npr": true, "--no-plugin-registry": true, "-npu": true,
		"--no-plugin-updates": true, "-cpu": true, "--check-plugin-updates": true, "-up": true, "--update-plugins": true,
		"-itr": true, "--ignore-transitive-repositories": true,
	}
})

// mavenValueOptions are maven's options that take a value, by the kind
// of value they take: "define" a property, "path" a file maven writes or
// reads (which must lie in the workdir), any other a key of mavenValues.
var mavenValueOptions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"-D": "define", "--define": "define", "-T": "threads", "--threads": "threads",
		"-P": "profiles", "--activate-profiles": "profiles", "-pl": "projects", "--projects": "projects",
		"-rf": "projects", "--resume-from": "projects", "-b": "builder", "--builder": "builder", "--color": "color",
		"-l": "path", "--log-file": "path", "-s": "path", "--settings": "path", "-gs": "path",
		"--global-settings": "path", "-t": "path", "--toolchains": "path", "-gt": "path",
		"--global-toolchains": "path", "-f": "path", "--file": "path",
	}
})

// mavenValues are the shapes of the values of mavenValueOptions by kind:
// words that name no file and no program.
var mavenValues = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"threads":  regexp.MustCompile(`^[0-9]+(\.[0-9]+)?C?$`),
		"profiles": regexp.MustCompile(`^[A-Za-z0-9_.,!?+-]+$`),
		"projects": regexp.MustCompile(`^[A-Za-z0-9_.,:!?/+-]+$`),
		"builder":  regexp.MustCompile(`^[A-Za-z0-9_-]+$`),
		"color":    regexp.MustCompile(`^(always|never|auto)$`),
	}
})

// mavenOption returns the kind of maven option word w (see
// mavenValueOptions; "flag" for one of mavenFlags, "" for an option the
// gate does not know), its value when w holds it (-T1C, -Dx=y,
// --threads=1C), and whether the value is the next word.
func mavenOption(w string) (kind, value string, next bool) {
	if mavenFlags()[w] {
		return "flag", "", false
	}
	if kind, ok := mavenValueOptions()[w]; ok {
		return kind, "", true
	}
	if name, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(name, "--") {
		if kind, ok := mavenValueOptions()[name]; ok {
			return kind, v, false
		}
	}
	for _, o := range []string{"-D", "-T", "-P"} {
		if v, ok := strings.CutPrefix(w, o); ok {
			return mavenValueOptions()[o], v, false
		}
	}
	return "", "", false
}

// jvmConfigUnsound says why a jvm.config's text holds a word that is not
// among the JVM options the gate knows to write nothing outside the
// workdir and run no code, or "". A word from "#" on ends the line:
// maven 3.9 drops the rest of the line, 3.8 makes the word java's main
// class and every word after it an argument of that class, which java
// then fails to load.
func jvmConfigUnsound(text string) string {
	for _, line := range configLines(text) {
		words := splitWords(line, " \t")
		for i := 0; i < len(words); i++ {
			w := words[i]
			if strings.HasPrefix(w, "#") {
				break
			}
			if re, ok := jvmModuleOptions()[w]; ok {
				if i+1 >= len(words) || !re.MatchString(words[i+1]) {
					return "passes the JVM " + clip(w) + " with a value of a shape the gate does not know"
				}
				i++
				continue
			}
			if !jvmOptionHarmless(w) {
				return "passes the JVM " + clip(w) + ", which is not among the options the gate knows to write nothing outside the workdir and run no code"
			}
		}
	}
	return ""
}

// jvmModuleOptions are the JVM's module options and the shapes of their
// values: modules of the JDK's image, since no module path is given.
var jvmModuleOptions = sync.OnceValue(func() map[string]*regexp.Regexp {
	export := regexp.MustCompile(`^[A-Za-z0-9_.]+/[A-Za-z0-9_.]+=[A-Za-z0-9_.,-]+$`)
	modules := regexp.MustCompile(`^[A-Za-z0-9_.,-]+$`)
	return map[string]*regexp.Regexp{
		"--add-opens": export, "--add-exports": export, "--add-reads": regexp.MustCompile(`^[A-Za-z0-9_.]+=[A-Za-z0-9_.,-]+$`),
		"--add-modules": modules, "--enable-native-access": modules, "--limit-modules": modules,
		"--illegal-access": regexp.MustCompile(`^(permit|warn|debug|deny)$`),
	}
})

// jvmShapes matches the JVM options of jvm.config the gate allows by
// their shape: a size of memory or stack; -Xlog to stdout or stderr;
// assertions of a package or class. None holds a glob character: the mvn
// script leaves jvm.config's words unquoted, so "-Xlog:gc*" would become
// the name of any file of the working directory that it matches, such as
// one named "-Xlog:gc:file=link".
var jvmShapes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(-X(mx|ms|ss|mn)[0-9]+[kKmMgGtT]?` +
		`|-Xlog(:[A-Za-z0-9_+=,]*(:(stdout|stderr)?(:[a-z,]*)?)?)?` +
		`|-(ea|da|enableassertions|disableassertions):[A-Za-z0-9_.]+(\.\.\.)?)$`)
})

// jvmWords are the JVM options of jvm.config the gate allows as they
// are: none names a file or a program.
var jvmWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-server": true, "-client": true, "-Xint": true, "-Xmixed": true, "-Xcomp": true, "-Xbatch": true, "-Xrs": true,
		"-Xnoclassgc": true, "-Xcheck:jni": true, "-Xshare:auto": true, "-Xshare:off": true, "-Xshare:on": true,
		"-Xdiag": true, "-Xverify:none": true, "-Xverify:remote": true, "-ea": true, "-da": true, "-esa": true,
		"-dsa": true, "-enableassertions": true, "-disableassertions": true, "-enablesystemassertions": true,
		"-disablesystemassertions": true, "-verbose:gc": true, "-verbose:class": true, "-verbose:module": true,
		"-verbose:jni": true, "-showversion": true, "--enable-preview": true, "-Xfuture": true,
	}
})

// jvmBooleanFlags are the -XX flags jvm.config may turn on or off: of
// the collectors, the heap, the compilers and diagnostics printed to the
// output. A heap dump on an OutOfMemoryError goes to the working
// directory unless -XX:HeapDumpPath says otherwise, which asks; a crash
// (CrashOnOutOfMemoryError) may write a core dump where the system says,
// and asks.
var jvmBooleanFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"UseG1GC": true, "UseParallelGC": true, "UseParallelOldGC": true, "UseSerialGC": true, "UseZGC": true,
		"ZGenerational": true, "UseShenandoahGC": true, "UseConcMarkSweepGC": true, "UseEpsilonGC": true,
		"UseStringDeduplication": true, "HeapDumpOnOutOfMemoryError": true, "ExitOnOutOfMemoryError": true,
		"UseCompressedOops": true, "UseCompressedClassPointers": true,
		"TieredCompilation": true, "UseContainerSupport": true, "UnlockExperimentalVMOptions": true,
		"UnlockDiagnosticVMOptions": true, "AlwaysPreTouch": true, "UseNUMA": true, "UseLargePages": true,
		"UseTransparentHugePages": true, "ParallelRefProcEnabled": true, "DisableExplicitGC": true,
		"ExplicitGCInvokesConcurrent": true, "OptimizeStringConcat": true, "UseCodeCacheFlushing": true,
		"ShowCodeDetailsInExceptionMessages": true, "OmitStackTraceInFastThrow": true, "UseTLAB": true,
		"UseAdaptiveSizePolicy": true, "ScavengeBeforeFullGC": true, "ClassUnloading": true,
		"ClassUnloadingWithConcurrentMark": true, "UseGCOverheadLimit": true, "UseBiasedLocking": true,
		"UseCMSInitiatingOccupancyOnly": true, "CMSClassUnloadingEnabled": true, "UseCGroupMemoryLimitForHeap": true,
		"UseDynamicNumberOfGCThreads": true, "G1UseAdaptiveIHOP": true, "UsePerfData": true,
		"PerfDisableSharedMem": true, "PrintGCDetails": true, "PrintGCDateStamps": true, "PrintGCTimeStamps": true,
		"PrintFlagsFinal": true, "PrintCommandLineFlags": true, "PrintCompilation": true,
		"IgnoreUnrecognizedVMOptions": true, "UseAES": true, "UseAESIntrinsics": true, "UseSHA": true,
		"UseOnStackReplacement": true, "BackgroundCompilation": true, "EnableDynamicAgentLoading": true,
		"UseCountedLoopSafepoints": true, "UseStringCache": true, "AggressiveOpts": true, "UseFastAccessorMethods": true,
		"UseCompactObjectHeaders": true, "UseSplitVerifier": true,
	}
})

// jvmNumberFlags are the -XX options jvm.config may set to a number, a
// size or a percentage.
var jvmNumberFlags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"MaxMetaspaceSize": true, "MetaspaceSize": true, "ReservedCodeCacheSize": true, "InitialCodeCacheSize": true,
		"CodeCacheExpansionSize": true, "MaxRAMPercentage": true, "InitialRAMPercentage": true, "MinRAMPercentage": true,
		"MaxRAM": true, "MaxRAMFraction": true, "TieredStopAtLevel": true, "ParallelGCThreads": true,
		"ConcGCThreads": true, "CICompilerCount": true, "MaxGCPauseMillis": true, "G1HeapRegionSize": true,
		"G1ReservePercent": true, "G1NewSizePercent": true, "G1MaxNewSizePercent": true, "G1MixedGCCountTarget": true,
		"G1HeapWastePercent": true, "G1PeriodicGCInterval": true, "NewRatio": true, "SurvivorRatio": true,
		"MaxTenuringThreshold": true, "InitialTenuringThreshold": true, "MaxDirectMemorySize": true,
		"ThreadStackSize": true, "VMThreadStackSize": true, "CompilerThreadStackSize": true,
		"InitiatingHeapOccupancyPercent": true, "MaxHeapFreeRatio": true, "MinHeapFreeRatio": true,
		"GCTimeRatio": true, "SoftRefLRUPolicyMSPerMB": true, "CompressedClassSpaceSize": true,
		"MaxInlineLevel": true, "MaxInlineSize": true, "FreqInlineSize": true, "InlineSmallCode": true,
		"StringTableSize": true, "AutoBoxCacheMax": true, "MaxNewSize": true, "NewSize": true,
		"InitialHeapSize": true, "MaxHeapSize": true, "MinHeapSize": true, "ActiveProcessorCount": true,
		"MaxJavaStackTraceDepth": true, "MaxMetaspaceFreeRatio": true, "MinMetaspaceFreeRatio": true,
		"CMSInitiatingOccupancyFraction": true, "GCHeapFreeLimit": true, "GCTimeLimit": true,
		"NonProfiledCodeHeapSize": true, "ProfiledCodeHeapSize": true, "NonNMethodCodeHeapSize": true,
		"MarkStackSize": true, "MarkStackSizeMax": true, "ObjectAlignmentInBytes": true, "TLABSize": true,
		"MinTLABSize": true, "ZCollectionInterval": true, "ZUncommitDelay": true, "SoftMaxHeapSize": true,
		"MaxPermSize": true, "PermSize": true,
	}
})

// jvmNumber matches a value of jvmNumberFlags.
var jvmNumber = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[kKmMgGtT%]?$`) })

// jvmOptionHarmless reports whether the jvm.config word w is a JVM
// option the gate knows to write nothing outside the workdir and run no
// code (see jvmWords, jvmShapes, jvmBooleanFlags, jvmNumberFlags,
// jvmProperties).
func jvmOptionHarmless(w string) bool {
	if jvmWords()[w] || jvmShapes().MatchString(w) {
		return true
	}
	if name, v, ok := strings.Cut(w, "="); ok {
		if re, ok := jvmModuleOptions()[name]; ok {
			return re.MatchString(v)
		}
	}
	if rest, ok := strings.CutPrefix(w, "-XX:"); ok {
		if name, ok := strings.CutPrefix(rest, "+"); ok {
			return jvmBooleanFlags()[name]
		}
		if name, ok := strings.CutPrefix(rest, "-"); ok {
			return jvmBooleanFlags()[name]
		}
		name, v, ok := strings.Cut(rest, "=")
		return ok && jvmNumberFlags()[name] && jvmNumber().MatchString(v)
	}
	if rest, ok := strings.CutPrefix(w, "-D"); ok {
		name, v, _ := strings.Cut(rest, "=")
		return mavenProperty(name, v, true)
	}
	return false
}

// jvmProperties are the system properties jvm.config and maven.config
// may set to a plain value (see plainValue): encodings, the locale, the
// network's protocols and timeouts, maven's output and its transport's
// tuning. A name ending in "." stands for every name it begins.
var jvmProperties = []string{
	"file.encoding", "sun.jnu.encoding", "sun.stdout.encoding", "sun.stderr.encoding", "stdout.encoding",
	"stderr.encoding", "java.awt.headless", "user.language", "user.country", "user.region", "user.variant",
	"user.timezone", "java.net.preferIPv4Stack", "java.net.preferIPv6Addresses", "java.net.useSystemProxies",
	"networkaddress.cache.ttl", "https.protocols", "jdk.tls.client.protocols", "http.keepAlive",
	"http.maxConnections", "sun.net.client.defaultConnectTimeout", "sun.net.client.defaultReadTimeout",
	"style.color", "maven.artifact.threads", "maven.wagon.", "maven.resolver.transport", "aether.connector.",
	"org.slf4j.simpleLogger.defaultLogLevel", "org.slf4j.simpleLogger.log.", "org.slf4j.simpleLogger.showDateTime",
	"org.slf4j.simpleLogger.showThreadName", "org.slf4j.simpleLogger.showLogName",
	"org.slf4j.simpleLogger.showShortLogName", "org.slf4j.simpleLogger.levelInBrackets",
}

// reservedProperties begin the names of the properties maven.config may
// not set by name alone: the JDK's and the JVM's (java.io.tmpdir,
// user.home, java.library.path …), those of maven's start (maven.conf,
// maven.home, maven.ext.class.path, classworlds, jansi's native library,
// the loggers' files and settings) and of the exec plugin (the program
// exec:exec runs). maven sets each property of maven.config as a system
// property before it starts its logging.
var reservedProperties = []string{
	"java", "jdk.", "sun.", "com.sun.", "user.", "os.", "file.", "path.", "line.", "http", "ftp.", "socks",
	"networkaddress.", "jansi.", "library.", "jna.", "jline.", "classworlds.", "maven.conf", "maven.home",
	"maven.ext.", "maven.multimoduleprojectdirectory", "maven.installation", "maven.user", "maven.logger.",
	"maven.project.", "log4j", "logback.", "org.slf4j.", "org.apache.commons.logging", "org.apache.logging.",
	"org.fusesource.", "exec.",
}

// plainValue matches a property's value that names no file outside the
// working directory and no program by a path: a word of letters, digits
// and a few marks.
var plainValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.,+@=-]*$`) })

// propertyName matches the name of a property mavenProperty judges.
var propertyName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]+$`) })

// mavenProperty reports whether a -D of jvm.config (with jvm) or
// maven.config may set the property name to value: value is plain (see
// plainValue) and name one of jvmProperties, or, in maven.config, any
// name of maven's own properties (revision, skipTests …) outside
// reservedProperties. java.security.egd may name /dev/urandom.
func mavenProperty(name, value string, jvm bool) bool {
	if name == "java.security.egd" && (value == "file:/dev/./urandom" || value == "file:/dev/urandom") {
		return true
	}
	if !propertyName().MatchString(name) || !plainValue().MatchString(value) ||
		strings.Contains(value, "..") {
		return false
	}
	for _, p := range jvmProperties {
		if name == p || strings.HasSuffix(p, ".") && strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	if jvm {
		return false
	}
	lower := strings.ToLower(name)
	for _, p := range reservedProperties {
		if strings.HasPrefix(lower, p) {
			return false
		}
	}
	return true
}

// mvndKeys are the keys of mvnd's .mvn/mvnd.properties the gate allows,
// by the shape of their values: "plain" (see plainValue), "duration"
// (3 hours, 100ms), "jvm" (mvnd.jvmArgs, judged as a jvm.config is).
// Its other keys name a JDK whose java the daemon runs (java.home), the
// directories it writes (mvnd.daemonStorage, mvnd.registry), settings,
// extensions or a debugging port, and ask.
var mvndKeys = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"mvnd.threads": "plain", "mvnd.builder": "plain", "mvnd.serial": "plain", "mvnd.noBuffering": "plain",
		"mvnd.rollingWindowSize": "plain", "mvnd.maxLostKeepAlive": "plain", "mvnd.minThreads": "plain",
		"mvnd.minHeapSize": "plain", "mvnd.maxHeapSize": "plain", "mvnd.threadStackSize": "plain",
		"mvnd.enableAssertions": "plain", "mvnd.buildTime": "plain", "mvnd.socketFamily": "plain",
		"mvnd.noModelCache": "plain", "style.color": "plain", "mvnd.idleTimeout": "duration",
		"mvnd.keepAlive": "duration", "mvnd.logPurgePeriod": "duration", "mvnd.expirationCheckDelay": "duration",
		"mvnd.duplicateDaemonGracePeriod": "duration", "mvnd.connectTimeout": "duration",
		"mvnd.socketConnectTimeout": "duration", "mvnd.cancelConnectTimeout": "duration", "mvnd.jvmArgs": "jvm",
	}
})

// mvndDuration matches a duration of mvnd.properties.
var mvndDuration = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+ ?[a-z]*( [0-9]+ ?[a-z]*)*$`) })

// mvndPropertiesUnsound says why the text of mvnd's .mvn/mvnd.properties
// sets a key other than mvndKeys, or one of them to a value of another
// shape, or "". A backslash (an escape, a line that goes on) asks.
func mvndPropertiesUnsound(text string) string {
	if strings.Contains(text, `\`) {
		return "has a backslash, which may hide a key or a value"
	}
	for _, line := range configLines(text) {
		line = strings.TrimLeft(line, " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		end := strings.IndexAny(line, "=: \t\f")
		if end < 0 {
			end = len(line)
		}
		key, value := line[:end], strings.TrimLeft(line[end:], " \t\f")
		if value != "" && (value[0] == '=' || value[0] == ':') {
			value = strings.TrimLeft(value[1:], " \t\f")
		}
		value = strings.TrimRight(value, " \t\f")
		var ok bool
		switch mvndKeys()[key] {
		case "plain":
			ok = plainValue().MatchString(value) && !strings.Contains(value, "..")
		case "duration":
			ok = mvndDuration().MatchString(value)
		case "jvm":
			if why := jvmConfigUnsound(value); why != "" {
				return "sets mvnd.jvmArgs, which " + why
			}
			ok = true
		}
		if !ok {
			return "sets " + clip(key) + " to " + clip(value) + ", which the gate does not know to be harmless (a key that names a path, a program or a port)"
		}
	}
	return ""
}
