#!/usr/bin/env bash
# Device run: the L2 sectors by source unit / op / lookup for chosen recorded launches (profile.py),
# the lts__t_sector names this ncu knows, and the L1 size sweep (l1_size.cu) -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
ROOT=$(cd "$HERE/../../.." && pwd)
$NCU --query-metrics --chip gh100 2> /dev/null | grep -E "^lts__t_(sector|request)" > "$OUT/lts_names.txt"
nvcc -O3 -arch=sm_90 -o /tmp/l1_size "$HERE/l1_size.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/l1_size > "$OUT/l1_size_launches.txt" 2>&1
M=l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,launch__shared_mem_config_size,gpu__time_duration.sum
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/l1_size > "$OUT/l1_size_ncu.csv" 2> "$OUT/l1_size_ncu.err"
tail -2 "$OUT/l1_size_ncu.err"
( cd "$ROOT" && PYTHONPATH="$ROOT" timeout 470 python3 "$HERE/profile.py" "$OUT/l2_units.json" ) > "$OUT/profile_log.txt" 2>&1
tail -5 "$OUT/profile_log.txt"; wc -l "$OUT"/*
