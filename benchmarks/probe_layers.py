"""CB's fine-tuned probes (Fig. 2): the encoder copied whole against `cb.first_layers` (embeddings and layers 1..k).

For each k = 1..L, one epoch of the notebook's `finetune_probe` loop (batches of 8 pairs from CB train + validation,
96 word pieces, CB's truncation, AdamW) on the `cpu` profile's encoder, all-MiniLM-L6-v2, fp32. Before timing, the two
encoders' probe losses on the first batch are compared in eval mode: they must be equal, since a probe on layers 1..k
cannot see the layers above. Prints one row per k, then the totals and their ratio.

    python benchmarks/probe_layers.py [--epochs 1] [--threads 2]
"""
import argparse, copy, os, time, warnings

import numpy as np
import pandas as pd
import torch
from torch import nn

warnings.filterwarnings("ignore")
os.environ.setdefault("NLIC_OFFLINE", "1")


def probe_epoch(enc, probe, prem, hyp, y, k, tok, epochs=1, seed=0):
    "The notebook's fine-tuned-probe loop (13_cb, `finetune_probe`), training only: seconds taken."
    from nlicompendium.cb import layer_cls
    opt = torch.optim.AdamW(list(enc.parameters()) + list(probe.parameters()), lr=2e-4)
    enc.train(); probe.train(); rng = np.random.default_rng(seed); t = time.perf_counter()
    for _ in range(epochs):
        for idx in np.array_split(rng.permutation(len(prem)), max(1, len(prem) // 8)):
            hs = layer_cls(enc, tok, [prem[i] for i in idx], [hyp[i] for i in idx], k, 96)
            loss = nn.functional.cross_entropy(probe(hs), torch.as_tensor(y[idx])); opt.zero_grad(); loss.backward(); opt.step()
    return time.perf_counter() - t


def first_loss(enc, probe, prem, hyp, y, k, tok):
    "The probe's loss on the first 8 pairs, eval mode (no dropout)."
    from nlicompendium.cb import layer_cls
    enc.eval(); probe.eval()
    with torch.no_grad():
        return float(nn.functional.cross_entropy(probe(layer_cls(enc, tok, prem[:8], hyp[:8], k, 96)), torch.as_tensor(y[:8])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=1); ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args(); torch.set_num_threads(a.threads)
    from nlicompendium.cb import first_layers
    from nlicompendium.core import seed_everything
    from nlicompendium.data import load
    from nlicompendium.models import ScalarMixProbe, load_encoder, load_tokenizer
    cb = load("cb"); d = pd.concat([cb["train"].to_pandas(), cb["validation"].to_pandas()], ignore_index=True)
    prem, hyp, y = d.premise.tolist(), d.hypothesis.tolist(), d.factive.astype(int).to_numpy()
    tok, base = load_tokenizer("embedded"), load_encoder("embedded")
    L, rows = base.config.num_hidden_layers, []
    print(f"{len(prem)} pairs (CB train + validation), {a.epochs} epoch(s), batch 8, 96 word pieces, {a.threads} threads, "
          f"torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}")
    for k in range(1, L + 1):
        out = {"k": k}
        for name, make in (("whole encoder (copy.deepcopy)", copy.deepcopy), ("first_layers", lambda e: first_layers(e, k))):
            seed_everything(0); enc = make(base); probe = ScalarMixProbe(k, base.config.hidden_size, 2)
            out[f"{name}: first loss"] = first_loss(enc, probe, prem, hyp, y, k, tok)
            seed_everything(0); out[f"{name}: s"] = probe_epoch(enc, probe, prem, hyp, y, k, tok, a.epochs)
        assert abs(out["whole encoder (copy.deepcopy): first loss"] - out["first_layers: first loss"]) < 1e-5, out
        rows.append(out); print(pd.DataFrame([out]).round(4).to_string(index=False, header=k == 1), flush=True)
    df = pd.DataFrame(rows)
    full, cut = df["whole encoder (copy.deepcopy): s"].sum(), df["first_layers: s"].sum()
    print(f"\nk = 1..{L}: whole encoder {full:.1f} s, first_layers {cut:.1f} s: {full / cut:.2f}x less time "
          f"(what is saved is the forward pass of the layers above k; no gradient flows through them either way)")


if __name__ == "__main__":
    main()
