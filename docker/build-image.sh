#!/usr/bin/env bash
# Builds the RockDS image from the distribution: unpacks distribution/target/rockds-*.tar.gz (or the
# tarball given) into a temporary directory and runs docker build there, so the image holds exactly
# what an operator would install. Run ./mvnw -DskipTests package first.
#   docker/build-image.sh [--base IMAGE] [--tag TAG] [--tarball FILE] [-- extra docker build arguments]
# --base defaults to rockds-base:bookworm-jre17 when that image exists (docker/build-base-image.sh),
# else eclipse-temurin:17-jre.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
tag="rockds:latest"
base=""
tarball=""
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift ;;
    --tag) tag="$2"; shift ;;
    --tarball) tarball="$2"; shift ;;
    --) shift; break ;;
    --help|-H|-\?) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-image: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$tarball" ]; then
  tarball="$(find "$repo/distribution/target" -maxdepth 1 -name 'rockds-*.tar.gz' 2>/dev/null | head -1)"
  [ -n "$tarball" ] || { echo "build-image: no distribution/target/rockds-*.tar.gz: run ./mvnw -DskipTests package" >&2; exit 1; }
fi
if [ -z "$base" ]; then
  base="eclipse-temurin:17-jre"
  docker image inspect rockds-base:bookworm-jre17 >/dev/null 2>&1 && base="rockds-base:bookworm-jre17"
fi
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
tar -xzf "$tarball" -C "$context" --strip-components=1
echo "build-image: $tag from $(basename "$tarball") on $base"
docker build -q -f "$context/docker/Dockerfile" --build-arg "BASE_IMAGE=$base" -t "$tag" "$@" "$context"
