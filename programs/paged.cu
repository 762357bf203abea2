// PagedAttention-style KV cache, float32.
//
// A serving engine does not give each sequence one contiguous KV buffer sized for its maximum
// length (most of it would sit empty).  It cuts the cache into fixed-size pages ("blocks") of
// block_size tokens and hands them out on demand, like an OS pages virtual memory.  A sequence's
// tokens live in pages scattered anywhere in the pool; its block table maps
//
//     logical block b of sequence s  ->  physical page block_table[s][b]
//
// so token t of sequence s sits in page block_table[s][t / block_size], slot t % block_size.
//
// Layouts (row-major, contiguous):
//   k_cache, v_cache  [num_pages, block_size, H, D]   a page holds block_size tokens of every head
//   block_table       [num_seqs, max_blocks] int32     entries past a sequence's end are unused (-1)
//   context_lens      [num_seqs] int32                 tokens in each sequence (they differ)

#ifndef MAX_HEAD_DIM
#define MAX_HEAD_DIM 128          // paged_decode_attention supports any D <= MAX_HEAD_DIM
#endif
#define DIMS_PER_LANE (MAX_HEAD_DIM / 32)
#ifndef MAX_WARPS
#define MAX_WARPS 8               // paged_decode_attention: at most 8 warps (256 threads) per CTA
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

// Copy every sequence's K and V out of the pages into one packed buffer ("varlen" layout):
// sequence s occupies rows cu_seqlens[s] .. cu_seqlens[s+1]-1 of k_out / v_out, [total_tokens, H, D].
// grid = (max_blocks, num_seqs): one CTA per logical block.  A page is contiguous in the pool, so
// the CTA copies ntok * H * D consecutive floats: coalesced on both sides.
extern "C" __global__ void paged_gather(const float* __restrict__ k_cache, const float* __restrict__ v_cache,
                                        const int* __restrict__ block_table, const int* __restrict__ context_lens,
                                        const int* __restrict__ cu_seqlens, float* __restrict__ k_out,
                                        float* __restrict__ v_out, int block_size, int max_blocks, int row_elems)
{
    // row_elems = H * D, the floats of one token
    const int seq = blockIdx.y, b = blockIdx.x;
    const int len = context_lens[seq];
    const int t0 = b * block_size;                  // first token of this logical block
    if (t0 >= len) return;                          // the sequence is shorter: nothing to copy

    const int page = block_table[seq * max_blocks + b];
    const int n = min(block_size, len - t0) * row_elems;    // the last block may be partly filled
    const float* ksrc = k_cache + (size_t)page * block_size * row_elems;
    const float* vsrc = v_cache + (size_t)page * block_size * row_elems;
    const size_t dst = (size_t)(cu_seqlens[seq] + t0) * row_elems;
    for (int e = threadIdx.x; e < n; e += blockDim.x) {
        k_out[dst + e] = ksrc[e];
        v_out[dst + e] = vsrc[e];
    }
}

// Decode attention: one new query token per sequence attends to all of its cached tokens,
// reading K and V through the block table (no gather first).
//   q, out: [num_seqs, H, D]     out[s, h] = softmax(q[s, h] . K[s, :, h] * scale) V[s, :, h]
// grid = (H, num_seqs), block = 32 * W threads (W <= MAX_WARPS warps).
//
// Warp w handles tokens w, w + W, w + 2W, ...  For one token, the 32 lanes split the head
// dimension (lane owns d = lane, lane + 32, ...), multiply, and add the 32 partial dot products
// with a butterfly of __shfl_xor_sync: afterwards every lane holds the score.  Each warp keeps its
// own online softmax (running max m, sum l, unnormalised output o; see attention.cu).  At the end
// the W warps' partial results are merged through shared memory exactly as split-KV partials are:
// weights l_w * exp(m_w - M) with M the largest m_w.
extern "C" __global__ void paged_decode_attention(const float* __restrict__ q, const float* __restrict__ k_cache,
                                                  const float* __restrict__ v_cache, const int* __restrict__ block_table,
                                                  const int* __restrict__ context_lens, float* __restrict__ out,
                                                  int D, int block_size, int max_blocks, float scale)
{
    __shared__ float warp_m[MAX_WARPS], warp_l[MAX_WARPS];
    __shared__ float warp_o[MAX_WARPS][MAX_HEAD_DIM];

    const int h = blockIdx.x, seq = blockIdx.y, H = gridDim.x;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, num_warps = blockDim.x / 32;
    const int len = context_lens[seq];
    const int* table = block_table + seq * max_blocks;
    const size_t token_stride = (size_t)H * D;       // floats between consecutive tokens of a page

    float qr[DIMS_PER_LANE], o[DIMS_PER_LANE];
#pragma unroll
    for (int i = 0; i < DIMS_PER_LANE; ++i) {
        int d = lane + 32 * i;
        qr[i] = d < D ? q[((size_t)seq * H + h) * D + d] * scale : 0.0f;
        o[i] = 0.0f;
    }
    float m = -INFINITY, l = 0.0f;

    for (int t = warp; t < len; t += num_warps) {
        // the block table lookup: logical block t / block_size -> physical page
        const int page = table[t / block_size];
        const size_t base = ((size_t)page * block_size + t % block_size) * token_stride + (size_t)h * D;
        const float* krow = k_cache + base;
        const float* vrow = v_cache + base;

        float part = 0.0f;
#pragma unroll
        for (int i = 0; i < DIMS_PER_LANE; ++i) {
            int d = lane + 32 * i;
            if (d < D) part = fmaf(qr[i], krow[d], part);
        }
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2)          // butterfly: all lanes get the sum
            part += __shfl_xor_sync(0xffffffffu, part, offset);
        const float s = part;

        const float m_new = fmaxf(m, s);
        const float alpha = expf(m - m_new);    // 0 for the first token (m = -inf)
        const float p = expf(s - m_new);
        l = l * alpha + p;
#pragma unroll
        for (int i = 0; i < DIMS_PER_LANE; ++i) {
            int d = lane + 32 * i;
            if (d < D) o[i] = fmaf(p, vrow[d], o[i] * alpha);
        }
        m = m_new;
    }

    // merge the warps' partial softmax states
    if (lane == 0) {
        warp_m[warp] = m;
        warp_l[warp] = l;
    }
#pragma unroll
    for (int i = 0; i < DIMS_PER_LANE; ++i) {
        int d = lane + 32 * i;
        if (d < D) warp_o[warp][d] = o[i];
    }
    __syncthreads();

    for (int d = threadIdx.x; d < D; d += blockDim.x) {
        float M = -INFINITY;
        for (int w = 0; w < num_warps; ++w) M = fmaxf(M, warp_m[w]);
        float num = 0.0f, den = 0.0f;
        for (int w = 0; w < num_warps; ++w) {
            if (warp_l[w] > 0.0f) {                 // a warp with no token contributes nothing
                float wgt = expf(warp_m[w] - M);
                num += wgt * warp_o[w][d];          // warp_o is unnormalised: no l_w factor needed
                den += wgt * warp_l[w];
            }
        }
        out[((size_t)seq * H + h) * D + d] = den > 0.0f ? num / den : 0.0f;
    }
}
