package shellscan

import "testing"

// Deleting or destroying what a cloud, a cluster or a server holds asks,
// as gh's deletions do: git cannot restore it, and neither can the gate
// (gate62: each line of opaque was allowed under "allow bash" before).
// The read-only commands of the same tools stay allowed.
func TestG62RemoteDeletes(t *testing.T) {
	opaque := []string{
		// kubectl and its kin: deletions, changes in place, commands run
		// in a container of the cluster.
		`kubectl delete ns prod`, `kubectl -n x delete pod y`, `kubectl --context prod delete deploy/x`,
		`kubectl drain node1`, `kubectl cordon node1`, `kubectl uncordon node1`, `kubectl taint nodes n k=v:NoSchedule`,
		`kubectl scale deploy x --replicas=0`, `kubectl autoscale deploy x --max=1`,
		`kubectl apply --prune -f x.yaml -l a=b`, `kubectl apply -f x.yaml --prune --all`, `kubectl apply --force -f x.yaml`,
		`kubectl replace --force -f x.yaml`, `kubectl patch deploy x -p '{}'`, `kubectl rollout undo deploy/x`,
		`kubectl rollout restart deploy/x`, `kubectl exec -it pod -- sh`, `kubectl exec pod -- rm -rf /data`,
		`kubectl attach pod -i`, `kubectl cp x.txt pod:/data/x.txt`, `kubectl debug node/n -it --image=busybox`,
		`kubectl delete pod x --dry-run=none`, `kubectl $verb pod x`, `kubectl {delete,get} pod x`,
		`oc delete project x`, `oc adm drain node1`, `k3s kubectl delete ns x`, `microk8s kubectl delete ns x`,
		`kubecolor delete ns x`, `KUBECTL delete ns x`,
		// helm
		`helm uninstall x`, `helm delete x`, `helm del x`, `helm un x`, `helm --kube-context c uninstall y`,
		`helm rollback x 1`, `helm upgrade x ./chart --force`, `helm diff upgrade x ./chart`,
		// terraform, tofu, terragrunt, pulumi, cdk, serverless, sam
		`terraform destroy -auto-approve`, `terraform destroy`, `terraform -chdir=infra destroy`, `terraform apply -destroy`,
		`terraform apply -auto-approve`, `terraform apply --auto-approve`, `terraform apply plan.out`,
		`terraform apply -replace=aws_instance.x`, `echo yes | terraform apply`, `terraform state rm x`,
		`terraform state mv a b`, `terraform state push s.tfstate`, `terraform import a b`, `terraform taint x`,
		`terraform workspace delete x`, `terraform force-unlock 1`, `tofu destroy`, `tofu apply -auto-approve`,
		`terragrunt destroy`, `terragrunt run-all destroy`, `terragrunt run --all destroy`,
		`pulumi destroy`, `pulumi down -y`, `pulumi up --yes`, `pulumi up -y`, `pulumi update --yes`,
		`pulumi up --skip-preview`, `pulumi stack rm x`, `pulumi state delete urn`, `pulumi watch`,
		`cdk destroy`, `serverless remove`, `sls remove`, `sam delete`,
		// aws: s3's own commands, and the verb table on operation names
		`aws s3 rm s3://b --recursive`, `aws s3 rb s3://b`, `aws s3 mv s3://b/x s3://b/y`,
		`aws s3 sync . s3://b --delete`, `aws --profile p s3 rm s3://b/x`, `aws --region eu-west-1 ec2 terminate-instances --instance-ids i-1`,
		`aws ec2 terminate-instances --instance-ids i-1`, `aws iam delete-user --user-name x`,
		`aws s3api put-bucket-policy --bucket b --policy file://p.json`, `aws s3api put-object --bucket b --key k`,
		`aws dynamodb batch-delete-item --request-items x`, `aws kms schedule-key-deletion --key-id k`,
		`aws ec2 detach-volume --volume-id v`, `aws ecs deregister-task-definition --task-definition x`,
		`aws iam remove-role-from-instance-profile --role-name r`, `aws rds purge-x`, `aws ec2 revoke-security-group-ingress`,
		`aws ssm send-command --document-name x`, `aws ecs execute-command --command sh`, `aws ssm start-session --target i`,
		`aws $svc delete-x`, `aws ec2 $op`,
		// gcloud, gsutil, az, doctl, fly, heroku, vercel, netlify, firebase, wrangler
		`gcloud compute instances delete x`, `gcloud --project p compute instances delete x --quiet`,
		`gcloud beta run services delete x`, `gcloud projects remove-iam-policy-binding p --member m`,
		`gcloud services disable x.googleapis.com`, `gcloud sql backups restore 1 --restore-instance=x`,
		`gcloud storage rm gs://b/x`, `gcloud storage rsync . gs://b --delete-unmatched-destination-objects`,
		`gcloud compute scp x vm:y`,
		`gsutil rm gs://b/x`, `gsutil -m rm -r gs://b`, `gsutil rb gs://b`, `gsutil mv gs://b/x gs://b/y`,
		`gsutil rsync -d . gs://b`, `gsutil -m rsync -r -d . gs://b`, `gsutil rsync -rd . gs://b`,
		`gsutil iam ch -d user:x gs://b`, `gsutil lifecycle set l.json gs://b`,
		`az group delete -n x`, `az storage blob delete-batch -s c`, `az keyvault secret purge --name x`,
		`az rest --method delete --url x`, `az rest -m DELETE --url x`, `az appservice plan delete -n x`,
		`az search service delete -n x`,
		// The rule's cost: any command word counts, a resource's name too.
		`gcloud compute instances describe reset-1`, `az vm run-command invoke -n x`,
		`doctl compute droplet delete x`, `doctl compute droplet rm x`,
		`flyctl destroy x`, `fly apps destroy x`, `fly machine rm x`, `fly secrets unset X`, `fly volumes destroy v`,
		`heroku apps:destroy x`, `heroku destroy`, `heroku pg:reset`, `heroku config:unset X`, `heroku addons:destroy x`,
		`heroku pg:backups:restore b DATABASE_URL`, `heroku run bash`, `heroku pg:psql`, `heroku releases:rollback`,
		`vercel rm x`, `vercel remove x`, `vercel env rm X`, `vercel rollback`,
		`netlify sites:delete x`, `netlify env:unset X`, `netlify api deleteSite --data x`,
		`firebase firestore:delete --all-collections`, `firebase hosting:disable`, `firebase database:remove /x`,
		`firebase database:set /x f.json`, `firebase functions:delete f`, `firebase hosting:channel:delete c`,
		`wrangler delete`, `wrangler kv:key delete k`, `wrangler kv key delete k`, `wrangler r2 bucket delete b`,
		`wrangler d1 execute db --remote --command 'drop table x'`, `wrangler rollback`,
		// databases, object stores, secret stores
		`dropdb app`, `dropdb --if-exists app`, `dropuser bob`, `rclone delete remote:x`, `rclone purge remote:x`,
		`rclone sync . remote:x`, `rclone move a remote:b`, `s3cmd del s3://b/x`, `s3cmd rb s3://b`,
		`s3cmd sync --delete-removed . s3://b`, `vault kv delete secret/x`, `vault kv destroy -versions=1 secret/x`,
		`vault secrets disable kv`, `consul kv delete x`,
		// cloud tools that write ~/.kube/config
		`aws eks update-kubeconfig --name x`, `gcloud container clusters get-credentials x`,
		`az aks get-credentials -n x -g y`, `doctl kubernetes cluster kubeconfig save x`,
		// plugins and credentials in the home, remote shells
		`heroku plugins:install x`, `pulumi plugin install resource aws 6.0.0`, `az extension add -n x`,
		`az extension add --source ./x.whl`, `fly auth docker`, `mosh host`, `autossh -M 0 host`,
		// HTTP clients with the DELETE method
		`curl -X DELETE http://x/y`, `curl --request DELETE http://x/y`, `curl -XDELETE http://x/y`,
		`curl -sX DELETE http://x/y`, `curl -sXDELETE http://x/y`, `curl --request=DELETE http://x`, `curl -X delete http://x`,
		`curl -H 'A: b' -X DELETE http://x`, `curl -H 'X-HTTP-Method-Override: DELETE' -d x http://x`,
		`curl -d _method=delete http://x/1`, `http POST x X-HTTP-Method-Override:DELETE`, `wget --method=DELETE http://x`, `wget --method DELETE http://x`,
		`http DELETE example.org/x`, `https delete example.org/x`, `http --auth u:p DELETE example.org/x`,
		`xh delete example.org/x`, `xh DELETE :8080/x`, `xhs delete example.org/x`, `curlie -X DELETE x`, `curlie delete x`,
		// copies to and from another host run ssh
		`scp host:a .`, `scp a host:b`, `scp user@host:a b`, `scp -P 2222 host:a .`, `scp -r d host:`, `scp scp://host/a .`,
		`scp '[::1]:a' .`, `rsync -a host:x .`, `rsync -a x host:y`, `rsync -a --delete x user@host:y`,
		`rsync -a x host::module/y`, `rsync -a rsync://host/m/x .`,
	}
	clean := []string{
		`kubectl get pods`, `kubectl -n x get pods -o yaml`, `kubectl describe pod x`, `kubectl logs pod`,
		`kubectl logs -f deploy/x`, `kubectl apply -f x.yaml`, `kubectl apply -k .`, `kubectl create ns x`,
		`kubectl diff -f x.yaml`, `kubectl rollout status deploy/x`, `kubectl rollout history deploy/x`,
		`kubectl top pods`, `kubectl explain pod`, `kubectl version`, `kubectl api-resources`, `kubectl auth can-i get pods`,
		`kubectl port-forward svc/x 8080:80`, `kubectl delete pod x --dry-run=client`, `kubectl delete pod x --dry-run=server`,
		`kubectl delete --help`, `kubectl replace -f x.yaml`, `kubectl wait --for=condition=ready pod/x`,
		`kubectl run tmp --rm -i --image=img -- env`, `kubectl get pod delete`, `kubectl set image deploy/x c=img:2`,
		`kubectl set env deploy/x DEBUG=1`, `kubectl label pod x app=y`, `kubectl annotate pod x a=b`, `oc get pods`, `k3s kubectl get pods`,
		`helm list`, `helm ls -A`, `helm status x`, `helm history x`, `helm template x ./chart`, `helm lint ./chart`,
		`helm install x ./chart`, `helm upgrade --install x ./chart`, `helm uninstall x --dry-run`, `helm get values x`,
		`helm show values ./chart`, `helm dependency update ./chart`, `helm --version`, `helm version`,
		`terraform plan`, `terraform plan -destroy`, `terraform init`, `terraform validate`, `terraform fmt -recursive`,
		`terraform show`, `terraform output`, `terraform state list`, `terraform state show x`, `terraform apply`,
		`terraform workspace list`, `terraform workspace select x`, `terraform -chdir=infra plan`, `terraform providers`,
		`tofu plan`, `terragrunt plan`, `terragrunt run-all plan`, `pulumi preview`, `pulumi up`, `pulumi stack ls`,
		`pulumi stack output`, `heroku plugins`, `pulumi plugin ls`, `az extension list`, `cdk diff`, `cdk synth`,
		`aws s3 ls`, `aws s3 ls s3://b`, `aws s3 cp x s3://b/x`, `aws s3 sync . s3://b`, `aws ec2 describe-instances`,
		`aws sts get-caller-identity`, `aws --region eu-west-1 ec2 describe-instances`, `aws s3api list-objects --bucket b`,
		`aws s3 rm s3://b/x --dryrun`, `aws logs tail /x --follow`, `aws lambda invoke --function-name f out.json`,
		`aws ec2 describe-deleted-x`, `aws --version`,
		`gcloud compute instances list`, `gcloud compute instances describe x`, `gcloud run services list`,
		`gcloud config list`, `gcloud storage ls gs://b`, `gcloud storage cp x gs://b`, `gcloud logging read x`,
		`gsutil ls`, `gsutil cp x gs://b`, `gsutil rsync -r . gs://b`, `gsutil cat gs://b/x`, `gsutil iam get gs://b`,
		`az vm list`, `az group show -n x`, `az account show`, `az rest --method get --url x`, `az rest --url x`,
		`doctl compute droplet list`, `fly status`, `fly logs`, `fly deploy`, `flyctl apps list`,
		`heroku apps`, `heroku logs --tail`, `heroku ps`, `heroku config`, `heroku pg:info`,
		`vercel`, `vercel --prod`, `vercel ls`, `vercel env ls`, `netlify deploy --prod`, `netlify status`,
		`netlify api listSites`, `firebase deploy`, `firebase projects:list`, `firebase emulators:start`,
		`wrangler deploy`, `wrangler dev`, `wrangler tail`, `wrangler d1 execute db --command 'select 1'`,
		`wrangler d1 execute db --local --command 'drop table x'`, `rclone ls remote:x`, `rclone lsd remote:`,
		`rclone sync . remote:x --dry-run`, `s3cmd ls s3://b`, `vault kv get secret/x`, `consul kv get x`,
		`curl http://x`, `curl -X POST -d a=b http://localhost:8080/x`, `curl -d a=b http://localhost:8080/x`,
		`curl -X PUT http://localhost:8080/x`, `curl -sS -X GET http://x`, `curl -I http://x`, `curl -H 'X-Op: DELETE' http://x`,
		`wget -q http://x/y`, `http POST :8080/x a=b`, `http :8080/x`, `http example.org/delete`, `xh :8080/x`,
		`xh post :8080/x a=b`, `curlie :8080/x`,
		`scp a b`, `scp ./host:a b`, `scp /x:y b`, `rsync -a x y`, `rsync -a ./host:x y`,
		`gh issue create --title "kubectl delete ns prod" --body x`, `git commit -m "terraform destroy"`,
		`echo kubectl delete ns x`, `grep -r 'curl -X DELETE' .`,
	}
	checkRT57Lines(t, opaque, clean)
}
