package shellscan

import (
	"slices"
	"strings"
	"testing"
)

// Round 40: a container engine's run, build and compose subcommands run
// what a compose file, a Dockerfile or the options say, with any host
// path mounted: opaque; the subcommands that only show state are not.
func TestContainerEngines(t *testing.T) {
	for _, line := range []string{
		"docker compose up", "docker compose -f x.yml up", "docker compose --profile=rm up -d", "docker-compose up -d",
		"podman-compose up", "docker compose run web sh", "docker compose exec web sh", "docker compose build",
		"podman run --rm -v /:/h alpine sh", "docker run alpine", "docker run --rm img env", "nerdctl run alpine",
		"docker build .", "docker buildx build -o type=local,dest=/tmp/x .", "docker buildx bake", "docker exec x sh",
		"docker start x", "docker container run alpine", "docker container start x", "docker image build .",
		"docker cp x:/a b", "docker --config ./cfg ps", "docker -H unix:///x run alpine", "podman unshare rm -f c",
		"podman machine start", "podman kube play x.yml", "podman play kube x.yml", "buildah bud .", "buildah run x sh",
		"finch run alpine", "docker $cmd", "docker compose $cmd", "docker -D run alpine", "docker compose -f x.yml config",
		"apptainer exec x.sif ls", "singularity run x.sif", "distrobox enter x", "systemd-nspawn -D r", "runc run x",
		"ctr run img x", "docker plugin install x", "podman-remote run alpine", "docker load -i x.tar",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{
		"docker ps", "docker ps -a", `docker ps --format '{{.Names}} {{.Status}}'`, "docker images", "docker version",
		"docker --version", "docker info", "docker logs -f web", "docker inspect x", "docker container ls -a",
		"docker image ls", "docker image inspect x", "docker network ls", "docker volume ls", "docker system df",
		"docker compose ps", "docker compose -f x.yml ps", "docker compose --profile=rm ps", "docker compose logs web",
		"docker-compose ps", "podman-compose logs", "podman ps -a", "podman images", "podman pod ps", "nerdctl ps",
		"docker -H unix:///var/run/docker.sock ps", "docker pull ghcr.io/x/y:latest", "docker --context=prod ps", "buildah images", "docker",
		"helm install docker ./chart", "kubectl create namespace docker",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
	// What the container seems to run still meets deny rules.
	a := analyzeBash("docker run alpine rm -rf /h", "/home/u", "/w")
	if !slices.ContainsFunc(a.units, func(u unit) bool { return u.wrapper && strings.HasPrefix(u.text, "rm -rf") }) {
		t.Errorf("docker run alpine rm: no unit rm for deny rules in %+v", a.units)
	}
}
