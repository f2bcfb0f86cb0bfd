#!/usr/bin/env bash
# Compiles one test kernel with the real AMD toolchain.
#   compile-kernel.sh MODE ARCH SOURCE OUTPUT DEVICE_LIB_DIR
# MODE: hip     hipcc --genco (clang offload bundle around a code object v4 ELF); ARCH may list
#               several processors (gfx900,gfx906: one bundle entry each)
#       hip-v5  code object v5 from the same HIP source (bare ELF)
#       cl      clang-15 OpenCL C (bare ELF, code object v4)
#       cl-v5   clang-15 OpenCL C, code object v5
#       cl-names   as cl, with -cl-kernel-arg-info: the metadata names each argument (.name)
#       cl-flat-scratch   as cl, private memory through scratch_* instructions
#
# Code object v5: Debian's clang 15 generates v5 code and metadata, but its ld.lld 15 refuses to
# link an object whose ELF ABI version byte says v5 ("unknown abi version"). We compile to a
# relocatable object, link it with the byte set to v4 and set it back to v5 in the output, so the
# code, the kernel descriptors and the v5 metadata are exactly what clang produced.
set -euo pipefail
mode=$1 arch=$2 src=$3 out=$4 libdir=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# hipcc (clang 15's HIP driver) leaves an empty NAME-XXXXXX directory in TMPDIR per compile.
export TMPDIR=$tmp

# hipcc asks rocm_agent_enumerator for GPUs and prints a traceback when there is none; the
# target is explicit, so that noise is kept out of the build log unless the compile fails.
quiet() { if ! "$@" 2>"$tmp/err"; then cat "$tmp/err" >&2; exit 1; fi; }
set_abi_byte() { printf "\\x$2" | dd of="$1" bs=1 seek=8 conv=notrunc status=none; }
link_v5() {
  set_abi_byte "$1" 02
  ld.lld-15 -shared "$1" -o "$out"
  set_abi_byte "$out" 03
}

case $mode in
  hip)
    archs=()
    for a in ${arch//,/ }; do archs+=(--offload-arch="$a"); done
    quiet hipcc "${archs[@]}" --genco -O2 "$src" -o "$out" ;;
  hip-v5)
    quiet hipcc --offload-arch="$arch" --cuda-device-only -fgpu-rdc -c -O2 -mcode-object-version=5 \
      "$src" -o "$tmp/k.bc"
    clang-15 --target=amdgcn-amd-amdhsa -mcpu="$arch" -O2 -mcode-object-version=5 -nogpulib \
      -c "$tmp/k.bc" -o "$tmp/k.o"
    link_v5 "$tmp/k.o" ;;
  cl)
    clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$arch" -O2 \
      --rocm-device-lib-path="$libdir" "$src" -o "$out" ;;
  cl-names)
    clang-15 -x cl -cl-std=CL2.0 -cl-kernel-arg-info --target=amdgcn-amd-amdhsa -mcpu="$arch" -O2 \
      --rocm-device-lib-path="$libdir" "$src" -o "$out" ;;
  cl-flat-scratch)
    # Private memory through FLAT_SCRATCH (scratch_* instructions, several dwords at a time)
    # instead of the private segment buffer (buffer_* ... offen): LLVM's enable-flat-scratch.
    clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$arch" -O2 \
      -Xclang -target-feature -Xclang +enable-flat-scratch \
      --rocm-device-lib-path="$libdir" "$src" -o "$out" ;;
  cl-v5)
    clang-15 -x cl -cl-std=CL2.0 --target=amdgcn-amd-amdhsa -mcpu="$arch" -O2 \
      -mcode-object-version=5 --rocm-device-lib-path="$libdir" -c "$src" -o "$tmp/k.o"
    link_v5 "$tmp/k.o" ;;
  *) echo "compile-kernel.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
