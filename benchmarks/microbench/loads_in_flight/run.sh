#!/usr/bin/env bash
# Device run: nvcc cubin of kernels.cu (its SASS in $OUT/sass.txt), run.py, then ncu's source page
# (SASS lines with stall samples) and details page of the recorded launches whose loops ptxas unrolls.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
ROOT=$(cd "$HERE/../../.." && pwd)
mkdir -p /tmp/cubins
nvcc -cubin -arch=sm_90 -O3 -o /tmp/cubins/lif.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/cubins/lif.cubin > "$OUT/sass.txt" 2>&1
cd "$HERE" && python3 run.py "$OUT" /tmp/cubins/lif.cubin || exit 1
CASES=${CASES:-"typical10:dgemv_t_cols typical3:dgemm_naive typical:gemv_cols typical12:col_sum_double typical5:int8_gemv_dp4a typical2:rows_runtime_trip typical4:batched_vecmat"}
for fc in $CASES; do
    f=${fc%%:*} k=${fc##*:}
    [ -f /tmp/cubins/$f.cubin ] || nvcc -cubin -arch=sm_90 -O3 -o /tmp/cubins/$f.cubin "$ROOT/validation/$f/kernels.cu" >> "$OUT/build.txt" 2>&1
    timeout 120 $NCU --clock-control none --set full --import-source no -k "regex:^$k\$" -c 1 -o /tmp/ncu_$k -f \
        python3 suite_launch.py $f $k /tmp/cubins/$f.cubin > /tmp/ncu_$k.log 2>&1 || tail -3 /tmp/ncu_$k.log
    $NCU -i /tmp/ncu_$k.ncu-rep --page source --csv --print-source sass > "$OUT/src_$k.csv" 2>&1
    $NCU -i /tmp/ncu_$k.ncu-rep --page details >> "$OUT/details.txt" 2>&1
done
ls -la "$OUT"
