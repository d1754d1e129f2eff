"""The RoNLI study's encoder work, and the levers that cut it: one row per lever, printed as it finishes.

With the paper's frozen encoder (RoNLI's official code), all of the study's transformer work is one forward pass per
distinct sentence (`models.sentence_vectors`); every variant, seed and epoch then trains a small head on those vectors.
This script times that pass over a random sample of the study's distinct sentences (train, dev and test of
ronli-distant), in fp32, and each lever against it, in one run:

- batches sorted by characters (before) against sorted by word pieces (now);
- the paper's per-sentence limit of 512 word pieces against 256;
- sdpa attention (the transformers default) against eager;
- one process with 2 threads against 2 single-threaded processes, one half each;
- `torch.compile` (compile time included, since a study compiles once).

It ends with the arithmetic of the first lever, computing the encoder once instead of fine-tuning it in every run,
from rates measured here.

    python benchmarks/frozen_encoding.py [--sentences 1536] [--repeats 1]
"""
import argparse, os, sys, time, warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import torch

warnings.filterwarnings("ignore")
os.environ.setdefault("NLIC_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))  # profile_step's training step


def study_sentences(n, seed=0):
    "A random sample of `n` of the distinct sentences that the cpu RoNLI study encodes (ronli-distant train and dev, RoNLI test)."
    from nlicompendium.data import load
    dd = load("ronli-distant")
    texts = [t for s in ("train", "validation", "test") for c in ("premise", "hypothesis") for t in dd[s][c]]
    distinct = list(dict.fromkeys(texts))
    pick = np.random.default_rng(seed).choice(len(distinct), size=min(n, len(distinct)), replace=False)
    return [distinct[i] for i in pick], len(distinct)


def encode(sents, order="tokens", max_length=512, attn=None, compiled=False, batch_size=64):
    "Seconds to compute the final-layer [CLS] vectors of `sents` the way `models.sentence_vectors` does, with the given lever settings."
    from nlicompendium.models import load_encoder, load_tokenizer, hidden_states
    tok = load_tokenizer("embedded")
    enc = load_encoder("embedded", seed=0, attn_implementation=attn).eval()
    t = time.perf_counter()
    if compiled: enc.forward = torch.compile(enc.forward, dynamic=True)
    key = ((lambda i: len(sents[i])) if order == "characters" else
           (lambda i, n=[len(x) for x in tok(sents, truncation=True, max_length=max_length)["input_ids"]]: n[i]))
    idx = sorted(range(len(sents)), key=key)
    v = hidden_states(enc, tok, [sents[i] for i in idx], layers="last", pooling="cls", max_length=max_length, batch_size=batch_size)
    return time.perf_counter() - t, v[np.argsort(idx)][:, 0]


def library(sents):
    "Seconds for `models.sentence_vectors` itself (its vector cache emptied; the encoder already loaded), and the vectors."
    from nlicompendium import models
    models._VECTORS.clear()
    t = time.perf_counter(); v = models.sentence_vectors("embedded", sents, max_length=512, batch_size=64)
    return time.perf_counter() - t, v


def _one_thread(sents):
    torch.set_num_threads(1)
    return encode(sents)[0]


def two_processes(sents):
    "Wall seconds for 2 single-threaded processes, each encoding alternate blocks of the length-sorted sentences (models load inside the timer)."
    from nlicompendium.models import load_tokenizer
    n = [len(x) for x in load_tokenizer("embedded")(sents, truncation=True, max_length=512)["input_ids"]]
    idx = np.argsort(n, kind="stable"); blocks = [idx[i:i + 64] for i in range(0, len(idx), 64)]
    halves = [[sents[i] for b in blocks[k::2] for i in b] for k in (0, 1)]
    t = time.perf_counter()
    with ProcessPoolExecutor(2) as ex: list(ex.map(_one_thread, halves))
    return time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=1536, help="distinct study sentences in the sample")
    ap.add_argument("--repeats", type=int, default=1, help="timed runs of each row (median)")
    ap.add_argument("--fine-tune-pairs-per-s", type=float, default=None,
                    help="measured fine-tuning rate with separate encoding (benchmarks/profile_step.py); default: measured here on 4 steps")
    a = ap.parse_args(argv)
    torch.set_num_threads(2)
    sents, total = study_sentences(a.sentences)
    from nlicompendium.models import load_tokenizer
    n = np.array([len(x) for x in load_tokenizer("embedded")(sents, truncation=True, max_length=512)["input_ids"]])
    print(f"{len(sents):,} of the study's {total:,} distinct sentences; word pieces: median {np.median(n):.0f}, p99 {np.percentile(n, 99):.0f}, "
          f"max {n.max()}; fp32; torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}", flush=True)
    encode(sents[:128]); library(sents[:128])  # warm-up: kernels, allocator, the library's cached encoder
    rows, ref = [], None
    print("| row | seconds | sentences/s | time / now | max abs. vector diff. vs now |\n|:--|--:|--:|--:|--:|", flush=True)
    def row(name, fn):
        runs = [fn() for _ in range(a.repeats)]
        t = float(np.median([r[0] if isinstance(r, tuple) else r for r in runs]))
        out = runs[-1][1] if isinstance(runs[-1], tuple) else None
        rows.append({"row": name, "seconds": t, "sentences/s": len(sents) / t, "time / now": t / (rows[0]["seconds"] if rows else t),
                     "max |vector diff| vs now": float(np.abs(out - ref).max()) if out is not None and ref is not None else np.nan})
        r = rows[-1]
        print(f"| {name} | {t:.1f} | {r['sentences/s']:.0f} | {r['time / now']:.2f} | {r['max |vector diff| vs now']:.1e} |", flush=True)
        return out
    ref = row("now: models.sentence_vectors (sorted by word pieces, limit 512, sdpa, 1 process x 2 threads)", lambda: library(sents))
    row("before: sorted by characters", lambda: encode(sents, order="characters"))
    row("limit 256 word pieces (the earlier setting)", lambda: encode(sents, max_length=256))
    row("eager attention", lambda: encode(sents, attn="eager"))
    row("2 processes x 1 thread (models loaded inside the timer)", lambda: two_processes(sents))
    row("torch.compile(dynamic=True), compile time included", lambda: encode(sents, compiled=True))
    df = pd.DataFrame(rows).set_index("row")
    print("\n" + df.to_markdown(floatfmt=".3g"), flush=True)
    # the frozen-encoder lever, in numbers measured here
    rate = a.fine_tune_pairs_per_s or _fine_tune_rate()
    sec_per_sentence = df.iloc[0]["seconds"] / len(sents)
    draws = 12 * 5 * 10 * 2659  # variants x seeds x epochs x training pairs (early stopping cuts some; evaluation passes come on top)
    print(f"\nThe encoder computed once: {total:,} sentences x {sec_per_sentence * 1e3:.1f} ms = "
          f"{total * sec_per_sentence / 60:.1f} min for the whole study. "
          f"Fine-tuning it in every run instead (encoder='fine-tune', separate encoding, {rate:.1f} pairs/s measured): "
          f"12 variants x 5 seeds x 10 epochs x 2,659 pairs = {draws:,} pair draws = {draws / rate / 3600:.0f} h, "
          f"{draws / rate / (total * sec_per_sentence):.0f}x more.", flush=True)


def _fine_tune_rate(steps=3):
    "Pairs/s of fine-tuning steps with separate encoding, batch 32, 96 tokens per sentence, fp32 (after one warm-up step): profile_step's step."
    from profile_step import train_step
    from nlicompendium.data import load
    from nlicompendium.models import load_tokenizer
    from nlicompendium.training import TrainConfig, encode_split, length_grouped_batches
    tok = load_tokenizer("embedded")
    enc = encode_split(load("ronli-distant")["train"], tok, TrainConfig(model="embedded", encoding="separate", max_length=96, batch_size=32), "train")
    batches, step = length_grouped_batches(enc.lengths, 32, 0), train_step(enc, tok, "separate")
    step(batches[0]); t = time.perf_counter()
    for b in batches[1:1 + steps]: step(b)
    return 32 * steps / (time.perf_counter() - t)


if __name__ == "__main__":
    main()
