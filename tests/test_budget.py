"""benchmarks/reproduce_budget.py's floors: its FLOP counts against hand computations, and its workload declarations
against sizes stated independently (benchmarks/README.md, the notebooks)."""
import importlib.util

import numpy as np
import pytest
import torch

from conftest import ROOT


@pytest.fixture(scope="module")
def rb():
    spec = importlib.util.spec_from_file_location("reproduce_budget", ROOT / "benchmarks" / "reproduce_budget.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod


def tiny_bert(layers=2, hidden=64, heads=4, inter=128, labels=3):
    from transformers import BertConfig, BertForSequenceClassification
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=30522, hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=heads,
                     intermediate_size=inter, num_labels=labels, attn_implementation="eager")
    return BertForSequenceClassification(cfg)


def hand_forward(n, layers=2, h=64, inter=128, labels=3):
    "Matmul FLOPs of one sequence of n tokens through BERT, by hand: 2 per multiply-add."
    dense = 2 * n * (4 * h * h + 2 * h * inter)  # q, k, v, o and the two feed-forward layers
    attention = 2 * 2 * n * n * h  # scores q k^T and the weighted sum of v, over all heads together
    return layers * (dense + attention) + 2 * h * h + 2 * h * labels  # pooler, classifier (on [CLS] only)


def test_training_step_flops(rb):
    "One training step counted by FlopCounterMode = 3 x the hand-computed forward (forward, input and weight gradients:"
    " every matmul's inputs need gradients, the embeddings being trained), to 0.1%."
    m = tiny_bert()
    for n in (8, 40):
        assert rb.seq_flops(m, n, rb.TRAIN, batch=2) == pytest.approx(3 * hand_forward(n), rel=1e-3)
        assert rb.seq_flops(m.eval(), n, rb.FORWARD, batch=2) == pytest.approx(hand_forward(n), rel=1e-3)
        m.train()


def test_quadratic_extrapolates(rb):
    "The fit c + a n + b n^2 from three counted lengths predicts the count at a fourth length, and its n^2 term is the"
    " attention's by hand (2 products x 2 FLOPs x hidden x layers, x 3 for training)."
    m = tiny_bert()
    c, a, b = rb.quadratic(m, rb.TRAIN, ns=(4, 16, 32))
    assert b == pytest.approx(3 * 2 * 2 * 64 * 2, rel=1e-6)
    assert c + a * 100 + b * 100 ** 2 == pytest.approx(rb.seq_flops(m, 100, rb.TRAIN), rel=1e-6)


def test_lstm_and_head_flops(rb):
    "The BiLSTM's hand count (2 directions x 4 gates x 300 x (384 + 300) multiply-adds a token) and the RoNLI head's"
    " step (README, head_step.py: 203 MFLOP at batch 256 for 2 x 384 -> 256 -> 4)."
    assert rb.lstm_flops_per_token(rb.FORWARD) == 2 * 2 * 4 * 300 * (384 + 300)
    assert rb.head_flops(768, 4, rb.TRAIN) * 256 == pytest.approx(203e6, rel=0.01)


def test_gemm_rate_positive(rb):
    "The measured rate is a finite, positive GFLOP/s below any 2-core CPU's fp32 peak (about 5 TFLOP/s with AMX off)."
    r = rb.gemm_rate("head", reps=1, runs=1)
    assert 0.1 < r < 5000


def test_workloads_match_stated_sizes(rb, real_data, monkeypatch):
    "The declarations against sizes stated elsewhere: RoNLI's 11,788 distinct sentences (README, make main), TaxiNLI's"
    " 2,128 training pairs (README, nb 12), 12 variants x 20 claim seeds of heads (nb 05),"
    " CB's MNLI stage cached, and TaxiNLI's seeds cached as its manifest says."
    monkeypatch.setattr(rb, "DATA_DIR", str(real_data))
    w = rb.workloads(ROOT)
    assert set(w) == set(__import__("nlicompendium.cli", fromlist=["JOBS"]).JOBS)
    enc = [p for p in w["curriculum-ronli"] if p.model == "frozen"]
    assert len(enc) == 1 and len(enc[0].lengths) == 11788 and enc[0].lengths.max() <= 512
    heads = [p for p in w["curriculum-ronli"] if p.cell == 17 and p.mode == rb.TRAIN]
    assert len(heads) == 12 and all(p.units == 20 for p in heads)
    tx = [p for p in w["taxinli"] if p.mode == rb.TRAIN]
    assert len(tx[0].lengths) == 2128 and tx[0].units == 2 * 5 and tx[0].lengths.max() <= 96
    # CB: Table 4's MNLI stage read back from TaxiNLI's seeds, and the every-pair diagnostic (seed 0, on TaxiNLI's MNLI-train
    # pairs and three quarters of MNLI dev less a tenth held out, nb 13: 7,908 pairs) read back from the run before at this
    # library (the committed manifest: mnli_stage_shared all True, mnli_stage_every_pair.csv read from the shared cache)
    assert [p.cached for p in w["cb"] if p.what.startswith("MNLI stage")] == [True, True]
    every = next(p for p in w["cb"] if p.what.startswith("MNLI stage on every pair"))
    assert len(every.lengths) == 7908 and every.cell == 55
    import json  # TaxiNLI's 5 seeds are free only where its committed run read every one back (manifest shared_units)
    back = json.loads((ROOT / "tables" / "taxinli" / "manifest.json").read_text())["values"]["shared_units"]["value"]
    seeds = [x for per_model in back.values() for x in per_model.values()]
    assert len(seeds) == 5 and [p.cached for p in w["taxinli"] if p.mode == rb.TRAIN] == [all(seeds)]
    assert np.isclose(sum(p.layers for p in w["cb"] if "probe fine-tuning" in p.what), 21 / 6)
    # the CBOW rows' fastText: only where the committed Table 5 says its vectors were trained per seed (make main's job)
    ft = [p for p in w["curriculum-ronli"] if p.model == "fasttext"]
    assert len(ft) == 1 and ft[0].units == 5 * 5 and ft[0].cell == 16
    assert not [p for j in ("curriculum-ronli-official", "curriculum-scinli") for p in w[j] if p.model == "fasttext"]


def test_fasttext_work_and_rate(rb):
    "The fastText part's work is the distinct texts' words (counted by hand here) times epochs x seeds, its floor that"
    " work over gensim's rate; the rate, measured on a tiny sample, is a finite number of words per second."
    train = {"premise": ["a b c", "d e", "a b c"], "hypothesis": ["f g h i", "d e", "j"]}
    assert sorted(rb.fasttext_words(train).tolist()) == [1, 2, 3, 4]  # 'a b c', 'd e', 'f g h i', 'j': repeats once
    part = rb.Part("ft", 16, "fasttext", rb.TRAIN, rb.fasttext_words(train), 25)
    assert rb.Flops.of(None, part) == 10 * 25 and rb.rate_kind(part) == "fasttext"
    texts = [" ".join(f"w{(i * 7 + j) % 50}" for j in range(12)) for i in range(200)]
    r = rb.fasttext_rate(texts, seconds=0.05, runs=1)
    assert np.isfinite(r) and 1e3 < r < 1e8


def test_lengths_are_the_tokenizers(rb):
    "The workloads' word-piece counts (the `tokenizers` backend, truncating longest first) are what transformers' own call"
    " with truncation=True gives, for pairs and sentences, over and under the limit."
    from nlicompendium.contract import toy_pairs
    ds = toy_pairs(40, 0).map(lambda b, i: {"premise": "words " * (i % 7) * 9 + b["premise"]}, with_indices=True)
    tok = rb.tokenizer()
    for L in (12, 64):
        want = [len(x) for x in tok(list(ds["premise"]), list(ds["hypothesis"]), truncation=True, max_length=L)["input_ids"]]
        assert rb.pair_lengths(ds, L).tolist() == want and max(want) == L and min(want) < L
        assert rb.sentence_lengths(ds["premise"], L).tolist() == [len(x) for x in tok(list(ds["premise"]), truncation=True,
                                                                                      max_length=L)["input_ids"]]


def test_cold_column(rb):
    "The cold-cache column divides make main's seconds by its job's fresh-cache floor, and the output names no session."
    import pandas as pd
    table = pd.DataFrame([{"job": rb.MAIN_JOB, "floor s, fresh caches": 120.0}, {"job": "cb", "floor s, fresh caches": 9.0}])
    row = rb.cold_table(table, 300.0, "given").iloc[0]
    assert (row["job"], row["cold cache s"], row["x floor"]) == (rb.MAIN_JOB, 300, 2.5)
    assert "session" not in repr(rb.RUN_CONDITIONS).lower() and "session" not in (rb.__doc__ or "").lower()


def test_cold_run_cells(rb, tmp_path):
    "The cold run's cells, costliest first, read from papermill's per-cell seconds of an executed notebook."
    import json
    nb = {"cells": [{"cell_type": "markdown", "source": ["x"], "metadata": {}},
                    {"cell_type": "code", "source": ["a = 1\n", "b"], "metadata": {"papermill": {"duration": 2.04}}},
                    {"cell_type": "code", "source": ["c = 2"], "metadata": {"papermill": {"duration": 9.5}}}]}
    (tmp_path / "x.ipynb").write_text(json.dumps(nb))
    t = rb.run_cells(tmp_path / "x.ipynb")
    assert (t.cell.tolist(), t.seconds.tolist(), t["first line"].tolist()) == ([2, 1], [9.5, 2.0], ["c = 2", "a = 1"])
