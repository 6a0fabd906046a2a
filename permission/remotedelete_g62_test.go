package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/permission"
)

// Under "allow bash" the gate asks for a line that deletes or destroys
// what a cloud, a cluster, a database server or a web service holds, or
// copies to another host with ssh (gate62: each was allowed); with no
// approver it refuses. The read-only commands of the same tools, a POST to
// a local server and the everyday lines stay allowed.
func TestG62RemoteDeletesAsk(t *testing.T) {
	t.Parallel()
	wd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(wd, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	g := permission.NewGate(permission.GateOptions{Policy: allowAll, Workdir: wd, HomeDir: t.TempDir()})
	for _, line := range []string{
		"dropdb app", "kubectl delete ns prod", "aws s3 rm s3://b --recursive", "terraform destroy -auto-approve",
		"curl -X DELETE http://localhost:8080/x", "helm uninstall x", "gcloud compute instances delete x",
		"az group delete -n x", "pulumi destroy", "gsutil rm gs://b/x", "heroku apps:destroy x", "vercel rm x",
		"firebase firestore:delete --all-collections", "wrangler delete", "fly apps destroy x", "doctl compute droplet delete x",
		"kubectl exec pod -- rm -rf /data", "http DELETE :8080/x", "scp host:a .", "rsync -a x host:y",
		"make && kubectl delete ns x", "timeout 60 terraform destroy",
	} {
		out := authorize(t, g, line)
		if out.Run {
			t.Errorf("%q was allowed", line)
			continue
		}
		if res := out.Result().Content; !strings.Contains(res, "git cannot restore") && !strings.Contains(res, "another") &&
			!strings.Contains(res, "DELETE") && !strings.Contains(res, "restores") {
			t.Errorf("%q: the refusal does not say why: %q", line, res)
		}
	}
	clean := []string{
		"kubectl get pods", "aws s3 ls", "terraform plan", "helm list", "gcloud compute instances list",
		"gcloud run services describe x", "az vm list", "curl -X POST -d a=b http://localhost:8080/x",
		"curl -d a=b http://localhost:8080/x", "kubectl apply -f k8s.yaml", "pulumi preview", "aws s3 cp out.txt s3://b/x",
	}
	// The lead's everyday lines.
	clean = append(clean,
		"git status",
		"git commit -m x",
		"npm test",
		"npm ci && npm test",
		"go test ./...",
		"make",
		"pytest",
		"python3 -m pytest -q",
		"cargo build",
		"sed -i s/a/b/ README",
		"git add -A",
		"rg foo",
		"python3 -m venv .venv && .venv/bin/pip install -r requirements.txt",
		"npm install && npm run build > log",
		"go vet ./... && gofmt -l .",
		"git stash && git stash pop",
		"git pull",
		"git log --oneline -5",
		"git diff",
		"git checkout -b feature",
		"echo x > notes.txt && git add notes.txt && git commit -m x",
	)
	for _, line := range clean {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("%q was refused: %+v", line, out.Verdict)
		}
	}
}
