package shellscan

import "testing"

// An option before a cloud or cluster tool's command that the analysis
// does not know may take the command word as its value and hide a
// deletion behind it (gate63: kubectl --kuberc x delete pod p was
// allowed, read as the plugin x; terraform takes no value before its
// command, so terraform -var destroy plan runs destroy).
func TestG63GlobalOptions(t *testing.T) {
	opaque := []string{
		`kubectl --kuberc x delete pod p`, `kubectl --as-user-extra a=b delete pod p`,
		`kubectl --log-flush-frequency 5s delete pod p`, `kubectl --vmodule x=2 delete pod p`,
		`kubectl --foo x delete pod p`, `kubectl -A x delete pod p`, `kubectl --kuberc x exec pod -- sh`,
		`oc --kuberc x delete pod p`, `oc --loglevel 5 delete pod p`, `kubecolor --kuberc x delete pod p`,
		`kubecolor --kubecolor-theme dark delete pod p`, `kubectl --kubeconfig k --kuberc x drain n`,
		`helm --content-cache list uninstall r`, `helm --foo list uninstall r`, `helm --burst-limit 5 --foo status uninstall r`,
		`terraform -var destroy plan`, `tofu -state destroy plan`, `terraform -var-file destroy x`,
		`terraform -target destroy plan`,
		`aws --foo x ec2 terminate-instances --instance-ids i-1`, `aws --cli-auto-prompt --foo x ec2 terminate-instances`,
		`aws ec2 --foo x terminate-instances`, `aws --reg us-east-1 s3 rm s3://b/x`,
		// Tools whose command is a word of theirs: an option may take
		// the first as its value.
		`pulumi -C preview destroy`, `pulumi --cwd preview destroy --yes`, `rclone --config ls purge remote:x`,
		`terragrunt --terragrunt-working-dir plan destroy`, `rclone -v --config ls sync a remote:b`,
		`gsutil -mh Cache-Control:x rm gs://b/x`, `gsutil -mo x rm gs://b/x`, `gsutil --foo x rm gs://b/x`,
	}
	clean := []string{
		`kubectl --kubeconfig k get pods`, `kubectl --kuberc x get pods`, `kubectl --insecure-skip-tls-verify get pods`,
		`kubectl -v 6 get pods`, `kubectl -v=6 get pods`, `kubectl -nprod get pods`, `kubectl --namespace=prod get pods`,
		`kubectl --context c --as-user-extra a=b logs pod`, `oc --loglevel 5 get pods`, `kubecolor get pods`,
		`helm --kube-context c list`, `helm --debug status x`, `helm --content-cache d list`, `helm -n x ls`,
		`terraform -chdir=infra plan`, `terraform plan -var x=1 -target y`, `tofu -chdir=x apply`,
		`aws --profile p --region us-east-1 s3 ls`, `aws --debug --no-cli-pager ec2 describe-instances`, `aws s3 --profile p ls`,
		`aws --region=eu-west-1 sts get-caller-identity`, `pulumi -C infra preview`, `pulumi --cwd=x up`,
		`rclone --config r.conf ls remote:`, `rclone ls remote:purge`, `terragrunt --terragrunt-working-dir x plan`,
		`gsutil -m cp -r d gs://b`, `gsutil -h Cache-Control:x cp a gs://b`, `gsutil -mq ls`, `pulumi stack select dev`,
	}
	checkRT57Lines(t, opaque, clean)
}

// CloudFormation updates a stack to the template: every resource the
// template no longer names is deleted, with what it holds (a table, a
// bucket, a database), which neither git nor the gate restores (gate63:
// each line of opaque was allowed).
func TestG63StackReplace(t *testing.T) {
	opaque := []string{
		`aws cloudformation deploy --template-file t.yaml --stack-name s`,
		`aws cloudformation update-stack --stack-name s --template-body file://t.yaml`,
		`aws cloudformation execute-change-set --change-set-name c --stack-name s`,
		`aws cloudformation update-stack-set --stack-set-name s --template-body file://t.yaml`,
		`aws --region us-east-1 cloudformation deploy --template-file t.yaml --stack-name s`,
		`cdk deploy`, `cdk deploy --all --require-approval never`, `cdk watch`, `sam deploy`, `sam deploy --guided`,
		`sam sync --stack-name s`, `serverless deploy`, `sls deploy --stage prod`, `echo y | sam deploy --confirm-changeset`,
	}
	clean := []string{
		`aws cloudformation describe-stacks`, `aws cloudformation validate-template --template-body file://t.yaml`,
		`aws cloudformation create-stack --stack-name s --template-body file://t.yaml`,
		`aws cloudformation create-change-set --stack-name s --change-set-name c --template-body file://t.yaml`,
		`aws cloudformation deploy --no-execute-changeset --template-file t.yaml --stack-name s`,
		`aws cloudformation describe-change-set --change-set-name c`, `cdk diff`, `cdk synth`, `cdk ls`,
		`cdk deploy --method=prepare-change-set`, `cdk deploy --no-execute`, `sam build`, `sam validate`,
		`sam deploy --no-execute-changeset`, `sam deploy --confirm-changeset`, `serverless package`,
		`serverless deploy function -f f`, `sls deploy list`, `serverless info`,
		`aws lambda update-function-code --function-name f --zip-file fileb://f.zip`, `gcloud run deploy s --source .`,
		`fly deploy`, `kubectl apply -f x.yaml`,
	}
	checkRT57Lines(t, opaque, clean)
}

// An ImageMagick script runs what it names: MSL's <write filename=…>
// writes any path, "@file" and -script read the options (-write PATH)
// from a file the line may have written (gate63: each line of opaque
// was allowed).
func TestG63ImageMagickScripts(t *testing.T) {
	opaque := []string{
		`convert msl:a.msl out.png`, `convert MSL:a.msl out.png`, `magick msl:x`, `convert a.msl out.png`,
		`convert x.MSL null:`, `echo '<image/>' > a.msl && convert msl:a.msl out.png`, `mogrify msl:a.txt`,
		`magick -script s.txt`, `magick-script s.txt`, `conjure a.msl`, `convert @args.txt out.png`,
		`magick @args out.png`, `montage msl:a x.png`, `composite a.png msl:b out.png`, `identify msl:a`,
		`/usr/bin/convert-im6.q16 msl:a.msl out.png`, `convert-im6 a.msl x.png`, `magick convert msl:a out.png`,
	}
	clean := []string{
		`convert a.png -resize 50% b.png`, `magick a.png b.webp`, `mogrify -resize 50% *.png`, `identify a.png`,
		`convert -size 1x1 xc:red in.png`, `magick -version`, `montage a.png b.png -tile 2x1 out.png`,
		`convert a.png -annotate +0+0 'me@host' b.png`,
	}
	checkRT57Lines(t, opaque, clean)
}
