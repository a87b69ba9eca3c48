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

Usage: readme_commands.py CONVTUNE SOURCE_DIR BUILD_DIR. Exit 0 when every
command run passed, 1 otherwise.
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


def main():
    convtune, src, build = (os.path.abspath(a) for a in sys.argv[1:4])
    readme = os.path.join(src, "README.md")
    cmds = []   # (command, comment)
    for section, lang, body in blocks(readme):
        if section not in ("Install", "Use"):
            continue
        if lang:
            cmds.append((None, f"({lang} block, {len(body)} lines)"))
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
    db = os.path.join(tmp, "fixture.db")
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
                report("SKIP", comment, "needs PyTorch and a GPU (the GPU test gpu_torch_ops runs such code)")
                continue
            words = shlex.split(cmd)
            if cmd in done:
                print(f"{done[cmd]}: {cmd}  -- as above")
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
            elif os.path.basename(words[0]) == "convtune" and "--gpu" in words:
                kind, why = "SKIP", "needs a GPU (tunes on it); the GPU tests cover tune"
            elif words[:2] == ["mkdir", "-p"]:
                code, out = run(words, work, env)
                kind, why = ("PASS", "") if code == 0 and all(os.path.isdir(os.path.join(work, d))
                                                               for d in words[2:]) else ("FAIL", f"exit {code}")
            elif words[0] == "convtune" or words[0] == "nvcc":
                code, out = run(words, work, env)
                files = named_files(comment)
                if words[0] == "nvcc" and "-c" in words:   # nvcc -c X.cu writes X.o
                    files += [os.path.splitext(os.path.basename(w))[0] + ".o" for w in words if w.endswith(".cu")]
                missing = [f for f in files if not os.path.exists(os.path.join(work, f))]
                if code == 0 and not missing:
                    kind = "PASS"
                    why = ("wrote " + ", ".join(files)) if files else f"exit 0, {len(out.splitlines())} lines"
                else:
                    why = f"exit {code}, missing {missing}: {out.strip()[-400:]}"
            else:
                why = "this test does not know how to run this README command: teach it, or fix the README"
            done[cmd] = kind
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
