#!/usr/bin/env bash
# Builds the RockDS base image from Debian packages alone, for build machines that reach Debian's
# package repositories but no container registry: debootstrap a minimal bookworm with a Java 17
# runtime (plus ldap-utils for the health check and openssl for PEM certificates), then
# `docker import` it. The root file system is cached as a tarball, so a second run needs no network.
#
#   docker/build-base-image.sh [--tag rockds-base:bookworm-jre17] [--cache DIR] [--mirror URL] [--force]
#   docker build -f docker/Dockerfile --build-arg BASE_IMAGE=rockds-base:bookworm-jre17 -t rockds .
set -euo pipefail

tag="rockds-base:bookworm-jre17"
cache="${ROCKDS_BASE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rockds}"
mirror="http://deb.debian.org/debian"
force=false
packages="openjdk-17-jre-headless,ldap-utils,openssl,ca-certificates"

while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="$2"; shift ;;
    --cache) cache="$2"; shift ;;
    --mirror) mirror="$2"; shift ;;
    --force) force=true ;;
    --help|-H|-\?) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-base-image: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

if ! $force && docker image inspect "$tag" >/dev/null 2>&1; then
  echo "build-base-image: $tag already exists (--force rebuilds it)"
  exit 0
fi

tarball="$cache/rootfs-bookworm-jre17.tar"
if $force || [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || {
    echo "build-base-image: debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
  [ "$(id -u)" -eq 0 ] || { echo "build-base-image: debootstrap needs root" >&2; exit 1; }
  mkdir -p "$cache"
  rootfs="$(mktemp -d "$cache/rootfs.XXXXXX")"
  trap 'rm -rf "$rootfs"' EXIT
  echo "build-base-image: debootstrap bookworm (+ $packages) into $rootfs"
  debootstrap --variant=minbase --include="$packages" bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 || {
    echo "build-base-image: debootstrap failed; the end of $cache/debootstrap.log:" >&2
    tail -5 "$cache/debootstrap.log" >&2
    exit 1
  }
  # What an image needs no copy of: package lists and caches, documentation.
  rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/*
  tar --numeric-owner -C "$rootfs" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
fi

echo "build-base-image: docker import $tarball as $tag"
docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  "$tarball" "$tag" >/dev/null
docker image ls "$tag"
