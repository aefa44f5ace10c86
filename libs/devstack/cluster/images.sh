#!/usr/bin/env bash
# Builds the images the cluster itself runs, with buildah, FROM scratch plus
# the static binaries of build.sh (and Debian's busybox-static for a tiny shell
# image), each into <cache>/images/<name>.tar as a docker-archive that
# `ctr images import` reads with its name. An image already in the cache is
# reused: its file name carries the version and the binary's cache key.
#
# buildah works in a throwaway storage of its own, so nothing lands in (or
# collides with) podman's local storage that other work on the machine uses.
set -euo pipefail
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build_sh="${cluster_dir}/build.sh"

require_buildah() {
  command -v buildah >/dev/null 2>&1 || fail "buildah is missing: apt-get install buildah"
}

# image_archive <image> <input file>: the cache file of an image built from
# that input by this script (a changed binary or script gives a new name).
image_archive() {
  local image="$1" input="$2" name
  name="$(basename "${image%%:*}")-${image##*:}-$(cat "${input}" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-12)"
  echo "${cache_images}/${name}.tar"
}

# build_image <image> <user> <entrypoint> <cmd> <source dir> <archive>: copies
# the source dir to the image's root and commits it as <image> into its archive.
build_image() {
  local image="$1" user="$2" entrypoint="$3" cmd="$4" source="$5" archive="$6"
  [[ -f "${archive}" ]] && return
  note "building image ${image} ..."
  mkdir -p "${cache_images}"
  local storage container
  storage="$(mktemp -d "${cache_images}/.buildah.XXXXXX")"
  local buildah_in=(buildah --root "${storage}/root" --runroot "${storage}/runroot" --storage-driver vfs)
  container="$("${buildah_in[@]}" from --quiet scratch)"
  "${buildah_in[@]}" copy --quiet "${container}" "${source}" / >/dev/null
  "${buildah_in[@]}" config --user "${user}" --entrypoint "${entrypoint}" --cmd "${cmd}" \
    --label "org.opencontainers.image.title=${image}" "${container}"
  "${buildah_in[@]}" commit --quiet --rm "${container}" "docker-archive:${archive}.partial:${image}" >/dev/null
  mv -f "${archive}.partial" "${archive}"
  # Older builds of the same image are dead weight: they are rebuilt in
  # seconds if an older checkout asks for them again.
  local stem
  stem="$(basename "${archive}")"
  find "${cache_images}" -maxdepth 1 -name "${stem%-*}-*.tar" ! -name "${stem}" -delete
  # vfs layers can be read-only directories; make them removable first.
  chmod -R u+w "${storage}" 2>/dev/null || true
  rm -rf "${storage}"
}

# binary_image <image> <user> <dir> <binary name>...: FROM scratch with the
# binaries in <dir> (where the component's own manifests expect them); the
# first is the entrypoint.
binary_image() {
  local image="$1" user="$2" dir="$3"
  shift 3
  local first_binary first_path
  first_binary="$1"
  first_path="$(bash "${build_sh}" binary-path "${first_binary}")"
  [[ -x "${first_path}" ]] || fail "${first_binary} is not built (${first_path}): run libs/devstack/cluster/build.sh"
  local archive
  archive="$(image_archive "${image}" "${first_path}")"
  [[ -f "${archive}" ]] && { echo "${archive}"; return; }
  local root binary
  root="$(mktemp -d)"
  mkdir -p "${root}${dir}"
  for binary in "$@"; do
    install -m 0755 "$(bash "${build_sh}" binary-path "${binary}")" "${root}${dir}/${binary}"
  done
  build_image "${image}" "${user}" "[\"${dir%/}/${first_binary}\"]" '' "${root}" "${archive}"
  rm -rf "${root}"
  echo "${archive}"
}

# A shell image: Debian's busybox-static with every applet linked in /bin.
# Used by the provisioner's helper pods and by the smoke check.
busybox_image_archive() {
  local busybox=/bin/busybox
  dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'install ok installed' \
    || fail "busybox-static is missing: apt-get install busybox-static"
  local archive
  archive="$(image_archive "${busybox_image}" "${busybox}")"
  [[ -f "${archive}" ]] && { echo "${archive}"; return; }
  local root applet
  root="$(mktemp -d)"
  mkdir -p "${root}/bin" "${root}/tmp" "${root}/etc"
  install -m 0755 "${busybox}" "${root}/bin/busybox"
  for applet in $("${busybox}" --list); do
    [[ "${applet}" == busybox ]] || ln -s busybox "${root}/bin/${applet}"
  done
  chmod 1777 "${root}/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"${root}/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\n' >"${root}/etc/group"
  # No entrypoint: `kubectl run ... -- sh -c '...'` works as with any shell image.
  build_image "${busybox_image}" "0:0" '[]' '["/bin/sh"]' "${root}" "${archive}"
  rm -rf "${root}"
  echo "${archive}"
}

# Prints the archive of every cluster image, one a line (built when missing);
# `images.sh busybox` only the shell image's.
main() {
  require_buildah
  binary_image "${pause_image}" 65535:65535 / pause
  binary_image "${coredns_image}" 0:0 / coredns
  # Its manifest runs `local-path-provisioner` from the PATH.
  binary_image "${local_path_image}" 0:0 /usr/local/bin local-path-provisioner
  # KEDA's manifests run /keda and /keda-adapter as non-root and check it,
  # which needs a numeric user.
  binary_image "${keda_image}" 1000:1000 / keda keda-adapter
  busybox_image_archive
}

if [[ "${BASH_SOURCE[0]}" == "${0}" ]]; then
  case "${1:-all}" in
    all) main ;;
    busybox) busybox_image_archive ;;
    *) fail "usage: images.sh [all | busybox]" ;;
  esac
fi
