"""Where `make reproduce` spends its time, read from the committed runs: one row per job, then the costliest cells.

    python benchmarks/reproduce_budget.py            # the committed tables/
    python benchmarks/reproduce_budget.py --top 8    # more cells

Each job's `tables/<job>/cell_times.csv` is papermill's per-cell wall time from the run that made its tables, and its
manifest says on which CPU, with which kernels, at which commit and with how many seeds. A job without cell times
(committed before `nlic_reproduce` recorded them) is listed with its manifest's own timing, if any. Sums are only
meaningful over jobs that ran on the same kind of machine with the same kernels: the table groups them so.

Then each job against its arithmetic floor: the FLOPs of its training and encoding over an fp32 GEMM rate.
Each job's work is declared as parts (`workloads`), read from its notebook, `core.RUN_SIZES` (cpu profile) and its
committed manifest and tables; token counts are the real data's word pieces under the embedded tokenizer, truncated
at the part's max_length, unpadded. FLOPs a sequence are counted once with `FlopCounterMode` on the embedded MiniLM
at 16, 64 and 128 tokens and fitted exactly as c + a n + b n^2 (dense layers linear in n, attention quadratic); the
heads are counted by `FlopCounterMode` too, the BiLSTM by hand. By default the floors use the GEMM rates recorded in
benchmarks/README.md for the machine that measured the committed cell times (the Xeon, AVX2 kernels forced), so the
x floor divides that machine's time by that machine's floor. A floor leaves out work that is not GEMM (fastText,
t-SNE, the claims' tests, tokenizing) and parts read back from a cache in the committed run.

    python benchmarks/reproduce_budget.py --avx2          # AVX2 kernels forced for the rates measured here
    python benchmarks/reproduce_budget.py --here          # floors at this machine's rates, measured now
    python benchmarks/reproduce_budget.py --gemm-gflops 100 --parts   # another machine's rate; every part listed
    python benchmarks/reproduce_budget.py --cold          # make main's study from empty caches here, then its floor
    python benchmarks/reproduce_budget.py --cold-seconds 475   # the same, with make main's time measured by hand

The cold-cache column: `--cold` runs what `make main` runs (papermill of nbs/05_curriculum.ipynb, dataset ronli, the
machine's profile) with an empty download cache, feature store, unit cache and output folder (all in a temporary
folder, removed after), then measures this machine's GEMM rates right after it, and prints the run's wall time beside
the job's fresh-cache floor at those rates (the job's threads: 2) and their ratio, one machine, one moment, then the
run's costliest cells. `--cold-seconds` takes
the wall time of a `make main` run from an empty cache by hand (`time make main` after removing
~/.cache/nlicompendium and runs/curriculum-ronli-*) instead of running it.
"""
import argparse
import functools
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from nlicompendium.cli import JOBS


def machine_words(m: dict) -> str:
    "The CPU and kernels a manifest records, in words."
    mach = m.get("machine") or {}
    if not mach: return "not recorded"
    forced = " (forced)" if mach.get("isa_overrides") else ""
    return f"{mach.get('cpu', '?')}, {mach.get('torch_cpu_capability', '?')} kernels{forced}"


def jobs_table(root: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    "Per job: wall seconds (sum of cells), seeds, commit, machine; and every job's cells, costliest first."
    rows, cells = [], []
    for d in sorted(p for p in (root / "tables").iterdir() if (p / "manifest.json").is_file()):
        m = json.loads((d / "manifest.json").read_text())
        ct = d / "cell_times.csv"
        row = {"job": d.name, "in make reproduce": d.name in JOBS, "machine": machine_words(m),
               "commit": (m.get("git") or {}).get("commit", "")[:7],
               "seeds": len(m.get("seed") or []) if isinstance(m.get("seed"), list) else 1}
        if ct.is_file():
            c = pd.read_csv(ct)
            row |= {"seconds": round(c.seconds.sum(), 1), "cells": len(c)}
            cells.append(c.assign(job=d.name))
        else:
            row |= {"seconds": float("nan"), "cells": 0}
        rows.append(row)
    cells = pd.concat(cells, ignore_index=True) if cells else pd.DataFrame(columns=["job", "cell", "seconds"])
    return pd.DataFrame(rows), cells.sort_values("seconds", ascending=False)


# ---------------------------------------------------------------------------------------------------------------
# The arithmetic floor of each job: FLOPs of its training and encoding over GEMM rate.
# ---------------------------------------------------------------------------------------------------------------
# GEMM rates recorded in benchmarks/README.md for the machine that measured the committed cell times: the 2-core
# Intel Xeon with the AVX2 kernels forced
# (ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2),
# fp32, machine idle.
XEON_AVX2 = "Intel Xeon, AVX2 kernels forced"
RECORDED_GFLOPS = {  # kind of shapes -> (GFLOP/s, where it is recorded)
    "encoder": (153.0, "README, train_throughput.py: one MiniLM layer's 6 dense matmuls, fwd + both bwd, 3,072 rows"),
    "encoder forward": (192.0, "README, train_throughput.py: a 2048 x 2048 matmul. The forward-only rate at the "
                               "model's shapes was not recorded there; this upper bound makes the forward floors "
                               "lower bounds"),
    "head": (178.0, "README, head_step.py: 'the GEMMs alone', 2 x 384 -> 256 -> 4 at batch 256, fwd + bwd"),
    "lstm": (153.0, "not recorded for the LSTM's shapes: the encoder's rate stands in"),
}
TRAIN, FORWARD = "train", "forward"  # one optimiser step's forward + backward; a forward only (encoding, scoring)


@dataclass
class Part:
    "One piece of a job's arithmetic: `units` passes over `seqs` token sequences (or head examples)."
    what: str  # in words
    cell: int  # the cell of the committed notebook that runs it (cell_times.csv)
    model: str  # 'encoder' (the embedded MiniLM, a classifier on top), 'frozen' (bare encoder), 'head', 'lstm',
    # 'fasttext' (gensim's word vectors: work in words, at gensim's measured rate, not FLOPs)
    mode: str  # TRAIN or FORWARD
    lengths: object = None  # real tokens per sequence (np.ndarray); for 'head': examples per pass (int)
    units: float = 1  # how many times it runs: epochs x seeds x fits
    layers: float = 1.0  # share of the encoder's layers it runs through (CB's probes: k / 6)
    cached: bool = False  # read back from a cache in the committed run: no cost there
    cite: str = ""  # where the numbers come from
    features: int = 768  # 'head': input features (2 x 384; 384 hypothesis-only)
    labels: int = 4  # 'head': classes (RoNLI and SciNLI: 4)


def seq_flops(model, n: int, mode: str, batch: int = 2) -> float:
    "FLOPs per sequence of `n` real tokens, counted by FlopCounterMode over one pass of `batch` such sequences."
    from torch.utils.flop_counter import FlopCounterMode
    ids = torch.randint(1000, 20000, (batch, n))
    kw = dict(input_ids=ids, attention_mask=torch.ones_like(ids))
    with FlopCounterMode(display=False) as fc:
        if mode == TRAIN:
            y = torch.zeros(batch, dtype=torch.long)
            out = model(**kw, labels=y) if hasattr(model, "classifier") else model(**kw)
            (out.loss if getattr(out, "loss", None) is not None else out.last_hidden_state.sum()).backward()
        else:
            with torch.no_grad(): model(**kw)
    return fc.get_total_flops() / batch


def quadratic(model, mode: str, ns=(16, 64, 128)) -> np.ndarray:
    "(c, a, b) with FLOPs(n) = c + a n + b n^2 per sequence, solved from three counted lengths (dense layers are linear"
    " in n, the attention products quadratic)."
    ys = [seq_flops(model, n, mode) for n in ns]
    return np.linalg.solve(np.array([[1, n, n * n] for n in ns], float), np.array(ys))


def head_flops(features: int, labels: int, mode: str, batch: int = 256) -> float:
    "FLOPs per example of the frozen study's PairHead, counted by FlopCounterMode over one batch."
    from torch.utils.flop_counter import FlopCounterMode
    from nlicompendium.models import PairHead
    h, x, y = PairHead(features, labels), torch.randn(batch, features), torch.zeros(batch, dtype=torch.long)
    with FlopCounterMode(display=False) as fc:
        if mode == TRAIN: h(x, labels=y).loss.backward()
        else:
            with torch.no_grad(): h(x)
    return fc.get_total_flops() / batch


def lstm_flops_per_token(mode: str, hidden: int = 300, dim: int = 384) -> float:
    "MSciNLI's BiLSTM (models.BiLSTMPair, 300 units a direction over 384-d embeddings), per token of one sentence:"
    " 2 FLOPs per weight of its input and recurrent matrices, both directions; x 3 for a training step. Counted by"
    " hand: FlopCounterMode has no formula for aten's LSTM kernels (it reports 0). The 8 x 300 -> labels output"
    " layer is per pair, under 0.1%."
    from nlicompendium.models import BiLSTMPair
    lstm = BiLSTMPair(torch.zeros(8, dim), 4, hidden).lstm_p
    fwd = 2 * sum(p.numel() for n, p in lstm.named_parameters() if n.startswith("weight_"))
    return fwd * (3 if mode == TRAIN else 1)


class Flops:
    "FLOP formulas of the models the jobs run, counted once (at small sizes) and scaled to every part."
    def __init__(self):
        import transformers
        transformers.logging.set_verbosity_error(); transformers.logging.disable_progress_bar()
        from nlicompendium.models import load_encoder, load_pair_classifier
        clf = load_pair_classifier("embedded", 3, seed=0, attn_implementation="eager")  # eager: attention as matmuls
        enc = load_encoder("embedded", attn_implementation="eager")
        self.q = {("encoder", TRAIN): quadratic(clf, TRAIN), ("encoder", FORWARD): quadratic(clf.eval(), FORWARD),
                  ("frozen", FORWARD): quadratic(enc.eval(), FORWARD)}
        self.check = (seq_flops(clf.train(), 96, TRAIN), self.per_seq(("encoder", TRAIN), np.array([96]))[0])

    def per_seq(self, key, lengths):
        c, a, b = self.q[key]
        return c + a * lengths + b * lengths.astype(float) ** 2

    def of(self, p: Part) -> float:
        "The part's FLOPs: per-sequence formula over its real token counts, times its units."
        if p.model == "head": return head_flops(p.features, p.labels, p.mode) * p.lengths * p.units
        if p.model == "lstm": return lstm_flops_per_token(p.mode) * float(np.sum(p.lengths)) * p.units
        if p.model == "fasttext": return float(np.sum(p.lengths)) * p.units  # words, not FLOPs (rate: words/s)
        return float(self.per_seq((p.model, p.mode), p.lengths).sum()) * p.layers * p.units


# ---------------------------------------------------------------------------------------------------------------
# Each job's workload, read from its notebook (cell numbers: the committed tables/<job>/<job>.ipynb, as in
# cell_times.csv), core.RUN_SIZES ('cpu' profile) and the committed manifests and tables.
# ---------------------------------------------------------------------------------------------------------------
DATA_DIR = os.environ.get("NLIC_DATA_DIR")  # None: nlicompendium.data's own default


@functools.lru_cache(maxsize=None)
def dataset(name):
    from nlicompendium.data import load
    return load(name, data_dir=DATA_DIR)


@functools.lru_cache(maxsize=None)
def tokenizer():
    from nlicompendium.models import load_tokenizer
    return load_tokenizer("embedded")


@functools.lru_cache(maxsize=None)
def backend(max_length: int):
    "The embedded tokenizer's `tokenizers` backend, truncating longest first at `max_length` as `truncation=True` does:"
    " the lengths without transformers' conversion of every encoding to Python lists (tests/test_budget.py compares)."
    from tokenizers import Tokenizer
    tk = Tokenizer.from_str(tokenizer().backend_tokenizer.to_str()); tk.no_padding()
    tk.enable_truncation(max_length, strategy="longest_first")
    return tk


_PAIR_LENGTHS = {}

def pair_lengths(ds, max_length: int) -> np.ndarray:
    "Real (unpadded) word pieces of each pair, encoded jointly and truncated at `max_length`, as the engine does; once per"
    " split (its fingerprint) and length."
    key = (ds._fingerprint, max_length)
    if key not in _PAIR_LENGTHS:
        cols = ds.select_columns(["premise", "hypothesis"])[:]  # one slice, not a Python object per row
        _PAIR_LENGTHS[key] = np.array([len(e.ids) for e in backend(max_length).encode_batch(list(zip(cols["premise"],
                                                                                                      cols["hypothesis"])))])
    return _PAIR_LENGTHS[key]


def sentence_lengths(texts, max_length: int) -> np.ndarray:
    "Real word pieces of each sentence alone, truncated at `max_length`."
    texts = list(texts[:])  # a datasets Column: one slice, not a Python object per row
    return np.array([len(e.ids) for e in backend(max_length).encode_batch(texts)])


def sizes(study, part):
    "A study part's cpu-profile sizes (core.RUN_SIZES)."
    from nlicompendium.core import run_sizes
    return run_sizes(study, part, "cpu")


def encoded_in_run(root: Path, job: str) -> bool:
    "Whether the committed run of a curriculum job encoded its sentences (cell 7's encoding bars), not read them back."
    nb = json.loads((root / "tables" / job / f"{job}.ipynb").read_text())
    cell = next((c for c in nb["cells"] if "".join(c["source"]).startswith("tok = load_tokenizer")), None)
    text = "".join("".join(o.get("text", "")) for o in (cell or {}).get("outputs", []))
    return "sentences: 100%" in text


def curriculum_parts(root: Path, job: str) -> list[Part]:
    "nbs/05_curriculum.ipynb: one frozen encoding of the distinct sentences, then small heads on their vectors."
    m = json.loads((root / "tables" / job / "manifest.json").read_text())
    p = json.loads(m["params"]) if isinstance(m["params"], str) else m["params"]
    name, split = p["train_data"].split("/")  # manifest params.train_data
    d = dataset(name)
    tr, dv, te = d[split], d["validation"], d["test"]
    L = sizes("curriculum", "frozen head")["max_length"]  # RUN_SIZES ('curriculum', 'frozen head') cpu: 512
    sents = sorted({s for ds in (tr, dv, te) for c in ("premise", "hypothesis") for s in ds[c]})
    labels = len(tr.features["label"].names)
    n_claim = len(p["claim_seeds"])  # manifest params.claim_seeds: 20; the first 5 are the table seeds (nb 05, cell 3)
    vt = pd.read_csv(root / "tables" / job / "variant_times.csv", index_col=0)  # committed: steps and batch per variant
    enc = encoded_in_run(root, job)
    parts = [Part(f"frozen encoder over {len(sents):,} distinct sentences at {L} tokens", 7, "frozen", FORWARD,
                  sentence_lengths(sents, L), cached=not enc,
                  cite="nb 05 cell 7 (sentence_vectors: one forward per distinct sentence, both poolings); "
                       + ("encoded in the committed run (its encoding bars)" if enc else
                          "read back from the feature store in the committed run (no encoding bar)"))]

    def heads(what, cell, v, seeds):
        r = vt.loc[v]; steps, batch = float(r["steps taken per seed (early stopping)"]), int(r["batch"])
        feats = 384 if v == "Ro-BERT (spurious)" else 768  # hypothesis-only: one sentence vector
        evals = math.ceil(steps / math.ceil(len(tr) / batch))  # dev after each epoch (training.fit, eval_every None)
        return [Part(f"{what}: {v}", cell, "head", TRAIN, steps * batch, seeds, features=feats,
                     cite="variant_times.csv: steps taken per seed, batch"),
                Part(f"{what}: {v}, scoring", cell, "head", FORWARD, evals * len(dv) + len(te), seeds, features=feats,
                     cite="dev after each epoch, test once")]
    for v in vt.index: parts += heads(f"heads, {n_claim} seeds", 17, v, n_claim)
    pool, conf = root / "tables" / job / "pooling.csv", root / "tables" / job / "confound_lr.csv"
    pool = pd.read_csv(pool, header=[0, 1], index_col=0, skiprows=[2]) if pool.is_file() else None
    for v, n in ([] if pool is None else pool[("seeds", "cls")].items()):  # [CLS]-pooled; mean-pooled: cell 17's
        parts += heads("pooling comparison ([CLS])", 21, v, int(n))
    conf = pd.read_csv(conf) if conf.is_file() else pd.DataFrame(columns=["variant", "lr", "seeds"])
    for _, r in conf.iterrows():  # the rate the variant did not already run at (its own runs are cell 17's, cached)
        if not math.isclose(r["lr"], vt.loc[r["variant"], "lr"]):
            parts += heads(f"confound test, lr {r['lr']:g}", 23, r["variant"], int(r["seeds"]))
    parts += fasttext_parts(root, job, tr, len(p["seeds"]))
    for q in parts: q.labels = labels
    return parts


FT_EPOCHS = 5  # baselines.train_fasttext's default, which nb 05 keeps (dim 300, bucket 200_000, sg, window 5, n-grams 3-6)


def fasttext_words(train) -> np.ndarray:
    "Words of each text the CBOW rows' vectors train on: the distinct premises and hypotheses, whitespace-split (nb 05)."
    return np.array([len(t.split()) for t in sorted(set(train["premise"]) | set(train["hypothesis"]))])


def fasttext_parts(root: Path, job: str, train, seeds: int) -> list[Part]:
    "The CBOW rows' fastText training, where the committed run trained vectors per seed (its Table 5 says so)."
    t5 = root / "tables" / job / "table5_overall.csv"
    if not t5.is_file(): return []
    what = pd.read_csv(t5).set_index("row").get("what computed the row", pd.Series(dtype=str))
    if "trained per seed" not in str(what.get("CBOW + SVM", "")): return []
    return [Part(f"fastText vectors for the CBOW rows, {seeds} seeds x {FT_EPOCHS} epochs (work in words)", 16,
                 "fasttext", TRAIN, fasttext_words(train), FT_EPOCHS * seeds,
                 cite="nb 05 cell 16: baselines.train_fasttext per seed, one gensim worker each, seeds spread over "
                      "processes; its floor: words / (gensim's words/s x the job's threads)")]


def main_vector_text(root: Path) -> list:
    "The text make main's CBOW vectors train on (its committed manifest's train_data)."
    m = json.loads((root / "tables" / MAIN_JOB / "manifest.json").read_text())
    p = json.loads(m["params"]) if isinstance(m["params"], str) else m["params"]
    name, split = p["train_data"].split("/"); tr = dataset(name)[split]
    return sorted(set(tr["premise"]) | set(tr["hypothesis"]))


def fasttext_rate(texts, seconds: float = 1.0, runs: int = 3) -> float:
    "gensim FastText's training rate at the job's settings, one worker: raw words per second of `train` alone (the"
    " vocabulary and initialisation untimed), median of `runs`, on an even sample of `texts` sized to about `seconds`."
    import functools
    from gensim.models import FastText
    from nlicompendium.baselines import _adjust_vectors
    sents = [t.split() for t in texts if t.split()]
    def one(sample):
        m = FastText(vector_size=300, window=5, min_count=1, sg=1, min_n=3, max_n=6, seed=0, workers=1, bucket=200_000)
        m.wv.adjust_vectors = functools.partial(_adjust_vectors, m.wv)  # the library's, as train_fasttext runs it
        m.build_vocab(corpus_iterable=sample)
        t = time.perf_counter(); m.train(corpus_iterable=sample, total_examples=len(sample), epochs=1)
        return sum(map(len, sample)) / (time.perf_counter() - t)
    n = min(len(sents), 500); per = np.mean([len(x) for x in sents]) or 1.0
    n = int(min(len(sents), max(n, one(sents[::max(1, len(sents) // n)][:n]) * seconds / per)))
    sample = sents[::max(1, len(sents) // n)][:n]
    return float(np.median([one(sample) for _ in range(runs)]))


def taxinli_split():
    "nb 12 cell 32: TaxiNLI's pairs from MNLI train (not_mnli_dev), 10% of them by id as dev; MNLI dev as test."
    from nlicompendium.data import id_split
    d = dataset("taxinli"); rest = d["not_mnli_dev"]
    held = id_split(rest["id"], 0.1)
    return rest.select(np.flatnonzero(~held)), rest.select(np.flatnonzero(held)), d["mnli_dev"]


def shared_read_back(root, job: str, key: str) -> list[bool]:
    "Per seed, whether the committed run read a shared unit back from the cache (manifest values.<key>)."
    m = json.loads((root / "tables" / job / "manifest.json").read_text())
    v = (m.get("values", {}).get(key) or {}).get("value") or {}
    return [bool(x) for per_model in v.values()
            for x in (per_model.values() if isinstance(per_model, dict) else [per_model])]


def taxinli_parts(root):
    sz = sizes("taxinli", "BERT")  # RUN_SIZES ('taxinli', 'BERT') cpu: 2 epochs, batch 32, 96 tokens, 5 seeds
    tr, dv, te = taxinli_split(); L, E, S = sz["max_length"], sz["epochs"], len(sz["seeds"])
    back = shared_read_back(root, "taxinli", "shared_units")  # manifest values.shared_units: seed -> read back
    cached = len(back) == S and all(back)
    how = "all read back from the shared seed cache" if cached else f"{S - sum(back)} of {S} seeds trained here"
    return [Part(f"fine-tune MiniLM on {len(tr):,} pairs, {E} epochs x {S} seeds", 32, "encoder", TRAIN,
                 pair_lengths(tr, L), E * S, cached=cached,
                 cite=f"nb 12 cell 32; RUN_SIZES; manifest shared_units: {how}"),
            Part(f"score dev ({len(dv)}) after each epoch", 32, "encoder", FORWARD, pair_lengths(dv, L), E * S,
                 cached=cached),
            Part(f"score MNLI dev ({len(te):,}) per seed", 32, "encoder", FORWARD, pair_lengths(te, L), S,
                 cached=cached),
            Part("Fig. 7: hidden states of 1,500 test pairs (all layers, one forward)", 42, "encoder", FORWARD,
                 pair_lengths(te.select(range(1500)), L), 1,
                 cite="nb 12: tsne_points None -> 1500; the t-SNE (sklearn) is not GEMM work")]


def cb_parts(root):
    cb = dataset("cb")
    sc, sm, sp = sizes("cb", "CB stage"), sizes("cb", "MNLI stage"), sizes("cb", "probe fine-tuning")
    L, S = sc["max_length"], len(sc["seeds"])  # CB stage: 10 epochs, batch 8, 96 tokens, 5 seeds
    tr, dv, te = cb["train"], cb["validation"], cb["test"]
    mtr, _, mdev = taxinli_split()
    probe_tr = pair_lengths(tr, L).tolist() + pair_lengths(dv, L).tolist()  # nb 13 cell 60: CB train + dev
    parts = [Part(f"MNLI stage: TaxiNLI's fine-tuning, {sm['epochs']} epochs x {S} seeds", 49, "encoder", TRAIN,
                  pair_lengths(mtr, sm["max_length"]), sm["epochs"] * S, cached=True,
                  cite="manifest values.mnli_stage_shared: all 5 read back from TaxiNLI's units"),
             Part(f"CB stage: CB only and MNLI then CB, {sc['epochs']} epochs x {S} seeds", 49, "encoder", TRAIN,
                  pair_lengths(tr, L), sc["epochs"] * 2 * S, cite="nb 13 cell 49: two fit() a seed"),
             Part("score CB dev after each epoch", 49, "encoder", FORWARD, pair_lengths(dv, L), sc["epochs"] * 2 * S),
             Part("score CB test: 3 models a seed", 49, "encoder", FORWARD, pair_lengths(te, L), 3 * S),
             Part("score MNLI dev: MNLI+CB every seed, CB only the selected one", 49, "encoder", FORWARD,
                  pair_lengths(mdev, sm["max_length"]), S + 1, cite="nb 13 cell 49, labels_of(...)"),
             Part("Fig. 2: all layers' [CLS] of the probe pairs and CB test", 60, "encoder", FORWARD,
                  np.array(probe_tr + pair_lengths(te, L).tolist()), 1)]
    ep = root / "tables/cb/mnli_stage_every_pair.csv"  # its 'read from the shared cache' column, per stage
    ep = pd.read_csv(ep, index_col=0) if ep.is_file() else None
    if ep is not None:
        back = ep["read from the shared cache"].astype(str).eq("True")
        parts += every_pair_parts(te, L, sm, cached=bool(back[back.index.str.startswith("every")].all()))
    for k in range(1, 7):  # 6 layers x 2 features (factivity, environment); first_layers(k): k of the 6 layers
        parts += [Part(f"Fig. 2 probe fine-tuning, k = {k}, 2 features", 60, "encoder", TRAIN, np.array(probe_tr),
                       sp["epochs"] * 2, layers=k / 6, cite="nb 13 cell 60 finetune_probe; RUN_SIZES probe: 5 epochs"),
                  Part(f"Fig. 2 probe scoring, k = {k}", 60, "encoder", FORWARD, pair_lengths(te, L), 2, layers=k / 6)]
    return parts


def every_pair_parts(cb_test, L_cb: int, sm: dict, cached: bool = False) -> list[Part]:
    "nb 13 cell 55, the one-seed diagnostic: the MNLI stage on every MNLI pair here but a scored quarter of MNLI dev"
    " (id_split 0.25; 10% of the rest held out to pick the epoch), and Table 4's seed 0 read back; both scored on the"
    " quarter and on CB test."
    from datasets import concatenate_datasets
    from nlicompendium.data import id_split
    tax = dataset("taxinli")
    scored = id_split(tax["mnli_dev"]["id"], 0.25)
    quarter = tax["mnli_dev"].select(np.flatnonzero(scored))
    every = concatenate_datasets([tax["not_mnli_dev"], tax["mnli_dev"].select(np.flatnonzero(~scored))])
    held = id_split(every["id"], 0.1)
    ep_tr, ep_dv = every.select(np.flatnonzero(~held)), every.select(np.flatnonzero(held))
    if sm.get("max_train"): ep_tr = ep_tr.shuffle(seed=0).select(range(min(sm["max_train"], len(ep_tr))))  # as nb 13
    Lm, E = sm["max_length"], sm["epochs"]
    return [Part(f"MNLI stage on every pair but the scored quarter ({len(ep_tr):,} pairs), {E} epochs x 1 seed", 55,
                 "encoder", TRAIN, pair_lengths(ep_tr, Lm), E, cached=cached,
                 cite="nb 13 cell 55 (fc2b5a1's split); RUN_SIZES MNLI stage; mnli_stage_every_pair.csv: "
                      "trained or read back"),
            Part(f"its held-out tenth ({len(ep_dv):,}) after each epoch", 55, "encoder", FORWARD,
                 pair_lengths(ep_dv, Lm), E, cached=cached),
            Part(f"both stages' seed 0 on the scored quarter ({len(quarter):,}) and CB test", 55, "encoder", FORWARD,
                 np.concatenate([pair_lengths(quarter, Lm), pair_lengths(cb_test, L_cb)]), 2)]


def mscinli_parts(root):
    sp, sl, sg = sizes("mscinli", "PLMs"), sizes("mscinli", "BiLSTM"), sizes("mscinli", "domain shift")
    m = json.loads((root / "tables/mscinli/manifest.json").read_text())
    n = m["params"]["sizes"]  # manifest params.sizes: train 2000, dev 500, test 4000 (SciNLI's human pairs)
    d = dataset("scinli"); tr = d["train_human"].select(range(n["train"]))
    dv, te = d["validation"].select(range(n["dev"])), d["test"].select(range(n["test"]))
    L, E, S = sp["max_length"], sp["epochs"], len(sp["seeds"])  # PLMs: 3 epochs, batch 32, 128 tokens, 5 seeds
    ltr, ldv, lte = pair_lengths(tr, L), pair_lengths(dv, L), pair_lengths(te, L)
    sent = lambda ds: np.concatenate([sentence_lengths(ds["premise"], sl["max_length"]),
                                      sentence_lengths(ds["hypothesis"], sl["max_length"])])  # separate encoding
    parts = [Part(f"Tables 3-4: fine-tune MiniLM, {len(tr):,} pairs, {E} epochs x {S} seeds", 45, "encoder", TRAIN, ltr,
                  E * S, cite="nb 14 cell 45; RUN_SIZES ('mscinli', 'PLMs'): patience None on cpu, all epochs run"),
             Part("Tables 3-4: score dev after each epoch, test per seed", 45, "encoder", FORWARD,
                  np.concatenate([np.tile(ldv, E), lte]), S),
             Part(f"Tables 3-4: BiLSTM, {sl['epochs']} epochs x {S} seeds", 45, "lstm", TRAIN, sent(tr),
                  sl["epochs"] * S,
                  cite="RUN_SIZES BiLSTM: 8 epochs (patience 3: an upper bound), 64 tokens a sentence"),
             Part("Tables 3-4: BiLSTM scoring", 45, "lstm", FORWARD,
                  np.concatenate([np.tile(sent(dv), sl["epochs"]), sent(te)]), S)]
    t7 = pd.read_csv(root / "tables/mscinli/table7_subsets.csv").query("subset != '100%'")  # 100% is cell 45's run
    for _, r in t7.iterrows():  # a subset's pairs: the training set's mean length
        parts += [Part(f"Table 7: {r['subset']} ({r['train pairs']} pairs), {E} epochs x {S} seeds", 51, "encoder",
                       TRAIN, ltr.mean() * np.ones(int(r["train pairs"])), E * S,
                       cite="table7_subsets.csv 'train pairs'"),
                  Part(f"Table 7: {r['subset']}, scoring", 51, "encoder", FORWARD,
                       np.concatenate([np.tile(ldv, E), lte]), S)]
    # nb 14 cell 53: 5 MNLI genres (TaxiNLI's 'all'), id_split 25% test; RUN_SIZES 'domain shift': 700 train, 250 test
    from nlicompendium.data import id_split
    allx = dataset("taxinli")["all"]; g = np.asarray(allx["genre"])
    held = id_split(allx["id"], 0.25, salt="mscinli-genres")
    genres = ["fiction", "government", "slate", "telephone", "travel"]
    n_tr = min(min(sg["max_train"], int(((g == x) & ~held).sum())) for x in genres)
    lall = pair_lengths(allx, sg["max_length"])
    for x in genres:
        tr_i, te_i = np.flatnonzero((g == x) & ~held)[:n_tr], np.flatnonzero((g == x) & held)[:sg["max_test"]]
        parts += [Part(f"Table 8: train on {x} ({n_tr} pairs), {sg['epochs']} epochs x 1 seed", 53, "encoder", TRAIN,
                       lall[tr_i], sg["epochs"] * len(sg["seeds"])),
                  Part(f"Table 8: score every genre's test pairs ({x}'s part)", 53, "encoder", FORWARD, lall[te_i],
                       len(genres) * len(sg["seeds"]))]
    return parts


def workloads(root: Path) -> dict[str, list[Part]]:
    "Every job of `make reproduce` and the parts of its arithmetic."
    return {"datasets": [],  # nb 10: counting and word-piece statistics: no model runs, no GEMM work
            "curriculum-ronli": curriculum_parts(root, "curriculum-ronli"),
            "curriculum-ronli-official": curriculum_parts(root, "curriculum-ronli-official"),
            "curriculum-scinli": curriculum_parts(root, "curriculum-scinli"),
            "taxinli": taxinli_parts(root), "cb": cb_parts(root), "mscinli": mscinli_parts(root),
            "codemixed": []}  # nb 15: the HingLID tagger (not GEMM); the NLI part did not run (nli_source None)


# ---------------------------------------------------------------------------------------------------------------
# GEMM rates at the jobs' shapes, and the table
# ---------------------------------------------------------------------------------------------------------------
_LAYER = [(1, 3072, 384, 384)] * 4 + [(1, 3072, 384, 1536), (1, 3072, 1536, 384)]  # a layer's dense matmuls at
_ATTN = [(384, 96, 32, 96), (384, 96, 96, 32)]  # 32 pairs x 96 tokens; attention: 32 x 12 heads, 96 tokens, 32 a head
SHAPES = {  # kind -> (the matmuls (batch, m, k, n) of one step, with their two backward products?)
    "encoder": (_LAYER + _ATTN, True),
    "encoder forward": (_LAYER + _ATTN, False),
    "head": ([(1, 256, 768, 256), (1, 256, 256, 4)], True),  # PairHead at batch 256
    "lstm": ([(1, 64 * 40, 384, 1200), (1, 64, 300, 1200)], True),  # input projection over 40 tokens; a recurrent step
}


def rate_kind(p: Part) -> str:
    "Which GEMM rate a part's floor uses."
    if p.model in ("encoder", "frozen"): return "encoder" if p.mode == TRAIN else "encoder forward"
    return p.model


def gemm_rate(kind: str, reps: int | None = None, runs: int = 5, seconds: float = 0.2) -> float:
    "Measured fp32 GFLOP/s of `kind`'s matmuls (torch.bmm, forward and both backward products), median of `runs`,"
    " each of `reps` repeats (None: as many as take about `seconds`)."
    mats, (shapes, backward) = [], SHAPES[kind]
    for b, m, k, n in shapes:
        for (p, q, r) in ((m, k, n), (m, n, k), (k, m, n))[:3 if backward else 1]:  # y = x w; dx = dy w^T; dw = x^T dy
            mats.append((torch.randn(b, p, q), torch.randn(b, q, r)))
    t = time.perf_counter()
    for a, w in mats: torch.bmm(a, w)
    reps = reps or max(1, int(seconds / max(time.perf_counter() - t, 1e-6)))
    flops = sum(2 * a.shape[0] * a.shape[1] * a.shape[2] * w.shape[2] for a, w in mats) * reps
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(reps):
            for a, w in mats: torch.bmm(a, w)
        times.append(time.perf_counter() - t)
    return flops / float(np.median(times)) / 1e9


# How each committed job ran: torch's threads, and whether other work shared the 2 cores. Manifests record torch's
# threads from a524d1f on (machine.torch_threads); the runs of the regeneration at library eb58fb4ec52cf5d1 predate
# it, so their conditions are taken from the commits that committed them.
RUN_CONDITIONS = {  # job -> (threads or None: not recorded, in words)
    "curriculum-ronli": (None, "threads and load not recorded (65f9db4)"),
    "curriculum-ronli-official": (None, "threads and load not recorded (f232149)"),
    "curriculum-scinli": (None, "threads and load not recorded (63cf50c)"),
    "datasets": (1, "1 thread, beside the other regenerations (fb321ad)"),
    "taxinli": (1, "1 thread, beside the other regenerations; fine-tuning read back from the seed cache (fb321ad)"),
    "codemixed": (1, "1 thread, beside the other regenerations (fb321ad)"),
    "cb": (2, "2 threads, alone (the rerun for the referee's fixes, d606df5)"),
    "mscinli": (2, "2 threads; a test suite shared the cores for 10 minutes of cell 45, and a CB run (2 threads, "
                   "stopped) for the last 28 minutes, cell 53's Table 8 among them (12a5490)"),
}


def run_threads(root: Path, job: str) -> tuple[int | None, str]:
    "The threads a committed job ran with (its manifest, else RUN_CONDITIONS) and the conditions in words."
    m = json.loads((root / "tables" / job / "manifest.json").read_text())
    t = (m.get("machine") or {}).get("torch_threads")
    if t: return int(t), f"{t} thread{'s' if t > 1 else ''} (manifest)"
    return RUN_CONDITIONS.get(job, (None, "not recorded"))


LEVERS = {  # job -> the lever, from its costliest cells (cell_times.csv) against their floors; see benchmarks/README.md
    "datasets": "no GEMM work: word-piece statistics of every data set (cell 23, 19 of 46 s on the AMD EPYC); the "
                "tokenizer, not arithmetic, is its cost",
    "curriculum-ronli": "cell 16, 95 s over a floor of 0: the two CBOW baselines' fastText vectors, trained per seed "
                        "(gensim, not GEMM work); the heads (cells 17, 21: 4.4-4.6x): a head step is 3.5 ms against "
                        "1.1 ms of GEMMs (head_step.py), the rest elementwise work, AdamW and Python per step; "
                        "cell 25, 49 s over 0: the claims ledger's ASO bootstrap and one-seed-out tests",
    "curriculum-ronli-official": "the heads' per-step overhead (cells 17, 21, 23: 2.1-2.3x at 2 threads, 394 s over "
                                 "their floors): Cart-CL's 4,200, Cart-Stra-CL++'s 2,500 and Cart-CL++'s 1,300 steps a "
                                 "seed, each a small GEMM and its Python; cell 25, 56 s over 0: the claims ledger",
    "taxinli": "cell 42, 107 s over its floor: Fig. 7's t-SNE, one a layer (scikit-learn, not GEMM work); the "
               "fine-tuning was read back from the shared seed cache, so its floor is only Fig. 7's forward pass",
    "cb": "cells 49 (Table 4: 5 seeds x two CB fine-tunings of 10 epochs, the MNLI stage read back) and 60 (the 12 "
          "probe fine-tunings) train at batch 8 on 250-306 pairs, whose small GEMMs keep neither thread busy: per-step "
          "overhead, as in the heads (head_step.py)",
    "mscinli": "cell 53 (Table 8, 9.7x; 340 s on the Xeon, 1,662 s here) ran beside a second job, which accounts "
               "for at most 2x of it: the rest is unexplained until it is timed alone; cell 45 (1.8x) shared the cores"
               " with a test suite for 10 of its 36 minutes",
    "curriculum-scinli": "the heads' per-step overhead (cells 17, 21: 4.1-4.7x, 35 s over their floors); cell 25, "
                         "5 s: the claims ledger; cell 7, 4 s: loading the tokenizer and reading the cached vectors",
    "codemixed": "no GEMM work ran (the NLI part needs GLUECoS's data: manifest nli_source None); 7 of its 13 s are "
                 "the HingLID tagger's training and scoring (cell 44)",
}


CELL_WHAT = {  # (job, cell) -> what the costly cell does (read in the committed notebook)
    **{(j, c): w for j in ("curriculum-ronli", "curriculum-ronli-official", "curriculum-scinli") for c, w in {
        17: "every variant's heads on the frozen vectors, 20 seeds each (the first 5 fill Tables 4-5)",
        16: "RoNLI's CBOW baselines: fastText vectors trained per seed (gensim), an SVM and a softmax",
        21: "the pooling comparison: every variant's heads on [CLS] vectors, 5 seeds",
        23: "the learning-rate confound test: 2 variants at their other rate, 20 seeds",
        25: "the claims ledger: each claim over every seed, ASO's bootstrap, the one-seed-out tests",
        7: "the frozen encoder over every distinct sentence (or its vectors read back from the feature store)",
        12: "Table 12: agreement by cartography region"}.items()},
    ("taxinli", 32): "fine-tunes MiniLM on 2,128 pairs, 5 seeds x 2 epochs (or reads them back from the shared seed "
                     "cache); predicts the 7,727 MNLI-dev pairs a seed",
    ("taxinli", 42): "Fig. 7: every layer's states of 1,500 test pairs, then a t-SNE a layer (scikit-learn)",
    ("cb", 49): "Table 4: CB only and MNLI then CB, 5 seeds (the MNLI stage read back); CB test, MNLI dev predictions",
    ("cb", 55): "the every-pair MNLI stage, seed 0 (a diagnostic), and Table 4's seed 0, on a scored quarter and CB",
    ("cb", 60): "Fig. 2: 12 probe fine-tunings of the first k = 1..6 layers x 2 features, 1 seed; frozen probes",
    ("cb", 62): "the claims ledger: McNemar and seed-level tests (scipy)",
    ("mscinli", 51): "Table 7: 5 cartography subsets x 5 seeds of MiniLM fine-tuning, each scored on 4,000 test pairs",
    ("mscinli", 45): "Tables 3-4: MiniLM fine-tuned, 5 seeds, and the BiLSTM, 5 seeds",
    ("mscinli", 53): "Table 8's stand-in: 5 MNLI genres x 1 seed, each model scored on every genre",
    ("mscinli", 59): "the claims ledger",
    ("codemixed", 44): "HingLID: the language tagger's training and scoring",
}


def floor_table(root: Path, jobs: pd.DataFrame, rates: dict, fl: Flops, top: int = 4):
    "Per job: measured seconds, floor seconds, x floor; per costly cell the same; and every part's FLOPs."
    rows, cell_rows, part_rows, by_job = [], [], [], jobs.set_index("job")
    for job, parts in workloads(root).items():
        by_cell, fresh = {}, 0.0
        threads, how = run_threads(root, job)
        job_rates = rates(threads) if callable(rates) else rates
        for p in parts:
            gflop, rate = fl.of(p) / 1e9, job_rates.get(rate_kind(p))  # fastText: giga-words, at giga-words/s
            s = gflop / rate if rate else 0.0  # no rate (recorded rates have none for gensim): not counted
            fresh += s
            if not p.cached: by_cell[p.cell] = by_cell.get(p.cell, 0.0) + s
            words = p.model == "fasttext"
            part_rows.append({"job": job, "cell": p.cell, "part": p.what, "GFLOP": np.nan if words else round(gflop, 1),
                              "G words": round(gflop, 3) if words else np.nan,
                              "floor s": round(s, 2), "cached": p.cached, "from": p.cite})
        floor, measured = sum(by_cell.values()), float(by_job.loc[job, "seconds"])
        rows.append({"job": job, "measured s": measured, "measured on": by_job.loc[job, "machine"], "floor s": floor,
                     "how it ran": how, "floor threads": threads or 2,
                     "x floor": measured / floor if floor > 0 and measured == measured else float("nan"),
                     "floor s, fresh caches": fresh})
        ct = root / "tables" / job / "cell_times.csv"
        if ct.is_file():
            for _, r in pd.read_csv(ct).head(top).iterrows():
                f = by_cell.get(int(r.cell), 0.0)
                cell_rows.append({"job": job, "cell": int(r.cell), "measured s": round(r.seconds, 1),
                                  "floor s": round(f, 1),
                                  "x floor": round(r.seconds / f, 2) if f else float("nan"),
                                  "over the floor s": round(r.seconds - f, 1),
                                  "what it does": CELL_WHAT.get((job, int(r.cell)), r["first line"][:60])})
    return pd.DataFrame(rows), pd.DataFrame(cell_rows), pd.DataFrame(part_rows)


AVX2_ENV = {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}


def this_machine() -> str:
    "This CPU and the kernels torch uses, in words."
    import platform
    info = Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    cpu = next((ln.split(":", 1)[1].strip() for ln in info if ln.startswith("model name")), platform.processor())
    forced = " (forced)" if all(os.environ.get(k) == v for k, v in AVX2_ENV.items()) else ""
    return f"{cpu}, {torch.backends.cpu.get_cpu_capability()} kernels{forced}, {torch.get_num_threads()} threads"


MAIN_JOB = "curriculum-ronli"  # what `make main` runs (Makefile): papermill of nbs/05_curriculum.ipynb, dataset ronli


def cold_main(root: Path) -> tuple[float, pd.DataFrame]:
    "Wall seconds of `make main`'s study from empty caches (download cache, feature store, units, outputs); its cells."
    import subprocess, sys, tempfile
    with tempfile.TemporaryDirectory(prefix="nlic-cold-") as tmp:
        env = {**os.environ, "NLIC_CACHE_DIR": f"{tmp}/cache", "HF_DATASETS_CACHE": f"{tmp}/hf-datasets"}
        cmd = [str(Path(sys.executable).parent / "papermill"), "--engine", "nlic", "nbs/05_curriculum.ipynb",
               f"{tmp}/main.ipynb", "-p", "dataset", "ronli", "-p", "out_dir", f"{tmp}/out"]
        t = time.perf_counter(); subprocess.run(cmd, cwd=root, env=env, check=True)
        return time.perf_counter() - t, run_cells(Path(f"{tmp}/main.ipynb"))


def run_cells(nb: Path) -> pd.DataFrame:
    "An executed notebook's code cells, costliest first: papermill's seconds and each cell's first line."
    cells = json.loads(nb.read_text())["cells"]
    rows = [{"cell": i, "seconds": round((c.get("metadata", {}).get("papermill") or {}).get("duration") or 0.0, 1),
             "first line": "".join(c["source"]).strip().split("\n")[0][:70]}
            for i, c in enumerate(cells) if c["cell_type"] == "code"]
    return pd.DataFrame(rows).sort_values("seconds", ascending=False, kind="stable")


def cold_table(table: pd.DataFrame, seconds: float, how: str, threads: int = 2) -> pd.DataFrame:
    "`make main` from empty caches beside its fresh-cache floor at this machine's rate and `threads`, one row."
    f = float(table.set_index("job").loc[MAIN_JOB, "floor s, fresh caches"])
    return pd.DataFrame([{"job": MAIN_JOB, "machine": this_machine().rsplit(",", 1)[0], "cold cache s": round(seconds),
                          "how": how, f"floor s, fresh caches (this machine's rate, {threads} threads)": round(f, 1),
                          "x floor": round(seconds / f, 2)}])


def print_floors(root: Path, jobs: pd.DataFrame, gemm_gflops: float | None, here: bool, parts: bool,
                 cold: tuple | None = None):
    "The floor section: rates, the per-job table, the costliest cells against their floors; `cold`: (seconds, how)."
    t0 = time.perf_counter()
    fl = Flops()
    before = torch.get_num_threads()
    by_threads = {}
    for t in ((1, 2) if here else (before,)):
        torch.set_num_threads(t); by_threads[t] = {k: gemm_rate(k) for k in SHAPES}
    torch.set_num_threads(before)
    print(f"\n## Each job against its arithmetic floor\n\nThis machine: {this_machine()}; load average "
          f"{os.getloadavg()[0]:.2f}. fp32 GEMM here at the jobs' shapes (median of 5): " + "; ".join(
              f"{t} thread{'s' if t > 1 else ''}: " + ", ".join(f"{k} {v:.0f}" for k, v in r.items()) + " GFLOP/s"
              for t, r in by_threads.items()) + ".")
    if gemm_gflops: rates, words = dict.fromkeys(SHAPES, gemm_gflops), f"given: {gemm_gflops:g} GFLOP/s (--gemm-gflops)"
    elif here:
        ft = fasttext_rate(main_vector_text(root))  # words/s of one gensim worker; the seeds run one a core
        print(f"gensim fastText at the CBOW rows' settings, one worker (train alone, median of 3): {ft:,.0f} words/s; "
              "a job's seeds train one a process, so its rate at t threads is t times that.")
        rates = lambda threads: {**by_threads[min(threads or 2, max(by_threads))],  # noqa: E731
                                 "fasttext": ft * (threads or 2) / 1e9}
        words = "this machine's at the job's threads (2 where not recorded), measured now"
    else: rates, words = {k: v for k, (v, _) in RECORDED_GFLOPS.items()}, f"{XEON_AVX2}, recorded"
    print(f"Floors use {words}" + ("." if callable(rates) else
                                    ": " + ", ".join(f"{k} {v:.0f}" for k, v in rates.items()) + " GFLOP/s."))
    if gemm_gflops or here:
        print("**Cross-machine ratios:** x floor below divides each job's time, measured on the machine named beside "
              "it, by a floor at the rate above, which is not that machine's unless it is named so.")
    c = fl.check
    print(f"FLOPs a sequence (FlopCounterMode at 16, 64, 128 tokens, fitted c + a n + b n^2): one training step of the "
          f"embedded MiniLM at 96 tokens {c[0] / 1e9:.2f} GFLOP counted, {c[1] / 1e9:.2f} from the fit.\n")
    table, cells, allparts = floor_table(root, jobs, rates, fl)
    table["measured s (machine)"] = [f"{m:,.0f} ({w})" if m == m else f"not recorded ({w})"
                                     for m, w in zip(table["measured s"], table["measured on"])]
    table["floor s (rate)"] = [(f"{f:,.1f} ({t} thread{'s' if t > 1 else ''})" if callable(rates) else
                                f"{f:,.1f} ({words.split(':')[0]})") if f else "0: no GEMM work"
                               for f, t in zip(table["floor s"], table["floor threads"])]
    table["x floor"] = [f"{x:.2f}" if x == x else "n/a" for x in table["x floor"]]
    table["lever (> 1.5x)"] = [LEVERS.get(j, "") if x == "n/a" or float(x) > 1.5 else ""
                               for j, x in zip(table.job, table["x floor"])]
    cols = ["job", "measured s (machine)", "how it ran", "floor s (rate)", "x floor", "lever (> 1.5x)"]
    print(table[cols].to_markdown(index=False))
    if cold is not None:  # its floor at the threads make main runs with here, not the committed run's (`run_threads`)
        t_cold = torch.get_num_threads()
        at_cold = floor_table(root, jobs, (lambda _t: rates(t_cold)) if callable(rates) else rates, fl)[0]
        print("\n### `make main` from an empty cache, on this machine\n\n"
              + cold_table(at_cold, *cold[:2], threads=t_cold).to_markdown(index=False))
        if len(cold) > 2:
            print("\nIts costliest cells (papermill's seconds):\n\n" + cold[2].head(6).to_markdown(index=False))
    print("\nWith the cached parts computed too (fresh caches), the floors would be: "
          + ", ".join(f"{j} {f:,.0f} s" for j, f in zip(table.job, table["floor s, fresh caches"]) if f) + ".")
    print("\nThe costliest cells against the floor of the parts they run:\n")
    print(cells.to_markdown(index=False))
    if parts: print("\n" + allparts.to_markdown(index=False))
    print(f"\n(floors computed in {time.perf_counter() - t0:.0f} s)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path)
    ap.add_argument("--top", type=int, default=5, help="costliest cells to list")
    ap.add_argument("--no-floor", action="store_true", help="only the committed times, no floors (no torch work)")
    ap.add_argument("--gemm-gflops", type=float, help="another machine's fp32 GEMM rate for every floor")
    ap.add_argument("--here", action="store_true", help="floors at this machine's rate, measured now")
    ap.add_argument("--avx2", action="store_true", help="rerun with the AVX2 kernels forced (as the committed runs)")
    ap.add_argument("--parts", action="store_true", help="also print every part's FLOPs and its numbers' sources")
    ap.add_argument("--cold", action="store_true", help="run make main's study from empty caches here first, then "
                    "its floor at this machine's rate (implies --here)")
    ap.add_argument("--cold-seconds", type=float, help="make main's wall seconds from an empty cache, timed by hand on "
                    "this machine (implies --here)")
    a = ap.parse_args(argv)
    run = cold_main(a.root) if a.cold else None  # (seconds, cells)
    cold = ((run[0], "measured now: papermill as make main runs it, empty caches", run[1]) if a.cold else
            (a.cold_seconds, "given (--cold-seconds)") if a.cold_seconds else None)
    if a.avx2 and any(os.environ.get(k) != v for k, v in AVX2_ENV.items()):
        import sys
        os.execvpe(sys.executable, [sys.executable, *sys.argv], {**os.environ, **AVX2_ENV})
    jobs, cells = jobs_table(a.root)
    print(jobs.to_markdown(index=False))
    print()
    timed = jobs.dropna(subset=["seconds"]).query("`in make reproduce`")
    for mach, g in timed.groupby("machine"):
        total = g.seconds.sum()
        print(f"- {mach}: {len(g)} jobs of make reproduce with cell times, {total:,.0f} s ({total / 60:.1f} min)")
    missing = jobs[jobs.seconds.isna() & jobs["in make reproduce"]].job.tolist()
    if missing: print(f"- no cell times (committed before they were recorded): {', '.join(missing)}")
    print("- cell times leave out each job's kernel start and papermill's own work, about 20 s a job")
    print()
    top = cells.head(a.top).merge(jobs[["job", "seconds"]].rename(columns={"seconds": "job seconds"}), on="job")
    top["share of its job"] = (top.seconds / top["job seconds"]).round(2)
    top["seconds"] = top.seconds.round(1)
    print(top[["job", "cell", "seconds", "share of its job", "first line"]].to_markdown(index=False))
    if not a.no_floor: print_floors(a.root, jobs, a.gemm_gflops, a.here or cold is not None, a.parts, cold)


if __name__ == "__main__":
    main()
