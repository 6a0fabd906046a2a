package shellscan

import "strings"

// mavenExecProps are the user properties of the exec-maven-plugin that
// name the program exec:exec runs (exec.executable) or its arguments
// (exec.args, exec.commandlineArgs: with the project's executable sh,
// -Dexec.args="-c '…'" runs a command string): given on the line, they
// run code the analysis does not see, as a command string in a NAME=VALUE
// operand does. exec.mainClass, which picks a class of the project's own
// classpath for exec:java, is not among them.
var mavenExecProps = []string{"exec.executable", "exec.args", "exec.commandlineargs"}

// mavenExec returns why mvn (mvnw, mvnd) args runs a program or command
// string its exec plugin's properties name on the line, or "".
func mavenExec(name string, args []word) string {
	switch name {
	case "mvn", "mvnw", "mvnd", "mvnDebug", "mvndebug":
	default:
		return ""
	}
	for _, a := range args {
		t := strings.ToLower(a.text)
		if a.dynamic && strings.Contains(t, "exec") {
			return name + " is given a property only known when it runs, which may name the program its exec plugin runs"
		}
		for _, p := range mavenExecProps {
			if strings.Contains(t, p) {
				return name + " " + clipName(a.text) + " names the program or the command its exec plugin runs"
			}
		}
	}
	return ""
}
