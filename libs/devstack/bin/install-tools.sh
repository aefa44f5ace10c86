#!/usr/bin/env bash
# Installs the native tools the local platform and the integration tests need
# into <repo>/.tools/bin (git-ignored). Idempotent: whatever is already there at
# the right version is reused, so `make` can call this on every run.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "${script_dir}/../../.." && pwd)"
devstack_dir="${repo_root}/libs/devstack"
tools_bin="${repo_root}/.tools/bin"

NATS_SERVER_VERSION="v2.10.24"
NODE_MAJOR="20"
PNPM_VERSION="10.20.0"

# The npm registry mirror carries no corepack signatures, and nothing here may
# prompt or phone home.
export COREPACK_INTEGRITY_KEYS=0 COREPACK_ENABLE_DOWNLOAD_PROMPT=0
# Build tags/VCS stamping would need a git checkout of the module; we have none.
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

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

install_nats_server() {
  local bin="${tools_bin}/nats-server"
  if [[ -x "${bin}" ]] && "${bin}" --version 2>/dev/null | grep -q "${NATS_SERVER_VERSION}"; then
    echo "nats-server ${NATS_SERVER_VERSION} ready (cached)"
    return
  fi
  GOBIN="${tools_bin}" go install "github.com/nats-io/nats-server/v2@${NATS_SERVER_VERSION}"
  echo "nats-server ${NATS_SERVER_VERSION} ready"
}

# FerretDB's own command cannot be installed from the module proxy, so we build
# a small launcher around its embeddable package (see ferretdb-launcher/main.go).
install_ferretdb() {
  local bin="${tools_bin}/ferretdb"
  local src="${devstack_dir}/ferretdb-launcher"
  if [[ -x "${bin}" ]] && [[ -z "$(find "${src}" -type f -newer "${bin}" -print -quit)" ]]; then
    echo "ferretdb (embedded FerretDB v1.24.0) ready (cached)"
    return
  fi
  (cd "${src}" && go build -trimpath -o "${bin}" .)
  echo "ferretdb (embedded FerretDB v1.24.0) ready"
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

install_apt_packages() {
  local missing=()
  local pkg
  while read -r pkg; do
    dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q 'install ok installed' || missing+=("${pkg}")
  done < <(list_entries "${packages_dir}/apt.txt")
  if ((${#missing[@]} == 0)); then
    echo "debian packages ready ($(list_entries "${packages_dir}/apt.txt" | wc -l) listed)"
    return
  fi
  [[ "$(id -u)" == 0 ]] || fail "missing Debian packages, install them as root: apt-get install ${missing[*]}"
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
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

install_go_tools() {
  local binary module
  while read -r binary module; do
    if [[ -x "${tools_bin}/${binary}" ]] && [[ -f "${tools_bin}/.${binary}.version" ]] \
      && [[ "$(cat "${tools_bin}/.${binary}.version")" == "${module}" ]]; then
      echo "${binary} ready (cached)"
      continue
    fi
    GOBIN="${tools_bin}" go install "${module}"
    echo "${module}" >"${tools_bin}/.${binary}.version"
    echo "${binary} ready"
  done < <(list_entries "${packages_dir}/go-tools.txt")
}

main() {
  mkdir -p "${tools_bin}"
  require_node
  require_go
  install_apt_packages
  install_nats_server
  install_ferretdb
  install_go_tools
  install_python_tools
  ensure_pnpm
}

main "$@"
