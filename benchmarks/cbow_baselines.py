"""RoNLI's two CBOW baseline rows, seed by seed: the per-seed path as gensim and a word-by-word lookup give it (gensim's
`FastText` untouched: its Python loop composing each word's vector from its n-grams, run once after the vocabulary and
once after training; `cbow` asking `wv[w]` word by word) against the library's (`train_fasttext`, whose composition
is the same float32 sums in gensim's order for every word at once, and `cbow`, which takes a gensim model's known rows
and unseen words' n-gram means at once). Per stage: CPU seconds summed over the seeds (one process, one thread),
gensim's own words per second in its training loop and the floor it gives (raw words x epochs over it), and whether
every seed's vectors, features and predictions are the same, bit for bit.

    python benchmarks/cbow_baselines.py [--seeds 0 1 2 3 4]
"""
import argparse, logging, os, re, time

import numpy as np
import pandas as pd

os.environ.setdefault("NLIC_OFFLINE", "1")


class PerWord:
    "Word vectors without `key_to_index`: `cbow` looks each word up with `wv[w]`, one at a time."
    def __init__(self, wv): self.wv, self.vector_size = wv, wv.vector_size
    def __getitem__(self, w): return self.wv[w]


class Rate(logging.Handler):
    "gensim's own report of its training loop: effective words per second."
    def __init__(self): super().__init__(); self.rates = []
    def emit(self, r):
        m = re.match(r"EPOCH \d+: training on (\d+) raw words \((\d+) effective words\) took ([\d.]+)s", r.getMessage())
        if m: self.rates.append(tuple(map(float, m.groups())))


def old_fasttext(sents, seed, clock, dim=300, bucket=200_000, epochs=5):
    "The per-seed path before: gensim's FastText as it is, vocabulary then training, each timed."
    from gensim.models import FastText
    m = FastText(vector_size=dim, window=5, min_count=1, sg=1, min_n=3, max_n=6, seed=seed, workers=1, bucket=bucket)
    with clock("vocabulary (with gensim's n-gram composition)"): m.build_vocab(corpus_iterable=sents)
    with clock("training (with gensim's n-gram composition)"):
        m.train(corpus_iterable=sents, total_examples=len(sents), epochs=epochs)
    return m.wv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    a = ap.parse_args()
    import contextlib, collections
    from nlicompendium.data import load
    from nlicompendium.baselines import cbow_pairs, cbow_classifier, train_fasttext
    d = load("ronli-distant")
    data = {s: d[k] for s, k in (("train", "train"), ("dev", "validation"), ("test", "test"))}
    text = sorted(set(data["train"]["premise"]) | set(data["train"]["hypothesis"]))
    sents = [s for s in (t.split() for t in text) if s]
    cpu = collections.defaultdict(lambda: collections.defaultdict(float))

    def clock_for(path):
        @contextlib.contextmanager
        def clock(stage):
            c = time.process_time(); yield; cpu[path][stage] += time.process_time() - c
        return clock
    rate = Rate(); logging.getLogger("gensim").addHandler(rate); logging.getLogger("gensim").setLevel(logging.INFO)
    same, w0 = {"vectors": True, "features": True, "predictions": True}, time.perf_counter()
    for sd in a.seeds:
        feats, preds = {}, {}
        for path in ("before", "now"):
            clock = clock_for(path)
            if path == "before": wv = old_fasttext(sents, sd, clock)
            else:
                with clock("vocabulary and training"): wv = train_fasttext(text, dim=300, seed=sd, bucket=200_000)
            with clock("features (3 splits)"):
                look = PerWord(wv) if path == "before" else wv
                X = {s: cbow_pairs(list(v["premise"]), list(v["hypothesis"]), look)[0] for s, v in data.items()}
            p = {}
            for kind in ("svm", "softmax"):
                with clock(f"{kind} fit and predict"):
                    clf = cbow_classifier(kind, seed=sd).fit(X["train"], list(data["train"]["label"]))
                    p[kind] = (clf.predict(X["dev"]), clf.predict(X["test"]))
            feats[path], preds[path] = (wv.vectors_vocab, wv.vectors_ngrams, wv.vectors, X), p
        b, n = feats["before"], feats["now"]
        same["vectors"] &= all(np.array_equal(x, y) for x, y in zip(b[:3], n[:3]))
        same["features"] &= all(np.array_equal(b[3][s], n[3][s]) for s in data)
        same["predictions"] &= all(np.array_equal(x, y) for k in preds["before"]
                                   for x, y in zip(preds["before"][k], preds["now"][k]))
    wall = time.perf_counter() - w0
    ep = np.array(rate.rates).reshape(len(a.seeds), 2, -1, 3)  # seed, path, epoch: raw words, effective words, s
    raw, eff, secs = ep[:, 0].sum((0, 1))  # the path before's training loops (the same loops now)
    print(f"{len(a.seeds)} seeds, {len(sents):,} training sentences, {raw / len(a.seeds) / ep.shape[2]:,.0f} raw words "
          f"x {ep.shape[2]} epochs a seed; one thread; load average {os.getloadavg()[0]:.2f}; both paths "
          f"{wall:.0f} s wall")
    print(f"gensim's training loop: {eff / secs:,.0f} effective words/s; floor of the fastText training "
          f"{secs:.1f} s for {len(a.seeds)} seeds ({secs / len(a.seeds):.1f} s a seed)\n")
    rows = [{"path": path, "stage": st, "CPU s": round(v, 1)} for path, st_ in cpu.items() for st, v in st_.items()]
    rows += [{"path": path, "stage": "**all**", "CPU s": round(sum(st_.values()), 1)} for path, st_ in cpu.items()]
    print(pd.DataFrame(rows).to_markdown(index=False))
    print("\nsame, every seed, bit for bit: " + ", ".join(f"{k} {v}" for k, v in same.items()))


if __name__ == "__main__":
    main()
