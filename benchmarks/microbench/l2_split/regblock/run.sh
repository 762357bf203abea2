#!/usr/bin/env bash
# Device run (about a minute): the three variants under ncu, 3 launches each, L2 read sectors,
# time and the per-tile stamps of every CTA into $OUT.
. "$(dirname "$0")/../../device_env.sh"
M=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct
timeout 300 $NCU --csv --page raw --metrics $M --log-file "$OUT/ncu.csv" \
    python3 "$HERE/stamps.py" 3 "$OUT/stamps.jsonl" > "$OUT/stamps.log" 2>&1
echo "rc $?"; tail -3 "$OUT/stamps.log"; gzip -f "$OUT/stamps.jsonl"; ls -la "$OUT"
