# Device: the SASS of spacing.py's and misses.py's kernels (nvcc -O3, sm_90) into $OUT, to compare their timed loops.
cd benchmarks/microbench/l1_lines
python3 - <<'PY'
for f, k in (("spacing.py", "l1_spacing"), ("misses.py", "l1_misses")):
    src = open(f).read().split("SRC = r'''")[1].split("'''")[0]
    open(f"/tmp/{k}.cu", "w").write(src)
PY
for k in l1_spacing l1_misses; do
  nvcc -cubin -arch=sm_90 -O3 -o /tmp/$k.cubin /tmp/$k.cu && cuobjdump -sass /tmp/$k.cubin | grep -E "^\s+/\*[0-9a-f]{4}\*/" | sed 's#/\* 0x[0-9a-f]* \*/##' > $OUT/sass_$k.txt
  echo "$k: $(wc -l < $OUT/sass_$k.txt) instructions, LDG $(grep -c LDG $OUT/sass_$k.txt)"
done
