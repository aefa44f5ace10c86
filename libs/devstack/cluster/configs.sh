#!/usr/bin/env bash
# Writes the node's configuration files into <state>/config: containerd's, the
# CNI network's, the kubelet's and kube-proxy's. Rendered on every start and
# written only when changed; a change takes effect when the process restarts
# (`make cluster-down`, then `make cluster`).
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

containerd_config() {
  cat <<EOF
version = 2
root = "${state_dir}/containerd/root"
state = "${run_dir}/containerd-state"
# Some snapshotters need kernel modules or filesystems the machine lacks; they
# only add noise when they fail to load.
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp",
  "io.containerd.internal.v1.tracing"]

[grpc]
  address = "${containerd_socket}"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${pause_image}"
  # The machine has no CAP_SYS_RESOURCE: lowering a process's oom_score_adj
  # is refused and the pod sandbox dies ("can't get final child's PID from
  # pipe: EOF"). Restricted, containerd never asks for less than its own.
  restrict_oom_score_adj = true
  enable_selinux = false
  # Pod network namespaces under our run dir, so cleaning up stays there.
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      base_runtime_spec = "${config_dir}/runtime-spec.json"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${config_dir}/cni"
EOF
}

# containerd's default spec with the containers' rlimits set below the
# sandbox's hard limits (20000 open files, 96365 processes): runc fails with
# "setrlimit ... operation not permitted" at or above them, and without a
# setting containers would inherit the hard limits themselves.
runtime_spec() {
  ctr oci spec | python3 -c '
import json, sys
spec = json.load(sys.stdin)
spec["process"]["rlimits"] = [
    {"type": "RLIMIT_NOFILE", "soft": 16384, "hard": 16384},
    {"type": "RLIMIT_NPROC", "soft": 65536, "hard": 65536},
]
json.dump(spec, sys.stdout, indent=2)
'
}

# One bridge for the node's pods. No IP masquerade: pods talk to each other,
# to Services and to the node, never beyond the machine (see network.sh).
cni_config() {
  cat <<EOF
{
  "cniVersion": "1.0.0",
  "name": "transmute",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "${bridge_interface}",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "${state_dir}/cni-ipam",
        "ranges": [[{ "subnet": "${pod_cidr}" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    }
  ]
}
EOF
}

kubelet_config() {
  cat <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: ${node_ip}
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: 10248
containerRuntimeEndpoint: unix://${containerd_socket}
# The machine has cgroups v1 and no systemd to delegate to.
cgroupDriver: cgroupfs
failCgroupV1: false
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
  x509:
    clientCAFile: ${pki_dir}/ca.crt
authorization:
  mode: Webhook
tlsCertFile: ${pki_dir}/kubelet-serving.crt
tlsPrivateKeyFile: ${pki_dir}/kubelet-serving.key
clusterDomain: ${cluster_domain}
clusterDNS: [${dns_service_ip}]
# No upstream resolver for pods: nothing in the cluster may reach past the
# machine, and CoreDNS answers the cluster's own names.
resolvConf: ""
podLogsDir: ${state_dir}/pod-logs
staticPodPath: ""
rotateCertificates: false
serverTLSBootstrap: false
failSwapOn: false
# The filesystem statistics of /dev/vda cannot be read here (cadvisor: "cannot
# find filesystem info for device /dev/vda"). The eviction manager then stops
# at "failed to get HasDedicatedImageFs" on every pass and evicts nothing, disk
# or memory, yet the node stays Ready with no pressure condition. Local
# ephemeral-storage accounting would need the same statistics, so it is off;
# the disk thresholds are dropped and image garbage collection waits for a
# full disk, so neither acts on numbers it cannot have.
evictionHard:
  memory.available: 200Mi
evictionPressureTransitionPeriod: 30s
localStorageCapacityIsolation: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
# Keep pod limits and the kubelet's work modest on a 2-core machine.
maxPods: 60
serializeImagePulls: false
EOF
}

kube_proxy_config() {
  cat <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clientConnection:
  kubeconfig: ${pki_dir}/kube-proxy.kubeconfig
hostnameOverride: ${node_name}
bindAddress: ${node_ip}
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
clusterCIDR: ${pod_cidr}
# NodePorts answer on the node IP only, never on the machine's own interfaces.
nodePortAddresses: ["${node_ip}/32"]
# Leave the machine's conntrack sysctls as they are (the sandbox may refuse
# to change them, and other work shares them).
conntrack:
  maxPerCore: 0
  min: 0
  tcpEstablishedTimeout: 0s
  tcpCloseWaitTimeout: 0s
EOF
}

# write_if_changed <file>: stdin into the file, untouched when the same (a
# running kube-proxy exits when its configuration file is written).
write_if_changed() {
  local file="$1" scratch
  scratch="$(mktemp "${file}.XXXXXX")"
  cat >"${scratch}"
  if cmp -s "${scratch}" "${file}"; then
    rm -f "${scratch}"
  else
    mv -f "${scratch}" "${file}"
  fi
}

main() {
  mkdir -p "${config_dir}/cni" "${state_dir}/cni-ipam" "${state_dir}/pod-logs"
  containerd_config | write_if_changed "${config_dir}/containerd.toml"
  runtime_spec | write_if_changed "${config_dir}/runtime-spec.json"
  cni_config | write_if_changed "${config_dir}/cni/10-transmute.conflist"
  kubelet_config | write_if_changed "${config_dir}/kubelet.yaml"
  kube_proxy_config | write_if_changed "${config_dir}/kube-proxy.yaml"
}

main "$@"
