#!/usr/bin/env bash
# `make cluster`: a real single-node Kubernetes on this machine. Builds what is
# not cached yet (build.sh, images.sh), then starts containerd, etcd, the API
# server, the controller manager, the scheduler, the kubelet and kube-proxy as
# processes, and CoreDNS, the local-path provisioner and KEDA as pods. Ends when
# the node is Ready and those are available. A second run starts only what is
# not running and applies the same manifests again.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Debian's runtime: installed with apt when missing, as install-tools.sh does
# for the platform's packages.
install_packages() {
  local missing=() pkg
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q 'install ok installed' || missing+=("${pkg}")
  done
  ((${#missing[@]} == 0)) && return
  note "installing Debian packages: ${missing[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } \
    || fail "installing Debian packages failed: apt-get install ${missing[*]}"
}

# One cluster per machine: the node's ports, bridge and iptables chains are
# the machine's. A cluster of another checkout that is still running stops us;
# the leftovers of one whose processes are gone are cleaned up first.
claim_machine() {
  mkdir -p "${run_dir}"
  local owner=""
  [[ -f "${owner_file}" ]] && owner="$(cat "${owner_file}")"
  if [[ -n "${owner}" && "${owner}" != "${state_dir}" ]]; then
    local pid_file
    for pid_file in "${owner}"/run/*.pid; do
      [[ -f "${pid_file}" ]] && kill -0 "$(cat "${pid_file}")" 2>/dev/null \
        && fail "the cluster of ${owner} is running on this machine: run 'make cluster-down' in that checkout first"
    done
    note "cleaning up the stopped cluster of ${owner}"
    TRANSMUTE_CLUSTER_STATE="${owner}" bash "${cluster_dir}/down.sh"
    mkdir -p "${run_dir}"
  fi
  echo "${state_dir}" >"${owner_file}"
}

start_containerd() {
  start_process containerd containerd --config "${config_dir}/containerd.toml"
  wait_until 60 containerd ctr --address "${containerd_socket}" version || require_alive containerd
}

# The cluster's own images, from their archives in the cache into the
# namespace the kubelet's pods use.
import_images() {
  local archive
  forget_missing_blobs
  while read -r archive; do
    local name
    name="$(tar -xOf "${archive}" manifest.json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["RepoTags"][0])')"
    image_complete "${name}" && continue
    forget_image "${name}"
    ctr --address "${containerd_socket}" -n k8s.io images import "${archive}" >/dev/null \
      || fail "importing ${archive} into containerd failed"
  done < <(bash "${cluster_dir}/images.sh")
}

start_etcd() {
  start_process etcd "${bin_dir}/etcd" --name "${node_name}" --data-dir "${state_dir}/etcd" \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster "${node_name}=http://127.0.0.1:2380" --log-level warn
  wait_until 60 etcd curl -fsS http://127.0.0.1:2379/health || require_alive etcd
}

start_apiserver() {
  start_process kube-apiserver "${bin_dir}/kube-apiserver" \
    --advertise-address "${node_ip}" --bind-address "${node_ip}" --secure-port "${apiserver_port}" \
    --etcd-servers http://127.0.0.1:2379 \
    --service-cluster-ip-range "${service_cidr}" --allow-privileged=true \
    --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
    --client-ca-file "${pki_dir}/ca.crt" \
    --tls-cert-file "${pki_dir}/apiserver.crt" --tls-private-key-file "${pki_dir}/apiserver.key" \
    --kubelet-client-certificate "${pki_dir}/apiserver-kubelet-client.crt" \
    --kubelet-client-key "${pki_dir}/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP \
    --service-account-issuer "https://kubernetes.default.svc.${cluster_domain}" \
    --service-account-key-file "${pki_dir}/service-account.pub" \
    --service-account-signing-key-file "${pki_dir}/service-account.key" \
    --requestheader-client-ca-file "${pki_dir}/front-proxy-ca.crt" \
    --requestheader-allowed-names front-proxy-client \
    --requestheader-extra-headers-prefix X-Remote-Extra- \
    --requestheader-group-headers X-Remote-Group --requestheader-username-headers X-Remote-User \
    --proxy-client-cert-file "${pki_dir}/front-proxy-client.crt" \
    --proxy-client-key-file "${pki_dir}/front-proxy-client.key" \
    --enable-aggregator-routing=true --profiling=false
  wait_until 120 kube-apiserver kubectl_cluster get --raw /readyz || require_alive kube-apiserver
}

start_controller_manager() {
  local kubeconfig_file="${pki_dir}/kube-controller-manager.kubeconfig"
  start_process kube-controller-manager "${bin_dir}/kube-controller-manager" \
    --kubeconfig "${kubeconfig_file}" --authentication-kubeconfig "${kubeconfig_file}" \
    --authorization-kubeconfig "${kubeconfig_file}" --bind-address 127.0.0.1 --leader-elect=false \
    --cluster-name transmute --root-ca-file "${pki_dir}/ca.crt" \
    --service-account-private-key-file "${pki_dir}/service-account.key" --use-service-account-credentials=true \
    --cluster-signing-cert-file "${pki_dir}/ca.crt" --cluster-signing-key-file "${pki_dir}/ca.key" \
    --service-cluster-ip-range "${service_cidr}" --profiling=false
  wait_until 60 kube-controller-manager curl -fsSk https://127.0.0.1:10257/healthz || require_alive kube-controller-manager
}

start_scheduler() {
  local kubeconfig_file="${pki_dir}/kube-scheduler.kubeconfig"
  start_process kube-scheduler "${bin_dir}/kube-scheduler" \
    --kubeconfig "${kubeconfig_file}" --authentication-kubeconfig "${kubeconfig_file}" \
    --authorization-kubeconfig "${kubeconfig_file}" --bind-address 127.0.0.1 --leader-elect=false --profiling=false
  wait_until 60 kube-scheduler curl -fsSk https://127.0.0.1:10259/healthz || require_alive kube-scheduler
}

start_kubelet() {
  start_process kubelet "${bin_dir}/kubelet" --config "${config_dir}/kubelet.yaml" \
    --kubeconfig "${pki_dir}/kubelet.kubeconfig" --hostname-override "${node_name}" --node-ip "${node_ip}" \
    --root-dir "${state_dir}/kubelet"
  wait_until 120 "node ${node_name}" kubectl_cluster wait --for=condition=Ready "node/${node_name}" --timeout=2s \
    || { require_alive kubelet; fail "node ${node_name} is not Ready after 120 s: see ${log_dir}/kubelet.log"; }
}

# The kubelet cannot read /dev/vda's statistics here, so it reports no
# ephemeral-storage and every pod that requests some (the chart's pods all
# do) stays Pending with "Insufficient ephemeral-storage". The node is told
# what the volume holding its state has free at start instead; the kubelet
# keeps a capacity it does not manage itself. Nothing enforces it (no
# eviction here either): it lets the scheduler place pods as on a real node.
advertise_ephemeral_storage() {
  local free_kib
  free_kib="$(df --output=avail -k "${state_dir}" | tail -1 | tr -d ' ')"
  [[ "${free_kib}" =~ ^[0-9]+$ ]] || fail "cannot read the free space of ${state_dir}"
  kubectl_cluster patch node "${node_name}" --subresource=status --type=merge \
    -p "{\"status\":{\"capacity\":{\"ephemeral-storage\":\"${free_kib}Ki\"},\"allocatable\":{\"ephemeral-storage\":\"${free_kib}Ki\"}}}" >/dev/null
}

start_kube_proxy() {
  start_process kube-proxy "${bin_dir}/kube-proxy" --config "${config_dir}/kube-proxy.yaml"
  wait_until 60 kube-proxy curl -fsS http://127.0.0.1:10256/healthz || require_alive kube-proxy
}

# render <file>: the manifest with its ${...} filled in (only the names listed,
# so a literal $ elsewhere survives).
# shellcheck disable=SC2016 # envsubst takes the names literally
render() {
  COREDNS_IMAGE="${coredns_image}" DNS_SERVICE_IP="${dns_service_ip}" CLUSTER_DOMAIN="${cluster_domain}" \
    LOCAL_PATH_IMAGE_NAME="${local_path_image%:*}" LOCAL_PATH_IMAGE_TAG="${local_path_image##*:}" \
    KEDA_IMAGE_NAME="${keda_image%:*}" KEDA_IMAGE_TAG="${keda_image##*:}" \
    BUSYBOX_IMAGE="${busybox_image}" VOLUMES_DIR="${state_dir}/volumes" \
    envsubst '${COREDNS_IMAGE} ${DNS_SERVICE_IP} ${CLUSTER_DOMAIN} ${LOCAL_PATH_IMAGE_NAME} ${LOCAL_PATH_IMAGE_TAG}
      ${KEDA_IMAGE_NAME} ${KEDA_IMAGE_TAG} ${BUSYBOX_IMAGE} ${VOLUMES_DIR}' <"$1"
}

# module_dir <wrapper module> <module path>: where Go keeps that module's files.
module_dir() {
  (cd "${cluster_dir}/modules/$1" && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' "$2")
}

apply_addons() {
  local manifests="${state_dir}/manifests"
  rm -rf "${manifests}"
  mkdir -p "${manifests}/local-path" "${manifests}/keda" "${state_dir}/volumes"
  render "${cluster_dir}/manifests/coredns.yaml" >"${manifests}/coredns.yaml"
  render "${cluster_dir}/manifests/local-path/kustomization.yaml" >"${manifests}/local-path/kustomization.yaml"
  cp "$(module_dir local-path-provisioner github.com/rancher/local-path-provisioner)/deploy/local-path-storage.yaml" \
    "${manifests}/local-path/"
  render "${cluster_dir}/manifests/keda/kustomization.yaml" >"${manifests}/keda/kustomization.yaml"
  cp -r "$(module_dir keda github.com/kedacore/keda/v2)/config" "${manifests}/keda/config"
  chmod -R u+w "${manifests}"
  # Server-side: KEDA's CRDs are too large for the annotation client-side
  # apply keeps.
  local apply=(apply --server-side --force-conflicts --field-manager transmute-cluster)
  kubectl_cluster "${apply[@]}" -f "${manifests}/coredns.yaml" >/dev/null
  kubectl_cluster kustomize "${manifests}/local-path" | kubectl_cluster "${apply[@]}" -f - >/dev/null
  kubectl_cluster kustomize "${manifests}/keda" | kubectl_cluster "${apply[@]}" -f - >/dev/null
}

wait_addons() {
  local deployment
  for deployment in kube-system/coredns local-path-storage/local-path-provisioner keda/keda-operator keda/keda-metrics-apiserver; do
    kubectl_cluster -n "${deployment%%/*}" rollout status "deployment/${deployment#*/}" --timeout=300s >/dev/null \
      || fail "deployment ${deployment} is not available after 300 s: kubectl -n ${deployment%%/*} describe pods"
    log "${deployment} available"
  done
  wait_until 180 "KEDA metrics API" kubectl_cluster wait --for=condition=Available apiservice/v1beta1.external.metrics.k8s.io --timeout=2s \
    || fail "KEDA's metrics API (apiservice v1beta1.external.metrics.k8s.io) is not available: see kubectl -n keda logs deploy/keda-metrics-apiserver"
}

main() {
  local started=${SECONDS}
  require_root
  install_packages
  claim_machine
  bash "${cluster_dir}/build.sh"
  bash "${cluster_dir}/pki.sh"
  bash "${cluster_dir}/configs.sh"
  bash "${cluster_dir}/network.sh" up
  start_containerd
  import_images
  start_etcd
  start_apiserver
  start_controller_manager
  start_scheduler
  start_kubelet
  advertise_ephemeral_storage
  start_kube_proxy
  apply_addons
  wait_addons
  echo "cluster ready in $((SECONDS - started)) s (Kubernetes ${KUBERNETES_VERSION}, node ${node_name} at ${node_ip})"
  echo "export KUBECONFIG=${kubeconfig} PATH=${bin_dir}:\$PATH"
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  main "$@"
fi
