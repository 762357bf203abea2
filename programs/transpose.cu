// Matrix transpose, float32: out (cols x rows) = in (rows x cols)^T, row-major.
//
// A direct transpose reads rows and writes columns: one of the two sides is uncoalesced.  The tiled
// versions stage a 32x32 tile in shared memory so that both the global read and the global write
// walk along rows.  The catch is the shared-memory side: reading a *column* of a 32x32 float tile
// touches addresses 32 words apart, which all fall in the same bank (32 banks of 4 bytes): a
// 32-way bank conflict.  Padding each tile row to 33 floats shifts every row by one bank and the
// column read becomes conflict-free.
//
// block = (32, 8): each thread moves TILE_DIM / BLOCK_ROWS = 4 elements.
// grid = (ceil(cols / 32), ceil(rows / 32)).  Any rows, cols (edges are bounds-checked).

#define TILE_DIM 32
#define BLOCK_ROWS 8

// Baseline: a plain copy with the same access pattern as the tiled reads (the speed of light).
extern "C" __global__ void copy2d(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            out[(y + j) * cols + x] = in[(y + j) * cols + x];
}

// Tiled, unpadded: coalesced in global memory, 32-way bank conflicts on the shared-memory reads.
extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;      // column in `in`
    int y = blockIdx.y * TILE_DIM + threadIdx.y;      // row in `in`
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;          // column in `out` (= row in `in`)
    y = blockIdx.x * TILE_DIM + threadIdx.y;          // row in `out`
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols)
            out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];   // a column: one bank
}

// Tiled, padded to 33 columns: the column read touches 32 different banks.
extern "C" __global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols)
            out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
