# Every Transmute image, from one build stage: SERVICE names the package under
# services/, the target names the runtime. The build context is the
# repository root (the whole pnpm workspace).
#
#   docker build --target service   --build-arg SERVICE=catalogue --build-arg HTTP_PORT=8085 -t transmute/catalogue .
#   docker build --target gateway   --build-arg SERVICE=gateway -t transmute/gateway .
#   docker build --target converter --build-arg SERVICE=converter --build-arg FAMILY=image -t transmute/converter-image .
#
# skaffold.yaml lists every image with its target and arguments. How the images
# are built, and why this way: docs/containers.md.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------
# build: install the workspace from the lockfile, compile, deploy one package
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    DO_NOT_TRACK=1
WORKDIR /repo

# Two settings for registries behind a mirror; neither is needed with the
# public npm registry, and neither reaches the runtime images:
# - NODE_EXTRA_CA_CERTS: a CA bundle to trust besides node's own, for a
#   registry reached through a TLS-intercepting proxy. A path inside the
#   build container: mount the file at build time, e.g. podman build
#   --volume /etc/ssl/certs/ca-certificates.crt:/run/extra-ca.crt:ro
#   --build-arg NODE_EXTRA_CA_CERTS=/run/extra-ca.crt
# - COREPACK_VERIFY_SIGNATURE: corepack checks pnpm's signature against the
#   npm registry's keys; a mirror that strips signatures fails that check
#   ("No compatible signature found"). `false` skips it there.
ARG NODE_EXTRA_CA_CERTS
ARG COREPACK_VERIFY_SIGNATURE=true

# pnpm at the version pinned by `packageManager` in package.json.
COPY package.json ./
RUN case "${COREPACK_VERIFY_SIGNATURE}" in \
      true) ;; \
      false) export COREPACK_INTEGRITY_KEYS=0 ;; \
      *) echo "COREPACK_VERIFY_SIGNATURE must be true or false (got '${COREPACK_VERIFY_SIGNATURE}')" >&2; exit 1 ;; \
    esac \
 && corepack enable pnpm && corepack install

# Every package in the lockfile, into pnpm's store. This layer and the ones
# above are shared by all the images and are rebuilt only when the root
# package.json, the lockfile or the pnpm settings change.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
# Local fixes to dependencies (package.json's pnpm.patchedDependencies), applied when they are linked.
COPY patches/ patches/
RUN pnpm fetch

# The sources (filtered by /.dockerignore), linked from the store offline.
COPY . .
RUN pnpm install --frozen-lockfile --offline

# The protobuf types: the last layer every image shares. Separate RUNs on
# purpose, so each is cached once for all images (hadolint DL3059 would merge
# them).
# hadolint ignore=DL3059
RUN pnpm run gen:proto

# From here on, one service: SERVICE is declared late so that every layer
# above stays shared. Then the service and the libraries it references
# (`tsc -b` follows the project references in its tsconfig.json).
ARG SERVICE
RUN if [ -z "${SERVICE}" ] || [ ! -f "services/${SERVICE}/src/main.ts" ]; then \
      echo "SERVICE must name a service under services/ (got '${SERVICE}')" >&2; exit 1; \
    fi \
 && pnpm exec tsc -b "services/${SERVICE}"

# A self-contained copy of the service in /out: its files, its production
# dependencies, and the workspace libraries it uses, copied (not linked) into
# /out/node_modules. `--legacy` because the workspace does not set
# inject-workspace-packages; see docs/containers.md. Then fail the build unless
# the service's dist/ and every library's dist/ arrived complete (a `files`
# field or an ignore file in a package could leave compiled code out).
RUN pnpm --filter "@transmute/${SERVICE}" --prod deploy --legacy /out \
 && diff -r "services/${SERVICE}/dist" /out/dist \
 && for lib in /out/node_modules/.pnpm/node_modules/@transmute/*; do \
      name="${lib##*/}"; \
      [ "$name" = "${SERVICE}" ] || diff -r "libs/$name/dist" "$lib/dist" || exit 1; \
    done

# The gateway also serves the website (static files, Vite) and ships the
# operators' CLI (its package's bin, made executable here).
FROM build AS gateway-build
ARG SERVICE
RUN [ "${SERVICE}" = gateway ] || { echo "the gateway target needs SERVICE=gateway (got '${SERVICE}')" >&2; exit 1; } \
 && pnpm --filter @transmute/website build \
 && chmod 0755 /out/dist/admin/main.js \
 && cp -r services/website/dist /out/website

# ---------------------------------------------------------------------------
# node-runtime: node and a non-root user, nothing else
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS node-runtime

# No package managers at run time (smaller attack surface); node stays.
# A non-root user with a fixed uid/gid; its home is /tmp, the only place the
# service writes (the root file system may be mounted read-only).
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx \
      /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
 && groupadd --gid 10001 transmute \
 && useradd --uid 10001 --gid 10001 --home-dir /tmp --no-create-home --no-log-init \
      --shell /usr/sbin/nologin transmute

ENV NODE_ENV=production \
    TRANSMUTE_HTTP_HOST=0.0.0.0 \
    TRANSMUTE_WORK_DIR=/tmp/work
WORKDIR /app

# ---------------------------------------------------------------------------
# service: job-orchestrator, importer, exporter, webhook-dispatcher,
# catalogue, mcp (SERVICE and its HTTP_PORT)
# ---------------------------------------------------------------------------
FROM node-runtime AS service
ARG SERVICE
ARG HTTP_PORT
RUN case "${SERVICE}" in gateway|converter) echo "${SERVICE} has a target of its own: --target ${SERVICE}" >&2; exit 1;; esac \
 && [ -n "${HTTP_PORT}" ] || { echo "the service target needs HTTP_PORT (see skaffold.yaml)" >&2; exit 1; }
ENV TRANSMUTE_HTTP_PORT=${HTTP_PORT}
COPY --from=build /out/ ./
USER 10001:10001
EXPOSE ${HTTP_PORT}
ENTRYPOINT ["node", "dist/main.js"]

# ---------------------------------------------------------------------------
# gateway: the service, the website, and `transmute-admin` on the PATH
# (kubectl exec ... -- transmute-admin reads the gateway's own environment)
# ---------------------------------------------------------------------------
FROM node-runtime AS gateway
RUN ln -s /app/dist/admin/main.js /usr/local/bin/transmute-admin
ENV TRANSMUTE_HTTP_PORT=8080 \
    TRANSMUTE_WEBSITE_DIR=/app/website
COPY --from=gateway-build /out/ ./
USER 10001:10001
EXPOSE 8080
ENTRYPOINT ["node", "dist/main.js"]

# ---------------------------------------------------------------------------
# converter: one image per format family (FAMILY), with that family's
# engines and nothing else, so the image family never carries LibreOffice.
# The Debian packages of each family are listed in
# services/converter/docker/packages/<family>.txt; an unknown family fails
# the build. tini runs as PID 1 and reaps the orphans of engines that fork
# (LibreOffice, calibre).
# ---------------------------------------------------------------------------
FROM node-runtime AS converter
ARG SERVICE
ARG FAMILY=image
# PIP_CERT: like NODE_EXTRA_CA_CERTS above, a CA bundle mounted at build
# time for PyPI behind a TLS-intercepting proxy (the <family>.pip.txt
# engines); pip reads it from the environment of this RUN only.
ARG PIP_CERT
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN [ "${SERVICE}" = converter ] || { echo "the converter target needs SERVICE=converter (got '${SERVICE}')" >&2; exit 1; }
COPY services/converter/docker/packages/ /tmp/packages/
# Versions are not pinned: the base image (pin it by digest with NODE_IMAGE)
# fixes the Debian release, and its security updates should land on rebuild.
# pip versions are pinned in <family>.pip.txt, which hadolint cannot read.
# hadolint ignore=DL3008,DL3013
RUN list="/tmp/packages/${FAMILY}.txt"; \
    if [ ! -f "$list" ]; then \
      echo "unknown converter family '${FAMILY}' (see services/converter/docker/packages)" >&2; exit 1; \
    fi; \
    apt-get update \
 && grep -vE '^[[:space:]]*(#|$)' "$list" | xargs apt-get install -y --no-install-recommends tini \
 && { [ ! -f "/tmp/packages/${FAMILY}.pip.txt" ] \
      || grep -vE '^[[:space:]]*(#|$)' "/tmp/packages/${FAMILY}.pip.txt" | xargs /usr/bin/python3 -m pip install --no-cache-dir --no-deps --break-system-packages; } \
 && rm -rf /var/lib/apt/lists/* /tmp/packages
# MALLOC_MMAP_THRESHOLD_: large engine buffers go back to the system after
# each conversion instead of staying in the heap (docs/decisions.md; the
# same value as CONVERTER_ALLOCATOR_ENV in libs/devstack).
ENV TRANSMUTE_HTTP_PORT=8090 \
    TRANSMUTE_CONVERTER_FAMILY=$FAMILY \
    MALLOC_MMAP_THRESHOLD_=131072
COPY --from=build /out/ ./
USER 10001:10001
EXPOSE 8090
ENTRYPOINT ["tini", "--", "node", "dist/main.js"]
