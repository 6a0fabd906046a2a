package shellscan

import "testing"

func TestCredentialVar(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "ANTHROPIC_API_KEY": true, "AWS_SECRET_ACCESS_KEY": true, "PGPASSWORD": true,
		"NPM_TOKEN": true, "GH_PAT": true, "DATABASE_URL": true, "LITE_AGENT_STORE": true, "APIKEY": true,
		"STRIPE_SECRET": true, "DOCKER_PASS": true, "GPG_PASSPHRASE": true, "api_key": true,
		"HOME": false, "PATH": false, "PWD": false, "OLDPWD": false, "SSH_AUTH_SOCK": false,
		"TOKENIZERS_PARALLELISM": false, "MONKEY": false, "KEYTIMEOUT": false, "GOPATH": false, "PASSIVE": false,
	} {
		if got := credentialVar(name); got != want {
			t.Errorf("credentialVar(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestJQReadsEnv(t *testing.T) {
	for f, want := range map[string]bool{
		"env": true, "$ENV": true, "$ENV.GITHUB_TOKEN": true, "env | .NPM_TOKEN": true, "env.HOME": true,
		"strenv(GITHUB_TOKEN)": true, "env(X)": true, "[env]": true, ".a | env": true,
		".env": false, "{env: 1} | .env": false, `select(.name == "env")`: false, `.["env"]`: false,
		".environment": false, "$x": false, ".a.env.b": false, "myenv": false, "env_x": false,
		// An interpolation in a string is code; $ ENV is $ENV (jq 1.6).
		`"\(env)"`: true, `"\(env.GITHUB_TOKEN)"`: true, `"x\("a" | env.X)"`: true, `"\("\(env.X)")"`: true,
		`@text "\(env)"`: true, "$ ENV.X": true, "$\tENV": true, "$#c\nENV.X": true, `"\(.a) env" | env`: true,
		`"env \(.a)"`: false, `"\(.a) env"`: false, `"a\\(env)"`: false, `"\((.a)) env"`: false,
	} {
		if got := jqReadsEnv(f); got != want {
			t.Errorf("jqReadsEnv(%q) = %v, want %v", f, got, want)
		}
	}
}
