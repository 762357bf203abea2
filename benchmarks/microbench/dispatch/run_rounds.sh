#!/usr/bin/env bash
# Device run: CTA -> SM placement of launches of several full rounds (all CTAs resident at once),
# twice plain, and the chip's GPCs from clusters of 8 (results_rounds/).
OUT=${OUT:-$(cd "$(dirname "$0")" && pwd)/results_rounds}
. "$(dirname "$0")/../device_env.sh"
L=264:256:0,396:256:0,512:256:0,528:256:0,660:256:0,1056:256:0,512:256:49152,528:256:49152,264:1024:0,512:128:0,400:256:0,300:256:0
nvcc -O3 -arch=sm_90 -o /tmp/smid_rounds "$HERE/smid_rounds.cu" || exit 1
for r in 1 2; do /tmp/smid_rounds $L > "$OUT/plain_$r.txt" 2>&1; done
/tmp/smid_rounds clusters > "$OUT/clusters.txt" 2>&1
echo done >> "$OUT/runs.txt"
