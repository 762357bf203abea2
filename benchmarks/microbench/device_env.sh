# Sourced first by the device run scripts (`. "$(dirname "$0")/../device_env.sh"`): sets HERE (the
# script's folder), OUT (default HERE/results, created), NCU, and records the chip in $OUT/gpu.txt
# (floorsweeping, and so the SM topology, differs between chips).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
OUT=${OUT:-$HERE/results}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
