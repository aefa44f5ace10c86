# Shared by the cluster scripts: where things live, the cluster's addresses and
# small helpers. Sourced, never run.
# shellcheck shell=bash disable=SC2034

cluster_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${cluster_dir}/../../.." && pwd)"
# shellcheck source=versions.sh
source "${cluster_dir}/versions.sh"

# Built binaries and images, outside the checkout and keyed by version, so a
# second clone or a second run reuses them.
cache_dir="${TRANSMUTE_CLUSTER_CACHE:-${XDG_CACHE_HOME:-${HOME}/.cache}/transmute/cluster}"
cache_bin="${cache_dir}/bin"
cache_images="${cache_dir}/images"

# Everything a running cluster owns on disk: pid files, logs, certificates,
# kubeconfigs, etcd's data, containerd's images, the kubelet's pods. Git-ignored
# (.transmute/) and removed whole by `make cluster-down`.
state_dir="${TRANSMUTE_CLUSTER_STATE:-${repo_root}/.transmute/cluster}"
pid_dir="${state_dir}/run"
log_dir="${state_dir}/logs"
pki_dir="${state_dir}/pki"
config_dir="${state_dir}/config"
bin_dir="${state_dir}/bin"
kubeconfig="${state_dir}/kubeconfig"
# Sockets sit under /run: containerd's must stay short (unix socket paths are
# limited to 108 bytes) and the machine has one cluster at a time.
run_dir="/run/transmute-cluster"
containerd_socket="${run_dir}/containerd.sock"
owner_file="${run_dir}/owner"

# Addresses. The node IP is the gateway address of the pods' bridge, which
# network.sh creates before anything starts: pods reach it on their own link,
# the host reaches it locally, and nothing outside the machine routes to it (an
# INPUT guard drops it on any other interface anyway). The machine's kernel has
# no dummy interfaces ("Unknown device type"), so the bridge is the one local-only
# interface available. The service range is routed onto the bridge too, so a
# packet to an unused ClusterIP dies there instead of leaving through the
# default route.
bridge_interface="tmbr0"
node_name="transmute-node"
node_ip="10.244.0.1"
pod_cidr="10.244.0.0/24"
service_cidr="10.96.0.0/16"
kubernetes_service_ip="10.96.0.1"
dns_service_ip="10.96.0.10"
cluster_domain="cluster.local"
apiserver_port=6443

# Images the cluster itself runs, built here (images.sh) and imported into
# containerd at start. The pause image carries the name containerd asks for.
pause_image="registry.k8s.io/pause:${PAUSE_VERSION}"
image_prefix="localhost/transmute-cluster"
coredns_image="${image_prefix}/coredns:${COREDNS_VERSION}"
keda_image="${image_prefix}/keda:${KEDA_VERSION}"
local_path_image="${image_prefix}/local-path-provisioner:${LOCAL_PATH_VERSION}"
busybox_image="${image_prefix}/busybox:latest"

# Progress lines only with CLUSTER_VERBOSE=1: `make cluster` is quiet on
# success. note() is for what always deserves a line (a long build).
log() {
  [[ -z "${CLUSTER_VERBOSE:-}" ]] || echo "cluster: $*" >&2
}

note() {
  echo "cluster: $*" >&2
}

fail() {
  echo "cluster: $*" >&2
  exit 1
}

require_root() {
  [[ "$(id -u)" == 0 ]] || fail "must run as root (the kubelet, containerd and kube-proxy manage namespaces, mounts and iptables)"
}

# wait_until <seconds> <what> <command...>: retries the command once a second;
# logs "<what> ready" when it succeeds.
wait_until() {
  local timeout="$1" what="$2"
  shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 1
  done
  [[ -z "${what}" ]] || log "${what} ready"
}

kubectl_cluster() {
  "${bin_dir}/kubectl" --kubeconfig "${kubeconfig}" "$@"
}

# The cached binary of one component: <cache>/bin/<name>@<key>.
cached_binary() {
  echo "${cache_bin}/$1@$2"
}

# image_complete <name>: containerd holds the image with all its content. A
# name alone is not enough: an image whose blobs were removed (a full disk, a
# hand clean-up) is still listed, yet the CRI cannot start a pod from it and
# tries to pull it from the internet instead.
image_complete() {
  ctr --address "${containerd_socket}" -n k8s.io images check "name==$1" 2>/dev/null \
    | awk 'NR > 1 && $4 == "complete" { found = 1 } END { exit !found }'
}

# forget_image <name>: drops the name's record before an import, which
# otherwise fails on the blobs the old record points to and no longer has.
forget_image() {
  ctr --address "${containerd_socket}" -n k8s.io images rm "$1" >/dev/null 2>&1 || true
}

# forget_missing_blobs: containerd's metadata can outlive the blob files (a
# disk that filled during an import, blobs removed by hand). An import then
# takes the blob as present, skips writing it and fails to read it back, so
# the records of missing files go first.
forget_missing_blobs() {
  local blobs="${state_dir}/containerd/root/io.containerd.content.v1.content/blobs" digest
  while read -r digest; do
    [[ -f "${blobs}/${digest%%:*}/${digest#*:}" ]] \
      || ctr --address "${containerd_socket}" -n k8s.io content rm "${digest}" >/dev/null 2>&1 || true
  done < <(ctr --address "${containerd_socket}" -n k8s.io content ls -q)
}

# Processes: <state>/run/<name>.pid, <state>/logs/<name>.log.
process_pid() {
  cat "${pid_dir}/$1.pid" 2>/dev/null || true
}

process_alive() {
  local pid
  pid="$(process_pid "$1")"
  [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null
}

# start_process <name> <command...>: in a session of its own, so it outlives
# `make` and a Ctrl-C there; a running one is left alone.
start_process() {
  local name="$1"
  shift
  process_alive "${name}" && return
  mkdir -p "${pid_dir}" "${log_dir}"
  setsid "$@" >>"${log_dir}/${name}.log" 2>&1 </dev/null &
  echo $! >"${pid_dir}/${name}.pid"
}

# Fails naming the log when a process died while we waited for it.
require_alive() {
  process_alive "$1" || fail "$1 exited; the end of ${log_dir}/$1.log:
$(tail -n 15 "${log_dir}/$1.log" 2>/dev/null)"
}

# stop_process <name> <seconds>: SIGTERM, then SIGKILL after the grace time.
stop_process() {
  local name="$1" grace="${2:-10}" pid
  pid="$(process_pid "${name}")"
  if [[ -n "${pid}" ]] && kill -0 "${pid}" 2>/dev/null; then
    kill -TERM "${pid}" 2>/dev/null || true
    local deadline=$((SECONDS + grace))
    while kill -0 "${pid}" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    kill -KILL "${pid}" 2>/dev/null || true
  fi
  rm -f "${pid_dir}/${name}.pid"
}
