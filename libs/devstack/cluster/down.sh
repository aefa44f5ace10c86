#!/usr/bin/env bash
# `make cluster-down`: stops the local cluster and removes what `make cluster`
# set up: its pods (stopped through the kubelet, so their network namespaces
# go with them), every process, the mounts under its directories (pod network
# namespaces among them: containerd keeps them under its state dir), the
# bridge, the iptables chains, the kubelet's cgroups and the state dir. The cache of built binaries and images
# stays. Safe to run when nothing is running.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ctr_k8s() {
  ctr --address "${containerd_socket}" -n k8s.io "$@"
}

# Deletes every pod while the kubelet still runs, with the controllers
# stopped first so nothing recreates them; the kubelet stops each sandbox
# through containerd, which tears its network down through CNI.
drain_pods() {
  process_alive kube-apiserver && process_alive kubelet && process_alive containerd || return 0
  stop_process kube-controller-manager
  stop_process kube-scheduler
  kubectl_cluster delete pods --all --all-namespaces --grace-period=2 --wait=false >/dev/null 2>&1 || true
  wait_until 90 "" no_tasks_left || note "some pods did not stop in 90 s; killing their containers"
}

no_tasks_left() {
  [[ -z "$(ctr_k8s tasks ls -q 2>/dev/null)" ]]
}

# What the kubelet did not stop: kill and delete through containerd.
remove_containers() {
  process_alive containerd || return 0
  local id
  for id in $(ctr_k8s tasks ls -q 2>/dev/null); do
    ctr_k8s tasks kill -s SIGKILL "${id}" >/dev/null 2>&1 || true
  done
  sleep 1
  for id in $(ctr_k8s tasks ls -q 2>/dev/null); do
    ctr_k8s tasks delete -f "${id}" >/dev/null 2>&1 || true
  done
  for id in $(ctr_k8s containers ls -q 2>/dev/null); do
    ctr_k8s containers delete "${id}" >/dev/null 2>&1 || true
  done
}

stop_node_processes() {
  stop_process kube-proxy
  if [[ -x "${bin_dir}/kube-proxy" ]]; then
    "${bin_dir}/kube-proxy" --cleanup >/dev/null 2>&1 || true
  fi
  stop_process kubelet 20
  stop_process kube-controller-manager
  stop_process kube-scheduler
  stop_process kube-apiserver 20
  stop_process etcd
  remove_containers
  stop_process containerd 20
  kill_leftover_containers
  kill_orphaned_shims
}

# Container processes that outlived their pods (a cluster whose processes
# were killed): everything left in the kubelet's cgroups is the cluster's.
kill_leftover_containers() {
  local pid
  while read -r pid; do
    kill -KILL "${pid}" 2>/dev/null || true
  done < <(find /sys/fs/cgroup/pids/kubepods -name cgroup.procs -exec cat {} + 2>/dev/null)
}

# containerd's shims outlive it. Ours are the ones serving our socket; they
# record no pid file in containerd 1.6, so /proc tells which they are.
kill_orphaned_shims() {
  local cmdline pid
  for cmdline in /proc/[0-9]*/cmdline; do
    pid="${cmdline#/proc/}"
    pid="${pid%/cmdline}"
    tr '\0' ' ' 2>/dev/null <"${cmdline}" | grep -q "^/usr/bin/containerd-shim-runc-v2 .*-address ${containerd_socket} *\$" \
      && kill -KILL "${pid}" 2>/dev/null
  done
  return 0
}

unmount_all() {
  local target
  for target in $(findmnt -rn -o TARGET | grep -E "^(${state_dir}|${run_dir})(/|$)" | sort -r); do
    umount "${target}" 2>/dev/null || umount -l "${target}" 2>/dev/null || true
  done
}

# The kubelet's QoS cgroups (cgroupfs driver: /kubepods in each hierarchy).
remove_cgroups() {
  local hierarchy
  for hierarchy in /sys/fs/cgroup/*/kubepods; do
    if [[ -d "${hierarchy}" ]]; then
      find "${hierarchy}" -depth -type d -exec rmdir {} \; 2>/dev/null || true
    fi
  done
}

main() {
  require_root
  if [[ ! -d "${state_dir}" && ! -d "${run_dir}" ]] && ! ip link show "${bridge_interface}" >/dev/null 2>&1; then
    note "no cluster to stop"
    return
  fi
  drain_pods
  stop_node_processes
  unmount_all
  bash "${cluster_dir}/network.sh" down
  remove_cgroups
  rm -rf "${state_dir}" "${run_dir}"
  log "stopped and removed"
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  main "$@"
fi
