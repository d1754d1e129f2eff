"""`make gpu-check`: everything a lent GPU should be asked, in one command and one table.

    python benchmarks/gpu_check.py                      # CUDA: every step at full size (about 8 min on one H100)
    python benchmarks/gpu_check.py --steps mfu,memory   # some steps
    python benchmarks/gpu_check.py --smoke              # the same steps at smoke sizes; without CUDA, on the CPU (CI)

Without CUDA and without `--smoke` it refuses (exit status 2), naming what is missing: torch's CUDA build, the NVIDIA
driver, or a device (docs/howto/gpu.md says how to install the CUDA build and check it).

A GPU machine here has no network, so every step needs only the working tree, its installed packages and, for the two
study steps, the data folder (`--data-dir`, default `NLIC_DATA_DIR`). Models are built from their architectures'
configurations with random weights (BERT-base, XLNet-base, GPT-2-medium, Llama-2-13B's shapes): speed, memory and
placement depend on shapes, not on weights. Steps:

- rehearsal: the five studies' `gpu` profile on stand-ins (tests/test_rehearsal.py, NLIC_REHEARSAL=1), on CUDA; the
  data folder is required (NLIC_REQUIRE_DATA=1), and a skipped study is a FAIL;
- mfu: bf16 BERT-base-shaped fine-tuning at 128 tokens: FLOPs counted by `FlopCounterMode`, against the card's dense
  bf16 peak (on the CPU: against this machine's measured fp32 GEMM rate, which is said);
- memory: one training step per model at the gpu profile's batch and token sizes (`core.RUN_SIZES`; RoGPT2 at the
  RoNLI row's batch 64), each with its study's classes, peak memory; the cache is emptied after;
- llm-map: where `device_map="auto"` would put Llama-2-13B's layers in bf16 on this card (empty weights);
- repeat: two identical short fits, the largest logit difference, without and with deterministic kernels
  (`training.repeat_fit_max_diff`);
- reduce: a one-process process group on the device's backend (NCCL on CUDA), summing where `training.reduce_device`
  says, and whether the old path (a CPU tensor) is refused;
- cb-probe: CB's scalar-mix probe fine-tuned with its encoder on the device (`cb.finetune_probe`);
- executor: one Dask worker per visible GPU (`executors.open_executor('dask')`), each reports its GPU;
- ronli: RoNLI's main job (`nlic_reproduce --verify --jobs curriculum-ronli`, the cpu profile's MiniLM) on CUDA:
  wall time, and whether every verdict equals the committed one (verify runs with TF32 off, NLIC_TF32=0; CUDA's random
  draws are not the CPU's, so a verdict whose committed p lies near 0.05 may change: docs/howto/gpu.md).

With `--smoke` and no CUDA the rehearsal and ronli steps are not run: in CI the same notebooks already run at those
profiles (tests/test_rehearsal.py, tests/test_papermill.py), and a notebook executes once per profile it tests. The
table says so.
Exit status: 0 when every step that ran passed.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

# PyTorch reads this once per process, at its first cuBLAS GEMM: it must be set before torch does any CUDA work, or the
# `repeat` step's deterministic kernels raise (nlicompendium's import sets it too; this script imports torch first)
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
STEPS = ["rehearsal", "mfu", "memory", "llm-map", "repeat", "reduce", "cb-probe", "executor", "ronli"]
# dense bf16 tensor-core peaks (no sparsity), from the vendors' data sheets; the whole of torch.cuda.get_device_name
# must match (a substring would give "NVIDIA H200 NVL" the SXM card's peak, and "NVIDIA L40" the L4's)
PEAK_BF16 = [(r"NVIDIA H200 NVL", 835e12), (r"NVIDIA H200", 989e12), (r"NVIDIA H100 NVL", 835e12),
             (r"NVIDIA H100 PCIe", 756e12), (r"NVIDIA H100( 80GB HBM3)?", 989e12), (r"NVIDIA H800 PCIe", 756e12),
             (r"NVIDIA H800", 989e12), (r"NVIDIA A100[- ].*", 312e12), (r"NVIDIA L40S", 362e12),
             (r"NVIDIA L40", 181e12), (r"NVIDIA L4", 121e12), (r"NVIDIA A10G", 70e12), (r"NVIDIA A10", 125e12)]
ROGPT2_BATCH = 64  # RoNLI's RoGPT2-medium row trains at batch 64 (nbs/05_curriculum.ipynb, its `batch_size=64`)


def peak_bf16(name):
    "The dense bf16 peak (FLOP/s) of the card `name` (`torch.cuda.get_device_name`), or None when it is not listed."
    import re
    return next((p for k, p in PEAK_BF16 if re.fullmatch(k, name.strip())), None)


def cuda_missing():
    "None where torch can run on CUDA; else what is missing, in words: torch's CUDA build, the driver, or a device."
    import ctypes, shutil, warnings
    gpu = ""
    if shutil.which("nvidia-smi"):
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
        gpu = (r.stdout.strip().splitlines() or [""])[0]
    if torch.version.cuda is None:
        return (f"torch {torch.__version__} is built without CUDA{f' (nvidia-smi sees {gpu})' if gpu else ''}: install "
                "its CUDA build (`make install-cuda`, docs/howto/gpu.md)")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always"); ok = torch.cuda.is_available()
    if ok: return None
    try: ctypes.CDLL("libcuda.so.1")
    except OSError:
        return f"torch {torch.__version__} has CUDA {torch.version.cuda}, but no NVIDIA driver was found (libcuda.so.1)"
    why = "; ".join(str(w.message).splitlines()[0] for w in said)
    return (f"torch {torch.__version__} has CUDA {torch.version.cuda} and the NVIDIA driver loads, but CUDA sees no "
            f"device (CUDA_VISIBLE_DEVICES={os.environ.get('CUDA_VISIBLE_DEVICES', 'unset')!r}"
            f"{'; ' + why if why else ''})")


def sync(dev):
    if dev.type == "cuda": torch.cuda.synchronize(dev)


def timed(fn, dev, n):
    "Seconds per call of `fn`, over n calls after one warm-up."
    fn(); sync(dev); t = time.perf_counter()
    for _ in range(n): fn()
    sync(dev); return (time.perf_counter() - t) / n


def gemm_rate(dev, dtype=torch.float32, n=2048):
    "FLOP/s of one n x n matmul on `dev` (the CPU's stand-in for a peak)."
    a, b = torch.randn(n, n, device=dev, dtype=dtype), torch.randn(n, n, device=dev, dtype=dtype)
    return 2 * n ** 3 / timed(lambda: a @ b, dev, 5)


def bert_config(smoke):
    from transformers import BertConfig
    if smoke: return BertConfig(hidden_size=128, num_hidden_layers=2, num_attention_heads=2, intermediate_size=512,
                                num_labels=3)
    return BertConfig(num_labels=3)  # BERT-base: 12 layers, 768 wide, 12 heads, 3,072 inner, 30,522 word pieces


def train_step(model, dev, batch, tokens, bf16):
    "One fine-tuning step (forward, backward, AdamW) as a closure, on random word pieces."
    opt = torch.optim.AdamW(model.parameters(), lr=2e-5, fused=dev.type == "cuda")
    x = torch.randint(5, 1000, (batch, tokens), device=dev); y = torch.randint(0, 2, (batch,), device=dev)
    def step():
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=bf16):
            loss = model(input_ids=x, labels=y).loss
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    return step


def step_mfu(dev, smoke):
    from torch.utils.flop_counter import FlopCounterMode
    from transformers import BertForSequenceClassification
    from nlicompendium.core import bf16_supported
    bf16 = bf16_supported(dev); batch = 8 if smoke else 32
    model = BertForSequenceClassification(bert_config(smoke)).to(dev)
    step = train_step(model, dev, batch, 128, bf16)
    with FlopCounterMode(display=False) as fc: step()
    flops = fc.get_total_flops(); s = timed(step, dev, 2 if smoke else 20)
    if dev.type == "cuda":
        name = torch.cuda.get_device_name(dev)
        peak = peak_bf16(name)
        against = f"{name}'s dense bf16 peak {peak / 1e12:.0f} TFLOP/s" if peak else f"{name}: peak unknown"
    else:
        peak = gemm_rate(dev); against = f"this CPU's measured fp32 GEMM rate {peak / 1e9:.0f} GFLOP/s (no bf16 peak)"
    mfu = flops / s / peak if peak else float("nan")
    return True, (f"{'tiny BERT (smoke)' if smoke else 'BERT-base'}, batch {batch} x 128 tokens, "
                  f"{'bf16' if bf16 else 'fp32'}: {flops / 1e9:.1f} GFLOP a step (matmuls, FlopCounterMode), "
                  f"{s * 1e3:.1f} ms, MFU {mfu:.1%} of {against}")


def memory_models(smoke):
    "(name, model builder, batch, tokens, classes): the gpu profile's sizes from `core.RUN_SIZES`."
    from transformers import GPT2Config, GPT2ForSequenceClassification, XLNetConfig, XLNetForSequenceClassification
    from transformers import BertForSequenceClassification
    from nlicompendium.core import run_sizes
    sz = lambda study, part: (lambda d: (d["batch_size"], d["max_length"]))(run_sizes(study, part, "gpu"))
    if smoke:
        return [("tiny BERT (smoke)", lambda: BertForSequenceClassification(bert_config(True)), 4, 64, 3)]
    return [("BERT-base (TaxiNLI)", lambda: BertForSequenceClassification(bert_config(False)),
             *sz("taxinli", "BERT"), 3),
            ("XLNet-base (MSciNLI)", lambda: XLNetForSequenceClassification(XLNetConfig(num_labels=4)),
             *sz("mscinli", "PLMs"), 4),
            # RoNLI Table 5's RoGPT2-medium row: batch 64 (its own), 512 tokens (the frozen configuration's it inherits)
            ("GPT-2-medium (RoGPT2)", lambda: GPT2ForSequenceClassification(
                GPT2Config(n_embd=1024, n_layer=24, n_head=16, num_labels=4, pad_token_id=0)),
             ROGPT2_BATCH, sz("curriculum", "frozen head")[1], 4)]


def step_memory(dev, smoke):
    "`training.peak_memory_step` on each architecture, saved with random weights to a folder (no Hub needed)."
    import tempfile
    from nlicompendium.core import bf16_supported
    from nlicompendium.training import peak_memory_step
    out, ok = [], True
    for name, build, batch, tokens, classes in memory_models(smoke):
        if dev.type == "cuda": torch.cuda.empty_cache()
        try:
            with tempfile.TemporaryDirectory() as d:
                build().save_pretrained(d)  # reloaded with the classes it was saved with
                r = peak_memory_step(d, batch, tokens, "bf16" if bf16_supported(dev) else "fp32", device=dev,
                                     num_labels=classes)
            peak = (f"{r['peak_bytes'] / 2**30:.1f} GiB peak" if r["peak_bytes"] is not None
                    else f"ran; peak memory is measured on CUDA only (process RSS {r['max_rss_bytes'] / 2**30:.1f} GiB)")
        except torch.OutOfMemoryError as e:
            ok, peak = False, f"out of memory: {str(e).splitlines()[0][:80]}"
        except Exception as e:  # noqa: BLE001 (one model's failure is said, and the next is still measured)
            ok, peak = False, f"{type(e).__name__}: {str(e).splitlines()[0][:120] if str(e) else ''}"
        out.append(f"{name} {batch} x {tokens}: {peak}")
    if dev.type == "cuda": torch.cuda.empty_cache()  # the allocator's reserve back, before llm-map asks what is free
    return ok, "; ".join(out)


def step_llm_map(dev, smoke):
    from accelerate import infer_auto_device_map, init_empty_weights
    from transformers import AutoModelForCausalLM, LlamaConfig
    cfg = (LlamaConfig(hidden_size=256, intermediate_size=688, num_hidden_layers=4, num_attention_heads=4) if smoke else
           LlamaConfig(hidden_size=5120, intermediate_size=13824, num_hidden_layers=40, num_attention_heads=40))
    with init_empty_weights(): model = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16)
    free = torch.cuda.mem_get_info(dev)[0] if dev.type == "cuda" else 2 * 2**30
    where = infer_auto_device_map(model, max_memory={0: int(free * 0.9), "cpu": 200 * 2**30},
                                  no_split_module_classes=["LlamaDecoderLayer"], dtype=torch.bfloat16)
    places = {}
    for k, v in where.items(): places.setdefault(str(v), []).append(k)
    offloaded = [k for k in places if k in ("cpu", "disk")]
    said = ", ".join(f"{k}: {len(v)} modules" for k, v in places.items())
    name = "Llama-2-13B shapes" if not smoke else "a 4-layer Llama (smoke)"
    return not offloaded or smoke, (f"{name}, bf16, {free / 2**30:.0f} GiB free on "
                                    f"{'GPU 0' if dev.type == 'cuda' else 'a pretend 2 GiB card'}: {said}"
                                    + (f"; OFFLOADED to {offloaded}" if offloaded else ""))


def step_repeat(dev, smoke):
    from nlicompendium.contract import toy_pairs
    from nlicompendium.training import TrainConfig, repeat_fit_max_diff
    model = "tiny" if smoke else "embedded"  # all-MiniLM-L6-v2 (in the working tree's venv): sdpa, index_add_ on CUDA
    cfg = TrainConfig(model=model, epochs=1, batch_size=8 if smoke else 32, max_length=32 if smoke else 128,
                      warmup_ratio=0.0, progress=False)
    train = toy_pairs(32 if smoke else 512, 0)
    d = {det: repeat_fit_max_diff(train, cfg, deterministic=det) for det in (False, True)}
    return d[True] == 0.0, (f"two identical fits of {model} ({len(train)} pairs, `training.repeat_fit_max_diff`): "
                            f"max |logit diff| {d[False]:.2e} by default, {d[True]:.2e} under `deterministic_kernels`")


def step_reduce(dev, smoke):
    "A one-process group on the device's own backend; epoch sums go where `training.reduce_device` says (NCCL: the GPU)."
    import numpy as np
    import torch.distributed as dist
    from nlicompendium.training import reduce_device
    backend = "nccl" if dev.type == "cuda" else "gloo"
    with socket_port() as port:
        dist.init_process_group(backend, init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1)
    try:
        arr = np.arange(6, dtype=np.float32).reshape(2, 3)
        t = torch.from_numpy(arr.copy()).to(reduce_device(dist.get_backend(), dev)); dist.all_reduce(t)
        ok = np.array_equal(t.cpu().numpy(), arr)
        try: dist.all_reduce(torch.from_numpy(arr.copy())); cpu_said = "a CPU tensor is accepted too"
        except Exception as e: cpu_said = f"a CPU tensor (the old path) is refused: {type(e).__name__}"  # noqa: BLE001
    finally: dist.destroy_process_group()
    return ok, f"one process, backend {backend}: summed on {t.device}, equal: {ok}; {cpu_said}"


@contextlib.contextmanager
def socket_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    yield port


def step_cb_probe(dev, smoke):
    "CB's fine-tuned probe (Fig. 2) with its encoder on the device: `cb.finetune_probe`, layers 1..2."
    from nlicompendium.cb import finetune_probe
    from nlicompendium.models import load_pair_classifier, load_tokenizer
    name = "tiny" if smoke else "embedded"
    enc = load_pair_classifier(name, 3, seed=0).to(dev).base_model; tok = load_tokenizer(name)
    p, h = ["a man is here", "the cat sleeps", "it rains", "she left"] * 4, ["a person is here", "a dog barks",
                                                                                "it is dry", "she stayed"] * 4
    pred, w, gamma = finetune_probe(enc, tok, p, h, [0, 1, 2, 1] * 4, p, h, k=2, num_classes=3, epochs=1, max_length=32)
    ok = len(pred) == len(p) and set(pred.tolist()) <= {0, 1, 2} and next(enc.parameters()).device.type == dev.type
    return ok, f"{name} encoder on {dev}: probe trained on its device, {len(pred)} predictions, mixing weights {w.round(2)}, gamma {gamma:.3f}"


def step_executor(dev, smoke):
    from nlicompendium.executors import gpu_count, open_executor, run_units
    def where():
        import os as _os, torch as _t
        return (_os.environ.get("CUDA_VISIBLE_DEVICES", "unset"),
                _t.cuda.get_device_name(0) if _t.cuda.is_available() else "cpu")
    g = gpu_count(); n = g or 2
    with open_executor("dask", workers=n) as ex:
        got = run_units(ex, {i: where for i in range(n)}, progress=False)
    masks = sorted({m for m, _ in got.values()})
    ok = len(masks) == g if g else True
    return ok, f"{g} GPU(s) visible, {n} workers: masks {masks}, devices {sorted({d for _, d in got.values()})}"


def step_ronli(dev, smoke, data_dir):
    t = time.perf_counter()
    script = Path(sys.executable).parent / "nlic_reproduce"  # the console script of an installed package; else the same
    cmd = [str(script)] if script.is_file() else [  # function from the working tree (the package on PYTHONPATH)
        sys.executable, "-c", "import sys; from nlicompendium.cli import reproduce_cli; sys.exit(reproduce_cli())"]
    r = subprocess.run(cmd + ["--profile", "cpu", "--verify", "--jobs", "curriculum-ronli"]
                       + (["--data-dir", str(data_dir)] if data_dir else []), cwd=ROOT, capture_output=True, text=True)
    (ROOT / "runs").mkdir(exist_ok=True); (ROOT / "runs" / "gpu_check_ronli.log").write_text(r.stdout + r.stderr)
    secs = time.perf_counter() - t
    tail = (r.stdout + r.stderr).strip().splitlines()[-1:] or [""]
    return r.returncode == 0, f"{secs / 60:.1f} min wall; verdicts equal to the committed: {r.returncode == 0}; {tail[0][:90]}"


def step_rehearsal(dev, smoke, data_dir=None):
    "The studies' gpu profile on stand-ins: the data folder required (a missing one fails), a skipped study a FAIL."
    xml = ROOT / "runs" / "gpu_check_rehearsal.xml"; xml.parent.mkdir(exist_ok=True)
    env = {**os.environ, "NLIC_REQUIRE_DATA": "1", **({"NLIC_DATA_DIR": str(data_dir)} if data_dir else {})}
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_rehearsal.py",
                        f"--junitxml={xml}"], cwd=ROOT, capture_output=True, text=True, env=env)
    import xml.etree.ElementTree as ET
    cases = list(ET.parse(xml).getroot().iter("testcase"))
    res = {c.get("name").split("_")[1]: ("FAIL" if any(x.tag in ("failure", "error") for x in c) else
                                         "skipped: FAIL" if any(x.tag == "skipped" for x in c) else "pass")
           for c in cases}
    ok = r.returncode == 0 and bool(res) and set(res.values()) == {"pass"}
    return ok, ", ".join(f"{k}: {v}" for k, v in res.items()) or f"no study ran: {(r.stdout + r.stderr)[-150:]}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated, of {STEPS}")
    ap.add_argument("--smoke", action="store_true", help="small sizes; the only form that runs without CUDA (CI)")
    ap.add_argument("--data-dir", default=os.environ.get("NLIC_DATA_DIR"))
    ap.add_argument("--json", type=Path, default=None, help="also write the rows here")
    a = ap.parse_args(argv)
    steps = [s.strip() for s in a.steps.split(",") if s.strip()]
    bad = [s for s in steps if s not in STEPS]
    if bad: ap.error(f"unknown steps {bad}; choose from {STEPS}")
    missing = cuda_missing(); cuda = missing is None
    if not cuda and not a.smoke:
        print(f"gpu_check: no CUDA: {missing}. Nothing was run; `--smoke` runs the CPU form.", file=sys.stderr)
        return 2
    dev = torch.device("cuda" if cuda else "cpu"); smoke = a.smoke
    print(f"device: {torch.cuda.get_device_name(dev) if cuda else 'CPU (no CUDA): smoke sizes'}"
          f"{' (smoke sizes)' if cuda and smoke else ''}; torch {torch.__version__}"
          f"{'; CUDA ' + str(torch.version.cuda) if cuda else ''}", flush=True)
    rows = []
    for s in steps:
        t = time.perf_counter()
        if s in ("rehearsal", "ronli") and not cuda:
            ok, said = None, "not run without CUDA: CI runs these notebooks at these profiles (tests/)"
        else:
            try:
                ok, said = (step_ronli(dev, smoke, a.data_dir) if s == "ronli" else
                            step_rehearsal(dev, smoke, a.data_dir) if s == "rehearsal" else globals()[
                    "step_" + s.replace("-", "_")](dev, smoke))
            except Exception as e:  # noqa: BLE001 (a failed step is a row of the table, not the end of the check)
                ok, said = False, f"{type(e).__name__}: {str(e).splitlines()[0][:150] if str(e) else ''}"
        rows.append({"step": s, "result": {True: "pass", False: "FAIL", None: "skipped"}[ok],
                     "seconds": round(time.perf_counter() - t, 1), "what it showed": said})
        print(f"{s}: {rows[-1]['result']} ({rows[-1]['seconds']} s) {said}", flush=True)
    import pandas as pd
    print(); print(pd.DataFrame(rows).to_markdown(index=False))
    if a.json: a.json.write_text(json.dumps({"device": str(dev), "smoke": smoke, "rows": rows}, indent=2))
    return 1 if any(r["result"] == "FAIL" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
