/* export_torch_family.c - the family module of `convtune export --family F
 * --torch` (export_torch.h): the bare selector conv(), and for a family of
 * layers the description of its selectors the runtime's ops read
 * (templates/torch/convtune_torch.py). */
#include <stdio.h>
#include <string.h>

#include "export_torch_internal.h"
#include "family_export.h"

/* Whether the selector's buffer b may be absent (None). */
static int optional_buffer(const ct_family_export *fx, const char *b)
{
    for (int i = 0; i < fx->nargs; i++)
        if (fx->args[i].kind == CT_SEL_BUFFER && !strcmp(fx->args[i].name, b))
            return 1;
    return 0;
}

/* A Python name in upper case ("layout" -> "LAYOUT"). */
static void py_upper(const char *name, char *up, size_t len)
{
    snprintf(up, len, "%s", name);
    for (char *c = up; *c; c++)
        *c = *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
}

/* A shape declaration for the docstring: "(b,cin,l)", or with alternatives
 * "(b,cin,l) with layout ncl, (b,l,cin) with layout nlc". */
static void doc_dims(FILE *f, const ct_family_export *fx, const char *shape)
{
    const ct_sel_arg *key = NULL;
    for (int a = 0; a < fx->nargs && fx->shape_key; a++)
        if (!strcmp(fx->args[a].name, fx->shape_key))
            key = &fx->args[a];
    for (int alt = 0; *shape; alt++) {
        size_t len = strcspn(shape, "|");
        fprintf(f, "%s(%.*s)", alt ? ", " : "", (int)len, shape);
        if (key && alt < key->nchoices && (alt || shape[len]))
            fprintf(f, " with %s %s", key->name, key->choices[alt]);
        shape += len + (shape[len] != '\0');
    }
}

/* A shape declaration as a Python tuple of names: ("a", "b", ) for "a,b";
 * with alternatives ("a,b|b,a"), the one the value of the choice key
 * fx->shape_key picks. */
static void py_dims(FILE *f, const ct_family_export *fx, const char *shape)
{
    const int alts = strchr(shape, '|') != NULL;
    if (alts)
        fputc('(', f);
    fputc('(', f);
    for (const char *d = shape; *d;) {
        size_t len = strcspn(d, ",|");
        fprintf(f, "\"%.*s\", ", (int)len, d);
        if (d[len] == '|')
            fprintf(f, "), (");
        d += len + (d[len] != '\0');
    }
    fputc(')', f);
    if (alts) {
        char up[40];
        py_upper(fx->shape_key, up, sizeof up);
        fprintf(f, ")[%sS.index(%s)]", up, fx->shape_key);
    }
}

/* The tuned problems' field values, one tuple per problem, for the
 * runtime's exactness test and convert(). */
static void py_tuned_fields(FILE *f, const ct_tuned_set *s)
{
    fprintf(f, "(");
    for (int i = 0; i < s->n; i++) {
        fprintf(f, "%s(", i ? ",\n                   " : "");
        for (int a = 0; a < s->fx->nargs; a++)
            fprintf(f, "%lld, ", s->probs[i].dims[a]);
        fprintf(f, ")");
    }
    fprintf(f, "%s)", s->n == 1 ? "," : "");
}

/* The runtime's description of each selector of the module: its symbol and
 * source, the kind of each field (s size, k key, b buffer flag, f fixed:
 * family_export.h), its buffers and the tuned problems. */
static void py_sets(FILE *f, const ct_torch_mod *m)
{
    fprintf(f, "SETS = {\n");
    for (int k = 0; k < m->nsets; k++) {
        const ct_tuned_set *s = m->sets[k];
        if (!s)
            continue;
        const ct_family_export *fx = s->fx;
        fprintf(f, "    \"%s\": {\n        \"symbol\": \"convtune_%s\", \"source\": \"%s\",\n        \"kinds\": \"",
                m->set_names[k], s->name, m->set_cu[k]);
        for (int a = 0; a < fx->nargs; a++)
            fputc("skbf"[fx->args[a].kind], f);
        fprintf(f, "\",\n        \"buffers\": (");
        for (int b = 0; b < fx->nbuffers; b++)
            fprintf(f, "\"%s\", ", fx->buffers[b]);
        fprintf(f, "),\n        \"optional\": (");
        for (int b = 0; b < fx->nbuffers; b++)
            if (optional_buffer(fx, fx->buffers[b]))
                fprintf(f, "%d, ", b);
        fprintf(f, "),\n        \"device\": \"%s\", \"arch\": \"%s\",\n        \"problems\": (", PY(s->device),
                PY(s->arch));
        for (int i = 0; i < s->n; i++)
            fprintf(f, "\"%s\", ", PY(s->recs[i].problem));
        fprintf(f, "),\n        \"tuned\": ");
        py_tuned_fields(f, s);
        fprintf(f, ",\n    },\n");
    }
    fprintf(f, "}\n");
}

/* 2 for a family whose fields name a kernel height (kh), else 1: the
 * dimensions of its layers, which name its ops (conv2d, Conv2d). */
static int layer_dims(const ct_family_export *fx)
{
    for (int a = 0; a < fx->nargs; a++)
        if (!strcmp(fx->args[a].name, "kh"))
            return 2;
    return 1;
}

/* The family module: conv(tensors..., optional tensors=None, keys=default)
 * through the selector, from the family's declaration (family_export.h);
 * for a family of layers with training passes (its export has the pass
 * variant), also the PyTorch ops with autograd of the runtime. */
void ct_torch_family_py(FILE *f, const ct_torch_mod *m)
{
    const ct_tuned_set *s = m->set;
    const ct_family_export *fx = s->family->family_export;
    const int nin = fx->nbuffers - 1, layer = fx->variant != NULL, dims = layer_dims(fx);
    char fam[64];
    ct_tuned_args(s, fam, sizeof fam);
    fprintf(f, "\"\"\"convtune's %s kernels for PyTorch: %d tuned sizes and a generic kernel for\n"
               "any other, chosen by the graded selector of `convtune export --family %s`.\n\n",
            s->name, s->n, fam);
    fprintf(f, "Tuned on %s (%s). Autogenerated by convtune %s, do not edit: re-run\n`convtune export --family %s --torch`.\n\n",
            PY(s->device), PY(s->arch), CONVTUNE_VERSION, fam);
    if (layer) {
        fprintf(f, "Training passes in this module:");
        for (int k = 0; k < m->nsets; k++)
            if (m->sets[k])
                fprintf(f, " %s (%d tuned)", m->set_names[k], m->sets[k]->n);
        fprintf(f, ".\n\n    import %s\n"
                   "    y = %s.conv%dd(x, weight, bias, stride=1, padding=0, dilation=1, groups=1)\n"
                   "    model = %s.convert(model)     # nn.Conv%dd layers whose shapes were tuned\n"
                   "    %s.report()                    # which side runs each pass of each layer\n\n"
                   "conv%dd takes F.conv%dd's arguments (padding an int, a tuple, 'same' or 'valid';\n"
                   "channels-last tensors as PyTorch holds them) and is the custom op\n"
                   "torch.ops.convtune.%s_fwd, with autograd through the tuned dgrad and wgrad\n"
                   "selectors where those passes were tuned, torch.compile(fullgraph=True) and\n"
                   "CUDA graphs. Each pass of each layer runs convtune's kernel only where one\n"
                   "was tuned for exactly that layer on this GPU model and measured faster than\n"
                   "PyTorch's on first use; PyTorch's otherwise (see convtune_torch.py and\n"
                   "set_policy). conv() below is the bare forward selector.\n\n",
                PY(m->name), PY(m->name), dims, PY(m->name), dims, PY(m->name), dims, dims, s->name);
    }
    fprintf(f, "    import %s\n    out = %s.conv(", PY(m->name), PY(m->name));
    for (int i = 0; i < nin; i++)
        fprintf(f, "%s%s%s", i ? ", " : "", ct_torch_arg_name(fx->buffers[i]), optional_buffer(fx, fx->buffers[i]) ? "=None" : "");
    for (int a = 0; a < fx->nargs; a++)
        if (fx->args[a].kind == CT_SEL_KEY && fx->args[a].nchoices)
            fprintf(f, ", %s=\"%s\"", fx->args[a].name, fx->args[a].choices[0]);
        else if (fx->args[a].kind == CT_SEL_KEY)
            fprintf(f, ", %s=%lld", fx->args[a].name, fx->args[a].dflt);
    fprintf(f, ")\n    %s.last_grade_name()      # exact, nearest_size, other_device or generic\n\n"
               "The problems are those of %s. Arguments: CUDA float32 tensors,\n"
               "contiguous, 16-byte aligned, on one device, of the shapes\n", m->name, s->family->grammar);
    for (int i = 0; i < nin; i++) {
        fprintf(f, "    %-7s ", ct_torch_arg_name(fx->buffers[i]));
        doc_dims(f, fx, fx->shapes[i]);
        fprintf(f, "%s\n", optional_buffer(fx, fx->buffers[i]) ? " or None" : "");
    }
    for (int a = 0; a < fx->nargs; a++)
        if (fx->args[a].kind == CT_SEL_KEY)
            fprintf(f, "    %-7s %s\n", fx->args[a].name, fx->args[a].help);
    fprintf(f, "The output is a new tensor of shape %s.\n\n"
               "conv() runs on the current CUDA stream, also under torch.cuda.graph capture\n"
               "(call it once before capturing: the first call builds and loads the kernels);\n"
               "it is forward only. The first call compiles the .cu files with nvcc into one\n"
               "shared library (cached under CONVTUNE_TORCH_CACHE, else ~/.cache/convtune/torch),\n"
               "called through ctypes.\n\"\"\"\n", fx->out_shape);
    fprintf(f, "import importlib.util\nimport os\nimport sys\n\nimport torch\n\n"
               "_HERE = os.path.dirname(os.path.abspath(__file__))\n\n\n"
               "def _runtime():\n"
               "    # One runtime per process, shared by every family module.\n"
               "    rt = sys.modules.get(\"convtune_torch\")\n"
               "    if rt is None:\n"
               "        spec = importlib.util.spec_from_file_location(\"convtune_torch\", os.path.join(_HERE, \"%s\"))\n"
               "        rt = importlib.util.module_from_spec(spec)\n"
               "        sys.modules[\"convtune_torch\"] = rt\n"
               "        spec.loader.exec_module(rt)\n"
               "    if getattr(rt, \"API\", None) != 1:\n"
               "        raise ImportError(\"convtune: %%s is not the runtime this module was written for (API 1)\" %% rt.__file__)\n"
               "    return rt\n\n\n_rt = _runtime()\n\n", CT_TORCH_RUNTIME);
    fprintf(f, "NAME = \"%s\"\nDTYPE = torch.float32\nDEVICE = \"%s\"\nARCH = \"%s\"\nFIELDS = (", s->name,
            PY(s->device), PY(s->arch));
    for (int a = 0; a < fx->nargs; a++)
        fprintf(f, "\"%s\", ", fx->args[a].name);
    fprintf(f, ")\nLDFLAGS = [%s%s%s]\n", *m->link ? "\"" : "", PY(m->link), *m->link ? "\"" : "");
    for (int a = 0; a < fx->nargs; a++) {
        const ct_sel_arg *arg = &fx->args[a];
        if (!arg->nchoices)
            continue;
        for (const char *c = arg->name; *c; c++)
            fputc(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c, f);
        fprintf(f, "S = (");
        for (int c = 0; c < arg->nchoices; c++)
            fprintf(f, "\"%s\", ", arg->choices[c]);
        fprintf(f, ")\n");
    }
    fprintf(f, "GRADES = (\"exact\", \"nearest_size\", \"other_device\", \"generic\")\nTUNED = [");
    for (int i = 0; i < s->n; i++)
        fprintf(f, "%s\"%s\"", i ? ", " : "", PY(s->recs[i].problem));
    fprintf(f, "]\n");
    py_sets(f, m);
    fprintf(f, "_LIB = _rt.Library(NAME, _HERE, SETS, LDFLAGS)\nlast_grade = None\n\n\n"
               "def _check(name, t, shape, device):\n    _rt.check_tensor(name, t, shape, device, DTYPE)\n\n\n"
               "class _Forward(torch.autograd.Function):\n"
               "    @staticmethod\n"
               "    def forward(ctx, out_shape, ints, *tensors):\n"
               "        global last_grade\n"
               "        out = torch.empty(out_shape, dtype=DTYPE, device=tensors[0].device)\n"
               "        last_grade = _LIB.run(\"fwd\", list(tensors) + [out], ints)\n"
               "        return out\n\n"
               "    @staticmethod\n"
               "    def backward(ctx, grad):\n"
               "        raise NotImplementedError(\"convtune: conv() of %%s is the bare forward selector, forward-only%s\" %% NAME)\n",
            layer ? " (conv1d/conv2d, the op, has autograd)" : "");
    fprintf(f, "\n\ndef last_grade_name():\n    \"\"\"How the last call chose its kernel (GRADES), None before any.\"\"\"\n"
               "    return None if last_grade is None else GRADES[last_grade]\n\n\ndef conv(");
    for (int i = 0; i < nin; i++)
        fprintf(f, "%s%s%s", i ? ", " : "", ct_torch_arg_name(fx->buffers[i]), optional_buffer(fx, fx->buffers[i]) ? "=None" : "");
    for (int a = 0; a < fx->nargs; a++)
        if (fx->args[a].kind == CT_SEL_KEY && fx->args[a].nchoices)
            fprintf(f, ", %s=\"%s\"", fx->args[a].name, fx->args[a].choices[0]);
        else if (fx->args[a].kind == CT_SEL_KEY)
            fprintf(f, ", %s=%lld", fx->args[a].name, fx->args[a].dflt);
    fprintf(f, "):\n    \"\"\"A %s problem of the tensors' sizes, as a new tensor (see the module).\"\"\"\n",
            s->family->name);
    for (int a = 0; a < fx->nargs; a++) {
        const ct_sel_arg *arg = &fx->args[a];
        char up[40];
        py_upper(arg->name, up, sizeof up);
        if (arg->nchoices)
            fprintf(f, "    if %s not in %sS:\n        raise ValueError(\"%s: expected one of %%s, got %%r\" %% "
                       "(\", \".join(%sS), %s))\n", arg->name, up, arg->name, up, arg->name);
        else if (arg->kind == CT_SEL_KEY)
            fprintf(f, "    if not isinstance(%s, int) or %s < 0:\n        raise ValueError(\"%s: expected an int >= 0, "
                       "got %%r\" %% (%s,))\n", arg->name, arg->name, arg->name, arg->name);
    }
    fprintf(f, "    sizes = {}\n    for name, t, dims in (");
    for (int i = 0; i < nin; i++) {
        fprintf(f, "(\"%s\", %s, ", ct_torch_arg_name(fx->buffers[i]), ct_torch_arg_name(fx->buffers[i]));
        py_dims(f, fx, fx->shapes[i]);
        fprintf(f, "), ");
    }
    fprintf(f, "):\n        if t is None:\n            continue\n"
               "        _check(name, t, None, None if name == \"input\" else input.device)\n"
               "        if t.dim() != len(dims) or 0 in t.shape:\n"
               "            raise ValueError(\"%%s: expected a non-empty %%d-D tensor (%%s), got shape %%s\" %% "
               "(name, len(dims), \", \".join(dims), tuple(t.shape)))\n"
               "        for d, v in zip(dims, t.shape):\n"
               "            if sizes.setdefault(d, v) != v:\n"
               "                raise ValueError(\"%%s: %%s is %%d, but another tensor's %%s is %%d\" %% (name, d, v, d, "
               "sizes[d]))\n");
    fprintf(f, "    what = \", \".join(\"%%s=%%s\" %% kv for kv in list(sizes.items()) + [");
    for (int a = 0; a < fx->nargs; a++)
        if (fx->args[a].kind == CT_SEL_KEY)
            fprintf(f, "(\"%s\", %s), ", fx->args[a].name, fx->args[a].name);
    fprintf(f, "])\n");
    for (int a = 0; a < fx->nargs; a++) {
        const ct_sel_arg *arg = &fx->args[a];
        if (arg->kind == CT_SEL_SIZE)
            fprintf(f, "    %s = sizes[\"%s\"]\n", arg->name, arg->name);
        else if (arg->nchoices) {
            char up[40];
            py_upper(arg->name, up, sizeof up);
            fprintf(f, "    %s = %sS.index(%s)\n", arg->name, up, arg->name);
        }
    }
    fprintf(f, "    out_shape = tuple(int(d) for d in (%s))\n    if min(out_shape) < 1:\n"
               "        raise ValueError(\"%s: the sizes %%s give no output (shape %%s)\" %% (what, out_shape))\n",
            fx->out_shape, ct_torch_arg_name(fx->buffers[nin > 1 ? 1 : 0]));
    fprintf(f, "    return _Forward.apply(out_shape, (");
    for (int a = 0; a < fx->nargs; a++)
        if (fx->args[a].kind != CT_SEL_BUFFER)
            fprintf(f, "%s, ", fx->args[a].name);
    fprintf(f, ")");
    for (int i = 0; i < nin; i++)
        fprintf(f, optional_buffer(fx, fx->buffers[i]) ? ",\n                          %s if %s is not None else "
                                                         "input.new_empty(0)" : ", %s",
                ct_torch_arg_name(fx->buffers[i]), ct_torch_arg_name(fx->buffers[i]));
    fprintf(f, ")\n");
    if (layer)
        fprintf(f, "\n\n# The PyTorch ops, modules and conversion of the runtime (convtune_torch.py).\n"
                   "_OPS = _rt.LayerOps(sys.modules[__name__])\nconv%dd = _OPS.conv\nConv%dd = _rt.Conv%dd\n"
                   "convert = _rt.convert\nreport = _rt.report\nset_policy = _OPS.set_policy\n", dims, dims, dims);
}
