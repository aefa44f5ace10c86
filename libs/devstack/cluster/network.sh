#!/usr/bin/env bash
# The node's network on the host, and its removal:
#
#   network.sh up     the pods' bridge with the node IP, the service range
#                     routed onto it, forwarding on, and guard chains that keep
#                     the cluster unreachable from outside and its pods inside
#   network.sh down   removes all of that, plus the iptables chains the kubelet
#                     and kube-proxy added (KUBE-*)
#
# Two sysctls stay as set: net.ipv4.ip_forward=1 and
# net.bridge.bridge-nf-call-iptables=1. podman's bridge networking needs and
# sets the same, and turning them off under running containers would cut them.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

input_guard="TRANSMUTE-CLUSTER-INPUT"
forward_guard="TRANSMUTE-CLUSTER-FORWARD"

bridge_up() {
  ip link show "${bridge_interface}" >/dev/null 2>&1 || ip link add "${bridge_interface}" type bridge
  # grep reads to the end (no -q): under pipefail an early exit makes ip die of SIGPIPE, and the check fail
  ip addr show dev "${bridge_interface}" | grep " ${node_ip}/" >/dev/null \
    || ip addr add "${node_ip}/${pod_cidr#*/}" dev "${bridge_interface}"
  ip link set "${bridge_interface}" up
  ip route replace "${service_cidr}" dev "${bridge_interface}" src "${node_ip}"
}

sysctls_up() {
  sysctl -qw net.ipv4.ip_forward=1
  [[ -e /proc/sys/net/bridge/bridge-nf-call-iptables ]] \
    || fail "br_netfilter is not loaded (no /proc/sys/net/bridge): modprobe br_netfilter; pod-to-Service traffic on one bridge needs it"
  sysctl -qw net.bridge.bridge-nf-call-iptables=1
}

# ensure_chain <table> <chain> <builtin chain>: an empty chain of ours, jumped
# to first from the builtin chain.
ensure_chain() {
  local table="$1" chain="$2" builtin="$3"
  iptables -t "${table}" -N "${chain}" 2>/dev/null || iptables -t "${table}" -F "${chain}"
  iptables -t "${table}" -C "${builtin}" -j "${chain}" 2>/dev/null || iptables -t "${table}" -I "${builtin}" 1 -j "${chain}"
}

guards_up() {
  # Nothing but the machine itself and the pods reaches the node IP, the pods
  # or the service range.
  ensure_chain filter "${input_guard}" INPUT
  iptables -A "${input_guard}" -i lo -j RETURN
  iptables -A "${input_guard}" -i "${bridge_interface}" -j RETURN
  iptables -A "${input_guard}" -d "${pod_cidr}" -j DROP
  iptables -A "${input_guard}" -d "${service_cidr}" -j DROP
  # Pods talk among themselves and to Services (DNAT'ed back onto the bridge);
  # nothing is forwarded between them and the machine's other interfaces.
  ensure_chain filter "${forward_guard}" FORWARD
  iptables -A "${forward_guard}" -i "${bridge_interface}" -o "${bridge_interface}" -j RETURN
  iptables -A "${forward_guard}" -s "${pod_cidr}" -j DROP
  iptables -A "${forward_guard}" -d "${pod_cidr}" -j DROP
}

# remove_chains <iptables command> <chain name prefix>: every jump to a chain of
# that prefix from a builtin chain, then the chains themselves.
remove_chains() {
  local iptables="$1" prefix="$2" table rule chain
  for table in filter nat mangle; do
    "${iptables}-save" -t "${table}" 2>/dev/null | grep -- "${prefix}" >/dev/null || continue
    while read -r rule; do
      # shellcheck disable=SC2086 # a saved rule is split back into its words
      eval "${iptables} -t ${table} -D ${rule#-A }" 2>/dev/null || true
    done < <("${iptables}-save" -t "${table}" | grep -E "^-A (INPUT|FORWARD|OUTPUT|PREROUTING|POSTROUTING) .*-j ${prefix}")
    for chain in $("${iptables}-save" -t "${table}" | sed -n "s/^:\(${prefix}[^ ]*\) .*/\1/p"); do
      "${iptables}" -t "${table}" -F "${chain}" 2>/dev/null || true
    done
    for chain in $("${iptables}-save" -t "${table}" | sed -n "s/^:\(${prefix}[^ ]*\) .*/\1/p"); do
      "${iptables}" -t "${table}" -X "${chain}" 2>/dev/null || true
    done
  done
}

network_up() {
  bridge_up
  sysctls_up
  guards_up
}

network_down() {
  remove_chains iptables TRANSMUTE-CLUSTER-
  # kube-proxy's and the kubelet's chains (one cluster per machine, so every
  # KUBE-* chain is this cluster's).
  remove_chains iptables KUBE-
  command -v ip6tables >/dev/null 2>&1 && remove_chains ip6tables KUBE-
  ip route del "${service_cidr}" dev "${bridge_interface}" 2>/dev/null || true
  ip link del "${bridge_interface}" 2>/dev/null || true
}

case "${1:-}" in
  up) network_up ;;
  down) network_down ;;
  *) fail "usage: network.sh up|down" ;;
esac
