// FlashAttention-style attention forward pass, float32.
//
//   O = softmax(Q K^T * scale) V        Q: [BH, Sq, D]   K, V: [BH, Sk, D]   O: [BH, Sq, D]
//
// (BH = batch * heads, flattened; every tensor is row-major and contiguous.)
//
// The naive way materialises the Sq x Sk score matrix S = Q K^T, then softmax, then P V: that
// writes and re-reads Sq*Sk floats in global memory.  FlashAttention never stores S.  A CTA owns
// a tile of BLOCK_Q query rows and streams K and V through shared memory BLOCK_K rows at a time.
// Softmax needs the maximum of the whole row before it can exponentiate, so the kernel keeps, per
// query row, a running maximum m, a running sum l = sum exp(s - m) and an unnormalised output
// o = sum exp(s - m) v.  When a new tile brings a larger maximum m_new, everything accumulated so
// far was computed relative to the old m and is rescaled by alpha = exp(m - m_new):
//
//     l <- l * alpha + sum_j exp(s_j - m_new)
//     o <- o * alpha + sum_j exp(s_j - m_new) v_j
//
// After the last tile, O = o / l.  This is the "online softmax"; the result is exact, not an
// approximation (up to float rounding).
//
// Thread mapping: one thread per query row.  Its query row q[] and accumulator o[] live in
// registers (HEAD_DIM, a multiple of 4, is a compile-time constant, as in the real FlashAttention,
// which is specialised per head dimension), and all threads read the same K/V element of shared
// memory at once (a broadcast: no bank conflict), four floats per instruction (float4).
//
// Compile-time parameters (pass -DHEAD_DIM=128 etc. in the RawModule options):
//   HEAD_DIM  head dimension D, a multiple of 4; default 64, supported up to 128 (2*D registers)
//   BLOCK_Q   query rows per CTA = threads per CTA; default 64
//   BLOCK_K   key/value rows per shared-memory tile; default 32
// Sequence lengths are runtime values and need not be multiples of the tiles.
//
// causal != 0 masks key j for query i unless j <= i + (Sk - Sq) (bottom-right aligned, so that the
// last query sees every key, as in decoding).  A query that sees no key at all gets O = 0.

#ifndef HEAD_DIM
#define HEAD_DIM 64
#endif
#ifndef BLOCK_Q
#define BLOCK_Q 64
#endif
#ifndef BLOCK_K
#define BLOCK_K 32
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)   // +inf (no CUDA headers under NVRTC)
#endif

// Online-softmax attention of query row `q_row` of one (batch, head) over keys [kv_begin, kv_end).
// Every thread of the CTA must call it with the same kv range (it contains __syncthreads);
// threads whose q_row >= Sq help load the tiles but compute nothing.
// On return o[] holds the unnormalised output, m the running max and l the running sum.
__device__ __forceinline__ void attend_range(
    const float* __restrict__ Qbh, const float* __restrict__ Kbh, const float* __restrict__ Vbh,
    int Sq, int Sk, int q_row, int kv_begin, int kv_end, float scale, int causal,
    float (&o)[HEAD_DIM], float& m, float& l)
{
    // 16-byte aligned so that a row can be read as float4 (ld.shared.v4: 4 floats per instruction)
    __shared__ __align__(16) float Ks[BLOCK_K][HEAD_DIM];
    __shared__ __align__(16) float Vs[BLOCK_K][HEAD_DIM];
    // This thread's scores for the current tile.  Row length BLOCK_K + 1, not BLOCK_K: thread t
    // uses row t, and the padding puts the 32 threads of a warp in 32 different banks.
    __shared__ float Ss[BLOCK_Q][BLOCK_K + 1];

    const bool valid = q_row < Sq;
    const int last_visible = q_row + (Sk - Sq);   // causal: the last key this query may see
    float* my_s = Ss[threadIdx.x];

    float q[HEAD_DIM];
#pragma unroll
    for (int d = 0; d < HEAD_DIM; ++d) {
        q[d] = valid ? Qbh[q_row * HEAD_DIM + d] * scale : 0.0f;   // fold the scale into q
        o[d] = 0.0f;
    }
    m = -INFINITY;
    l = 0.0f;

    for (int k0 = kv_begin; k0 < kv_end; k0 += BLOCK_K) {
        const int n = min(BLOCK_K, kv_end - k0);   // keys in this tile
        // The CTA copies n rows of K and V into shared memory (coalesced loads).
        for (int e = threadIdx.x; e < n * HEAD_DIM; e += BLOCK_Q) {
            int r = e / HEAD_DIM, c = e % HEAD_DIM;
            Ks[r][c] = Kbh[(k0 + r) * HEAD_DIM + c];
            Vs[r][c] = Vbh[(k0 + r) * HEAD_DIM + c];
        }
        __syncthreads();

        if (valid) {
            // 1. scores s_j = q . k_j of this tile, and their maximum
            float tile_max = -INFINITY;
            for (int j = 0; j < n; ++j) {
                float dot = 0.0f;
#pragma unroll
                for (int d = 0; d < HEAD_DIM; d += 4) {
                    float4 k4 = *reinterpret_cast<const float4*>(&Ks[j][d]);   // broadcast
                    dot = fmaf(q[d], k4.x, dot);
                    dot = fmaf(q[d + 1], k4.y, dot);
                    dot = fmaf(q[d + 2], k4.z, dot);
                    dot = fmaf(q[d + 3], k4.w, dot);
                }
                bool visible = !causal || k0 + j <= last_visible;
                float s = visible ? dot : -INFINITY;
                my_s[j] = s;
                tile_max = fmaxf(tile_max, s);
            }
            // 2. new running max; rescale what was accumulated under the old one
            float m_new = fmaxf(m, tile_max);
            // No visible key yet: m_new = -inf.  Subtract 0 instead so exp gives 0, not NaN.
            float m_safe = (m_new == -INFINITY) ? 0.0f : m_new;
            float alpha = __expf(m - m_safe);
            l *= alpha;
#pragma unroll
            for (int d = 0; d < HEAD_DIM; ++d)
                o[d] *= alpha;
            // 3. p_j = exp(s_j - m_new);  l += p_j;  o += p_j v_j
            for (int j = 0; j < n; ++j) {
                float p = __expf(my_s[j] - m_safe);   // 0 for masked keys
                l += p;
#pragma unroll
                for (int d = 0; d < HEAD_DIM; d += 4) {
                    float4 v4 = *reinterpret_cast<const float4*>(&Vs[j][d]);   // broadcast
                    o[d] = fmaf(p, v4.x, o[d]);
                    o[d + 1] = fmaf(p, v4.y, o[d + 1]);
                    o[d + 2] = fmaf(p, v4.z, o[d + 2]);
                    o[d + 3] = fmaf(p, v4.w, o[d + 3]);
                }
            }
            m = m_new;
        }
        __syncthreads();   // the tile may be overwritten only when every thread is done with it
    }
}

// The keys a CTA of queries [q0, q0 + BLOCK_Q) needs at most: with a causal mask, none past the
// last query's last visible key (whole tiles are skipped, not just masked).
__device__ __forceinline__ int causal_kv_end(int kv_end, int q0, int Sq, int Sk, int causal)
{
    if (!causal) return kv_end;
    int q_last = min(q0 + BLOCK_Q, Sq) - 1;
    return min(kv_end, q_last + (Sk - Sq) + 1);
}

// grid = (ceil(Sq / BLOCK_Q), BH), block = BLOCK_Q.
extern "C" __global__ void flash_attn_fwd(const float* __restrict__ Q, const float* __restrict__ K,
                                          const float* __restrict__ V, float* __restrict__ O,
                                          int Sq, int Sk, float scale, int causal)
{
    const int bh = blockIdx.y;
    const int q0 = blockIdx.x * BLOCK_Q;
    const int q_row = q0 + threadIdx.x;
    const float* Qbh = Q + (size_t)bh * Sq * HEAD_DIM;
    const float* Kbh = K + (size_t)bh * Sk * HEAD_DIM;
    const float* Vbh = V + (size_t)bh * Sk * HEAD_DIM;

    float o[HEAD_DIM], m, l;
    attend_range(Qbh, Kbh, Vbh, Sq, Sk, q_row, 0, causal_kv_end(Sk, q0, Sq, Sk, causal),
                 scale, causal, o, m, l);

    if (q_row < Sq) {
        float inv_l = l > 0.0f ? 1.0f / l : 0.0f;
        float* Orow = O + ((size_t)bh * Sq + q_row) * HEAD_DIM;
#pragma unroll
        for (int d = 0; d < HEAD_DIM; ++d)
            Orow[d] = o[d] * inv_l;
    }
}

// Split-KV ("flash decoding"): when there are few query tiles (decoding, short prompts, long
// context) one CTA per query tile leaves most SMs idle.  Cut the keys into num_splits chunks and
// give each chunk its own CTA: grid = (ceil(Sq / BLOCK_Q), BH, num_splits).  Each CTA writes a
// partial result for its chunk: O normalised within the chunk, and its m and l.
//   Opart: [num_splits, BH, Sq, HEAD_DIM]   Mpart, Lpart: [num_splits, BH, Sq]
extern "C" __global__ void flash_attn_splitkv(const float* __restrict__ Q, const float* __restrict__ K,
                                              const float* __restrict__ V, float* __restrict__ Opart,
                                              float* __restrict__ Mpart, float* __restrict__ Lpart,
                                              int Sq, int Sk, float scale, int causal, int chunk)
{
    const int bh = blockIdx.y, split = blockIdx.z, BH = gridDim.y;
    const int q0 = blockIdx.x * BLOCK_Q;
    const int q_row = q0 + threadIdx.x;
    const int kv_begin = split * chunk;
    const int kv_end = causal_kv_end(min(Sk, kv_begin + chunk), q0, Sq, Sk, causal);
    const float* Qbh = Q + (size_t)bh * Sq * HEAD_DIM;
    const float* Kbh = K + (size_t)bh * Sk * HEAD_DIM;
    const float* Vbh = V + (size_t)bh * Sk * HEAD_DIM;

    float o[HEAD_DIM], m, l;
    attend_range(Qbh, Kbh, Vbh, Sq, Sk, q_row, kv_begin, kv_end, scale, causal, o, m, l);

    if (q_row < Sq) {
        size_t row = ((size_t)split * BH + bh) * Sq + q_row;
        float inv_l = l > 0.0f ? 1.0f / l : 0.0f;
#pragma unroll
        for (int d = 0; d < HEAD_DIM; ++d)
            Opart[row * HEAD_DIM + d] = o[d] * inv_l;
        Mpart[row] = m;      // -inf when the chunk had no visible key
        Lpart[row] = l;      // 0 then
    }
}

// Combine the split-KV partials.  Chunk s holds O_s = o_s / l_s with its own max m_s.  Relative to
// the global max M = max_s m_s, chunk s carries total weight w_s = l_s * exp(m_s - M), and
//     O = sum_s w_s O_s / sum_s w_s.
// One thread per output element, grid-stride loop: any grid size works.
extern "C" __global__ void flash_attn_combine(const float* __restrict__ Opart, const float* __restrict__ Mpart,
                                              const float* __restrict__ Lpart, float* __restrict__ O,
                                              int rows, int D, int num_splits)
{
    // rows = BH * Sq
    const int total = rows * D;
    for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += gridDim.x * blockDim.x) {
        int row = idx / D;
        float M = -INFINITY;
        for (int s = 0; s < num_splits; ++s)
            M = fmaxf(M, Mpart[s * rows + row]);
        float num = 0.0f, den = 0.0f;
        for (int s = 0; s < num_splits; ++s) {
            float l = Lpart[s * rows + row];
            if (l > 0.0f) {                                   // skip chunks with no visible key
                float w = l * expf(Mpart[s * rows + row] - M);
                num += w * Opart[(size_t)s * rows * D + idx];
                den += w;
            }
        }
        O[idx] = den > 0.0f ? num / den : 0.0f;
    }
}
