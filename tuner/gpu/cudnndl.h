/* cudnndl.h - cuDNN, loaded at run time (like cuFFT and the driver) for the
 * vendor baseline that `tune` times beside its winner: nothing links it, so
 * neither the build nor a machine without it needs it.
 *
 * No cuDNN header is needed either: the few types, values and entry points
 * of the legacy convolution API (cuDNN 9, cudnn_graph.h and cudnn_cnn.h)
 * the baseline uses are declared here, with the values of those headers,
 * and those of the backend (graph) API that cudnn_v8.h drives, resolved
 * optionally: a library without them keeps the legacy baseline. */
#ifndef CT_CUDNNDL_H
#define CT_CUDNNDL_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef int cudnnStatus_t;                /* CUDNN_STATUS_SUCCESS is 0 */
typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef struct cudnnFilterStruct *cudnnFilterDescriptor_t;
typedef struct cudnnConvolutionStruct *cudnnConvolutionDescriptor_t;
typedef struct CUstream_st *ct_cudnn_stream;
typedef void *cudnnBackendDescriptor_t;

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

/* The backend API's values, as cuDNN 9's cudnn_graph.h defines them
 * (checked against the header of cuDNN 9.6.0; the backend enums keep
 * their values from release to release, new ones are only appended). */
enum {
    /* cudnnBackendDescriptorType_t (a sequence from POINTWISE = 0) */
    CT_CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR = 1,
    CT_CUDNN_BACKEND_ENGINE_DESCRIPTOR = 2,
    CT_CUDNN_BACKEND_ENGINECFG_DESCRIPTOR = 3,
    CT_CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR = 4,
    CT_CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR = 5,
    CT_CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR = 10,
    CT_CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR = 11,
    CT_CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR = 12,
    CT_CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR = 15,
    CT_CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR = 16,
    CT_CUDNN_BACKEND_TENSOR_DESCRIPTOR = 17,
    /* cudnnBackendAttributeType_t (a sequence from HANDLE = 0) */
    CT_CUDNN_TYPE_HANDLE = 0,
    CT_CUDNN_TYPE_DATA_TYPE = 1,
    CT_CUDNN_TYPE_INT64 = 3,
    CT_CUDNN_TYPE_FLOAT = 4,
    CT_CUDNN_TYPE_VOID_PTR = 6,
    CT_CUDNN_TYPE_CONVOLUTION_MODE = 7,
    CT_CUDNN_TYPE_HEUR_MODE = 8,
    CT_CUDNN_TYPE_NUMERICAL_NOTE = 11,
    CT_CUDNN_TYPE_BACKEND_DESCRIPTOR = 15,
    /* cudnnBackendHeurMode_t */
    CT_CUDNN_HEUR_MODE_INSTANT = 0,
    CT_CUDNN_HEUR_MODE_FALLBACK = 2,
    /* cudnnBackendNumericalNote_t (a sequence from TENSOR_CORE = 0) */
    CT_CUDNN_NUMERICAL_NOTE_TENSOR_CORE = 0,
    CT_CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS = 1,
    CT_CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION = 2,
    /* cudnnBackendAttributeName_t */
    CT_CUDNN_ATTR_CONVOLUTION_COMP_TYPE = 100,
    CT_CUDNN_ATTR_CONVOLUTION_CONV_MODE = 101,
    CT_CUDNN_ATTR_CONVOLUTION_DILATIONS = 102,
    CT_CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES = 103,
    CT_CUDNN_ATTR_CONVOLUTION_POST_PADDINGS = 104,
    CT_CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS = 105,
    CT_CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS = 106,
    CT_CUDNN_ATTR_ENGINEHEUR_MODE = 200,
    CT_CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH = 201,
    CT_CUDNN_ATTR_ENGINEHEUR_RESULTS = 202,
    CT_CUDNN_ATTR_ENGINECFG_ENGINE = 300,
    CT_CUDNN_ATTR_EXECUTION_PLAN_HANDLE = 400,
    CT_CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG = 401,
    CT_CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE = 402,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA = 700,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA = 701,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC = 702,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W = 703,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X = 704,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y = 705,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA = 706,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA = 707,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC = 708,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W = 709,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX = 710,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY = 711,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA = 712,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA = 713,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC = 714,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW = 715,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X = 716,
    CT_CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY = 717,
    CT_CUDNN_ATTR_OPERATIONGRAPH_HANDLE = 800,
    CT_CUDNN_ATTR_OPERATIONGRAPH_OPS = 801,
    CT_CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT = 900,
    CT_CUDNN_ATTR_TENSOR_DATA_TYPE = 901,
    CT_CUDNN_ATTR_TENSOR_DIMENSIONS = 902,
    CT_CUDNN_ATTR_TENSOR_STRIDES = 903,
    CT_CUDNN_ATTR_TENSOR_UNIQUE_ID = 906,
    CT_CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS = 1000,
    CT_CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS = 1001,
    CT_CUDNN_ATTR_VARIANT_PACK_WORKSPACE = 1003,
    CT_CUDNN_ATTR_ENGINE_GLOBAL_INDEX = 1301,
    CT_CUDNN_ATTR_ENGINE_NUMERICAL_NOTE = 1303,
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

/* The backend API (cudnn_graph.h; the enum parameters are ints): entry
 * points that may be missing, each NULL then. */
#define CT_CUDNN_BACKEND_FN(X)                                                                                  \
    X(cudnnStatus_t, cudnnBackendCreateDescriptor, (int, cudnnBackendDescriptor_t *))                          \
    X(cudnnStatus_t, cudnnBackendDestroyDescriptor, (cudnnBackendDescriptor_t))                                \
    X(cudnnStatus_t, cudnnBackendSetAttribute, (cudnnBackendDescriptor_t, int, int, int64_t, const void *))    \
    X(cudnnStatus_t, cudnnBackendGetAttribute,                                                                  \
      (cudnnBackendDescriptor_t, int, int, int64_t, int64_t *, void *))                                         \
    X(cudnnStatus_t, cudnnBackendFinalize, (cudnnBackendDescriptor_t))                                         \
    X(cudnnStatus_t, cudnnBackendExecute, (cudnnHandle_t, cudnnBackendDescriptor_t, cudnnBackendDescriptor_t))

typedef struct ct_cudnn {
#define CT_CUDNN_FIELD(ret, name, args) ret(*name) args;
    CT_CUDNN_FN(CT_CUDNN_FIELD)
    CT_CUDNN_BACKEND_FN(CT_CUDNN_FIELD)
#undef CT_CUDNN_FIELD
    int backend;               /* 1: every backend entry point resolved */
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
