#!/usr/bin/env bash
# Writes the cluster's certificates and kubeconfigs into <state>/pki (once; a
# second run keeps them): one CA for the API server and its clients, one for the
# aggregation layer (KEDA's metrics API), and the service-account signing key.
# ECDSA P-256 keys: generated in milliseconds, accepted by every component.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

days=825

new_key() {
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null
  chmod 600 "$1"
}

# new_ca <name> <common name>
new_ca() {
  local name="$1" cn="$2"
  [[ -f "${pki_dir}/${name}.crt" ]] && return
  new_key "${pki_dir}/${name}.key"
  openssl req -x509 -new -key "${pki_dir}/${name}.key" -subj "/CN=${cn}" -days "${days}" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" \
    -out "${pki_dir}/${name}.crt" 2>/dev/null
}

# new_cert <ca> <name> <subject> <extendedKeyUsage> [subjectAltName]
new_cert() {
  local ca="$1" name="$2" subject="$3" usage="$4" san="${5:-}"
  [[ -f "${pki_dir}/${name}.crt" ]] && return
  new_key "${pki_dir}/${name}.key"
  local extensions
  extensions="$(mktemp)"
  {
    echo "basicConstraints=critical,CA:FALSE"
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=${usage}"
    [[ -z "${san}" ]] || echo "subjectAltName=${san}"
  } >"${extensions}"
  openssl req -new -key "${pki_dir}/${name}.key" -subj "${subject}" 2>/dev/null \
    | openssl x509 -req -CA "${pki_dir}/${ca}.crt" -CAkey "${pki_dir}/${ca}.key" -CAcreateserial \
      -days "${days}" -extfile "${extensions}" -out "${pki_dir}/${name}.crt" 2>/dev/null
  rm -f "${extensions}"
}

# write_kubeconfig <file> <client cert name>
write_kubeconfig() {
  local file="$1" client="$2"
  cat >"${file}" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: transmute
    cluster:
      server: https://${node_ip}:${apiserver_port}
      certificate-authority: ${pki_dir}/ca.crt
users:
  - name: ${client}
    user:
      client-certificate: ${pki_dir}/${client}.crt
      client-key: ${pki_dir}/${client}.key
contexts:
  - name: transmute
    context:
      cluster: transmute
      user: ${client}
current-context: transmute
EOF
  chmod 600 "${file}"
}

main() {
  mkdir -p "${pki_dir}"
  chmod 700 "${pki_dir}"
  new_ca ca transmute-cluster-ca
  new_ca front-proxy-ca transmute-cluster-front-proxy-ca
  local kubernetes_names="DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.${cluster_domain},DNS:localhost"
  new_cert ca apiserver "/CN=kube-apiserver" serverAuth \
    "${kubernetes_names},IP:${kubernetes_service_ip},IP:${node_ip},IP:127.0.0.1"
  new_cert ca apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" clientAuth
  new_cert front-proxy-ca front-proxy-client "/CN=front-proxy-client" clientAuth
  new_cert ca admin "/O=system:masters/CN=transmute-admin" clientAuth
  new_cert ca kube-controller-manager "/CN=system:kube-controller-manager" clientAuth
  new_cert ca kube-scheduler "/CN=system:kube-scheduler" clientAuth
  new_cert ca kube-proxy "/CN=system:kube-proxy" clientAuth
  new_cert ca kubelet "/O=system:nodes/CN=system:node:${node_name}" clientAuth
  new_cert ca kubelet-serving "/CN=${node_name}" serverAuth "DNS:${node_name},IP:${node_ip}"
  [[ -f "${pki_dir}/service-account.key" ]] || {
    new_key "${pki_dir}/service-account.key"
    openssl pkey -in "${pki_dir}/service-account.key" -pubout -out "${pki_dir}/service-account.pub" 2>/dev/null
  }
  write_kubeconfig "${kubeconfig}" admin
  local client
  for client in kube-controller-manager kube-scheduler kube-proxy kubelet; do
    write_kubeconfig "${pki_dir}/${client}.kubeconfig" "${client}"
  done
}

main "$@"
