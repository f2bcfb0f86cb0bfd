#!/usr/bin/env bash
# Produces the reference disassembly and the raw .text bytes of one code object.
#   extract-code.sh KIND MCPU INPUT OUTDIR NAME [DIS_MCPU]
# KIND: bundle (clang offload bundle from hipcc), elf (bare code object), asm (llvm-mc source)
# Outputs: NAME.dis (llvm-objdump-15 -d), NAME.bin (.text bytes), NAME.addr (.text address).
set -euo pipefail
kind=$1 mcpu=$2 input=$3 outdir=$4 name=$5 dismcpu=${6:-$2}
elf="$outdir/$name.elf"
case $kind in
  bundle)
    clang-offload-bundler-15 --unbundle --type=o --targets="hipv4-amdgcn-amd-amdhsa--$mcpu" \
      --input="$input" --output="$elf" ;;
  elf) cp "$input" "$elf" ;;
  asm) llvm-mc-15 -arch=amdgcn -mcpu="$mcpu" -filetype=obj "$input" -o "$elf" ;;
  *) echo "extract-code.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac
llvm-objdump-15 -d --mcpu="$dismcpu" "$elf" > "$outdir/$name.dis"
llvm-objcopy-15 -O binary --only-section=.text "$elf" "$outdir/$name.bin"
llvm-objdump-15 -h "$elf" | awk '$2 == ".text" { print $4 }' > "$outdir/$name.addr"
