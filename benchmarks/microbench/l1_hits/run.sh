#!/usr/bin/env bash
# Device run: (1) ncu's L1 hit split (loads vs stores) and the DRAM reads of built-in programs at a
# few sizes; (2) code_fetch.cu: DRAM sectors read by kernels that read no data, against their code
# size. Everything under $OUT (tarred to $OUT/l1_hits.tgz by the caller if wanted).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
# metrics this ncu knows, from a wish list (an unknown name would abort the whole run)
$NCU --query-metrics --chip gh100 > "$OUT/query.txt" 2>&1
python3 - "$OUT/query.txt" > "$OUT/metrics.txt" <<'PY'
import re, sys
known = {l.split()[0] for l in open(sys.argv[1]) if l.strip() and not l.startswith(('-', 'Device', 'Metric'))}
want = """l1tex__t_sector_hit_rate.pct l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum l1tex__t_sectors_lookup_hit.sum l1tex__t_sectors_lookup_miss.sum
l1tex__t_sectors.sum l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_req.sum
lts__t_sectors_srcunit_tex_op_read.sum dram__sectors_read.sum lts__t_sectors.sum lts__t_sectors_op_read.sum
lts__t_sectors_srcunit_tex.sum lts__t_sector_hit_rate.pct lts__t_sectors_lookup_hit.sum lts__t_sectors_lookup_miss.sum
lts__t_sectors_srcunit_tex_lookup_hit.sum lts__t_sectors_srcunit_tex_lookup_miss.sum gpu__time_duration.sum""".split()
extra = sorted(k + ".sum" for k in known if re.fullmatch(r"lts__t_sectors_srcunit_[a-z0-9]+(_op_read)?", k))
print(",".join([m for m in want if m.rsplit(".", 1)[0] in known] + extra))
PY
M=$(cat "$OUT/metrics.txt")
echo "metrics: $M" > "$OUT/log.txt"
# (1) programs
export SIMGPU_PROGRAMS_BACKEND=cupy
timeout 400 $NCU --clock-control none --csv --page raw --print-units base --metrics "$M" \
  python3 "$HERE/programs_ncu.py" > "$OUT/programs.csv" 2> "$OUT/programs.err"
# (2) code fetch
nvcc -O3 -arch=sm_90 -o /tmp/code_fetch "$HERE/code_fetch.cu" >> "$OUT/log.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/code_fetch > "$OUT/code_fetch_sass.txt" 2>&1
timeout 150 $NCU --clock-control none --csv --page raw --print-units base --metrics "$M" \
  /tmp/code_fetch > "$OUT/code_fetch.csv" 2> "$OUT/code_fetch.err"
# SASS of the programs' kernels at their default sizes (nvcc, as an estimate of what NVRTC + the driver make)
R="$HERE/../../../programs"
for f in gemm attention paged transpose reduce; do
  nvcc -cubin -arch=sm_90 -O3 -o /tmp/$f.cubin "$R/$f.cu" >> "$OUT/log.txt" 2>&1 && cuobjdump -sass /tmp/$f.cubin > "$OUT/sass_$f.txt" 2>&1
done
echo done >> "$OUT/log.txt"
