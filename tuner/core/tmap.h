/* tmap.h - a TMA tensor map as a kernel asks for it: which buffer it maps
 * and the arguments of cuTensorMapEncodeTiled (tiled mode), with no CUDA
 * header, so that families, exports and CPU replays share one description.
 * The runner encodes each one from the buffer's device pointer and passes
 * it after the buffers as a kernel argument (a __grid_constant__
 * CUtensorMap, 128 bytes); a kernel's tensor maps come from its family's
 * tensor_maps hook (problem.h). */
#ifndef CT_TMAP_H
#define CT_TMAP_H

#define CT_MAX_TMAPS 2

typedef struct ct_tmap_desc {
    int buf;                        /* the buffer (the family's buffers() order) it maps */
    int rank;                       /* dimensions, 1 to 5 */
    int dtype;                      /* ct_dtype of its elements */
    unsigned long long dims[5];     /* elements, innermost first */
    unsigned long long strides[4];  /* bytes between consecutive indices of dims 1 .. rank - 1 */
    unsigned box[5];                /* elements traversed a copy, each dimension (<= 256) */
    unsigned estrides[5];           /* traversal steps (1 to 8): box[i] / estrides[i] elements land */
    int swizzle;                    /* bytes of the shared-memory swizzle span: 0 (none), 32, 64, 128 */
} ct_tmap_desc;

#endif
