#!/usr/bin/env bash
# Device run (~1 minute): probe.cu's tests with plain loads (bits.bin) and with .ca loads, which
# ptxas makes strong SM-scope ones (bits_strong.bin); the carveout under ncu.
# `run.sh sets` / `run.sh pairs` / `run.sh pairs2`: make_tests.py --sets / --pairs / --pairs2, plain
# loads only.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/l1_sets "$HERE/probe.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
if [[ "${1:-}" =~ ^(sets|pairs|pairs2)$ ]]; then
    python3 "$HERE/make_tests.py" "$OUT/tests.txt" --$1
    /tmp/l1_sets "$OUT/tests.txt" "$OUT/bits.bin" > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
    wc -l "$OUT/launches.txt"
    exit 0
fi
python3 "$HERE/make_tests.py" "$OUT/tests.txt"
nvcc -O3 -arch=sm_90 -DPROBE_LOAD='"ld.global.ca.u32"' -o /tmp/l1_sets_strong "$HERE/probe.cu" >> "$OUT/build.txt" 2>&1 || exit 1
for b in l1_sets l1_sets_strong; do cuobjdump -sass /tmp/$b | grep -E -A2 "CS2R" | grep LDG | head -2; done >> "$OUT/build.txt"
/tmp/l1_sets "$OUT/tests.txt" "$OUT/bits.bin" > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
/tmp/l1_sets_strong "$OUT/tests.txt" "$OUT/bits_strong.bin" > /dev/null 2>&1 || exit 1
$NCU --csv --page raw --print-units base --metrics launch__shared_mem_config_size \
    /tmp/l1_sets "$OUT/tests.txt" /tmp/bits3.bin > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
cat "$OUT/build.txt"; wc -l "$OUT/launches.txt"
