#!/usr/bin/env python3
"""Keep the text of a template as it is before a refactor changes it.

    scripts/legacy_template.py TEMPLATES_DIR NAME... [-o OUT_DIR]

writes OUT_DIR/NAME-HASH.cu (default OUT_DIR: templates/legacy) for each
NAME: templates/.../NAME.cu of TEMPLATES_DIR with its `#include "X.cuh"`
lines replaced as convtune replaces them (tuner/build/compile.c), HASH being
the 64-bit FNV-1a of that text, the template hash convtune stores with each
result. Results stored before code hashes (schema version 3) carry only that
hash; with the old text kept, `export` and resumed runs judge them on the
code it generated for them (tuner/build/codehash.h) instead of orphaning them
when the template's text changes (a fold of two copies into one source, a
shared header edited). Run it on the templates as they are before the change,
for example on a copy made by `git archive HEAD templates | tar -x -C OLD`
(then TEMPLATES_DIR is OLD/templates), and commit the files with the change.
convtune checks each file's hash against its name and ignores a file whose
text does not have it.
"""
import argparse
import os
import sys

DEPTH = 8  # CT_INCLUDE_DEPTH


def index(root):
    """Every file under root by its name (the names are unique)."""
    files = {}
    for d, _, names in os.walk(root):
        for n in names:
            files.setdefault(n, os.path.join(d, n))
    return files


def expand(text, files, depth):
    out = []
    lines = text.split("\n")
    # lines as compile.c reads them: up to and with each '\n', nothing else
    for i, line in enumerate(lines):
        if i + 1 < len(lines):
            line += "\n"
        elif not line:
            break
        key = '#include "'
        if line.startswith(key):
            q = line.find('"', len(key))
            name = line[len(key):q] if q > 0 else ""
            if 4 < len(name) < 200 and name.endswith(".cuh"):
                if depth <= 0:
                    sys.exit(f"legacy_template: include {name}: nested too deep")
                if name not in files:
                    sys.exit(f"legacy_template: include {name}: not found")
                with open(files[name], "rb") as f:
                    out.append(expand(f.read().decode("latin-1"), files, depth - 1))
                continue
        out.append(line)
    return "".join(out)


def fnv(text):
    h = 1469598103934665603
    for b in text.encode("latin-1"):
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("templates_dir")
    ap.add_argument("names", nargs="+")
    ap.add_argument("-o", "--out", default=os.path.join("templates", "legacy"))
    a = ap.parse_args()
    files = index(a.templates_dir)
    os.makedirs(a.out, exist_ok=True)
    for name in a.names:
        if name + ".cu" not in files:
            sys.exit(f"legacy_template: no template {name} in {a.templates_dir}")
        with open(files[name + ".cu"], "rb") as f:
            text = expand(f.read().decode("latin-1"), files, DEPTH)
        path = os.path.join(a.out, f"{name}-{fnv(text)}.cu")
        with open(path + ".tmp", "wb") as f:
            f.write(text.encode("latin-1"))
        os.replace(path + ".tmp", path)
        print(path)


if __name__ == "__main__":
    main()
