"""DataMapCallback's overhead on transformers.Trainer: the same Trainer run with and without the callback, interleaved, in one process.

The Trainer run and the data are `train_throughput.py`'s (`run_trainer`, `ronli_pairs`), with eager attention. Prints one row per
configuration (median seconds and examples/s) and the overhead; the target is at most 3%.
"""
import argparse, json, os, sys, warnings
from pathlib import Path
import numpy as np, pandas as pd, torch

sys.path.insert(0, str(Path(__file__).parent))
from train_throughput import run_trainer, ronli_pairs  # noqa: E402

warnings.filterwarnings("ignore")


HOOK_SECONDS = []  # per callback run: seconds spent inside the callback's hooks and epoch-end merge


def with_callback(trainer):
    "Attach DataMapCallback, timing its own work; the returned check confirms it recorded every example of the epoch."
    import time
    from nlicompendium.datamap import DataMapCallback
    cb, spent = DataMapCallback(trainer.train_dataset, id_column=None, label_column="labels").attach(trainer), [0.0]
    def timed(f):
        def g(*args, **kw):
            t = time.perf_counter(); out = f(*args, **kw); spent[0] += time.perf_counter() - t; return out
        return g
    cb._pre, cb._post, cb.on_epoch_end = timed(cb._pre), timed(cb._post), timed(cb.on_epoch_end)  # the hooks bind these at train begin
    def check(): assert cb.dynamics().prob_gold.shape == (cb.n, 1); HOOK_SECONDS.append(spent[0])
    return check


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=480, help="training pairs (RoNLI, ronli-distant train)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs of each configuration (after one warm-up), interleaved in alternating order")
    ap.add_argument("--max-length", type=int, default=128); ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--model", default="embedded"); ap.add_argument("--out", default="runs/benchmarks/datamap_callback.csv")
    a = ap.parse_args(argv)
    from nlicompendium.core import bf16_supported, package_versions
    from nlicompendium.models import load_tokenizer
    from nlicompendium.training import TrainConfig
    torch.set_num_threads(os.cpu_count())
    cfg = TrainConfig(model=a.model, batch_size=a.batch_size, max_length=a.max_length, epochs=1, progress=False)
    bf16 = bf16_supported("cpu")
    tok = load_tokenizer(a.model)
    _, ds_tok = ronli_pairs(a.n, tok, a.max_length)
    runs = {"transformers.Trainer": None, "transformers.Trainer + DataMapCallback": with_callback}
    go = lambda attach: run_trainer(ds_tok, tok, cfg, bf16, 4, "eager", attach)
    for attach in runs.values(): go(attach)  # warm-up
    times = {k: [] for k in runs}
    for r in range(a.repeats):  # A B, B A, A B, ...: neither configuration always runs second
        for k, attach in (list(runs.items()) if r % 2 == 0 else list(runs.items())[::-1]): times[k].append(go(attach))
    df = pd.DataFrame([{"run": k, "seconds (median)": float(np.median(ts)), "examples/s": a.n / float(np.median(ts)), "runs": len(ts)}
                       for k, ts in times.items()]).set_index("run")
    over = 100 * (df["seconds (median)"].iloc[1] / df["seconds (median)"].iloc[0] - 1)
    print(f"\nmodel {a.model}, {a.n} RoNLI pairs, batch {a.batch_size}, max length {a.max_length}, 1 epoch, bf16 {bf16}, "
          f"threads {torch.get_num_threads()}")
    print(df.round(2).to_markdown())
    print("runs (s): " + "; ".join(f"{k}: " + ", ".join(f"{t:.2f}" for t in ts) for k, ts in times.items()))
    hook = float(np.median(HOOK_SECONDS[1:] or HOOK_SECONDS))
    share = 100 * hook / df["seconds (median)"].iloc[1]
    print(f"time inside the callback (hooks and epoch-end merge), median per run: {hook:.4f} s = {share:.3f}% of the run")
    print(f"\ncallback overhead: {over:+.2f}% of Trainer's time (target: at most 3%); Trainer / Trainer + callback throughput ratio "
          f"{df['examples/s'].iloc[0] / df['examples/s'].iloc[1]:.3f}")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    df.assign(**{"overhead %": over}).to_csv(a.out)
    with open(a.out.replace(".csv", ".json"), "w") as f:
        json.dump({"args": vars(a), "overhead %": over, "callback seconds": HOOK_SECONDS, "times": times, "packages": package_versions()}, f,
                  indent=2)


if __name__ == "__main__":
    main()
