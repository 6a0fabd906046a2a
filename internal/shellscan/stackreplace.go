package shellscan

// CloudFormation updates a stack to its template: each resource the
// template no longer names is deleted, with what it holds (a DynamoDB
// table, a bucket, a database) unless the template set a retain policy
// for it, and a replaced resource is deleted after its new copy is made.
// The template in the workdir records what the stack holds, not what its
// resources hold, so an update without a confirmation is opaque as
// kubectl apply --prune and terraform apply -auto-approve are (gate63):
// aws cloudformation deploy (but --no-execute-changeset), update-stack,
// execute-change-set, update-stack-set, and the tools that deploy
// through it without asking: cdk deploy and watch, sam deploy (but
// --no-execute-changeset, and --confirm-changeset without a standard
// input to confirm it) and sync, serverless deploy (but of a function's
// code alone). Creating a stack or a change set stays allowed, as do the
// deployments that replace code or a revision the workdir records and
// delete no resource: aws lambda update-function-code, gcloud run deploy
// (which keeps the earlier revisions), fly deploy, kubectl apply.

// stackReplace returns why name args updates a CloudFormation stack
// without a confirmation, or "". stdinFed tells whether the line gives
// the command a standard input.
func stackReplace(name string, args []word, stdinFed bool) string {
	why := name + " updates a CloudFormation stack to its template, which deletes each resource the template no longer names with what it holds"
	switch name {
	case "aws":
		at, unknown := awsGlobals.get().commands("aws", args, 2)
		if unknown != "" || len(at) < 2 || args[at[0]].text != "cloudformation" {
			return "" // awsRemote judges words and options the analysis does not know
		}
		switch op := args[at[1]].text; op {
		case "deploy":
			if !hasAny(args, "--no-execute-changeset") {
				return "aws cloudformation deploy" + why[len(name):]
			}
		case "update-stack", "execute-change-set", "update-stack-set":
			return "aws cloudformation " + op + why[len(name):]
		}
		return ""
	case "cdk", "sam", "serverless", "sls":
	default:
		return ""
	}
	ops := operandsSkipping(args, verbCLIs.get()[name])
	if len(ops) == 0 || hasAny(args, "--help", "-h") {
		return ""
	}
	sub, second := ops[0].text, ""
	if len(ops) > 1 {
		second = ops[1].text
	}
	switch {
	case name == "cdk" && (sub == "deploy" || sub == "watch"):
		if sub == "deploy" && (hasAny(args, "--no-execute", "--execute=false", "--method=prepare-change-set") ||
			httpMethod(args, "--method", "-m") == "prepare-change-set") {
			return ""
		}
		return "cdk " + sub + why[len(name):]
	case name == "sam" && sub == "sync":
		return "sam sync" + why[len(name):]
	case name == "sam" && sub == "deploy":
		if hasAny(args, "--no-execute-changeset") ||
			hasAny(args, "--confirm-changeset") && !hasAny(args, "--no-confirm-changeset") && !stdinFed {
			return ""
		}
		return "sam deploy" + why[len(name):]
	case (name == "serverless" || name == "sls") && sub == "deploy":
		if second == "function" || second == "list" {
			return ""
		}
		return name + " deploy" + why[len(name):]
	}
	return ""
}
