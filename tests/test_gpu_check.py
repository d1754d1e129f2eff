"""`make gpu-check`'s CPU form (issue 42 item 4): without CUDA, `benchmarks/gpu_check.py` runs its steps at smoke sizes on
the CPU, says so, and exits 0. CI runs it here, beside the other tests, rather than after them on one core."""
import re
import subprocess
import sys


def test_gpu_check_cpu_form(root):
    r = subprocess.run([sys.executable, "benchmarks/gpu_check.py"], cwd=root, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    print(r.stdout[r.stdout.rindex("| step"):])  # the table, in the test log (`pytest -s`)
    assert "device: CPU (no CUDA): smoke sizes" in r.stdout
    rows = dict(re.findall(r"^\| (\S+)\s*\| (pass|fail|skipped)\s*\|", r.stdout, re.M))
    assert {"rehearsal", "mfu", "memory", "llm-map", "repeat", "reduce", "cb-probe", "executor", "ronli"} <= set(rows), rows
    assert "fail" not in rows.values(), rows
    assert rows["rehearsal"] == rows["ronli"] == "skipped"  # the notebook steps need CUDA; the tests run those notebooks
