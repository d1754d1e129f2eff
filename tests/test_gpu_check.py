"""`make gpu-check`'s CPU form: with `--smoke` and without CUDA, `benchmarks/gpu_check.py` runs its steps at smoke sizes
on the CPU, says so, and exits 0; without `--smoke` it refuses, naming what is missing. CI runs the CPU form here,
beside the other tests, rather than after them on one core."""
import re
import subprocess
import sys

import pytest
import torch


def test_gpu_check_cpu_form(root):
    r = subprocess.run([sys.executable, "benchmarks/gpu_check.py", "--smoke"], cwd=root, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    print(r.stdout[r.stdout.rindex("| step"):])  # the table, in the test log (`pytest -s`)
    if torch.cuda.is_available(): return  # a CUDA machine runs the smoke sizes on its GPU
    assert "device: CPU (no CUDA): smoke sizes" in r.stdout
    rows = dict(re.findall(r"^\| (\S+)\s*\| (pass|FAIL|skipped)\s*\|", r.stdout, re.M))
    assert {"rehearsal", "mfu", "memory", "llm-map", "repeat", "reduce", "cb-probe", "executor", "ronli"} <= set(rows), rows
    assert "FAIL" not in rows.values(), rows
    assert rows["rehearsal"] == rows["ronli"] == "skipped"  # the notebook steps need CUDA; the tests run those notebooks


@pytest.mark.skipif(torch.cuda.is_available(), reason="CUDA is here: the script would run")
def test_gpu_check_refuses_without_cuda(root):
    "`make gpu-check` on a machine whose torch cannot use CUDA: exit status 2, nothing run, and what is missing said."
    r = subprocess.run([sys.executable, "benchmarks/gpu_check.py", "--steps", "mfu"], cwd=root, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 2, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert "no CUDA" in r.stderr and "--smoke" in r.stderr and "| step" not in r.stdout
    if torch.version.cuda is None: assert "built without CUDA" in r.stderr and "make install-cuda" in r.stderr
