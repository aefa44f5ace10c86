#!/usr/bin/env bash
# Installs the native tools Transmute needs into <repo>/.tools (git-ignored), in
# two parts so a first `make up` does not wait for what only the tests use:
#
#   install-tools.sh platform   node, go, pnpm, the converters' Debian packages,
#                               nats-server and ferretdb (what `make up` runs),
#                               nats-meta-check (the NATS image's probe)
#   install-tools.sh test       the platform part, then what only the tests use:
#                               MinIO, fake-gcs-server, helm, kube-score, sshd,
#                               chromium and the Python tools (schemathesis, ...)
#   install-tools.sh images     what `make images` needs: podman, buildah and
#                               debootstrap, and static builds (no cgo) of
#                               nats-server (and its probe, nats-meta-check),
#                               ferretdb and MinIO for the server images
#                               (FROM scratch), linked from .tools/image-bin
#
# Go-built binaries are kept outside the checkout, in
# ${XDG_CACHE_HOME:-~/.cache}/transmute/bin/<binary>@<version>, and linked from
# .tools/bin: a second clone (or worktree) links them instead of rebuilding.
# Idempotent: whatever is already there at the right version is reused, so
# `make` can call this on every run.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/../../.." && pwd)"
devstack_dir="${repo_root}/libs/devstack"
tools_bin="${repo_root}/.tools/bin"
cache_bin="${TRANSMUTE_TOOLS_CACHE:-${XDG_CACHE_HOME:-${HOME}/.cache}/transmute/bin}"

NATS_SERVER_VERSION="v2.15.2"
NODE_MAJOR="20"
PNPM_VERSION="10.20.0"

# The npm registry mirror carries no corepack signatures, and nothing here may
# prompt or phone home.
export COREPACK_INTEGRITY_KEYS=0 COREPACK_ENABLE_DOWNLOAD_PROMPT=0
# Build tags/VCS stamping would need a git checkout of the module; we have none.
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
# Extra `go build`/`go install` flags and a suffix for the cache key of what
# they build; the `images` part sets both.
go_build_flags=()
key_suffix=""

fail() {
  echo "install-tools: $*" >&2
  exit 1
}

require_node() {
  command -v node >/dev/null 2>&1 \
    || fail "node is missing: install Node.js ${NODE_MAJOR}.x (https://nodejs.org or nvm install ${NODE_MAJOR})"
  local version
  version="$(node --version)"
  [[ "${version}" == "v${NODE_MAJOR}."* ]] \
    || fail "node ${version} found, Node.js ${NODE_MAJOR}.x required (nvm install ${NODE_MAJOR})"
  echo "node ${version} ready"
}

require_go() {
  command -v go >/dev/null 2>&1 \
    || fail "go is missing: install Go >= 1.22 (https://go.dev/dl/) to build nats-server and ferretdb"
  echo "$(go version | cut -d' ' -f3) ready"
}

# Links .tools/bin/<binary> to <cache>/<binary>@<key> when that is built;
# returns 1 when it is not (the caller builds it with build_into_cache).
link_from_cache() {
  local binary="$1" key="$2"
  local cached="${cache_bin}/${binary}@${key}${key_suffix}"
  [[ -x "${cached}" ]] || return 1
  ln -sfn "${cached}" "${tools_bin}/${binary}"
}

# build_into_cache <binary> <key> <command...>: runs the command with $OUT set
# to a scratch file path, then moves the result into the cache atomically (two
# clones building at once each get a whole binary) and links it.
build_into_cache() {
  local binary="$1" key="$2"
  shift 2
  mkdir -p "${cache_bin}"
  local scratch
  scratch="$(mktemp -d "${cache_bin}/.build-${binary}.XXXXXX")"
  OUT="${scratch}/${binary}" "$@"
  mv -f "${scratch}/${binary}" "${cache_bin}/${binary}@${key}${key_suffix}"
  rm -rf "${scratch}"
  link_from_cache "${binary}" "${key}"
}

go_install_to_out() {
  local module="$1"
  GOBIN="$(dirname "${OUT}")" go install "${go_build_flags[@]}" "${module}"
  # go install names the binary after the module's last path element.
  local built
  built="$(dirname "${OUT}")/$(basename "${module%@*}")"
  [[ "$(basename "${module%@*}")" =~ ^v[0-9]+$ ]] && built="$(dirname "${OUT}")/$(basename "$(dirname "${module%@*}")")"
  [[ "${built}" == "${OUT}" ]] || mv -f "${built}" "${OUT}"
}

install_nats_server() {
  if link_from_cache nats-server "${NATS_SERVER_VERSION}"; then
    echo "nats-server ${NATS_SERVER_VERSION} ready (cached in ${cache_bin})"
    return
  fi
  build_into_cache nats-server "${NATS_SERVER_VERSION}" go_install_to_out "github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}"
  echo "nats-server ${NATS_SERVER_VERSION} ready"
}

# FerretDB's own command cannot be installed from the module proxy, so we build
# a small launcher around its embeddable package (see ferretdb-launcher/main.go).
install_ferretdb() {
  local src="${devstack_dir}/ferretdb-launcher"
  # Keyed by the launcher's sources (go.mod pins FerretDB): a change rebuilds it.
  local key
  key="v1.24.0-$(cd "${src}" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)"
  if link_from_cache ferretdb "${key}"; then
    echo "ferretdb (embedded FerretDB v1.24.0) ready (cached in ${cache_bin})"
    return
  fi
  build_ferretdb() { (cd "${src}" && go build -trimpath "${go_build_flags[@]}" -o "${OUT}" .); }
  build_into_cache ferretdb "${key}" build_ferretdb
  echo "ferretdb (embedded FerretDB v1.24.0) ready"
}

# The bundled NATS image's startup probe (images/nats/meta-check/main.go):
# standard library only. Built with the platform too, where the integration
# tests run it against real nats-servers.
install_nats_meta_check() {
  local src="${devstack_dir}/images/nats/meta-check"
  # Keyed by its sources: a change rebuilds it.
  local key
  key="$(cd "${src}" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)"
  if link_from_cache nats-meta-check "${key}"; then
    echo "nats-meta-check ready (cached in ${cache_bin})"
    return
  fi
  build_nats_meta_check() { (cd "${src}" && go build -trimpath "${go_build_flags[@]}" -o "${OUT}" .); }
  build_into_cache nats-meta-check "${key}" build_nats_meta_check
  echo "nats-meta-check ready"
}

ensure_pnpm() {
  if [[ "$(pnpm --version 2>/dev/null || true)" == "${PNPM_VERSION}" ]]; then
    echo "pnpm ${PNPM_VERSION} ready"
    return
  fi
  command -v corepack >/dev/null 2>&1 \
    || fail "corepack is missing: it ships with Node.js ${NODE_MAJOR}; reinstall Node or run 'npm i -g corepack'"
  corepack enable
  [[ "$(pnpm --version 2>/dev/null || true)" == "${PNPM_VERSION}" ]] \
    || fail "pnpm ${PNPM_VERSION} is not available after 'corepack enable' (check package.json packageManager)"
  echo "pnpm ${PNPM_VERSION} ready (via corepack)"
}

packages_dir="${script_dir}/packages"

# Lines of a package list without comments or blanks.
list_entries() {
  grep -vE '^\s*(#|$)' "$1" || true
}

# install_apt_packages <list file>
install_apt_packages() {
  local list="${packages_dir}/$1"
  local wanted=() installed=() missing=()
  mapfile -t wanted < <(list_entries "${list}")
  # One dpkg-query for the whole list: one per package costs seconds on a busy machine.
  mapfile -t installed < <(dpkg-query -W -f='${Package} ${Status}\n' "${wanted[@]}" 2>/dev/null | awk '/ install ok installed$/ {print $1}')
  local pkg
  for pkg in "${wanted[@]}"; do
    [[ " ${installed[*]} " == *" ${pkg} "* ]] || missing+=("${pkg}")
  done
  if ((${#missing[@]} == 0)); then
    echo "debian packages of $1 ready ($(list_entries "${list}" | wc -l) listed)"
    return
  fi
  [[ "$(id -u)" == 0 ]] || fail "missing Debian packages, install them as root: apt-get install ${missing[*]}"
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Engines that are Python libraries Debian does not package (pdf2docx), installed
# with --no-deps into Debian's /usr/bin/python3, whose own packages (python3-fitz,
# python3-docx, python3-opencv ... in apt.txt) are their dependencies. Pinned,
# so the check is one import per package.
install_engine_python_packages() {
  local list="${packages_dir}/pip-engines.txt"
  local missing=() entry name version
  while read -r entry; do
    name="${entry%%==*}" version="${entry##*==}"
    [[ "$(/usr/bin/python3 -c "import importlib.metadata as m; print(m.version('${name}'))" 2>/dev/null || true)" == "${version}" ]] || missing+=("${entry}")
  done < <(list_entries "${list}")
  if ((${#missing[@]} == 0)); then
    echo "python engines ready ($(list_entries "${list}" | wc -l) listed)"
    return
  fi
  [[ "$(id -u)" == 0 ]] || fail "missing Python engines, install them as root: /usr/bin/python3 -m pip install --no-deps --break-system-packages ${missing[*]}"
  echo "installing Python engines: ${missing[*]}"
  /usr/bin/python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --break-system-packages "${missing[@]}"
}

install_python_tools() {
  local venv="${repo_root}/.tools/venv"
  local requirements="${packages_dir}/requirements.txt"
  local stamp="${venv}/.requirements.sha256"
  local wanted
  wanted="$(sha256sum "${requirements}" | cut -d' ' -f1)"
  if [[ -f "${stamp}" ]] && [[ "$(cat "${stamp}")" == "${wanted}" ]]; then
    echo "python tools ready (cached)"
    return
  fi
  [[ -x "${venv}/bin/python" ]] || python3 -m venv --system-site-packages "${venv}"
  if [[ -n "$(list_entries "${requirements}")" ]]; then
    "${venv}/bin/pip" install --quiet --disable-pip-version-check -r "${requirements}"
  fi
  echo "${wanted}" >"${stamp}"
  echo "python tools ready"
}

# install_go_tool <binary> <module@version>: one Go tool, cached like nats-server.
install_go_tool() {
  local binary="$1" module="$2"
  if link_from_cache "${binary}" "${module##*@}"; then
    echo "${binary} ready (cached in ${cache_bin})"
    return
  fi
  echo "building ${binary} (${module}) once into ${cache_bin} ..."
  build_into_cache "${binary}" "${module##*@}" go_install_to_out "${module}"
  echo "${binary} ready"
}

# The test-only Go tools of go-tools.txt.
install_go_tools() {
  local binary module
  while read -r binary module; do
    install_go_tool "${binary}" "${module}"
  done < <(list_entries "${packages_dir}/go-tools.txt")
}

install_platform_tools() {
  mkdir -p "${tools_bin}"
  require_node
  require_go
  install_apt_packages apt.txt
  install_engine_python_packages
  install_nats_server
  install_nats_meta_check
  install_ferretdb
  ensure_pnpm
}

install_test_tools() {
  install_platform_tools
  install_apt_packages apt-test.txt
  install_go_tools
  install_python_tools
}

# What `make images` needs: podman, buildah and debootstrap, and the servers
# the chart runs from images built here, at the versions the devstack runs,
# statically linked: their images are FROM scratch. The static binaries are
# cached beside the dynamic builds with the key suffix "-static".
install_image_tools() {
  require_go
  install_apt_packages apt-images.txt
  tools_bin="${repo_root}/.tools/image-bin"
  mkdir -p "${tools_bin}"
  export CGO_ENABLED=0
  go_build_flags=(-trimpath -ldflags=-s\ -w)
  key_suffix="-static"
  install_nats_server
  install_nats_meta_check
  install_ferretdb
  install_go_tool minio "$(list_entries "${packages_dir}/go-tools.txt" | awk '$1 == "minio" { print $2 }')"
}

case "${1:-platform}" in
  platform) install_platform_tools ;;
  test) install_test_tools ;;
  images) install_image_tools ;;
  *) fail "usage: install-tools.sh [platform|test|images] (got '$1')" ;;
esac
