//go:build linux

package permission_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
	"github.com/lite-agent/lite-agent-go/permission"
)

// canaryMvnJVM are projects whose .mvn/jvm.config or .mvn/maven.config
// (as a cloned repository holds them) make `mvn --version` write into
// the home (../home from the project) or run the project's x.sh, which
// does: options of the JVM that write a log, a recording, a heap dump or
// an error report, read more options from a file, or run a command on an
// OutOfMemoryError; maven's log file; the properties that set
// maven's logger's file or the directory classworlds loads its logging
// from. Each was allowed at round 122: the gate took a word for a path
// only when it looked like one, and resolved ../home from .mvn, which
// kept it in the workdir.
var canaryMvnJVM = []map[string]string{
	{".mvn/jvm.config": "-Xlog:gc:file=../home/.config/x.log\n"},
	{".mvn/jvm.config": "-XX:VMOptionsFile=vo\n", "vo": "-Xlog:gc:file=../home/.config/y.log\n"},
	{".mvn/jvm.config": "@ar\n", "ar": "-Xlog:gc:file=../home/.config/y.log\n"},
	{".mvn/jvm.config": "-XX:StartFlightRecording=filename=../home/.config/f.jfr\n"},
	{".mvn/jvm.config": "-XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=../home/.config/h.hprof -Xmx4m\n"},
	{".mvn/jvm.config": "-Xlog:gc:../home/.config/bare.log\n"},
	{".mvn/jvm.config": "-Xloggc:../home/.config/gc.log\n"},
	{".mvn/jvm.config": "-XX:ErrorFile=../home/.config/err -XX:+CrashOnOutOfMemoryError -Xmx4m\n"},
	{".mvn/jvm.config": "-XX:+UnlockDiagnosticVMOptions -XX:+LogVMOutput -XX:LogFile=../home/.config/vm.log\n"},
	{".mvn/jvm.config": "-XX:OnOutOfMemoryError=./x.sh -Xmx4m\n", "x.sh": "#!/bin/sh\ntouch ../home/.config/oom\n"},
	{".mvn/jvm.config": "-Dorg.slf4j.simpleLogger.logFile=../home/.config/s.log\n"},
	{".mvn/jvm.config": "-Dmaven.conf=cf\n", "cf/logging/simplelogger.properties": "org.slf4j.simpleLogger.logFile=../home/.config/s.log\n"},
	{".mvn/maven.config": "-l ../home/.config/l.log\n"},
	{".mvn/maven.config": "--log-file=../home/.config/l.log\n"},
	{".mvn/maven.config": "-B\n-Dorg.slf4j.simpleLogger.logFile=../home/.config/s.log\n"},
}

// mvnJVMOrdinary are the options files of ordinary projects: memory, the
// collector, encodings, the modules a build opens, maven's threads,
// batch mode, profiles, CI-friendly versions, comments. mvn --version
// stays allowed with each.
var mvnJVMOrdinary = []map[string]string{
	{".mvn/jvm.config": "-Xmx2g -XX:+UseG1GC -Dfile.encoding=UTF-8 --add-opens java.base/java.lang=ALL-UNNAMED -Djava.awt.headless=true\n",
		".mvn/maven.config": "-T 1C -B --no-transfer-progress -Dstyle.color=always\n"},
	{".mvn/jvm.config": "-Xms512m -Xmx4g -Xss4m -XX:MaxMetaspaceSize=1g -XX:+HeapDumpOnOutOfMemoryError -XX:TieredStopAtLevel=1\n" +
		"--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED -Djava.security.egd=file:/dev/./urandom\n" +
		"-Xlog:gc:stdout:time -Duser.language=en -Dhttps.protocols=TLSv1.2,TLSv1.3 # the build's JVM\n",
		".mvn/maven.config": "# CI-friendly versions\n-Drevision=1.2.3-SNAPSHOT\n-DskipTests -Pci,!slow -pl :core -am -T4 --color=always\n" +
			"-Dmaven.wagon.http.retryHandler.count=3 -ntp -e -s ci/settings.xml -l build.log\n",
		"ci/settings.xml": "<settings><localRepository>.m2/repository</localRepository></settings>\n"},
}

// TestCanaryMvnJVM checks that mvn --version asks in each project of
// canaryMvnJVM, which makes it write into the home when run, and stays
// allowed in the ordinary ones.
func TestCanaryMvnJVM(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "mvn")
	const line = "mvn --version"
	for i, files := range canaryMvnJVM {
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			home, wd := unlinkedFixture(t)
			if err := os.MkdirAll(filepath.Join(home, ".config"), 0o700); err != nil {
				t.Fatal(err)
			}
			writeTreeMode(t, wd, files, 0o755)
			if v := secretDecider(t, home, wd)(line); v.Decision != permission.Ask {
				t.Errorf("%q with %q: %v (%s), want an ask", line, files, v.Decision, v.Reason)
			}
			out := runIn(t, home, wd, line)
			if entries, err := os.ReadDir(filepath.Join(home, ".config")); err != nil || len(entries) == 0 {
				t.Errorf("%q with %q did not write the home when run (%v):\n%s", line, files, err, out)
			}
		})
	}
	for _, files := range mvnJVMOrdinary {
		home, wd := unlinkedFixture(t)
		writeTreeMode(t, wd, files, 0o644)
		if v := secretDecider(t, home, wd)(line); v.Decision != permission.Allow {
			t.Errorf("%q with %q: %v (%s), want it allowed", line, files, v.Decision, v.Reason)
		}
	}
}

// mvndProperties are mvnd's .mvn/mvnd.properties of a copied project that
// name a JDK whose java the daemon runs, the directories the daemon
// writes, JVM options that write the home, a debugging port, a settings
// file: mvnd --version asks with each. mvnd is not installed here, so
// the test checks the decisions only; these keys are documented by mvnd
// (Environment.java) and were allowed at round 122.
var mvndProperties = []string{
	"java.home=jdk\n", "mvnd.daemonStorage=../home/.config/d\n", "mvnd.registry = ../home/.config/r.bin\n",
	"mvnd.jvmArgs=-Xmx1g -Xlog:gc:file=../home/.config/x.log\n", "mvnd.debug=true\n", "maven.settings=s.xml\n",
	"mvnd.threads=4\\\n  -Dx=y\n", "mvnd.extClasspath=x.jar\n",
}

// mvndPropertiesOrdinary stay allowed.
var mvndPropertiesOrdinary = []string{
	"# tuning\nmvnd.threads=4\nmvnd.idleTimeout = 3 hours\nmvnd.maxHeapSize: 2g\n! more\nmvnd.jvmArgs=-Xmx2g -XX:+UseG1GC -Dfile.encoding=UTF-8\n",
}

// TestMvndProperties checks mvnd's decisions with the project's
// .mvn/mvnd.properties, and that mvn does not read it.
func TestMvndProperties(t *testing.T) {
	t.Parallel()
	for _, text := range append(mvndProperties, mvndPropertiesOrdinary...) {
		home, wd := unlinkedFixture(t)
		writeTreeMode(t, wd, map[string]string{".mvn/mvnd.properties": text}, 0o644)
		decide := secretDecider(t, home, wd)
		want := permission.Ask
		if slices.Contains(mvndPropertiesOrdinary, text) {
			want = permission.Allow
		}
		if v := decide("mvnd --version"); v.Decision != want {
			t.Errorf("mvnd --version with %q: %v (%s), want %v", text, v.Decision, v.Reason, want)
		}
		if v := decide("mvn --version"); v.Decision != permission.Allow {
			t.Errorf("mvn --version with mvnd.properties %q: %v (%s), want it allowed", text, v.Decision, v.Reason)
		}
	}
	// A line that writes mvnd's settings, or the jvm.config it reads as
	// mvn does, and then runs mvnd (allowed at round 122: the analysis
	// knew mvn and mvnw, not mvnd, as readers of .mvn).
	home, wd := unlinkedFixture(t)
	wantDecisions(t, secretDecider(t, home, wd), []string{
		"mkdir -p .mvn && echo 'mvnd.jvmArgs=-Xlog:gc:file=../home/x' > .mvn/mvnd.properties && mvnd --version",
		"mkdir -p .mvn && echo '-Xlog:gc:file=../home/x' > .mvn/jvm.config && mvnd --version",
	}, []string{"mvnd --version", "mkdir -p .mvn && echo x > notes.txt && mvnd --version"})
}
