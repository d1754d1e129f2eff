"""DataMapCallback's overhead on transformers.Trainer: the same Trainer run with and without the callback, interleaved, in one process.

Prints one row per configuration (median seconds and examples/s) and the overhead; the target is at most 3%.
"""
import argparse, json, os, tempfile, time, warnings
import numpy as np, pandas as pd, torch

warnings.filterwarnings("ignore")


def run(ds_tok, tok, model_name, n_labels, batch_size, bf16, callback, seed=0):
    from transformers import AutoModelForSequenceClassification, DataCollatorWithPadding, Trainer, TrainingArguments
    from nlicompendium.models import resolve_model
    from nlicompendium.datamap import DataMapCallback
    torch.manual_seed(seed)
    model = AutoModelForSequenceClassification.from_pretrained(resolve_model(model_name), num_labels=n_labels, attn_implementation="eager")
    with tempfile.TemporaryDirectory() as d:
        args = TrainingArguments(output_dir=d, per_device_train_batch_size=batch_size, num_train_epochs=1, learning_rate=5e-5, bf16=bf16, use_cpu=True,
                                 train_sampling_strategy="group_by_length", report_to=[], save_strategy="no", logging_strategy="no",
                                 disable_tqdm=True, dataloader_num_workers=0, seed=seed)
        trainer = Trainer(model=model, args=args, train_dataset=ds_tok, data_collator=DataCollatorWithPadding(tok))
        cb = DataMapCallback(ds_tok, id_column=None, label_column="labels").attach(trainer) if callback else None
        t = time.perf_counter(); trainer.train(); sec = time.perf_counter() - t
        if cb is not None: assert cb.dynamics().prob_gold.shape == (len(ds_tok), 1)
        return sec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=480, help="training pairs (RoNLI, ronli-distant train)")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs of each configuration (after one warm-up), interleaved")
    ap.add_argument("--max-length", type=int, default=128); ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--model", default="embedded"); ap.add_argument("--out", default="runs/benchmarks/datamap_callback.csv")
    a = ap.parse_args(argv)
    from nlicompendium.core import bf16_supported, package_versions
    from nlicompendium.data import load
    from nlicompendium.models import load_tokenizer, encode_pairs
    torch.set_num_threads(os.cpu_count())
    bf16 = bf16_supported("cpu")
    ds = load("ronli-distant")["train"].shuffle(seed=0).select(range(a.n))
    tok = load_tokenizer(a.model)
    ds_tok = ds.map(lambda b: encode_pairs(tok, b["premise"], b["hypothesis"], "joint", a.max_length), batched=True,
                    remove_columns=["id", "premise", "hypothesis"]).rename_column("label", "labels")
    runs = {"transformers.Trainer": False, "transformers.Trainer + DataMapCallback": True}
    for cbk in runs.values(): run(ds_tok, tok, a.model, 4, a.batch_size, bf16, cbk)  # warm-up
    times = {k: [] for k in runs}
    for _ in range(a.repeats):
        for k, cbk in runs.items(): times[k].append(run(ds_tok, tok, a.model, 4, a.batch_size, bf16, cbk))
    df = pd.DataFrame([{"run": k, "seconds (median)": float(np.median(ts)), "examples/s": a.n / float(np.median(ts)), "runs": len(ts)}
                       for k, ts in times.items()]).set_index("run")
    over = 100 * (df["seconds (median)"].iloc[1] / df["seconds (median)"].iloc[0] - 1)
    print(f"\nmodel {a.model}, {a.n} RoNLI pairs, batch {a.batch_size}, max length {a.max_length}, 1 epoch, bf16 {bf16}, threads {torch.get_num_threads()}")
    print(df.round(2).to_markdown())
    print(f"\ncallback overhead: {over:+.2f}% of Trainer's time (target: at most 3%); Trainer / Trainer + callback throughput ratio "
          f"{df['examples/s'].iloc[0] / df['examples/s'].iloc[1]:.3f}")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    df.assign(**{"overhead %": over}).to_csv(a.out)
    with open(a.out.replace(".csv", ".json"), "w") as f:
        json.dump({"args": vars(a), "overhead %": over, "times": times, "packages": package_versions()}, f, indent=2)


if __name__ == "__main__":
    main()
