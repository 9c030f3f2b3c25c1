#!/usr/bin/env bash
# Installs what arena needs to build and test, from Debian 12 packages, when it is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ clang libclang-rt-14-dev ccache
  libasio-dev libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev
  libarchive-dev  # unpacking hand-ins (docs/handin.md)
  libsodium-dev pkg-config  # hand-ins' hashes (arena handin batch)
  libcpp-httplib-dev  # HTTP for arena web and the course server (docs/course.md)
  libsqlite3-dev  # the course server's storage
  default-jdk-headless
  bubblewrap util-linux  # the agents' sandbox (docs/sandbox.md)
  slurm-wlm munge  # the test of tournaments on a Slurm cluster (tests/slurm)
  qemu-system-x86 mmdebstrap e2fsprogs python3  # the cgroup v2 guest (tests/vm)
  chromium  # the web viewer's browser test (tests/browser)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# Node and npm for the browser test: any installed ones will do (e.g. a nodejs that bundles npm).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
