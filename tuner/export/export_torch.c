/* export_torch.c - the PyTorch module of `convtune export --torch`
 * (export_torch.h). */
#include "export_torch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "escape.h"
#include "executor.h"
#include "export.h"
#include "export_internal.h"
#include "export_torch_internal.h"
#include "family_export.h"
#include "outfile.h"
#include "problem.h"
#include "resources.h"

#define TMP_PREFIX ".convtune-export-"

/* The tensor shape of each buffer, as the family's size macros (PyTorch's
 * layouts: NCL / NCHW inputs, OIK / OIHW weights); "A/B" is A divided by B,
 * or A where the problem does not define B (a grouped layer's weights). */
typedef struct shape_row {
    const char *family, *buffer;
    const char *dims[4];
} shape_row;
static const shape_row shapes[] = {
    {"conv1d", "in", {"CONV_N"}},
    {"conv1d", "mask", {"CONV_K"}},
    {"conv1d", "out", {"CONV_OUT"}},
    {"conv1dc", "in", {"CONV_B", "CONV_CIN", "CONV_L"}},
    {"conv1dc", "weight", {"CONV_COUT", "CONV_CIN/CONV_GROUPS", "CONV_K"}},
    {"conv1dc", "bias", {"CONV_COUT"}},
    {"conv1dc", "out", {"CONV_B", "CONV_COUT", "CONV_LOUT"}},
    {"conv2d", "in", {"CONV_B", "CONV_H", "CONV_W"}},
    {"conv2d", "filter", {"CONV_KH", "CONV_KW"}},
    {"conv2d", "out", {"CONV_B", "CONV_OH", "CONV_OW"}},
    {"conv2dc", "in", {"CONV_B", "CONV_CIN", "CONV_H", "CONV_W"}},
    {"conv2dc", "weight", {"CONV_COUT", "CONV_CIN/CONV_GROUPS", "CONV_KH", "CONV_KW"}},
    {"conv2dc", "bias", {"CONV_COUT"}},
    {"conv2dc", "out", {"CONV_B", "CONV_COUT", "CONV_OH", "CONV_OW"}},
};
/* Channels-last layers take and give their activations as plain tensors
 * in memory order ([B][L][C], [B][H][W][C]: a torch.channels_last NCHW
 * tensor x is x.permute(0, 2, 3, 1) without a copy), their weights as
 * PyTorch stores them (the rows above). */
static const shape_row cl_shapes[] = {
    {"conv1dc", "in", {"CONV_B", "CONV_L", "CONV_CIN"}},
    {"conv1dc", "out", {"CONV_B", "CONV_LOUT", "CONV_COUT"}},
    {"conv2dc", "in", {"CONV_B", "CONV_H", "CONV_W", "CONV_CIN"}},
    {"conv2dc", "out", {"CONV_B", "CONV_OH", "CONV_OW", "CONV_COUT"}},
};
/* The tables in the order they are searched: a table with a `when` macro
 * only where the problem defines it non-zero. */
static const struct {
    const shape_row *rows;
    size_t n;
    const char *when;
} tables[] = {
    {cl_shapes, sizeof cl_shapes / sizeof cl_shapes[0], "CONV_CHANNELS_LAST"},
    {shapes, sizeof shapes / sizeof shapes[0], NULL},
};

/* "(1000000,)" or "(2, 8, 64)" into buf; CT_ERR_INTERNAL when the family's
 * buffer has no known shape or the shape does not hold its count. */
static ct_status shape_text(const ct_problem *p, const ct_buffer *b, char *buf, size_t len, ct_err *e)
{
    ct_define defs[CT_MAX_DEFINES];
    int nd = ct_problem_defines(p, defs);
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        int applies = !tables[t].when;
        for (int d = 0; d < nd && !applies; d++)
            applies = !strcmp(defs[d].name, tables[t].when) && defs[d].value != 0;
        for (size_t i = 0; i < tables[t].n && applies; i++) {
            const shape_row *r = &tables[t].rows[i];
            if (strcmp(r->family, p->family->name) || strcmp(r->buffer, b->name))
                continue;
            size_t o = (size_t)snprintf(buf, len, "(");
            long long prod = 1;
            int k = 0;
            for (; k < 4 && r->dims[k]; k++) {
                const char *dim = r->dims[k], *slash = strchr(dim, '/');
                const size_t alen = slash ? (size_t)(slash - dim) : strlen(dim);
                long long v = -1, div = 1;
                for (int d = 0; d < nd; d++) {
                    if (strlen(defs[d].name) == alen && !strncmp(defs[d].name, dim, alen))
                        v = defs[d].value;
                    if (slash && !strcmp(defs[d].name, slash + 1))
                        div = defs[d].value;
                }
                v /= div;
                prod *= v;
                if (o < len)
                    o += (size_t)snprintf(buf + o, len - o, "%s%lld", k ? ", " : "", v);
            }
            if (o < len)
                snprintf(buf + o, len - o, k == 1 ? ",)" : ")");
            if (prod != (long long)b->count)
                goto none;
            return CT_OK;
        }
    }
none:
    return ct_fail(e, CT_ERR_INTERNAL, "export --torch: no tensor shape for buffer %s of family %s", b->name,
                   p->family->name);
}

const char *ct_torch_arg_name(const char *buffer)
{
    return !strcmp(buffer, "in") ? "input" : buffer;
}

static const char *link_flags(const ct_problem *p, const char *tmpl)
{
    const ct_template *t = ct_template_find(p->family, tmpl);
    return t && t->exec ? t->exec->link_flags : "";
}

/* The part of every module that builds the kernel and calls it. The
 * module-specific lines before it define _NAME, _CU, _BINDING, _SYMBOL,
 * _LDFLAGS, _CTYPES_ARGS and _c_args(tensors, ints, stream, grade). */
static const char py_common[] =
    "_HERE = os.path.dirname(os.path.abspath(__file__))\n"
    "_launch = None\n"
    "BUILD = None   # how the kernel was built: \"cpp_extension\" or \"nvcc\" (after the first call)\n"
    "\n"
    "\n"
    "def _digest():\n"
    "    h = hashlib.sha256()\n"
    "    for name in (_CU, _BINDING):\n"
    "        with open(os.path.join(_HERE, name), \"rb\") as f:\n"
    "            h.update(f.read())\n"
    "    return h.hexdigest()[:12]\n"
    "\n"
    "\n"
    "def _suffix(major, minor):\n"
    "    # sm_90a, as convtune compiled the kernel: its wgmma needs the\n"
    "    # architecture-specific target, which runs on every 9.0 device.\n"
    "    return \"a\" if (major, minor) == (9, 0) else \"\"\n"
    "\n"
    "\n"
    "def _arch_flag(major, minor):\n"
    "    # nvcc 13.0 given -arch=sm_90a also runs a plain sm_90 pass: -gencode.\n"
    "    s = _suffix(major, minor)\n"
    "    return \"-gencode=arch=compute_%d%d%s,code=sm_%d%d%s\" % (major, minor, s, major, minor, s) if s else \\\n"
    "        \"-arch=sm_%d%d\" % (major, minor)\n"
    "\n"
    "\n"
    "def _build_cpp_extension():\n"
    "    from torch.utils import cpp_extension\n"
    "    major, minor = torch.cuda.get_device_capability()\n"
    "    old = os.environ.get(\"TORCH_CUDA_ARCH_LIST\")\n"
    "    os.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"%d.%d%s\" % (major, minor, _suffix(major, minor))\n"
    "    try:\n"
    "        ext = cpp_extension.load(name=\"%s_%s\" % (_NAME, _digest()),\n"
    "                                 sources=[os.path.join(_HERE, _BINDING), os.path.join(_HERE, _CU)],\n"
    "                                 extra_cuda_cflags=[\"-O3\"], extra_ldflags=_LDFLAGS, verbose=False)\n"
    "    finally:\n"
    "        if old is None:\n"
    "            del os.environ[\"TORCH_CUDA_ARCH_LIST\"]\n"
    "        else:\n"
    "            os.environ[\"TORCH_CUDA_ARCH_LIST\"] = old\n"
    "    return ext.launch\n"
    "\n"
    "\n"
    "def _build_nvcc():\n"
    "    # The .cu alone, with nvcc, into a shared library called through ctypes:\n"
    "    # needs neither ninja nor a toolkit matching PyTorch's CUDA version.\n"
    "    # -Bsymbolic keeps the library on its own (static) CUDA runtime.\n"
    "    from torch.utils import cpp_extension\n"
    "    major, minor = torch.cuda.get_device_capability()\n"
    "    cache = os.environ.get(\"CONVTUNE_TORCH_CACHE\") or os.path.join(\n"
    "        os.environ.get(\"XDG_CACHE_HOME\") or os.path.join(os.path.expanduser(\"~\"), \".cache\"), \"convtune\", \"torch\")\n"
    "    os.makedirs(cache, exist_ok=True)\n"
    "    lib = os.path.join(cache, \"%s_%s_sm%d%d.so\" % (_NAME, _digest(), major, minor))\n"
    "    if not os.path.exists(lib):\n"
    "        home = cpp_extension.CUDA_HOME or os.environ.get(\"CUDA_HOME\") or \"/usr/local/cuda\"\n"
    "        tmp = \"%s.%d.tmp\" % (lib, os.getpid())\n"
    "        # The library's CUDA runtime is its own (static, hidden): this entry\n"
    "        # point selects the tensors' device in it.\n"
    "        shim = tmp + \".cu\"\n"
    "        with open(shim, \"w\") as f:\n"
    "            f.write(\"#include <cuda_runtime.h>\\nextern \\\"C\\\" int convtune_set_device(int d) \"\n"
    "                    \"{ return (int)cudaSetDevice(d); }\\n\")\n"
    "        cmd = [os.path.join(home, \"bin\", \"nvcc\"), \"-O3\", \"-shared\", \"-Xcompiler\", \"-fPIC\", \"-Xlinker\",\n"
    "               \"-Bsymbolic\", _arch_flag(major, minor), \"-o\", tmp, os.path.join(_HERE, _CU), shim]\n"
    "        cmd += _LDFLAGS\n"
    "        r = subprocess.run(cmd, capture_output=True, text=True)\n"
    "        os.unlink(shim)\n"
    "        if r.returncode != 0:\n"
    "            raise RuntimeError(\"convtune: building %s with nvcc failed:\\n%s\" % (_CU, r.stderr[-4000:]))\n"
    "        os.replace(tmp, lib)\n"
    "    dll = ctypes.CDLL(lib)\n"
    "    fn = getattr(dll, _SYMBOL)\n"
    "    fn.restype = ctypes.c_int\n"
    "    fn.argtypes = _CTYPES_ARGS\n"
    "    set_device = dll.convtune_set_device\n"
    "    set_device.restype = ctypes.c_int\n"
    "    set_device.argtypes = [ctypes.c_int]\n"
    "\n"
    "    def launch(tensors, ints):\n"
    "        dev = tensors[0].device\n"
    "        grade = ctypes.c_int(-1)\n"
    "        err = set_device(dev.index)\n"
    "        if err == 0:\n"
    "            err = fn(*_c_args(tensors, ints, torch.cuda.current_stream(dev).cuda_stream, grade))\n"
    "        if err != 0:\n"
    "            raise RuntimeError(\"convtune: %s failed with CUDA error %d\" % (_SYMBOL, err))\n"
    "        return grade.value\n"
    "    return launch\n"
    "\n"
    "\n"
    "def _launcher():\n"
    "    global _launch, BUILD\n"
    "    if _launch is None:\n"
    "        how = os.environ.get(\"CONVTUNE_TORCH_BUILD\", \"\")\n"
    "        if how not in (\"\", \"cpp_extension\", \"nvcc\"):\n"
    "            raise ValueError(\"CONVTUNE_TORCH_BUILD must be cpp_extension or nvcc, not %r\" % how)\n"
    "        if how != \"nvcc\":\n"
    "            try:\n"
    "                _launch, BUILD = _build_cpp_extension(), \"cpp_extension\"\n"
    "            except Exception as exc:   # no ninja, another CUDA version than PyTorch's, ...\n"
    "                if how:\n"
    "                    raise\n"
    "                warnings.warn(\"convtune: torch.utils.cpp_extension.load failed (%s); building %s with nvcc \"\n"
    "                              \"and ctypes instead\" % (str(exc).splitlines()[0] if str(exc) else type(exc).__name__, _CU))\n"
    "        if _launch is None:\n"
    "            _launch, BUILD = _build_nvcc(), \"nvcc\"\n"
    "    return _launch\n"
    "\n"
    "\n"
    "def _check(name, t, shape, device):\n"
    "    if not isinstance(t, torch.Tensor):\n"
    "        raise ValueError(\"%s: expected a torch.Tensor, got %s\" % (name, type(t).__name__))\n"
    "    if t.device.type != \"cuda\":\n"
    "        raise ValueError(\"%s: expected a CUDA tensor, got one on %s\" % (name, t.device))\n"
    "    if device is not None and t.device != device:\n"
    "        raise ValueError(\"%s: on %s, but the first tensor is on %s\" % (name, t.device, device))\n"
    "    if t.dtype != torch.float32:\n"
    "        raise ValueError(\"%s: expected dtype torch.float32, got %s\" % (name, t.dtype))\n"
    "    if shape is not None and tuple(t.shape) != shape:\n"
    "        raise ValueError(\"%s: expected shape %s, got %s\" % (name, shape, tuple(t.shape)))\n"
    "    if not t.is_contiguous():\n"
    "        raise ValueError(\"%s: must be contiguous (use .contiguous())\" % name)\n"
    "    if t.data_ptr() % 16:\n"
    "        raise ValueError(\"%s: data must be 16-byte aligned (a fresh tensor or .clone() is)\" % name)\n"
    "\n"
    "\n"
    "class _Forward(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, out_shape, ints, *tensors):\n"
    "        out = torch.empty(out_shape, dtype=torch.float32, device=tensors[0].device)\n"
    "        global last_grade\n"
    "        last_grade = _launcher()(list(tensors) + [out], ints)\n"
    "        return out\n"
    "\n"
    "    @staticmethod\n"
    "    def backward(ctx, grad):\n"
    "        raise NotImplementedError(\"convtune kernels are forward-only: %s has no backward (use \"\n"
    "                                  \"torch.no_grad() or detach the inputs)\" % _NAME)\n"
    "\n"
    "\n"
    "last_grade = None\n";

static void py_imports(FILE *f, const ct_torch_mod *m)
{
    fprintf(f, "import ctypes\nimport hashlib\nimport os\nimport subprocess\nimport warnings\n\nimport torch\n\n");
    fprintf(f, "_NAME = \"%s\"\n_CU = \"%s\"\n_BINDING = \"%s\"\n_SYMBOL = \"%s\"\n_LDFLAGS = [%s%s%s]\n",
            PY(m->name), PY(m->cu), PY(m->binding), PY(m->sym), *m->link ? "\"" : "", PY(m->link),
            *m->link ? "\"" : "");
}

static const char py_usage_tail[] =
    "Runs on the current CUDA stream, also under torch.cuda.graph capture (call it\n"
    "once before capturing: the first call builds and loads the kernel). Forward\n"
    "only: backward raises NotImplementedError. The first call builds the kernel\n"
    "with torch.utils.cpp_extension.load (the binding is %s); where that fails\n"
    "(no ninja, a CUDA toolkit of another version than PyTorch's) it compiles %s\n"
    "with nvcc into a shared library called through ctypes. CONVTUNE_TORCH_BUILD=\n"
    "cpp_extension or nvcc forces one way; BUILD says which was taken.\n"
    "\"\"\"\n";

static void single_py(FILE *f, const ct_torch_mod *m)
{
    const ct_result *r = m->rec;
    char params[sizeof r->params_json];
    if (ct_result_params_text(r, params, sizeof params, NULL) != CT_OK)
        params[0] = '\0';
    fprintf(f, "\"\"\"convtune's tuned kernel for %s (%s), for PyTorch.\n\n", PY(m->p.canonical),
            m->p.family->summary);
    fprintf(f, "Tuned on %s (%s): %s %s, median %.3f us.\n", PY(r->device), PY(r->arch), PY(r->tmpl), PY(params),
            r->median_us);
    fprintf(f, "Autogenerated by convtune %s, do not edit: re-run `convtune export --torch`.\n\n", CONVTUNE_VERSION);
    fprintf(f, "    import %s\n    out = %s.conv(", PY(m->name), PY(m->name));
    for (int i = 0; i < m->nb - 1; i++)
        fprintf(f, "%s%s", i ? ", " : "", ct_torch_arg_name(m->bufs[i].name));
    fprintf(f, ")\n\nArguments: CUDA float32 tensors, contiguous, 16-byte aligned, on one device:\n");
    for (int i = 0; i < m->nb - 1; i++)
        fprintf(f, "    %-7s shape %s\n", ct_torch_arg_name(m->bufs[i].name), m->shape[i]);
    fprintf(f, "Returns a new tensor of shape %s.\n", m->shape[m->nb - 1]);
    fprintf(f, py_usage_tail, PY(m->binding), PY(m->cu));
    py_imports(f, m);
    fprintf(f, "\nPROBLEM = \"%s\"\nSHAPES = {", PY(m->p.canonical));
    for (int i = 0; i < m->nb - 1; i++)
        fprintf(f, "%s\"%s\": %s", i ? ", " : "", ct_torch_arg_name(m->bufs[i].name), m->shape[i]);
    fprintf(f, "}\nOUT_SHAPE = %s\n_CTYPES_ARGS = [ctypes.c_void_p] * %d\n\n\n", m->shape[m->nb - 1], m->nb + 1);
    fprintf(f, "def _c_args(tensors, ints, stream, grade):\n    return [t.data_ptr() for t in tensors] + [stream]\n\n\n");
    fputs(py_common, f);
    fprintf(f, "\n\ndef conv(");
    for (int i = 0; i < m->nb - 1; i++)
        fprintf(f, "%s%s", i ? ", " : "", ct_torch_arg_name(m->bufs[i].name));
    fprintf(f, "):\n    \"\"\"%s: the tensors of SHAPES in, a new tensor of OUT_SHAPE out.\"\"\"\n",
            PY(m->p.canonical));
    for (int i = 0; i < m->nb - 1; i++)
        fprintf(f, "    _check(\"%s\", %s, SHAPES[\"%s\"], %s)\n", ct_torch_arg_name(m->bufs[i].name),
                ct_torch_arg_name(m->bufs[i].name), ct_torch_arg_name(m->bufs[i].name), i ? "input.device" : "None");
    fprintf(f, "    return _Forward.apply(OUT_SHAPE, ()");
    for (int i = 0; i < m->nb - 1; i++)
        fprintf(f, ", %s", ct_torch_arg_name(m->bufs[i].name));
    fprintf(f, ")\n");
}

/* The C++ binding cpp_extension.load builds with the .cu of a single
 * export: launch(tensors, ints) on the current stream of the tensors'
 * device. (A family module calls its selectors through ctypes: the
 * runtime, templates/torch/.) */
static void binding_cpp(FILE *f, const ct_torch_mod *m)
{
    fprintf(f, "// autogenerated by convtune %s, do not edit: re-run `convtune export --torch` instead.\n"
               "// The PyTorch binding of %s, built with it by %s.py\n"
               "// (torch.utils.cpp_extension.load): launch(tensors, ints) runs the launcher\n"
               "// declared in %s on the current CUDA stream of the tensors' device.\n",
            CONVTUNE_VERSION, m->cu, m->name, m->h);
    fprintf(f, "#include <torch/extension.h>\n#include <c10/cuda/CUDAGuard.h>\n#include <c10/cuda/CUDAStream.h>\n"
               "#include <cuda_runtime.h>\n\n#include \"%s\"\n\n", m->h);
    fprintf(f, "static int64_t launch(std::vector<torch::Tensor> t, std::vector<int64_t> ints)\n{\n"
               "    TORCH_CHECK(t.size() == %d && ints.size() == 0, \"convtune: %s takes %d tensors\");\n"
               "    for (const auto &x : t)\n"
               "        TORCH_CHECK(x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() &&\n"
               "                    x.device() == t[0].device(), \"convtune: contiguous float32 tensors on one CUDA device\");\n"
               "    const c10::cuda::CUDAGuard guard(t[0].device());\n"
               "    cudaStream_t stream = c10::cuda::getCurrentCUDAStream(t[0].device().index()).stream();\n"
               "    int grade = -1;\n",
            m->nb, m->sym, m->nb);
    fprintf(f, "    int err = %s(", m->sym);
    for (int i = 0; i < m->nb; i++)
        fprintf(f, "t[%d].data_ptr<float>(), ", i);
    fprintf(f, "stream);\n");
    fprintf(f, "    TORCH_CHECK(err == 0, \"convtune: %s failed: \", cudaGetErrorString((cudaError_t)err));\n"
               "    return grade;\n}\n\n"
               "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)\n{\n"
               "    m.def(\"launch\", &launch, \"run the convtune kernel on the current stream\");\n}\n", m->sym);
}

/* ------------------------------------------------------------------------ */
/* Writing the files                                                        */

/* The module of a half-precision problem is the fp32 one with its tensors'
 * type replaced (bf16: torch.bfloat16, f16: torch.float16) and the data
 * handed to the launcher's void pointers; fp32 modules are written as they
 * were. */
static void put_typed(FILE *f, const char *text, ct_dtype t)
{
    const int bf = t == CT_DTYPE_BF16;
    const char *const from[] = {"torch.float32", "float32 tensors", "torch::kFloat32", "data_ptr<float>()"};
    const char *const to[] = {bf ? "torch.bfloat16" : "torch.float16", bf ? "bfloat16 tensors" : "float16 tensors",
                              bf ? "torch::kBFloat16" : "torch::kHalf", "data_ptr()"};
    for (const char *s = text; *s;) {
        size_t k = 0;
        while (k < 4 && strncmp(s, from[k], strlen(from[k])) != 0)
            k++;
        if (k < 4) {
            fputs(to[k], f);
            s += strlen(from[k]);
        } else {
            fputc(*s++, f);
        }
    }
}

/* 0 when out of memory for a half module's text. */
static int emit_module_file(FILE *f, const ct_torch_mod *m, int binding)
{
    const ct_dtype t = m->set ? m->set->dtype : ct_problem_dtype(&m->p);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = t == CT_DTYPE_F32 ? NULL : open_memstream(&text, &len);
    if (t != CT_DTYPE_F32 && !mem)
        return 0;
    FILE *to = mem ? mem : f;
    if (binding)
        binding_cpp(to, m);
    else if (m->set)
        ct_torch_family_py(to, m);
    else
        single_py(to, m);
    int ok = !mem || (fclose(mem) == 0 && text);
    if (mem && ok)
        put_typed(f, text, t);
    free(text);
    return ok;
}

/* The runtime's text: DIR/torch/convtune_torch.py of a --templates
 * folder that has one, else the copy built into the binary. malloc'ed. */
static ct_status runtime_text(const char *templates_dir, char **text, ct_err *e)
{
    char path[1400];
    if (templates_dir && *templates_dir &&
        (size_t)snprintf(path, sizeof path, "%s/torch/%s", templates_dir, CT_TORCH_RUNTIME) < sizeof path &&
        access(path, F_OK) == 0)
        return ct_template_read(path, text, e);
    size_t len = 0;
    const char *data = ct_resource("templates/torch/" CT_TORCH_RUNTIME, &len);
    if (!data || !(*text = malloc(len + 1)))
        return ct_fail(e, CT_ERR_INTERNAL, "export --torch: the runtime %s is not built into this binary",
                       CT_TORCH_RUNTIME);
    memcpy(*text, data, len + 1);
    return CT_OK;
}

/* Whether the file at path holds exactly text: an earlier export's runtime
 * of the same version is shared, not replaced (two families' modules in one
 * folder). */
static int same_content(const char *path, const char *text)
{
    struct stat st;
    char *old = NULL;
    ct_err scratch;
    const int same = stat(path, &st) == 0 && (size_t)st.st_size == strlen(text) &&
                     ct_template_read(path, &old, &scratch) == CT_OK && strcmp(old, text) == 0;
    free(old);
    return same;
}

static void file_names(ct_torch_mod *m)
{
    snprintf(m->cu, sizeof m->cu, "%s.cu", m->name);
    snprintf(m->h, sizeof m->h, "%s.h", m->name);
    snprintf(m->binding, sizeof m->binding, "%s_binding.cpp", m->name);
}

/* The single module: check all four targets, then complete the pair, the
 * binding and the module as temporaries and commit them as one set
 * (outfile.h): the four files are in place afterwards, or none of the new
 * ones, also when a signal comes in between. */
ct_status ct_export_torch(const ct_result *rec, const ct_cudnn_stored *cudnn, const char *templates_dir,
                          const char *dir, int force, double tolerance, ct_err *e)
{
    if (!*dir)   /* "" would put the files into / ("" + "/NAME") */
        return ct_fail(e, CT_ERR_USAGE, "export --torch: -o is empty: give the directory to write into");
    ct_torch_mod m = {.rec = rec};
    ct_status rc = ct_problem_parse(rec->problem, &m.p, e);
    if (rc != CT_OK)
        return rc;
    ct_export_symbol(m.p.canonical, m.sym, sizeof m.sym);
    snprintf(m.name, sizeof m.name, "%.190s", m.sym + strlen("convtune_"));
    file_names(&m);
    m.link = link_flags(&m.p, rec->tmpl);
    m.nb = m.p.family->buffers(&m.p, m.bufs);
    if (m.nb < 2 || !m.bufs[m.nb - 1].is_output)
        return ct_fail(e, CT_ERR_INTERNAL, "export --torch: the output of %s is not its last buffer", m.p.canonical);
    for (int i = 0; i < m.nb; i++)
        if ((rc = shape_text(&m.p, &m.bufs[i], m.shape[i], sizeof m.shape[i], e)) != CT_OK)
            return rc;
    char path[4][1400], py[220];
    snprintf(py, sizeof py, "%s.py", m.name);
    const char *names[4] = {m.cu, m.h, m.binding, py};
    for (int i = 0; i < 4; i++) {
        snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
        if ((rc = ct_outfile_check(path[i], force, "export", e)) != CT_OK)
            return rc;
    }
    ct_outset set;
    ct_outset_init(&set);
    if ((rc = ct_exp_cu_into(rec, cudnn, templates_dir, path[0], force, tolerance, &set, e)) != CT_OK) {
        ct_outset_discard(&set);
        return rc;
    }
    for (int i = 0; i < 2; i++) {
        FILE *f;
        if ((rc = ct_outset_add(&set, path[2 + i], force, TMP_PREFIX, "export", &f, e)) != CT_OK)
            return rc;
        if (!emit_module_file(f, &m, i == 0)) {
            ct_outset_discard(&set);
            return ct_fail(e, CT_ERR_INTERNAL, "out of memory");
        }
    }
    return ct_outset_commit(&set, e);
}

/* The family module: the export pair of each set (the forward selector and
 * each tuned pass's), the module and the runtime, as one set. */
ct_status ct_export_torch_family(const ct_tuned_set *const *sets, int nsets, const char *templates_dir,
                                 const char *dir, int force, ct_err *e)
{
    const ct_tuned_set *set = sets[0];
    if (!set->family->family_export)
        return ct_fail(e, CT_ERR_USAGE, "export --family %s --torch: family %s has no family export; "
                       "export each %s problem with --problem SPEC --torch", set->family->name, set->family->name,
                       set->family->name);
    if (!set->fx || !set->fx->shapes || !set->fx->out_shape) {
        char again[80];
        return ct_fail(e, CT_ERR_USAGE, "export --family %s --torch: the %s selector has no PyTorch module yet; "
                       "export it without --torch", ct_tuned_args(set, again, sizeof again), set->name);
    }
    if (!*dir)
        return ct_fail(e, CT_ERR_USAGE, "export --torch: -o is empty: give the directory to write into");
    if (nsets < 1 || nsets > CT_TORCH_MAX_SETS)
        return ct_fail(e, CT_ERR_INTERNAL, "export --torch: %d selectors in one module", nsets);
    ct_torch_mod m = {.set = set, .link = "", .nsets = nsets};
    snprintf(m.name, sizeof m.name, "convtune_%s", set->name);
    snprintf(m.sym, sizeof m.sym, "convtune_%s", set->name);
    file_names(&m);
    const ct_family_export *fx = set->family->family_export;
    const int vf = fx->variant ? ct_field_find(set->family, fx->variant) : -1;
    for (int s = 0; s < nsets; s++) {
        m.sets[s] = sets[s];
        m.set_names[s] = vf >= 0 && s < set->family->fields[vf].nchoices ? set->family->fields[vf].choices[s] : "fwd";
        if (sets[s])
            snprintf(m.set_cu[s], sizeof m.set_cu[s], "convtune_%s.cu", sets[s]->name);
        for (int i = 0; sets[s] && i < sets[s]->n; i++)
            if (*link_flags(&sets[s]->probs[i], sets[s]->recs[i].tmpl))
                m.link = link_flags(&sets[s]->probs[i], sets[s]->recs[i].tmpl);
    }
    char *rt = NULL;
    ct_status rc = runtime_text(templates_dir, &rt, e);
    if (rc != CT_OK)
        return rc;
    const size_t rt_len = strlen(rt);
    char cu[CT_TORCH_MAX_SETS][1400], h[CT_TORCH_MAX_SETS][1400], py[1400], rtp[1400];
    snprintf(py, sizeof py, "%s/%s.py", dir, m.name);
    snprintf(rtp, sizeof rtp, "%s/%s", dir, CT_TORCH_RUNTIME);
    const int rt_same = same_content(rtp, rt);
    int bad = (rc = ct_outfile_check(py, force, "export", e)) != CT_OK ||
              (!rt_same && (rc = ct_outfile_check(rtp, force, "export", e)) != CT_OK);
    for (int s = 0; s < nsets && !bad; s++) {
        if (!sets[s])
            continue;
        snprintf(cu[s], sizeof cu[s], "%s/%s", dir, m.set_cu[s]);
        ct_export_header_path(cu[s], h[s], sizeof h[s]);
        bad = (rc = ct_outfile_check(cu[s], force, "export", e)) != CT_OK ||
              (rc = ct_outfile_check(h[s], force, "export", e)) != CT_OK;
    }
    ct_outset out;
    ct_outset_init(&out);
    for (int s = 0; s < nsets && !bad; s++)
        bad = sets[s] && (rc = ct_exp_family_into(sets[s], templates_dir, cu[s], force, &out, e)) != CT_OK;
    FILE *f;
    if (!bad && (rc = ct_outset_add(&out, py, force, TMP_PREFIX, "export", &f, e)) == CT_OK &&
        !emit_module_file(f, &m, 0))
        rc = ct_fail(e, CT_ERR_INTERNAL, "out of memory");
    if (!bad && rc == CT_OK && !rt_same && (rc = ct_outset_add(&out, rtp, force, TMP_PREFIX, "export", &f, e)) == CT_OK &&
        fwrite(rt, 1, rt_len, f) != rt_len)
        rc = ct_fail(e, CT_ERR_IO, "export --torch: writing %s failed", rtp);
    free(rt);
    if (bad || rc != CT_OK) {
        ct_outset_discard(&out);
        return rc;
    }
    return ct_outset_commit(&out, e);
}
