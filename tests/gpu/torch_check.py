"""torch_check.py - what the PyTorch GPU tests (gpu_torch.py, gpu_torch_ops.py)
share: running convtune, the relative error against a float64 reference,
and a checker that counts checks and failures. Imported from the scripts'
own folder (Python puts it first on sys.path)."""
import subprocess

# The errors an exported module raises for bad input (ValueError, TypeError
# for a dtype) or for what it cannot do (NotImplementedError, RuntimeError).
REFUSALS = (ValueError, TypeError, NotImplementedError, RuntimeError)


def run(cmd, **kw):
    """Run a command, printing it, and its output's tail when it fails."""
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        print(p.stdout[-3000:] + p.stderr[-3000:])
    return p


def relerr(out, ref):
    """Relative L2 error of out against the float64 reference; inf when out
    holds a NaN or an infinity (outputs are NaN-filled before a run, so an
    unwritten element shows here)."""
    import torch
    out = out.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return (torch.linalg.vector_norm(out - ref) / torch.linalg.vector_norm(ref).clamp_min(1e-300)).item()


class Checker:
    """Counts checks and failures of one module, printing each failure."""

    def __init__(self, name):
        self.name, self.failures, self.checks = name, 0, 0

    def check(self, cond, msg):
        self.checks += 1
        if not cond:
            self.failures += 1
            print("FAIL %s: %s" % (self.name, msg), flush=True)

    def raises(self, fn, words, what, types=REFUSALS):
        """fn must raise one of types with every word of words in its
        message; another kind of error is a failure too."""
        try:
            fn()
        except types as exc:
            self.check(all(w in str(exc) for w in words), "%s: message %r lacks %s" % (what, str(exc), words))
            return
        except Exception as exc:
            self.check(False, "%s: %s raised, expected %s" % (what, type(exc).__name__, types))
            return
        self.check(False, "%s: no error raised" % what)
