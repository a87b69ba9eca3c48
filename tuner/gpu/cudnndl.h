/* cudnndl.h - cuDNN, loaded at run time (like cuFFT and the driver) for the
 * vendor baseline that `tune` times beside its winner: nothing links it, so
 * neither the build nor a machine without it needs it.
 *
 * No cuDNN header is needed either: the few types, values and entry points
 * of the legacy convolution API (cuDNN 9, cudnn_graph.h and cudnn_cnn.h)
 * the baseline uses are declared here, with the values of those headers. */
#ifndef CT_CUDNNDL_H
#define CT_CUDNNDL_H

#include <stddef.h>

#include "status.h"

typedef int cudnnStatus_t;                /* CUDNN_STATUS_SUCCESS is 0 */
typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct *cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct *cudnnConvolutionDescriptor_t;
typedef struct CUstream_st *ct_cudnn_stream;

enum {
    CT_CUDNN_STATUS_SUCCESS = 0,
    /* cudnnDataType_t */
    CT_CUDNN_DATA_FLOAT = 0,
    CT_CUDNN_DATA_HALF = 2,
    CT_CUDNN_DATA_BFLOAT16 = 9,
    /* cudnnTensorFormat_t */
    CT_CUDNN_TENSOR_NCHW = 0,
    CT_CUDNN_TENSOR_NHWC = 1,
    /* cudnnConvolutionMode_t */
    CT_CUDNN_CROSS_CORRELATION = 1,
    /* cudnnMathType_t */
    CT_CUDNN_DEFAULT_MATH = 0,
    CT_CUDNN_TENSOR_OP_MATH = 1,
    CT_CUDNN_FMA_MATH = 3,
};

/* cudnnConvolution{Fwd,BwdData,BwdFilter}AlgoPerf_t: the three share this
 * layout (their algo fields are enums of the same size). */
typedef struct ct_cudnn_perf {
    int algo;
    cudnnStatus_t status;
    float time;
    size_t memory;
    int determinism;
    int math_type;
    int reserved[3];
} ct_cudnn_perf;

#define CT_CUDNN_FN(X)                                                                                          \
    X(size_t, cudnnGetVersion, (void))                                                                          \
    X(const char *, cudnnGetErrorString, (cudnnStatus_t))                                                       \
    X(cudnnStatus_t, cudnnCreate, (cudnnHandle_t *))                                                            \
    X(cudnnStatus_t, cudnnDestroy, (cudnnHandle_t))                                                             \
    X(cudnnStatus_t, cudnnSetStream, (cudnnHandle_t, ct_cudnn_stream))                                          \
    X(cudnnStatus_t, cudnnCreateTensorDescriptor, (cudnnTensorDescriptor_t *))                                  \
    X(cudnnStatus_t, cudnnSetTensor4dDescriptorEx,                                                              \
      (cudnnTensorDescriptor_t, int, int, int, int, int, int, int, int, int))                                   \
    X(cudnnStatus_t, cudnnDestroyTensorDescriptor, (cudnnTensorDescriptor_t))                                   \
    X(cudnnStatus_t, cudnnCreateFilterDescriptor, (cudnnFilterDescriptor_t *))                                  \
    X(cudnnStatus_t, cudnnSetFilter4dDescriptor, (cudnnFilterDescriptor_t, int, int, int, int, int, int))       \
    X(cudnnStatus_t, cudnnDestroyFilterDescriptor, (cudnnFilterDescriptor_t))                                   \
    X(cudnnStatus_t, cudnnCreateConvolutionDescriptor, (cudnnConvolutionDescriptor_t *))                        \
    X(cudnnStatus_t, cudnnSetConvolution2dDescriptor,                                                           \
      (cudnnConvolutionDescriptor_t, int, int, int, int, int, int, int, int))                                   \
    X(cudnnStatus_t, cudnnSetConvolutionGroupCount, (cudnnConvolutionDescriptor_t, int))                        \
    X(cudnnStatus_t, cudnnSetConvolutionMathType, (cudnnConvolutionDescriptor_t, int))                          \
    X(cudnnStatus_t, cudnnDestroyConvolutionDescriptor, (cudnnConvolutionDescriptor_t))                         \
    X(cudnnStatus_t, cudnnFindConvolutionForwardAlgorithmEx,                                                    \
      (cudnnHandle_t, cudnnTensorDescriptor_t, const void *, cudnnFilterDescriptor_t, const void *,             \
       cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, void *, int, int *, ct_cudnn_perf *, void *,      \
       size_t))                                                                                                 \
    X(cudnnStatus_t, cudnnConvolutionForward,                                                                   \
      (cudnnHandle_t, const void *, cudnnTensorDescriptor_t, const void *, cudnnFilterDescriptor_t,             \
       const void *, cudnnConvolutionDescriptor_t, int, void *, size_t, const void *, cudnnTensorDescriptor_t,  \
       void *))                                                                                                 \
    X(cudnnStatus_t, cudnnAddTensor,                                                                            \
      (cudnnHandle_t, const void *, cudnnTensorDescriptor_t, const void *, const void *,                        \
       cudnnTensorDescriptor_t, void *))                                                                        \
    X(cudnnStatus_t, cudnnFindConvolutionBackwardDataAlgorithmEx,                                               \
      (cudnnHandle_t, cudnnFilterDescriptor_t, const void *, cudnnTensorDescriptor_t, const void *,             \
       cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, void *, int, int *, ct_cudnn_perf *, void *,      \
       size_t))                                                                                                 \
    X(cudnnStatus_t, cudnnConvolutionBackwardData,                                                              \
      (cudnnHandle_t, const void *, cudnnFilterDescriptor_t, const void *, cudnnTensorDescriptor_t,             \
       const void *, cudnnConvolutionDescriptor_t, int, void *, size_t, const void *, cudnnTensorDescriptor_t,  \
       void *))                                                                                                 \
    X(cudnnStatus_t, cudnnFindConvolutionBackwardFilterAlgorithmEx,                                             \
      (cudnnHandle_t, cudnnTensorDescriptor_t, const void *, cudnnTensorDescriptor_t, const void *,             \
       cudnnConvolutionDescriptor_t, cudnnFilterDescriptor_t, void *, int, int *, ct_cudnn_perf *, void *,      \
       size_t))                                                                                                 \
    X(cudnnStatus_t, cudnnConvolutionBackwardFilter,                                                            \
      (cudnnHandle_t, const void *, cudnnTensorDescriptor_t, const void *, cudnnTensorDescriptor_t,             \
       const void *, cudnnConvolutionDescriptor_t, int, void *, size_t, const void *, cudnnFilterDescriptor_t,  \
       void *))                                                                                                 \
    X(cudnnStatus_t, cudnnConvolutionBackwardBias,                                                              \
      (cudnnHandle_t, const void *, cudnnTensorDescriptor_t, const void *, const void *,                        \
       cudnnTensorDescriptor_t, void *))

typedef struct ct_cudnn {
#define CT_CUDNN_FIELD(ret, name, args) ret(*name) args;
    CT_CUDNN_FN(CT_CUDNN_FIELD)
#undef CT_CUDNN_FIELD
    char path[1024];           /* the file loaded */
} ct_cudnn;

/* Load cuDNN once: $CONVTUNE_CUDNN when set (that file only), else
 * libcudnn.so.9 by the loader's search, else the copy a PyTorch pip
 * install ships (python3's nvidia.cudnn package, lib/libcudnn.so.9); its
 * sub-libraries from the same folder are loaded first, so that the ones it
 * opens by name later are these. CT_ERR_NOT_FOUND with the reason in one
 * line when none loads or an entry point is missing. */
ct_status ct_cudnn_load(const ct_cudnn **out, ct_err *e);

/* "9.19" from cudnnGetVersion()'s 91900 (cuDNN 9: major*10000 + minor*100
 * + patch; before 9: major*1000 + minor*100 + patch). */
void ct_cudnn_version_text(size_t v, char *buf, size_t len);

#endif
