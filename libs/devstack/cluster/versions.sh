# Every version the local cluster is built from, in one place. The wrapper
# modules under modules/ require the same versions; build.sh refuses to build
# when one of them disagrees with this file.
# shellcheck shell=bash disable=SC2034

KUBERNETES_VERSION="v1.34.4"    # k8s.io/kubernetes; its staging modules at v0.34.4
ETCD_VERSION="v3.6.16"          # go.etcd.io/etcd/server/v3
COREDNS_VERSION="v1.13.2"       # github.com/coredns/coredns (client-go v0.34, like the cluster)
KEDA_VERSION="v2.20.2"          # github.com/kedacore/keda/v2 (supports Kubernetes 1.33 to 1.35)
LOCAL_PATH_VERSION="v0.0.30"    # github.com/rancher/local-path-provisioner
PAUSE_VERSION="3.10.1"          # pause.c shipped in k8s.io/kubernetes; the tag Kubernetes 1.34 uses

# Debian's runtime, installed with apt (checked, not built).
DEBIAN_PACKAGES=(containerd runc containernetworking-plugins iptables conntrack buildah busybox-static openssl gcc libc6-dev)
