#!/usr/bin/env bash
# Builds every binary of the local cluster from the Go module proxy into the
# cache (<cache>/bin/<binary>@<key>) and links them into <state>/bin. A binary
# already cached under the same key is reused: the key is the pinned version
# plus a hash of the wrapper module (go.mod, go.sum), so a changed pin rebuilds.
#
#   build.sh     build what is missing, link all (quiet when all are cached)
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

export GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:--buildvcs=false}" CGO_ENABLED=0
modules_dir="${cluster_dir}/modules"

require_go() {
  command -v go >/dev/null 2>&1 || fail "go is missing: install Go >= 1.26 (https://go.dev/dl/); the cluster is built from the Go module proxy"
}

# check_pin <module dir> <module path> <pinned version>: the wrapper module
# must build the version versions.sh names.
check_pin() {
  local dir="$1" module="$2" pinned="$3" actual
  actual="$(cd "${modules_dir}/${dir}" && go list -m -f '{{.Version}}' "${module}")"
  [[ "${actual}" == "${pinned}" ]] \
    || fail "modules/${dir}/go.mod builds ${module} ${actual} but versions.sh pins ${pinned}: run 'go get ${module}@${pinned} && go mod tidy' in libs/devstack/cluster/modules/${dir}"
}

module_key() {
  local dir="$1" version="$2"
  echo "${version}-$(cat "${modules_dir}/${dir}/go.mod" "${modules_dir}/${dir}/go.sum" | sha256sum | cut -c1-12)"
}

all_cached() {
  local key="$1" binary
  shift
  for binary in "$@"; do
    [[ -x "$(cached_binary "${binary}" "${key}")" ]] || return 1
  done
}

# build_module <module dir> <key> <ldflags> <binary>=<package>...: one
# `go build` for all the module's binaries (they share most packages), then
# each is moved into the cache atomically (two clones building at once each
# get a whole binary).
build_module() {
  local dir="$1" key="$2" ldflags="$3"
  shift 3
  local binaries=() packages=() pair
  for pair in "$@"; do
    binaries+=("${pair%%=*}")
    packages+=("${pair#*=}")
  done
  if all_cached "${key}" "${binaries[@]}"; then
    return
  fi
  note "building ${binaries[*]} (${key}) once into ${cache_bin} ..."
  mkdir -p "${cache_bin}"
  local scratch i
  scratch="$(mktemp -d "${cache_bin}/.build-${dir}.XXXXXX")"
  for i in "${!packages[@]}"; do
    (cd "${modules_dir}/${dir}" && go build -trimpath -ldflags "-s -w ${ldflags}" -o "${scratch}/${binaries[i]}" "${packages[i]}") \
      || { rm -rf "${scratch}"; fail "building ${binaries[i]} from ${packages[i]} failed (see above)"; }
  done
  for binary in "${binaries[@]}"; do
    mv -f "${scratch}/${binary}" "$(cached_binary "${binary}" "${key}")"
  done
  rm -rf "${scratch}"
}

# Without these the binaries report v0.0.0-master and version checks (Helm's
# kubeVersion among them) fail; the same variables hack/lib/version.sh sets.
kubernetes_ldflags() {
  local minor flags=() pkg
  minor="$(cut -d. -f2 <<<"${KUBERNETES_VERSION}")"
  for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
    flags+=("-X ${pkg}.gitVersion=${KUBERNETES_VERSION}" "-X ${pkg}.gitMajor=1" "-X ${pkg}.gitMinor=${minor}"
      "-X ${pkg}.gitTreeState=archive" "-X ${pkg}.buildDate=1970-01-01T00:00:00Z")
  done
  echo "${flags[*]}"
}

kubernetes_binaries=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)

build_kubernetes() {
  check_pin kubernetes k8s.io/kubernetes "${KUBERNETES_VERSION}"
  local key pairs=() binary
  key="$(module_key kubernetes "${KUBERNETES_VERSION}")"
  for binary in "${kubernetes_binaries[@]}"; do
    pairs+=("${binary}=k8s.io/kubernetes/cmd/${binary}")
  done
  build_module kubernetes "${key}" "$(kubernetes_ldflags)" "${pairs[@]}"
  link_binaries "${key}" "${kubernetes_binaries[@]}"
}

build_etcd() {
  check_pin etcd go.etcd.io/etcd/server/v3 "${ETCD_VERSION}"
  local key
  key="$(module_key etcd "${ETCD_VERSION}")"
  build_module etcd "${key}" "" etcd=go.etcd.io/etcd/server/v3
  link_binaries "${key}" etcd
}

# Binaries that only go into images (images.sh) are cached but not linked.
build_coredns() {
  check_pin coredns github.com/coredns/coredns "${COREDNS_VERSION}"
  build_module coredns "$(module_key coredns "${COREDNS_VERSION}")" "" coredns=github.com/coredns/coredns
}

build_local_path_provisioner() {
  check_pin local-path-provisioner github.com/rancher/local-path-provisioner "${LOCAL_PATH_VERSION}"
  build_module local-path-provisioner "$(module_key local-path-provisioner "${LOCAL_PATH_VERSION}")" \
    "-X main.VERSION=${LOCAL_PATH_VERSION}" local-path-provisioner=github.com/rancher/local-path-provisioner
}

build_keda() {
  check_pin keda github.com/kedacore/keda/v2 "${KEDA_VERSION}"
  build_module keda "$(module_key keda "${KEDA_VERSION}")" "-X github.com/kedacore/keda/v2/version.Version=${KEDA_VERSION}" \
    keda=github.com/kedacore/keda/v2/cmd/operator keda-adapter=github.com/kedacore/keda/v2/cmd/adapter
}

# The pause container: pause.c from the kubernetes module, compiled statically.
build_pause() {
  local key="${PAUSE_VERSION}-${KUBERNETES_VERSION}"
  all_cached "${key}" pause && return
  command -v gcc >/dev/null 2>&1 || fail "gcc is missing: apt-get install gcc libc6-dev (it compiles the pause container)"
  local source
  source="$(cd "${modules_dir}/kubernetes" && go list -m -f '{{.Dir}}' k8s.io/kubernetes)/build/pause/linux/pause.c"
  [[ -f "${source}" ]] || fail "pause.c not found at ${source}: run 'go mod download' in libs/devstack/cluster/modules/kubernetes"
  mkdir -p "${cache_bin}"
  local scratch
  scratch="$(mktemp -d "${cache_bin}/.build-pause.XXXXXX")"
  gcc -Os -Wall -Werror -static -DVERSION="v${PAUSE_VERSION}" -o "${scratch}/pause" "${source}"
  strip "${scratch}/pause"
  mv -f "${scratch}/pause" "$(cached_binary pause "${key}")"
  rm -rf "${scratch}"
}

link_binaries() {
  local key="$1" binary
  shift
  mkdir -p "${bin_dir}"
  for binary in "$@"; do
    ln -sfn "$(cached_binary "${binary}" "${key}")" "${bin_dir}/${binary}"
  done
}

# Prints the cached path of an image binary (for images.sh).
binary_path() {
  case "$1" in
    coredns) cached_binary coredns "$(module_key coredns "${COREDNS_VERSION}")" ;;
    local-path-provisioner) cached_binary local-path-provisioner "$(module_key local-path-provisioner "${LOCAL_PATH_VERSION}")" ;;
    keda | keda-adapter) cached_binary "$1" "$(module_key keda "${KEDA_VERSION}")" ;;
    pause) cached_binary pause "${PAUSE_VERSION}-${KUBERNETES_VERSION}" ;;
    *) fail "no image binary named $1" ;;
  esac
}

main() {
  require_go
  build_kubernetes
  build_etcd
  build_pause
  build_coredns
  build_local_path_provisioner
  build_keda
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  case "${1:-all}" in
    all) main ;;
    binary-path) binary_path "$2" ;;
    *) fail "usage: build.sh [all | binary-path <name>]" ;;
  esac
fi
