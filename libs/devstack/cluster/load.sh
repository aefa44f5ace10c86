#!/usr/bin/env bash
# `make cluster-load [IMAGES="..."]`: copies images from podman's local storage
# into the node's containerd (namespace k8s.io), so pods run them with no
# registry. Without arguments: every localhost/transmute/* (and
# docker.io/transmute/*) image.
#
# podman keeps `transmute/gateway:0.1.0` as `localhost/transmute/gateway:0.1.0`,
# while a pod asking for `transmute/gateway:0.1.0` gets containerd's normal
# form `docker.io/transmute/gateway:0.1.0`. Each localhost/ image is therefore
# also tagged under its docker.io/ name, so the chart's plain names resolve.
# Pods must not try to pull them (imagePullPolicy IfNotPresent or Never, or a
# tag other than latest).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ctr_k8s() {
  ctr --address "${containerd_socket}" -n k8s.io "$@"
}

# podman names a locally built `transmute/x` either localhost/transmute/x or,
# when tagged with the full name, docker.io/transmute/x: both are Transmute's.
default_images() {
  podman images --noheading --format '{{.Repository}}:{{.Tag}}' | grep -E '^(localhost|docker\.io)/transmute/' | sort -u || true
}

# The name podman knows the image by (it resolves short names itself).
podman_name() {
  local wanted="$1" name
  name="$(podman image inspect --format '{{index .RepoTags 0}}' "${wanted}" 2>/dev/null)" \
    || fail "no image ${wanted} in podman's local storage (podman images lists them; build it first)"
  # RepoTags[0] may be another name of the same image; keep the one asked for
  # when podman knows it under that full name.
  if podman image inspect --format '{{join .RepoTags " "}}' "${wanted}" | tr ' ' '\n' | grep -qxF "${wanted}"; then
    name="${wanted}"
  elif [[ "${wanted}" != */*/* && "${wanted}" != localhost/* ]] \
    && podman image inspect --format '{{join .RepoTags " "}}' "${wanted}" | tr ' ' '\n' | grep -qxF "localhost/${wanted}"; then
    name="localhost/${wanted}"
  fi
  echo "${name}"
}

load_image() {
  local name archive id stamp
  name="$(podman_name "$1")"
  # An image already loaded with the same id is skipped: converter images are
  # about a gigabyte each, and `make test-cluster` loads before every run.
  id="$(podman image inspect --format '{{.Id}}' "${name}")"
  stamp="${state_dir}/loaded/${name//\//_}"
  if [[ -f "${stamp}" && "$(cat "${stamp}")" == "${id}" ]] && image_complete "${name}"; then
    echo "kept ${name} (loaded already)"
    return
  fi
  forget_image "${name}"
  archive="$(mktemp "${state_dir}/load.XXXXXX.tar")"
  podman save --quiet --format docker-archive -o "${archive}" "${name}" \
    || { rm -f "${archive}"; fail "podman save ${name} failed"; }
  ctr_k8s images import "${archive}" >/dev/null || { rm -f "${archive}"; fail "importing ${name} into containerd failed"; }
  rm -f "${archive}"
  mkdir -p "${state_dir}/loaded" && echo "${id}" >"${stamp}"
  if [[ "${name}" == localhost/* ]]; then
    ctr_k8s images tag --force "${name}" "docker.io/${name#localhost/}" >/dev/null
    echo "loaded ${name} (also as docker.io/${name#localhost/})"
  else
    echo "loaded ${name}"
  fi
}

main() {
  require_root
  command -v podman >/dev/null 2>&1 || fail "podman is missing: apt-get install podman"
  process_alive containerd || fail "the cluster is not running: make cluster"
  local images=("$@")
  if ((${#images[@]} == 0)); then
    mapfile -t images < <(default_images)
    ((${#images[@]} > 0)) || fail "podman has no localhost/transmute/* image; build them first or name some: make cluster-load IMAGES=\"...\""
  fi
  local image
  forget_missing_blobs
  for image in "${images[@]}"; do
    load_image "${image}"
  done
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  main "$@"
fi
