#!/usr/bin/env bash
# On a GPU host: build drift.cu with nvcc for sm_90 and run drift.py; results in $1 (default results/).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
OUT="${1:-$HERE/results}"
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,uuid --format=csv,noheader > "$OUT/gpu.txt"
nvcc -cubin -arch=sm_90 -O3 -o /tmp/drift.cubin "$HERE/drift.cu"
python "$HERE/drift.py" "$OUT" /tmp/drift.cubin
