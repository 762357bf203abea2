#!/usr/bin/env bash
# Device run (~20 s): clocks of each chain, ncu's dynamic SASS instruction counts, and the SASS.
. "$(dirname "$0")/../device_env.sh"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
$NVCC -O3 -arch=sm_90 -o /tmp/sass_ops "$HERE/sass_ops.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/sass_ops > "$OUT/clocks.txt" 2>&1; cat "$OUT/clocks.txt"
timeout 120 $NCU --csv --page raw --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum \
    --log-file "$OUT/ncu.csv" /tmp/sass_ops > /dev/null 2> "$OUT/ncu.err"; echo "ncu rc $?"
$NVCC -O3 -arch=sm_90 -cubin -o /tmp/sass_ops.cubin "$HERE/sass_ops.cu" && cuobjdump -sass /tmp/sass_ops.cubin \
    | sed 's@/\*[0-9a-f]*\*/@@g; s/ \+/ /g' | grep -v "^ *$" | gzip > "$OUT/sass.txt.gz"
