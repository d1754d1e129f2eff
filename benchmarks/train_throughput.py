"""Training throughput: this engine (nlicompendium.training.fit) against transformers.Trainer, side by side in one process.

Same model (the embedded MiniLM), data (RoNLI pairs from ronli-distant), batch size, max length and epochs; both with dynamic
padding, length-grouped batches and bf16 autocast where the CPU supports it. The engine uses eager attention on CPU
(faster here than the sdpa CPU kernels, whose backward dominates a profile); a Trainer row with eager attention shows
how much of the difference that choice explains. Runs alternate (after one warm-up run of each)
so that drifts in machine load hit both. Prints examples/s, the ratio, the dynamics-recording overhead, and achieved FLOP/s
against the measured fp32 and bf16 matmul peaks.

    python benchmarks/train_throughput.py [--n 480] [--repeats 2] [--max-length 128] [--batch-size 16]
"""
import argparse, json, os, tempfile, time, warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import torch

warnings.filterwarnings("ignore")
import transformers
transformers.logging.set_verbosity_error()
os.environ.setdefault("NLIC_OFFLINE", "1")


def matmul_peak(dtype, n=2048, reps=20):
    "Measured GFLOP/s of an n x n matmul in `dtype` on this machine."
    a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
    for _ in range(3): a @ b
    t = time.perf_counter()
    for _ in range(reps): a @ b
    return 2 * n ** 3 * reps / (time.perf_counter() - t) / 1e9


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
    model = AutoModelForSequenceClassification.from_pretrained(resolve_model(cfg.model), num_labels=n_labels, **({"attn_implementation": attn} if attn else {}))
    with tempfile.TemporaryDirectory() as d:
        args = TrainingArguments(output_dir=d, per_device_train_batch_size=cfg.batch_size, num_train_epochs=cfg.epochs, learning_rate=cfg.lr,
                                 weight_decay=cfg.weight_decay, warmup_steps=int(cfg.warmup_ratio * -(-len(ds_tok) // cfg.batch_size) * cfg.epochs), max_grad_norm=cfg.grad_clip, bf16=bf16, use_cpu=True,
                                 train_sampling_strategy="group_by_length", report_to=[], save_strategy="no", logging_strategy="no",
                                 disable_tqdm=True, dataloader_num_workers=0, seed=cfg.seed)
        trainer = Trainer(model=model, args=args, train_dataset=ds_tok, data_collator=DataCollatorWithPadding(tok))
        check = attach(trainer) if attach else None
        t = time.perf_counter(); trainer.train(); sec = time.perf_counter() - t
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
    ap.add_argument("--n", type=int, default=480, help="training pairs (RoNLI, ronli-distant train)")
    ap.add_argument("--repeats", type=int, default=2, help="timed runs of each configuration (after one warm-up)")
    ap.add_argument("--max-length", type=int, default=128); ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--model", default="embedded"); ap.add_argument("--out", default="runs/benchmarks/train_throughput.csv")
    a = ap.parse_args(argv)
    from nlicompendium.core import bf16_supported, package_versions
    from nlicompendium.models import load_tokenizer
    from nlicompendium.training import TrainConfig, encode_split, batch_plan
    torch.set_num_threads(os.cpu_count())
    cfg = TrainConfig(model=a.model, batch_size=a.batch_size, max_length=a.max_length, epochs=1, progress=False)
    bf16 = bf16_supported("cpu")
    tok = load_tokenizer(cfg.model)
    ds, ds_tok = ronli_pairs(a.n, tok, cfg.max_length)
    train = encode_split(ds, tok, cfg, "train")
    peak = {"fp32": matmul_peak(torch.float32), "bf16": matmul_peak(torch.bfloat16)}
    from nlicompendium.models import load_pair_classifier
    flops = model_flops(load_pair_classifier(cfg.model, 4), batch_plan(len(train), cfg, train.lengths), train.lengths)
    rec_share = []
    def engine_recording():
        t, r = run_engine(train, cfg, "train"); rec_share.append(r.record_seconds / t); return t
    runs = {"engine (recording dynamics)": engine_recording, "engine (no recording)": lambda: run_engine(train, cfg, None)[0],
            "transformers.Trainer": lambda: run_trainer(ds_tok, tok, cfg, bf16, 4),
            "transformers.Trainer (eager attention)": lambda: run_trainer(ds_tok, tok, cfg, bf16, 4, "eager")}
    for f in runs.values(): f()  # warm-up: oneDNN kernel creation, allocator, caches
    times = {k: [] for k in runs}
    for _ in range(a.repeats):
        for k, f in runs.items(): times[k].append(f())
    rows = []
    for k, ts in times.items():
        t = float(np.median(ts))
        rows.append({"run": k, "seconds (median)": t, "examples/s": a.n / t, "runs": len(ts)})
    df = pd.DataFrame(rows).set_index("run")
    eng, trn, norec = (df.loc[k, "examples/s"] for k in ("engine (recording dynamics)", "transformers.Trainer", "engine (no recording)"))
    achieved = flops / df.loc["engine (recording dynamics)", "seconds (median)"] / 1e9
    print(f"\nmodel {cfg.model}, {a.n} RoNLI pairs, batch {cfg.batch_size}, max length {cfg.max_length}, 1 epoch, bf16 autocast {bf16}, threads {torch.get_num_threads()}")
    print(df.round(2).to_markdown())
    summary = {"engine / Trainer (recording)": eng / trn, "engine / Trainer with eager attention": eng / df.loc["transformers.Trainer (eager attention)", "examples/s"], "recording overhead % (A/B, noisy)": 100 * (norec / eng - 1),
               "recording time % (measured in the loop)": 100 * float(np.median(rec_share)),
               "matmul peak fp32 GFLOP/s": peak["fp32"], "matmul peak bf16 GFLOP/s": peak["bf16"],
               "engine achieved GFLOP/s": achieved, "% of bf16 peak": 100 * achieved / peak["bf16"], "% of fp32 peak": 100 * achieved / peak["fp32"]}
    print(pd.Series(summary).round(3).to_markdown())
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    df.assign(**{k: v for k, v in summary.items()}).to_csv(a.out)
    with open(a.out.replace(".csv", ".json"), "w") as f:
        json.dump({"args": vars(a), "summary": summary, "times": times, "packages": package_versions()}, f, indent=2)


if __name__ == "__main__":
    main()
