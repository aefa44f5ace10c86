#!/usr/bin/env bash
# `make cluster-smoke`: proves the running cluster works, check by check, and
# ends with "N passed, N failed" (exit 1 when one failed). Each check asserts
# something that a broken piece would make false:
#
#   version      kubectl and the API server report Kubernetes v1.34.4
#   load         an image built here goes podman -> `make cluster-load` -> a pod
#   service      a second pod reaches the first through its ClusterIP Service
#                by DNS name, and gets the first pod's unique token back
#   dns          kubernetes.default.svc.cluster.local resolves to 10.96.0.1
#   volume       a ReadWriteOnce PVC binds, a pod writes a token to it, and the
#                token is in the provisioned directory on the node's disk
#   keda         a ScaledObject scales a Deployment 0 -> 2 while two pods match
#                its kubernetes-workload trigger, and back to 0 without them
set -uo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

namespace="transmute-smoke"
smoke_image="localhost/transmute/cluster-smoke:busybox"
# What the chart would write: containerd resolves it to docker.io/transmute/...
smoke_image_short="transmute/cluster-smoke:busybox"
token="smoke-$(date +%s)-${RANDOM}"
passed=0
failed=0

k() {
  kubectl_cluster -n "${namespace}" "$@"
}

# check <name> <function>: runs one check and counts it.
check() {
  local name="$1" output
  if output="$("$2" 2>&1)"; then
    passed=$((passed + 1))
    echo "PASS ${name}${output:+: ${output}}"
  else
    failed=$((failed + 1))
    echo "FAIL ${name}: ${output}"
  fi
}

# eventually <seconds> <command...>: true once the command succeeds.
eventually() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 2
  done
}

check_version() {
  local client server
  client="$(kubectl_cluster version --client -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitVersion"])')"
  server="$(kubectl_cluster version -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')"
  [[ "${client}" == "${KUBERNETES_VERSION}" && "${server}" == "${KUBERNETES_VERSION}" ]] \
    || { echo "client ${client}, server ${server}, want ${KUBERNETES_VERSION}"; return 1; }
  echo "client and server ${server}"
}

# Puts a busybox image built here into podman's storage under a Transmute-style
# name, then loads it the way `make cluster-load` does.
check_load() {
  local archive
  archive="$(bash "${cluster_dir}/images.sh" busybox)" || return 1
  podman load --quiet -i "${archive}" >/dev/null && podman tag "${busybox_image}" "${smoke_image}" || return 1
  local loaded
  loaded="$(bash "${cluster_dir}/load.sh" "${smoke_image}" 2>&1)" || { echo "${loaded}"; return 1; }
  k apply -f - >/dev/null <<EOF || return 1
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: { app: web }
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: web
      image: ${smoke_image_short}
      imagePullPolicy: Never
      command: [sh, -c, 'mkdir -p /tmp/www && echo "\$TOKEN" >/tmp/www/index.html && exec httpd -f -p 8080 -h /tmp/www']
      env: [{ name: TOKEN, value: "${token}" }]
      ports: [{ containerPort: 8080 }]
      readinessProbe:
        tcpSocket: { port: 8080 }
        periodSeconds: 1
---
apiVersion: v1
kind: Pod
metadata:
  name: client
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: client
      image: ${smoke_image_short}
      imagePullPolicy: Never
      command: [sleep, "3600"]
EOF
  k wait --for=condition=Ready pod/web pod/client --timeout=120s >/dev/null \
    || { k describe pod web client | tail -20; return 1; }
  echo "${loaded}; pods run ${smoke_image_short}"
}

check_service() {
  k apply -f - >/dev/null <<EOF || return 1
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: 8080 }]
EOF
  local url="http://web.${namespace}.svc.${cluster_domain}/" body=""
  local deadline=$((SECONDS + 60))
  # `timeout`, not wget's -T: Debian's busybox-static 1.35 wget segfaults with -T.
  until [[ "${body}" == "${token}" ]] || ((SECONDS >= deadline)); do
    body="$(k exec client -- timeout 5 wget -qO- "${url}" 2>&1)"
    [[ "${body}" == "${token}" ]] || sleep 2
  done
  [[ "${body}" == "${token}" ]] || { echo "GET ${url} from pod client: ${body}"; return 1; }
  echo "GET ${url} -> the web pod's token"
}

check_dns() {
  local name="kubernetes.default.svc.${cluster_domain}" answer
  answer="$(k exec client -- nslookup "${name}" 2>&1)"
  grep -q "Address: ${kubernetes_service_ip}\$" <<<"${answer}" \
    || grep -qE "Address( 1)?: ${kubernetes_service_ip}( |\$)" <<<"${answer}" \
    || { echo "nslookup ${name}: ${answer}"; return 1; }
  echo "${name} -> ${kubernetes_service_ip}"
}

check_volume() {
  k apply -f - >/dev/null <<EOF || return 1
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
spec:
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 16Mi } }
---
apiVersion: v1
kind: Pod
metadata:
  name: writer
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: writer
      image: ${smoke_image_short}
      imagePullPolicy: Never
      command: [sh, -c, 'echo "\$TOKEN" >/data/token && sync && exec sleep 3600']
      env: [{ name: TOKEN, value: "${token}" }]
      volumeMounts: [{ name: data, mountPath: /data }]
  volumes:
    - name: data
      persistentVolumeClaim: { claimName: data }
EOF
  k wait --for=jsonpath='{.status.phase}'=Bound pvc/data --timeout=120s >/dev/null \
    || { echo "pvc data not Bound: $(k get pvc data -o jsonpath='{.status.phase}')"; return 1; }
  k wait --for=condition=Ready pod/writer --timeout=120s >/dev/null || { echo "pod writer not Ready"; return 1; }
  local volume path class
  volume="$(k get pvc data -o jsonpath='{.spec.volumeName}')"
  class="$(k get pvc data -o jsonpath='{.spec.storageClassName}')"
  path="$(kubectl_cluster get pv "${volume}" -o jsonpath='{.spec.hostPath.path}{.spec.local.path}')"
  eventually 10 grep -qx "${token}" "${path}/token" || { echo "token not found in ${path}/token on the node"; return 1; }
  echo "pvc data (${class}, RWO) bound to ${volume}; the pod's token is in ${path}/token"
}

replicas_of_worker() {
  k get deployment worker -o jsonpath='{.status.readyReplicas}'
}

worker_has() {
  [[ "$(replicas_of_worker)" == "$1" ]] || [[ "$1" == 0 && -z "$(replicas_of_worker)" ]]
}

load_pod() {
  cat <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: load-$1
  labels: { app: smoke-load }
spec:
  terminationGracePeriodSeconds: 1
  containers:
    - name: load
      image: ${smoke_image_short}
      imagePullPolicy: Never
      command: [sleep, "3600"]
---
EOF
}

check_keda() {
  k apply -f - >/dev/null <<EOF || return 1
apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
spec:
  replicas: 0
  selector: { matchLabels: { app: worker } }
  template:
    metadata:
      labels: { app: worker }
    spec:
      terminationGracePeriodSeconds: 1
      containers:
        - name: worker
          image: ${smoke_image_short}
          imagePullPolicy: Never
          command: [sleep, "3600"]
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: worker
spec:
  scaleTargetRef: { name: worker }
  minReplicaCount: 0
  maxReplicaCount: 3
  pollingInterval: 5
  cooldownPeriod: 10
  advanced:
    horizontalPodAutoscalerConfig:
      behavior:
        scaleDown: { stabilizationWindowSeconds: 0 }
  triggers:
    - type: kubernetes-workload
      metadata: { podSelector: app=smoke-load, value: "1" }
EOF
  k wait --for=condition=Ready scaledobject/worker --timeout=60s >/dev/null \
    || { echo "ScaledObject not Ready: $(k get scaledobject worker -o jsonpath='{.status.conditions}')"; return 1; }
  worker_has 0 || { echo "worker starts with $(replicas_of_worker) replicas, want 0"; return 1; }
  local started=${SECONDS}
  { load_pod 1; load_pod 2; } | k apply -f - >/dev/null || return 1
  eventually 180 worker_has 2 \
    || { echo "worker did not reach 2 replicas in 180 s (has '$(replicas_of_worker)'; hpa: $(k get hpa -o wide --no-headers 2>&1))"; return 1; }
  local up=$((SECONDS - started))
  k delete pod load-1 load-2 --grace-period=1 >/dev/null || return 1
  started=${SECONDS}
  eventually 180 worker_has 0 || { echo "worker did not go back to 0 in 180 s (has '$(replicas_of_worker)')"; return 1; }
  echo "worker 0 -> 2 in ${up} s under 2 matching pods, back to 0 in $((SECONDS - started)) s without them"
}

main() {
  [[ -f "${kubeconfig}" ]] || { echo "FAIL cluster: no kubeconfig at ${kubeconfig}: run make cluster"; echo "0 passed, 1 failed"; exit 1; }
  local started=${SECONDS}
  kubectl_cluster delete namespace "${namespace}" --ignore-not-found --wait=true >/dev/null 2>&1
  kubectl_cluster create namespace "${namespace}" >/dev/null
  check version check_version
  check load check_load
  check service check_service
  check dns check_dns
  check volume check_volume
  check keda check_keda
  kubectl_cluster delete namespace "${namespace}" --wait=false >/dev/null 2>&1
  echo "cluster smoke check took $((SECONDS - started)) s"
  echo "${passed} passed, ${failed} failed"
  ((failed == 0))
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  main "$@"
fi
