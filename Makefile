# Transmute: one entry point for developers and CI. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# No prompts, no signature checks the npm mirror cannot satisfy, no telemetry
# or update checks from any tool we run.
export COREPACK_INTEGRITY_KEYS := 0
export COREPACK_ENABLE_DOWNLOAD_PROMPT := 0
export NEXT_TELEMETRY_DISABLED := 1
export DO_NOT_TRACK := 1
export NPM_CONFIG_UPDATE_NOTIFIER := false
export CHECKPOINT_DISABLE := 1
# Use the Go that is installed; never fetch a newer toolchain.
export GOTOOLCHAIN := local

PNPM := pnpm

.PHONY: help tools test-tools install build up lint test test-cluster clean images images-smoke test-containers cluster cluster-load cluster-smoke cluster-down

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "} {printf "  %-15s %s\n", $$1, $$2}'

tools: ## Install what the platform needs (nats-server, ferretdb, engines); check node 20, go and pnpm
	bash libs/devstack/bin/install-tools.sh platform

test-tools: ## Also install what only the tests use (MinIO, fake-gcs-server, helm, kube-score, sshd, schemathesis ...)
	bash libs/devstack/bin/install-tools.sh test

install: tools ## Install JavaScript dependencies exactly as locked
	@if [[ -f pnpm-lock.yaml ]]; then $(PNPM) install --frozen-lockfile; else $(PNPM) install; fi

build: install ## Generate contracts and compile every package (tsc -b)
	$(PNPM) build

lint: build ## ESLint (typescript-eslint, the walls between packages) and prettier --check
	$(PNPM) lint

# Not `pnpm up`: that is pnpm's dependency-update command.
up: build ## Run NATS, FerretDB and every service locally; prints the URL and a dev API key (Ctrl-C stops)
	node libs/devstack/dist/cli/up.js

# Checks other than jest that make test runs first, each counted in its closing
# line; a failed one fails the run.
TEST_CHECKS := --check 'lint=$(PNPM) lint' --check 'typecheck=$(PNPM) typecheck' --check 'readme-variables=node libs/devstack/dist/cli/check-env-docs.js'

test: build test-tools ## Lint (ESLint, Prettier), type-check the tests too, then the unit, integration and e2e tests (jest); ends with "N passed, N failed"
	node libs/devstack/dist/cli/run-tests.js $(TEST_CHECKS) -- --selectProjects unit integration e2e

test-cluster: build test-tools cluster-load ## Load the images of `make images` into the cluster of `make cluster`, install the chart and run the flows, faults and scaling on it; ends with "N passed, N failed"
	node libs/devstack/dist/cli/run-tests.js -- --selectProjects cluster --runInBand

# Which images: all of them, or ONLY=gateway,nats,... (names as in transmute/<name>).
IMAGES_ONLY := $(if $(ONLY),--only $(ONLY))

images: build ## Build every image with podman (skaffold.yaml's, NATS, FerretDB, MinIO, test-helper) on a Debian base made here; ONLY=a,b for some
	bash libs/devstack/bin/install-tools.sh images
	node libs/devstack/dist/cli/images.js $(IMAGES_ONLY)

images-smoke: build ## Start each built image once as the chart runs it and wait until it is ready; ends with "N passed, N failed"
	node libs/devstack/dist/cli/images-smoke.js $(IMAGES_ONLY)

# Jest arguments of test-containers, e.g. TESTS='libs/messaging'.
test-containers: build ## Integration and e2e tests with TEST_INFRA=containers: NATS and FerretDB from make images, through podman's Docker API
	node libs/devstack/dist/cli/test-containers.js $(if $(TESTS),-- $(TESTS))

clean: ## Remove build output (keeps .tools and the local platform state in .transmute)
	rm -rf libs/*/dist services/*/dist e2e/dist coverage
	find libs services e2e -maxdepth 2 -name '*.tsbuildinfo' -not -path '*/node_modules/*' -delete 2>/dev/null || true

# A real single-node Kubernetes on this machine (libs/devstack/cluster/README.md).
cluster: ## Start a single-node Kubernetes v1.34.4 here (built from the Go module proxy, cached); prints its KUBECONFIG
	bash libs/devstack/cluster/up.sh

cluster-load: ## Copy podman's transmute/* images (or IMAGES="...") into the cluster's containerd
	bash libs/devstack/cluster/load.sh $(IMAGES)

cluster-smoke: ## Check the running cluster (load, Service, DNS, RWO volume, KEDA, version); ends with "N passed, N failed"
	bash libs/devstack/cluster/smoke.sh

cluster-down: ## Stop the cluster and remove its pods, mounts, network and state (keeps the build cache)
	bash libs/devstack/cluster/down.sh
