"""How far each claim's estimate moves between CPU code paths: one study job rerun under several kinds of machine (the
default kernels, and AVX2 kernels forced on the same CPU), each with its own download cache so that nothing is read
from a cache, then every model-result claim's estimate compared, in the metric's units and against the row's standard
error, and its verdict, each run's claims decided again from its evidence by today's rules. The largest move is what
`claims.VERIFY_DRIFT` declares (`--verify`'s tolerance and rule f rest on it).

    python benchmarks/verify_drift.py [--jobs curriculum-ronli] [--kinds default avx2] [--out /tmp/verify_drift]
                                      [--threads 1] [--reuse]

Writes benchmarks/verify_drift.csv (a row per claim and pair of kinds) and benchmarks/verify_drift.md (the machine,
the kinds, the largest move per unit and metric). The committed tables/<job>/claims.csv joins as a kind of its own
('committed', on the machine its manifest names, at its commit: what `--verify` compares a rerun with).
"""
import argparse, itertools, json, os, subprocess, sys, time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
AVX2 = {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}
KINDS = {"default": {}, "avx2": AVX2}  # environment each kind runs under (torch, oneDNN and MKL read it at start)
Z = 1.959963984540054  # the 95% interval's half-width in standard errors (normal)


def run_kind(kind: str, jobs: list, out: Path, threads: int, data_dir: str | None) -> float:
    "Run `jobs` under `kind` into out/kind (a fresh cache in out/kind/cache): wall seconds."
    env = {k: v for k, v in os.environ.items() if k not in AVX2} | KINDS[kind]
    env |= {"NLIC_CACHE_DIR": str(out / kind / "cache"), "OMP_NUM_THREADS": str(threads), "NLIC_OFFLINE": "1",
            "MKL_NUM_THREADS": str(threads)}
    code = ("import sys; from nlicompendium.cli import reproduce; "
            f"reproduce({jobs!r}, 'cpu', force=True, collect_outputs=False, runs_dir={str(out / kind)!r}, "
            f"data_dir={data_dir!r}, wait=True)")
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=ROOT)
    return time.perf_counter() - t


def metrics_of(declarations: Path) -> dict:
    "Each claim's metric, from the ledger's recorded calls (tables/<job>/claims_declarations.json)."
    if not declarations.is_file(): return {}
    out = {}
    for led in json.loads(declarations.read_text()).get("ledgers", []):
        for call in led.get("calls", []):
            c = call.get("args", {}).get("c", {})
            c = c.get("claim", c) if isinstance(c, dict) else {}
            if "key" in c: out[c["key"]] = c.get("metric", "")
    return out


def compare(job: str, a: str, b: str, ta: pd.DataFrame, tb: pd.DataFrame, metric: dict) -> pd.DataFrame:
    "A row per model-result claim decided under both kinds: estimates, the move, the move in standard errors."
    x, y = ta.set_index("key"), tb.set_index("key"); rows = []
    for k in x.index.intersection(y.index):
        r, s = x.loc[k], y.loc[k]
        ea, eb = float(r["estimate (A - B)"]), float(s["estimate (A - B)"])
        if r.unit == "data" or not (np.isfinite(ea) and np.isfinite(eb)): continue
        se = (float(r["CI high"]) - float(r["CI low"])) / (2 * Z)
        rows.append({"job": job, "key": k, "unit": r.unit, "metric": metric.get(k, ""), "test": r.test,
                     "kinds": f"{a} vs {b}", "estimate": ea, "estimate other": eb, "moved": abs(eb - ea),
                     "standard error": se, "moved / SE": abs(eb - ea) / se if se > 0 else np.nan,
                     "verdict": r.verdict, "verdict other": s.verdict, "same verdict": r.verdict == s.verdict})
    return pd.DataFrame(rows)


def decided(folder: Path) -> pd.DataFrame:
    "A run's claims decided again from its evidence by today's rules (`claims.recheck`): every kind under one rule."
    from nlicompendium.claims import load_evidence, recheck
    return recheck(*load_evidence(folder))


def lscpu() -> str:
    "The machine, in lscpu's words (model, flags that decide the kernels)."
    try: out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError): return "lscpu unavailable"
    keep = ("Model name", "CPU(s):", "Thread(s) per core", "Hypervisor vendor", "L3 cache")
    lines = [ln.strip() for ln in out.splitlines() if ln.startswith(keep)]
    isa = sorted({f for ln in out.splitlines() if ln.startswith("Flags") for f in ln.split()
                  if f.startswith(("avx", "amx", "fma"))})
    return "; ".join(" ".join(ln.split()) for ln in lines) + "; ISA flags: " + " ".join(isa)


def report(t: pd.DataFrame, machine: str, kinds: dict, seconds: dict, committed: dict, threads: int) -> str:
    "The Markdown page: machine, kinds, the largest move per unit and metric, every row."
    g = t.groupby(["kinds", "unit", "metric"], dropna=False).agg(rows=("key", "size"), largest_moved=("moved", "max"),
                                                         median_moved=("moved", "median"),
                                                         largest_moved_se=("moved / SE", "max"),
                                                         verdicts_changed=("same verdict", lambda s: int((~s).sum())))
    lines = ["# How far a claim's estimate moves between CPU code paths", "",
             f"Machine: {machine}.", "",
             f"Kinds (each {threads} thread(s), `OMP_NUM_THREADS`, and a fresh download and feature cache, "
             "`NLIC_CACHE_DIR`, so nothing is read from a cache):", ""]
    lines += [f"- `{k}`: {' '.join(f'{a}={b}' for a, b in v.items()) or 'no override (the CPU default kernels)'}"
              + (f"; {seconds[k]:.0f} s wall" if k in seconds else "") for k, v in kinds.items()]
    lines += [f"- `committed`: tables/{j}/claims.csv, {m}" for j, m in committed.items()]
    top = t.loc[t["moved / SE"].idxmax()]
    lines += ["", "The largest move per pair of kinds, unit and metric (in the metric's units, and in the row's "
              "standard errors, SE = half the 95% interval / 1.96):", "",
              g.reset_index().to_markdown(index=False, floatfmt=".3g"), "",
              f"Largest of all: {top['moved / SE']:.3f} standard errors ({top.key}, {top.kinds}, {top.moved:.3g} "
              f"{top.metric}). `claims.VERIFY_DRIFT` declares it, rounded up, times a multiple for the machines not "
              "measured here (other CPUs, thread counts, bf16 autocast, GPUs); `claims.verify_tolerance` gives each "
              "row that many of its standard errors.", "",
              "Every row (`verify_drift.csv`):", "",
              t.drop(columns=["test"]).to_markdown(index=False, floatfmt=".3g"), ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", nargs="+", default=["curriculum-ronli"])
    ap.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    ap.add_argument("--out", default="/tmp/verify_drift")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reuse", action="store_true", help="a kind whose claims.csv exists is not rerun")
    ap.add_argument("--data-dir", default=os.environ.get("NLIC_DATA_DIR"))
    a = ap.parse_args(); out = Path(a.out); seconds = {}
    for kind in a.kinds:
        wall = out / kind / "seconds.txt"  # a reused kind's wall time, as it ran
        if a.reuse and all((out / kind / j / "claims.csv").is_file() for j in a.jobs):
            if wall.is_file(): seconds[kind] = float(wall.read_text())
            continue
        seconds[kind] = run_kind(kind, a.jobs, out, a.threads, a.data_dir); wall.write_text(f"{seconds[kind]:.1f}")
        print(f"{kind}: {seconds[kind]:.0f} s", flush=True)
    tabs, committed = [], {}
    for job in a.jobs:
        metric = metrics_of(ROOT / "tables" / job / "claims_declarations.json")
        runs = {k: decided(out / k / job) for k in a.kinds}
        man = json.loads((ROOT / "tables" / job / "manifest.json").read_text())
        mine = json.loads((out / a.kinds[0] / job / "manifest.json").read_text())
        m, same = man["machine"], man.get("code") == mine.get("code")
        committed[job] = (f"{m['cpu']}, {m['torch_cpu_capability']} kernels "
                          f"({' '.join(f'{a}={b}' for a, b in (m.get('isa_overrides') or {}).items()) or 'default'}), "
                          f"commit {man['git']['commit'][:7]}, code key {man['code']}"
                          + ("" if same else f" (rerun here: {mine['code']}; the code differs, so its moves are code "
                                             "and machine together)"))
        runs["committed"] = decided(ROOT / "tables" / job)
        for x, y in itertools.combinations(runs, 2): tabs.append(compare(job, x, y, runs[x], runs[y], metric))
    t = pd.concat(tabs, ignore_index=True)
    t.to_csv(ROOT / "benchmarks" / "verify_drift.csv", index=False, float_format="%.6g")
    page = report(t, lscpu(), {k: KINDS[k] for k in a.kinds}, seconds, committed, a.threads)
    (ROOT / "benchmarks" / "verify_drift.md").write_text(page)
    print(page)


if __name__ == "__main__":
    main()
