#!/usr/bin/env python3
"""readme_commands.py - the README's commands do what the README says (CPU part).

Reads the shell blocks (``` fences without a language) of README.md's
"Install" and "Use" sections, splits each line at " && ", and runs every
command that needs no GPU in a scratch folder, as a new user would after a
clone, asserting it exits 0 and leaves the files its comment names:

  scripts/setup-deps.sh [--build-only]  run with apt-get and sudo replaced
        by stand-ins that fail: passes when every package is installed
        already (CI's case), is SKIPPED (with the reason) when it would have
        to install some (that needs root);
  cmake -S . -B build ...               configured for real, into a scratch
        build folder, with the README's options;
  cmake --build build ...               not run: REUSED, the build tree the
        test belongs to (configured from this source, its convtune built);
  cmake --install build --prefix ~/.local   run, HOME the scratch folder: the
        binary, the man page and the bash completion must be there;
  convtune ... (no --gpu)               the installed convtune, with the
        database tests/fixtures/report.db (copied) as $CONVTUNE_DB, in a
        scratch working folder;
  mkdir -p, nvcc ...                    run there (nvcc: the export just written).

Commands that need a GPU (--gpu), the test suite itself (ctest) and the
Python blocks (PyTorch on a GPU) are listed as SKIPPED with a reason and
never count as passed. A command the test cannot classify fails it: the
README and this test are kept in agreement.

With --gpu (the GPU test gpu_readme) the same walk runs on a GPU machine
against an empty database, so that what the README promises a new user is
what happens:
  convtune --gpu 0 ...      tunes; must exit 0 and print the cuDNN line;
  convtune query ...        must show what was just tuned, against cuDNN;
  convtune export, nvcc -c  as above, then the export's own Self-test line
                            (from its header comment) is built and run:
                            the kernel called, checked against fp64;
  the PyTorch part          a small model (one depthwise layer) is listed
                            with the runtime's problems(), tuned with the
                            README's `convtune tune --problems layers.txt`,
                            exported with the README's command, and the
                            README's Python block runs on it; the converted
                            model's output and gradients must match
                            PyTorch's. Configuring a scratch build is left
                            to the CPU part (a GPU machine may lack the
                            build's headers: docs/INSTALL.md).
Exit 77 (SKIPPED) with --gpu when no GPU is visible.

Usage: readme_commands.py CONVTUNE SOURCE_DIR BUILD_DIR [--gpu]. Exit 0 when
every command run passed, 1 otherwise.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

results = {"PASS": 0, "SKIP": 0, "REUSED": 0, "FAIL": 0}


def report(kind, cmd, why=""):
    results[kind] += 1
    print(f"{kind}: {cmd}" + (f"  -- {why}" if why else ""))


def blocks(readme):
    """(section, language, [lines]) of each fenced block."""
    out, section, fence, lang, body = [], "", False, "", []
    for line in open(readme, encoding="utf-8"):
        line = line.rstrip("\n")
        if not fence and line.startswith("## "):
            section = line[3:].strip()
        if line.startswith("```"):
            if fence:
                out.append((section, lang, body))
                fence, body = False, []
            else:
                fence, lang = True, line[3:].strip()
            continue
        if fence:
            body.append(line)
    return out


def split_comment(line):
    """The command and its comment ("" when none)."""
    m = re.search(r"\s+#\s?(.*)$", line)
    return (line[:m.start()].strip(), m.group(1)) if m else (line.strip(), "")


def named_files(comment):
    """The files a comment says a command writes: NAME.cu, .h, .py, .o; "X.cu, .h" names X.h too."""
    names = re.findall(r"[\w./-]*\w\.(?:cu|h|py|o)\b", comment)
    for m in re.finditer(r"([\w./-]*\w)\.cu, \.h\b", comment):
        names.append(m.group(1) + ".h")
    return names


def run(args, cwd, env, shell=False, timeout=120):
    p = subprocess.run(args, cwd=cwd, env=env, shell=shell, executable="/bin/bash" if shell else None,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    return p.returncode, p.stdout


# The GPU part's model: one depthwise layer, the kind of layer the README's
# results are about, small enough to tune in about a minute.
MODEL = """import copy, torch, torch.nn as nn
torch.backends.cudnn.allow_tf32 = False      # PyTorch's side in fp32, as the fp64 check needs
torch.backends.cuda.matmul.allow_tf32 = False
torch.manual_seed(7)
model = nn.Sequential(nn.Conv2d(32, 32, 7, padding=3, groups=32, bias=False)).cuda()
x = torch.randn(8, 32, 28, 28, device="cuda", requires_grad=True)
"""

LIST = MODEL + """import importlib.util, sys
spec = importlib.util.spec_from_file_location("convtune_torch", sys.argv[1])
rt = importlib.util.module_from_spec(spec); sys.modules["convtune_torch"] = rt; spec.loader.exec_module(rt)
open("layers.txt", "w").write("\\n".join(rt.problems(model, x)) + "\\n")
print(open("layers.txt").read(), end="")
"""

# After the README's block: the converted model against fp64 (PyTorch's
# fp32 error printed beside it), forward and both gradients.
CHECK = """
import sys
model.zero_grad(set_to_none=True); orig.zero_grad(set_to_none=True)
ref = copy.deepcopy(orig).double()
x64 = x.detach().double().requires_grad_()
gy = torch.randn(8, 32, 28, 28, device="cuda", dtype=torch.float64)
def rel(a, b): return ((a.double() - b).norm() / b.norm()).item()
outs = {}
for name, m, xin in (("convtune", model, x), ("pytorch", orig, x.detach().clone().requires_grad_())):
    if xin.grad is not None: xin.grad = None
    y = m(xin); y.backward(gy.float())
    outs[name] = (y.detach(), xin.grad, [p.grad for p in m.parameters()])
y64 = ref(x64); y64.backward(gy)
w64 = [p.grad for p in ref.parameters()]
print("after a step, which side ran each pass (measured on the first call):")
ct.report(model)
# convtune's own kernels, whichever side was measured faster above.
ct.set_policy(side="convtune")
model.zero_grad(set_to_none=True); x.grad = None
y = model(x); y.backward(gy.float())
outs["convtune, forced"] = (y.detach(), x.grad, [p.grad for p in model.parameters()])
print("with set_policy(side='convtune'):")
ct.report(model)
bad = 0
for name, (y, gx, gw) in outs.items():
    errs = [rel(y, y64), rel(gx, x64.grad)] + [rel(a, b) for a, b in zip(gw, w64)]
    print(name, "relative L2 error against fp64 (output, dx, dW):", " ".join("%.2e" % e for e in errs))
    if name != "pytorch" and (len(gw) != len(w64) or max(errs) > 1e-5):
        bad = 1
print("FAIL" if bad else "OK", "converted model within 1e-5 of fp64, as measured and with convtune's kernels forced")
sys.exit(bad)
"""


def gpu_visible():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0 and "GPU" in p.stdout


def tail(out, n=8):
    return " | ".join(l.strip() for l in out.strip().splitlines()[-n:])


def self_test(cu, work, env):
    """Builds and runs the export's own Self-test line: the kernel called, checked against fp64."""
    path = os.path.join(work, cu)
    m = re.search(r"^// Self-test: (.*)$", open(path).read(), re.M) if os.path.exists(path) else None
    if not m:
        return "FAIL", f"{cu} has no Self-test line"
    code, out = run(m.group(1), work, env, shell=True, timeout=600)
    print(out.rstrip())
    return ("PASS", m.group(1) + ": " + tail(out, 2)) if code == 0 else ("FAIL", f"exit {code}: {tail(out)}")


def tune_model(tune_list, src, work, env):
    """Lists the model's problems with the runtime and tunes them with the README's command."""
    if not tune_list:
        return "FAIL", "the README names no `convtune tune --problems FILE` command"
    try:
        import torch  # noqa: F401  (the machine's PyTorch, as the README's block needs)
    except ImportError:
        return "SKIP", "PyTorch is not installed here"
    script = os.path.join(work, "list_problems.py")
    open(script, "w").write(LIST)
    code, out = run([sys.executable, script, os.path.join(src, "templates", "torch", "convtune_torch.py")], work,
                    env, timeout=300)
    if code != 0:
        return "FAIL", f"listing the problems: exit {code}: {tail(out)}"
    code, out2 = run(shlex.split(tune_list), work, env, timeout=1800)
    print(out2.rstrip())
    return ("PASS", f"{len(out.split())} problems tuned") if code == 0 else ("FAIL", f"exit {code}: {tail(out2)}")


def python_block(comment, src, work, env):
    """Runs the README's Python block on the tuned model, then checks it against fp64."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return "SKIP", "PyTorch is not installed here"
    body = python_block.blocks.pop(0) if python_block.blocks else None
    if body is None:
        return "FAIL", "no Python block left in the README"
    script = os.path.join(work, "readme_block.py")
    open(script, "w").write(MODEL + "orig = copy.deepcopy(model)\n" + "\n".join(body) + "\n" + CHECK)
    code, out = run([sys.executable, script], work, env, timeout=900)
    print(out.rstrip())
    return ("PASS", tail(out, 3)) if code == 0 else ("FAIL", f"exit {code}: {tail(out)}")


python_block.blocks = []


def main():
    convtune, src, build = (os.path.abspath(a) for a in sys.argv[1:4])
    gpu = "--gpu" in sys.argv[4:]
    if gpu and not gpu_visible():
        print("SKIPPED: no GPU visible (nvidia-smi -L)")
        return 77
    readme = os.path.join(src, "README.md")
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"`(convtune tune --problems [\w./-]+)`", text)
    tune_list = m.group(1) if m else None
    cmds = []   # (command, comment)
    for section, lang, body in blocks(readme):
        if section not in ("Install", "Use"):
            continue
        if lang:
            cmds.append((None, f"({lang} block, {len(body)} lines)"))
            python_block.blocks.append(body)
            continue
        for line in body:
            cmd, comment = split_comment(line)
            if not cmd:
                continue
            for part in cmd.split(" && "):
                cmds.append((part.strip(), comment))
    if not cmds:
        report("FAIL", "README.md", "no commands found in its Install and Use sections")

    tmp = tempfile.mkdtemp(prefix="ct_readme_")
    home, work, fake = (os.path.join(tmp, d) for d in ("home", "work", "fakebin"))
    for d in (home, work, fake):
        os.makedirs(d)
    # Stand-ins for the package tools: setup-deps.sh only calls them when a
    # package is missing, which a test must not install.
    for tool in ("apt-get", "sudo"):
        path = os.path.join(fake, tool)
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho \"%s $*\" >> \"%s\"\nexit 99\n" % (tool, os.path.join(tmp, "wanted")))
        os.chmod(path, 0o755)
    db = os.path.join(tmp, "readme.db" if gpu else "fixture.db")
    if not gpu:     # the GPU part starts empty: query and export show what it tuned
        shutil.copyfile(os.path.join(src, "tests", "fixtures", "report.db"), db)
    prefix_bin = os.path.join(home, ".local", "bin")
    env = dict(os.environ, HOME=home, CONVTUNE_DB=db, CONVTUNE_CACHE=os.path.join(tmp, "cache"),
               XDG_DATA_HOME=os.path.join(home, ".local", "share"), XDG_CACHE_HOME=os.path.join(home, ".cache"))
    # The installed convtune first, the build's after it (when install is not run).
    env["PATH"] = os.pathsep.join([prefix_bin, os.path.dirname(convtune), env.get("PATH", "")])
    done = {}
    try:
        for cmd, comment in cmds:
            if cmd is None:
                if not gpu:
                    report("SKIP", comment, "needs PyTorch and a GPU (the GPU test gpu_readme runs it)")
                else:
                    kind, why = python_block(comment, src, work, env)
                    report(kind, comment, why)
                continue
            words = shlex.split(cmd)
            key = " ".join([os.path.basename(words[0])] + words[1:])   # ./build/convtune is convtune
            if key in done:
                print(f"{done[key]}: {cmd}  -- as above")
                continue
            kind, why = "FAIL", ""
            if words[0] == "scripts/setup-deps.sh":
                if os.path.exists(os.path.join(tmp, "wanted")):
                    os.remove(os.path.join(tmp, "wanted"))
                code, out = run(words, src, dict(env, PATH=fake + os.pathsep + env["PATH"]))
                if code == 0:
                    kind = "PASS"
                elif code == 99 and os.path.exists(os.path.join(tmp, "wanted")):
                    kind, why = "SKIP", "packages are missing here, and installing them needs root: " + \
                        open(os.path.join(tmp, "wanted")).read().strip().replace("\n", "; ")
                else:
                    why = f"exit {code}: {out.strip()[-300:]}"
            elif words[:2] == ["cmake", "-S"] and gpu:
                kind, why = "SKIP", "the CPU part (readme_commands) configures a build; a GPU machine " \
                    "may lack the build's headers (docs/INSTALL.md)"
            elif words[:2] == ["cmake", "-S"]:
                args = list(words)
                args[args.index("-S") + 1] = src
                args[args.index("-B") + 1] = os.path.join(tmp, "build")
                code, out = run(args, tmp, env)
                kind, why = ("PASS", "configured into a scratch build folder") if code == 0 else \
                    ("FAIL", f"exit {code}: {out.strip()[-400:]}")
            elif words[:2] == ["cmake", "--build"]:
                cache = os.path.join(build, "CMakeCache.txt")
                home_dir = ""
                if os.path.exists(cache):
                    m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", open(cache).read(), re.M)
                    home_dir = m.group(1) if m else ""
                code, out = run([convtune, "--version"], work, env)
                if os.path.realpath(home_dir) == os.path.realpath(src) and code == 0:
                    kind, why = "REUSED", f"not rebuilt: the build tree of this test ({build}), " \
                        f"configured from this source, whose convtune runs ({out.strip()})"
                else:
                    why = f"the build tree {build} was not configured from {src}, or its convtune " \
                        f"does not run (exit {code})"
            elif words[:2] == ["cmake", "--install"]:
                args = ["cmake", "--install", build] + words[3:]
                code, out = run(" ".join(shlex.quote(a) if not a.startswith("~") else a for a in args), work,
                                env, shell=True)
                prefix = os.path.join(home, ".local")
                want = ["bin/convtune", "share/man/man1/convtune.1", "share/bash-completion/completions/convtune"]
                missing = [w for w in want if not os.path.exists(os.path.join(prefix, w))]
                if code == 0 and not missing:
                    kind, why = "PASS", "installed under a scratch HOME: " + ", ".join(want)
                else:
                    why = f"exit {code}, missing {missing}: {out.strip()[-300:]}"
            elif words[0] == "ctest":
                kind, why = "SKIP", "runs the test suite, of which this test is one"
            elif os.path.basename(words[0]) == "convtune" and "--gpu" in words and not gpu:
                kind, why = "SKIP", "needs a GPU (tunes on it); the GPU test gpu_readme runs it"
            elif os.path.basename(words[0]) == "convtune" and "--gpu" in words:
                code, out = run([convtune if words[0].startswith(".") else words[0]] + words[1:], work, env,
                                timeout=1200)
                print(out.rstrip())
                if code == 0 and "cuDNN" in out:
                    kind, why = "PASS", "tuned; " + tail(out, 3)
                else:
                    why = f"exit {code}, " + ("no cuDNN line" if "cuDNN" not in out else "") + ": " + tail(out)
            elif words[:2] == ["mkdir", "-p"]:
                code, out = run(words, work, env)
                kind, why = ("PASS", "") if code == 0 and all(os.path.isdir(os.path.join(work, d))
                                                               for d in words[2:]) else ("FAIL", f"exit {code}")
            elif words[0] == "convtune" or words[0] == "nvcc":
                if gpu and "--torch" in words and "--family" in words:
                    pre, why = tune_model(tune_list, src, work, env)
                    report(pre, f"(model listed and tuned: {tune_list})", why)
                code, out = run(words, work, env)
                if gpu and words[1:2] == ["query"]:
                    print(out.rstrip())
                    if code == 0 and "vs_cuDNN" not in out:
                        code, out = 1, "query shows no vs_cuDNN column: " + out
                files = named_files(comment)
                if words[0] == "nvcc" and "-c" in words:   # nvcc -c X.cu writes X.o
                    files += [os.path.splitext(os.path.basename(w))[0] + ".o" for w in words if w.endswith(".cu")]
                missing = [f for f in files if not os.path.exists(os.path.join(work, f))]
                if code == 0 and not missing:
                    kind = "PASS"
                    why = ("wrote " + ", ".join(files)) if files else f"exit 0, {len(out.splitlines())} lines"
                else:
                    why = f"exit {code}, missing {missing}: {out.strip()[-400:]}"
                if gpu and kind == "PASS" and words[0] == "nvcc":
                    done[key] = kind
                    report(kind, cmd, why)
                    cu = [w for w in words if w.endswith(".cu")]
                    key = cmd = f"(the Self-test line of {cu[0] if cu else '?'})"
                    kind, why = self_test(cu[0] if cu else "", work, env)
            else:
                why = "this test does not know how to run this README command: teach it, or fix the README"
            done[key] = kind
            report(kind, cmd, why)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    ran = results["PASS"] + results["FAIL"]
    print(f"{results['PASS']} passed, {results['SKIP']} skipped (listed above, not passed), "
          f"{results['REUSED']} reused, {results['FAIL']} failed, of {ran + results['SKIP'] + results['REUSED']}")
    if results["PASS"] < 5:
        print("FAIL: fewer than 5 README commands ran; the README's blocks were not found")
        return 1
    return 1 if results["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
