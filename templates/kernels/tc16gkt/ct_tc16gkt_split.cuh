// ct_tc16gkt_split.cuh: the second kernel of a split-K candidate of
// conv*_tc16gktcl (SPLIT_K > 1), included after the main kernel by
// ct_conv_tc16gkt.cuh and ct_conv_tf32gkt.cuh (their TG_* macros).
//
// The main kernel's block z wrote its slice's fp32 sums, without the bias,
// to slice z of the workspace (SPLIT_K x the output's count, in the
// output's channels-last layout). This kernel adds the slices in order 0
// .. SPLIT_K - 1 (the same sums on every run: no atomics), adds the bias
// in fp32, rounds once to the element type and writes the output: 4
// outputs a thread (16-byte loads of each slice) where the count is a
// multiple of 4, else one. Its name is pasted from TC_NAME, so that a
// family export's renaming of the main kernel renames it too; the host
// launches TG_OUT_COUNT / 4 (or TG_OUT_COUNT) threads in blocks of 256.
#define TC_CAT2(a, b) a##b
#define TC_CAT(a, b) TC_CAT2(a, b)
extern "C" __global__ void __launch_bounds__(256)
TC_CAT(TC_NAME, _reduce)(const float *__restrict__ ws,
#if TC_BIAS
                         const ct_elem *__restrict__ bias,
#endif
                         ct_elem *__restrict__ out)
{
    const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
    if (TG_OUT_COUNT % 4 == 0) {
        if (i >= TG_OUT_COUNT / 4)
            return;
        float4 s = reinterpret_cast<const float4 *>(ws)[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z) {
            const float4 v = reinterpret_cast<const float4 *>(ws + z * TG_OUT_COUNT)[i];
            s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
        }
#if TC_BIAS
        // channels last: output k's channel is k % COUT_ALL
        s.x += ct_ldg(bias + (4 * i) % TG_COUT_ALL);
        s.y += ct_ldg(bias + (4 * i + 1) % TG_COUT_ALL);
        s.z += ct_ldg(bias + (4 * i + 2) % TG_COUT_ALL);
        s.w += ct_ldg(bias + (4 * i + 3) % TG_COUT_ALL);
#endif
        ct_elem2 *o = reinterpret_cast<ct_elem2 *>(out + 4 * i);
        ct_st2(o, make_float2(s.x, s.y));
        ct_st2(o + 1, make_float2(s.z, s.w));
    } else {
        if (i >= TG_OUT_COUNT)
            return;
        float s = ws[i];
#pragma unroll
        for (int z = 1; z < SPLIT_K; ++z)
            s += ws[z * TG_OUT_COUNT + i];
#if TC_BIAS
        s += ct_ldg(bias + i % TG_COUT_ALL);
#endif
        ct_st(out + i, s);
    }
}
