#!/usr/bin/env bash
# Device run (~1 min): empty kernels and vector adds under ncu (gpu__time_duration), then the
# per-warp SM-clock stamps without ncu -> $OUT (results/ by default).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
$NCU --clock-control none -k "regex:^(empty_k|vadd)$" --csv --page raw --print-units base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg \
    python "$HERE/turnover.py" empty "$OUT" > "$OUT/ncu.csv" 2> "$OUT/ncu.err" || { tail -5 "$OUT/ncu.err"; exit 1; }
python "$HERE/turnover.py" stamps "$OUT" || exit 1
tail -2 "$OUT/ncu.err"; wc -l "$OUT/ncu.csv" "$OUT/launches.txt"; ls -la "$OUT"
