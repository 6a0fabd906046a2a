//go:build linux

package permission_test

import "testing"

// canaryRound40Containers are lines that run or build containers: a
// compose file, a Dockerfile or the options bind-mount any host path (a
// protected one included) and run any program there as root. There is no
// container daemon in the fixture, so these are decided, not run: both
// scenarios must refuse each.
var canaryRound40Containers = []string{
	`docker compose up`,
	`docker compose -f x.yml up -d`,
	`docker-compose up`,
	`podman-compose up`,
	`printf 'services: {x: {image: alpine, volumes: ["/:/h"]}}' > compose.yml && docker compose up`,
	`podman run --rm -v "$HOME":/h alpine sh -c 'echo x >> /h/.bashrc'`,
	`docker run --rm -v .git:/g alpine sh -c 'echo x > /g/config'`,
	`nerdctl run --privileged alpine`,
	`docker build .`,
	`docker buildx build -o type=local,dest=.git/hooks .`,
	`docker container run alpine`,
	`docker exec web sh`,
	`docker start web`,
	`docker --config cfg ps`,
	`buildah bud .`,
	`apptainer exec x.sif sh -c 'echo x >> ~/.bashrc'`,
	`distrobox enter x -- sh`,
}

// canaryRound40ContainersOrdinary are container lines that only show
// state: "allow bash" must still allow them.
var canaryRound40ContainersOrdinary = []string{
	`docker ps`, `docker ps -a --format '{{.Names}}'`, `docker images`, `docker logs -f web`, `docker inspect web`,
	`docker version`, `docker compose ps`, `docker compose -f x.yml logs web`, `podman ps -a`, `docker container ls`,
	`docker image ls`, `docker-compose ps`,
}

func TestCanaryRound40Containers(t *testing.T) {
	root := canaryFixture(t, canaryTemplate(t))
	for _, line := range canaryRound40Containers {
		refusedEverywhere(t, root, line)
	}
	g := canaryGate(t, root, canaryAllowBashRules)
	for _, line := range canaryRound40ContainersOrdinary {
		if out := authorize(t, g, line); !out.Run {
			t.Errorf("ordinary line %q was refused: %+v", line, out.Verdict)
		}
	}
}
