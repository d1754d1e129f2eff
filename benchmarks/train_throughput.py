"""Training throughput: this engine (nlicompendium.training.fit) against transformers.Trainer, side by side in one process.

Same model (the embedded MiniLM), data (RoNLI pairs from ronli-distant), batch size, max length and epochs; both with dynamic
padding and length-grouped batches, in fp32 by default (the only fast path on an AVX2 CPU; `--precision bf16` on a CPU with
AMX or AVX-512 bf16). The engine uses eager attention on CPU (faster here than the sdpa CPU kernels, whose backward dominates
a profile); Trainer runs twice, with its defaults and with eager attention, the best it can be configured here. Each row
is printed as it finishes: one warm-up run on 64 pairs, then `--repeats` timed runs (median).

The first row is the GEMM rate at the model's own shapes: the forward and backward matmuls of one encoder layer's dense
layers (q, k, v, o, the two feed-forward layers) at a batch's token count, in the chosen precision. The engine's achieved
model GFLOP/s is reported as a share of that rate, not of a 2048 x 2048 matmul (also printed, for reference).

    python benchmarks/train_throughput.py [--n 256] [--repeats 2] [--max-length 96] [--batch-size 32] [--precision fp32]
"""
import argparse, contextlib, io, json, os, tempfile, time, warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import torch

warnings.filterwarnings("ignore")
import transformers  # noqa: E402
transformers.logging.set_verbosity_error()
os.environ.setdefault("NLIC_OFFLINE", "1")


def matmul_peak(dtype, n=2048, reps=20):
    "Measured GFLOP/s of an n x n matmul in `dtype` on this machine."
    a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
    for _ in range(3): a @ b
    t = time.perf_counter()
    for _ in range(reps): a @ b
    return 2 * n ** 3 * reps / (time.perf_counter() - t) / 1e9


def layer_gemm_rate(hidden, intermediate, tokens, dtype, reps=10):
    "GFLOP/s of one encoder layer's dense matmuls, forward and backward (input and weight gradients), at `tokens` rows, in `dtype`."
    shapes = [(hidden, hidden)] * 4 + [(hidden, intermediate), (intermediate, hidden)]  # q, k, v, o, feed-forward in and out
    xs = [torch.randn(tokens, i, dtype=dtype, requires_grad=True) for i, _ in shapes]
    ws = [torch.randn(o, i, dtype=dtype, requires_grad=True) for i, o in shapes]
    def once():
        for x, w in zip(xs, ws):
            y = torch.nn.functional.linear(x, w); y.backward(torch.ones_like(y))
    for _ in range(3): once()
    t = time.perf_counter()
    for _ in range(reps): once()
    flops = sum(3 * 2 * tokens * i * o for i, o in shapes) * reps
    return flops / (time.perf_counter() - t) / 1e9


def model_flops(model, batches, lengths):
    "Training FLOPs (forward + backward = 3x forward) of the padded batches: dense layers plus attention scores."
    cfg = model.config
    dense = sum(p.numel() for n, p in model.named_parameters() if p.ndim == 2 and "embeddings" not in n)
    total = 0
    for b in batches:
        s = int(max(lengths[i] for i in b)); tokens = len(b) * s
        total += 6 * dense * tokens + 3 * 4 * cfg.num_hidden_layers * len(b) * s * s * cfg.hidden_size
    return total


def run_engine(train, cfg, record):
    from nlicompendium.models import load_pair_classifier
    from nlicompendium.training import fit
    # the model fit() would build itself (eager attention on CPU), built outside the timer like the Trainer's
    model = load_pair_classifier(cfg.model, len(train.label_names), seed=cfg.seed, attn_implementation=cfg.attn_implementation or "eager")
    t = time.perf_counter()
    r = fit(train, None, replace(cfg, record=record), model=model)
    return time.perf_counter() - t, r


def run_trainer(ds_tok, tok, cfg, bf16, n_labels, attn=None, attach=None):
    "A timed transformers.Trainer run; `attach(trainer)` may add a callback (benchmarks/datamap_callback.py) and returns a check run after training."
    from transformers import AutoModelForSequenceClassification, DataCollatorWithPadding, Trainer, TrainingArguments
    from nlicompendium.models import resolve_model
    model = AutoModelForSequenceClassification.from_pretrained(resolve_model(cfg.model), num_labels=n_labels,
                                                               **({"attn_implementation": attn} if attn else {}))
    with tempfile.TemporaryDirectory() as d:
        args = TrainingArguments(output_dir=d, per_device_train_batch_size=cfg.batch_size, num_train_epochs=cfg.epochs, learning_rate=cfg.lr,
                                 weight_decay=cfg.weight_decay, warmup_steps=int(cfg.warmup_ratio * -(-len(ds_tok) // cfg.batch_size) * cfg.epochs),
                                 max_grad_norm=cfg.grad_clip, bf16=bf16, use_cpu=True,
                                 train_sampling_strategy="group_by_length", report_to=[], save_strategy="no", logging_strategy="no",
                                 disable_tqdm=True, dataloader_num_workers=0, seed=cfg.seed)
        trainer = Trainer(model=model, args=args, train_dataset=ds_tok, data_collator=DataCollatorWithPadding(tok))
        check = attach(trainer) if attach else None
        t = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()): trainer.train()  # Trainer prints its final metrics
        sec = time.perf_counter() - t
        if check: check()
        return sec


def ronli_pairs(n, tok, max_length):
    "The first `n` shuffled ronli-distant training pairs, and the same tokenised jointly for Trainer (labels as 'labels')."
    from nlicompendium.data import load
    from nlicompendium.models import encode_pairs
    ds = load("ronli-distant")["train"].shuffle(seed=0).select(range(n))
    return ds, ds.map(lambda b: encode_pairs(tok, b["premise"], b["hypothesis"], "joint", max_length), batched=True,
                      remove_columns=["id", "premise", "hypothesis"]).rename_column("label", "labels")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=256, help="training pairs (RoNLI, ronli-distant train)")
    ap.add_argument("--repeats", type=int, default=2, help="timed runs of each configuration (after one warm-up run on 64 pairs)")
    ap.add_argument("--max-length", type=int, default=96); ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--precision", choices=["fp32", "bf16"], default="fp32", help="fp32 (every CPU) or bf16 autocast (AMX / AVX-512 bf16, GPUs)")
    ap.add_argument("--recording-ab", action="store_true", help="also time the engine without recording dynamics (an A/B of the recording overhead)")
    ap.add_argument("--model", default="embedded"); ap.add_argument("--out", default="runs/benchmarks/train_throughput.csv")
    a = ap.parse_args(argv)
    from nlicompendium.core import package_versions
    from nlicompendium.models import load_tokenizer, load_pair_classifier
    from nlicompendium.training import TrainConfig, encode_split, batch_plan
    torch.set_num_threads(os.cpu_count())
    bf16 = a.precision == "bf16"
    cfg = TrainConfig(model=a.model, batch_size=a.batch_size, max_length=a.max_length, epochs=1, progress=False, bf16=bf16)
    tok = load_tokenizer(cfg.model)
    ds, ds_tok = ronli_pairs(a.n, tok, cfg.max_length)
    train = encode_split(ds, tok, cfg, "train")
    warm, warm_tok = ds.select(range(64)), ds_tok.select(range(64))
    warm_enc = encode_split(warm, tok, cfg, "train")
    model = load_pair_classifier(cfg.model, 4)
    plan = batch_plan(len(train), cfg, train.lengths)
    flops = model_flops(model, plan, train.lengths)
    tokens = int(np.mean([len(b) * max(train.lengths[i] for i in b) for b in plan]))
    mc, dtype = model.config, torch.bfloat16 if bf16 else torch.float32
    print(f"model {cfg.model}, {a.n} RoNLI pairs, batch {cfg.batch_size}, max length {cfg.max_length}, 1 epoch, {a.precision}, "
          f"threads {torch.get_num_threads()}, CPU capability {torch.backends.cpu.get_cpu_capability()}", flush=True)
    gemm = layer_gemm_rate(mc.hidden_size, mc.intermediate_size, tokens, dtype)
    square = matmul_peak(dtype)
    print(f"GEMM rate at the model's shapes ({tokens} tokens x {mc.hidden_size}/{mc.intermediate_size}, forward and backward): "
          f"{gemm:.0f} GFLOP/s; "
          f"2048 x 2048 matmul: {square:.0f} GFLOP/s", flush=True)
    rec_share = []
    def engine_recording(data):
        t, r = run_engine(data, cfg, "train"); rec_share.append(r.record_seconds / t); return t
    runs = {"engine (recording dynamics)": (engine_recording, lambda: engine_recording(warm_enc)),
            **({"engine (no recording)": (lambda d: run_engine(d, cfg, None)[0], lambda: run_engine(warm_enc, cfg, None)[0])}
               if a.recording_ab else {}),
            "transformers.Trainer (defaults: sdpa attention)": (lambda d: run_trainer(d, tok, cfg, bf16, 4),
                                                                lambda: run_trainer(warm_tok, tok, cfg, bf16, 4)),
            "transformers.Trainer (eager attention)": (lambda d: run_trainer(d, tok, cfg, bf16, 4, "eager"),
                                                       lambda: run_trainer(warm_tok, tok, cfg, bf16, 4, "eager"))}
    rows = []
    print("\n| run | seconds (median) | examples/s | model GFLOP/s | share of the per-shape GEMM rate | runs (s) |"
          "\n|:--|--:|--:|--:|--:|:--|", flush=True)
    for k, (f, warm_up) in runs.items():
        warm_up()  # oneDNN kernel creation, allocator, caches
        data = ds_tok if k.startswith("transformers") else train
        ts = [f(data) for _ in range(a.repeats)]
        t = float(np.median(ts)); g = flops / t / 1e9
        rows.append({"run": k, "seconds (median)": t, "examples/s": a.n / t, "model GFLOP/s": g, "share of GEMM rate %": 100 * g / gemm,
                     "runs": len(ts)})
        print(f"| {k} | {t:.2f} | {a.n / t:.1f} | {g:.0f} | {100 * g / gemm:.0f}% | {', '.join(f'{x:.2f}' for x in ts)} |", flush=True)
    df = pd.DataFrame(rows).set_index("run")
    eng = df.loc["engine (recording dynamics)", "examples/s"]
    best_trainer = df.loc[[k for k in df.index if k.startswith("transformers")], "examples/s"].max()
    summary = {"engine / best Trainer": eng / best_trainer,
               "engine / Trainer defaults": eng / df.loc["transformers.Trainer (defaults: sdpa attention)", "examples/s"],
               "recording time % (measured in the loop)": 100 * float(np.median(rec_share)),
               **({"recording overhead % (A/B, noisy)": 100 * (df.loc["engine (no recording)", "examples/s"] / eng - 1)} if a.recording_ab else {}),
               f"GEMM GFLOP/s at the model's shapes ({a.precision})": gemm, f"2048x2048 matmul GFLOP/s ({a.precision})": square,
               "engine model GFLOP/s": df.loc["engine (recording dynamics)", "model GFLOP/s"],
               "engine % of the per-shape GEMM rate": df.loc["engine (recording dynamics)", "share of GEMM rate %"]}
    print("\n" + pd.Series(summary, name="value").round(3).to_markdown(), flush=True)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    df.assign(**{k: v for k, v in summary.items()}).to_csv(a.out)
    with open(a.out.replace(".csv", ".json"), "w") as f:
        json.dump({"args": vars(a), "summary": summary, "rows": rows, "packages": package_versions()}, f, indent=2)


if __name__ == "__main__":
    main()
