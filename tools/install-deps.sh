#!/usr/bin/env bash
# Installs the Debian packages loom builds and tests with, when any is missing (the CUDA toolkit
# itself is not a Debian package here: it is expected at /usr/local/cuda). Quiet and quick when
# everything is there. Uses sudo when not run as root.
#
#   cmake, ninja-build, g++   the build
#   libfmt-dev, libxxhash-dev the library's dependencies (fmt header-only, xxHash)
#   zlib1g-dev                .npz archives (deflate, CRC-32)
#   libdlpack-dev             DLPack (interop with PyTorch, CuPy, JAX)
#   catch2                    the tests (Catch2 v2)
#   valgrind                  the exit-time test of arrays with static storage (optional)
#   python3-numpy             the .npy tests (files written and read by NumPy)
set -euo pipefail
packages=(cmake ninja-build g++ libfmt-dev libxxhash-dev zlib1g-dev libdlpack-dev catch2 valgrind python3-numpy)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" > /dev/null
