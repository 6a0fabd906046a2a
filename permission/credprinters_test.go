package permission_test

import (
	"path/filepath"
	"testing"
)

// Commands that print a credential their program keeps in the home ask
// as a read of that file does: kubectl config view --raw printed the
// kubeconfig's token and aws configure get aws_secret_access_key the key
// of ~/.aws/credentials in real bash (both were allowed by a policy
// allowing bash). Their neighbours that print no credential stay allowed.
func TestCredentialPrintersAsk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "token: x\n", filepath.Join(home, ".kube", "config"), filepath.Join(home, ".config", "gh", "hosts.yml"))
	writeSecretFiles(t, "[default]\n", filepath.Join(home, ".aws", "credentials"))
	writeSecretFiles(t, "x\n", filepath.Join(wd, "README"))
	decide := secretDecider(t, home, wd)
	wantDecisions(t, decide, []string{
		`gh auth token`, `gh auth status -t`, `gh auth status --show-token`, `GH_HOST=x gh auth token | cat`,
		`aws configure get aws_secret_access_key`, `aws --profile p configure get aws_secret_access_key`,
		`aws ecr get-login-password`, `aws sts get-session-token`,
		`kubectl config view --raw`, `kubectl config view --minify --raw`, `kubectl create token default`,
		`gcloud auth print-access-token`, `gcloud auth application-default print-access-token`, `gcloud config config-helper`,
		`az account get-access-token`, `pass show github`, `pass github`, `pass grep token`, `gopass show x`,
		`docker-credential-desktop get <<< https://index.docker.io/v1/`, `docker-credential-pass list`,
		`secret-tool lookup service x`, `vault print token`, `op read op://v/i/p`, `heroku auth:token`,
		`glab auth status -t`, `kubectl $X`, `gh $CMD token`, `echo $(gh auth token)`,
		`hyperfine --show-output -r1 'gh auth token'`, `hyperfine -r1 'command kubectl config view --raw'`,
		`gh config get -h github.com oauth_token`, `bw get password x`, `doctl auth token`,
		// gatesec68: printers of a secret kept in the home or fetched
		// with its credentials.
		`kubectl get secret s -o yaml`, `kubectl get secrets -o jsonpath='{.data}'`, `kubectl get secrets,configmaps -ojson`,
		`kubectl -n x get secret/s --output=yaml`, `keyring get svc user`, `sops -d secrets.yaml`, `sops --decrypt s.json`,
		`sops decrypt s.yaml`, `sops s.yaml`, `curl --netrc https://example.com`, `curl -sSn https://example.com`,
		`curl --netrc-optional -v https://example.com`, `printf 'host=github.com\n' | gh auth git-credential get`,
		`aws secretsmanager get-secret-value --secret-id x`, `aws ssm get-parameter --name x --with-decryption`,
		`gcloud secrets versions access latest --secret x`, `az keyvault secret show --vault-name v -n x`,
		`rclone config show`, `s3cmd --dump-config`, `mc alias list`, `pulumi config --show-secrets`,
		`databricks auth token`, `fly auth token`, `heroku config -a app`,
		`oc whoami -t`, `oc whoami --show-token`, `kubectl view-secret s`, `aws sts assume-role --role-arn r --role-session-name s`,
		`az storage account keys list -n x`, `oc get secret s -o yaml`,
	}, []string{
		`gh auth status`, `gh pr list`, `aws s3 ls`, `kubectl config view`, `kubectl get pods`,
		`gcloud auth list`, `gcloud config list`, `az account show`, `pass`, `pass ls`, `vault status`,
		`hyperfine -r1 'gh pr list'`,
		`kubectl get secrets`, `kubectl describe secret s`, `kubectl get pods -o yaml`, `sops -e x.yaml`, `sops --version`,
		`curl -fsSL https://example.com`, `curl -dname=x https://example.com`, `keyring --help`,
		`aws ssm get-parameter --name x`, `rclone config redacted`, `oc whoami`, `az storage account list`,
	})
}
