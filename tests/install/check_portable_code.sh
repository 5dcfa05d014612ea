#!/usr/bin/env bash
# Fails when a program, library or object archive holds an instruction beyond the x86-64
# baseline's SSE2 that a package must not assume: a ymm / zmm register (AVX, AVX2, AVX-512), an
# AVX-512 mask register, or a VEX-encoded (v-prefixed) instruction on xmm registers (objdump -d).
# A -march=native build on an AVX-512 machine has tens of thousands (issue #43).
#   check_portable_code.sh FILE...
set -euo pipefail
status=0
for file in "$@"; do
  count=$(objdump -d --no-show-raw-insn "$file" |
    grep -cE '%[yz]mm[0-9]|%k[1-7]\b|\sv[a-z0-9]+\s+[^#]*%xmm' || true)
  if [ "$count" != 0 ]; then
    echo "FAIL: $file holds $count AVX/AVX2/AVX-512 instructions" >&2
    status=1
  fi
done
exit $status
