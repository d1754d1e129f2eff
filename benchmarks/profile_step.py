"""Where the time of one fp32 training step goes: torch.profiler over the engine's step, ops grouped by kind.

Profiles three things on the embedded MiniLM with RoNLI pairs (ronli-distant), in fp32 (the only fast path on an AVX2 CPU):

- a fine-tuning step with joint encoding (batch 32, 96 tokens: the `cpu` profile of the other studies);
- a fine-tuning step with separate encoding (premise and hypothesis each through the encoder: RoNLI's `encoder='fine-tune'`);
- a forward pass of the frozen encoder over a batch of single sentences (RoNLI's default, `encoder='frozen'`: all the study's encoder work).

For each: the share of self CPU time per kind of op (GEMM, attention softmax, GELU, LayerNorm, dropout, the embedding
matrix's gradient, the optimizer, the rest), the padding in a length-grouped epoch, and the step time with the embedding
matrix frozen (what its gradient and its AdamW update cost). Prints one table per setting as it finishes.

    python benchmarks/profile_step.py [--steps 4] [--threads 2]

To see an AVX2 machine's kernels on an AVX-512/AMX Xeon, run it under
`ATEN_CPU_CAPABILITY=avx2 MKL_ENABLE_INSTRUCTIONS=AVX2 ONEDNN_MAX_CPU_ISA=AVX2`.
"""
import argparse, os, time, warnings
from collections import defaultdict

import numpy as np
import pandas as pd
import torch

warnings.filterwarnings("ignore")
os.environ.setdefault("NLIC_OFFLINE", "1")

KINDS = {  # aten op name -> kind; anything else is "other"
    "GEMM (dense layers, attention products)": ("aten::addmm", "aten::mm", "aten::bmm", "aten::baddbmm"),
    "attention (softmax, or the sdpa kernel)": ("aten::_softmax", "aten::_softmax_backward_data", "aten::_scaled_dot_product_flash_attention_for_cpu",
                                                "aten::_scaled_dot_product_flash_attention_for_cpu_backward"),
    "GELU": ("aten::gelu", "aten::gelu_backward"),
    "LayerNorm": ("aten::native_layer_norm", "aten::native_layer_norm_backward"),
    "dropout's random mask": ("aten::bernoulli_", "aten::native_dropout", "aten::native_dropout_backward", "aten::uniform_"),
    "elementwise multiplies (mostly dropout's scaling)": ("aten::mul", "aten::mul_", "aten::div", "aten::div_"),
    "embedding gradient": ("aten::embedding_dense_backward", "aten::embedding_backward", "aten::index_add_", "aten::scatter_add_"),
    "optimizer (fused AdamW)": ("aten::_fused_adamw_",),
    "copies, adds, fills, masks": ("aten::copy_", "aten::add", "aten::add_", "aten::where", "aten::masked_fill",
                            "aten::clone", "aten::contiguous", "aten::sum", "aten::fill_", "aten::zero_", "aten::cat"),
}
KIND_OF = {op: k for k, ops in KINDS.items() for op in ops}


def profile_shares(fn, steps):
    "Self CPU time per kind of op over `steps` calls of `fn` (after two warm-up calls), and the mean wall time of a call."
    from torch.profiler import ProfilerActivity, profile
    for _ in range(2): fn()
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        t = time.perf_counter()
        for _ in range(steps): fn()
        wall = (time.perf_counter() - t) / steps
    by = defaultdict(float)
    for e in prof.key_averages():
        if e.key.startswith("aten::") or e.key.startswith("Optimizer"):
            by[KIND_OF.get(e.key, "other ops")] += e.self_cpu_time_total
    total = sum(by.values())
    return pd.Series({k: 100 * v / total for k, v in by.items()}).sort_values(ascending=False), wall


def padding_waste(lengths, batches):
    "Share of padded token slots in `batches` (each padded to its longest example)."
    real = sum(int(lengths[i]) for b in batches for i in b)
    slots = sum(len(b) * int(max(lengths[i] for i in b)) for b in batches)
    return 1 - real / slots


def train_step(enc, tok, encoding, freeze_embeddings=False):
    "The engine's fp32 fine-tuning step (embedded MiniLM, eager attention, fused AdamW), a function of a batch's indices (collation cached)."
    from nlicompendium.models import load_pair_classifier
    from nlicompendium.training import PairCollator, _param_groups
    model = load_pair_classifier("embedded", 4, encoding, seed=0, attn_implementation="eager", sentences=2).train()
    if freeze_embeddings:
        for n, p in model.named_parameters():
            if "word_embeddings" in n: p.requires_grad_(False)
    opt, coll, made = torch.optim.AdamW(_param_groups(model, 0.01), lr=2e-5, fused=True), PairCollator(tok), {}
    def step(b):
        if tuple(b) not in made: made[tuple(b)] = coll([enc.features[i] for i in b]), torch.as_tensor(enc.labels[b])
        batch, labels = made[tuple(b)]
        loss = torch.nn.functional.cross_entropy(model(**batch).logits.float(), labels)
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        return batch
    return step


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=4, help="profiled steps per setting (after 2 warm-up steps)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    from nlicompendium.data import load
    from nlicompendium.models import load_tokenizer, load_encoder
    from nlicompendium.training import TrainConfig, encode_split, length_grouped_batches
    print(f"torch {torch.__version__}, CPU capability {torch.backends.cpu.get_cpu_capability()}, threads {torch.get_num_threads()}, fp32", flush=True)
    tok = load_tokenizer("embedded")
    ds = load("ronli-distant")["train"]
    for encoding, max_length in (("joint", 96), ("separate", 96)):
        cfg = TrainConfig(model="embedded", encoding=encoding, max_length=max_length, batch_size=32, bf16=False)
        enc = encode_split(ds, tok, cfg, "train")
        batches = length_grouped_batches(enc.lengths, cfg.batch_size, 0)
        b = batches[len(batches) // 2]  # a batch of middling length
        rows, walls = {}, {}
        for frozen_emb in (False, True):
            step = train_step(enc, tok, encoding, frozen_emb)
            shares, wall = profile_shares(lambda: step(b), a.steps)
            rows["embedding matrix frozen" if frozen_emb else "as trained"], walls[frozen_emb] = shares, wall
        batch = step(b)
        tokens = int(sum(v.numel() for k, v in batch.items() if k.endswith("input_ids")))
        print(f"\n## fine-tuning step, {encoding} encoding, batch 32, {max_length} tokens{' per sentence' if encoding == 'separate' else ''}: "
              f"{tokens} token slots; {walls[False] * 1e3:.0f} ms per step ({32 / walls[False]:.1f} pairs/s), "
              f"{walls[True] * 1e3:.0f} ms with the embedding matrix frozen ({100 * (1 - walls[True] / walls[False]):.0f}% less); "
              f"padding in a length-grouped epoch {100 * padding_waste(enc.lengths, batches):.1f}%", flush=True)
        print(pd.DataFrame(rows).fillna(0).round(1).to_markdown(), flush=True)
    # the frozen study: a forward pass of the encoder over single sentences, sorted by length (models.sentence_vectors)
    encoder = load_encoder("embedded", seed=0).eval()
    sents = sorted(set(ds["premise"]) | set(ds["hypothesis"]))
    n = np.array([len(x) for x in tok(sents, truncation=True, max_length=512)["input_ids"]])
    order = np.argsort(n, kind="stable")
    chunk = [sents[i] for i in order[len(order) // 2: len(order) // 2 + 64]]
    batch = tok(chunk, padding=True, truncation=True, max_length=512, return_tensors="pt")
    def forward():
        with torch.inference_mode(): encoder(**batch)
    shares, wall = profile_shares(forward, a.steps)
    by_chars = np.argsort([len(s) for s in sents], kind="stable")
    batches = lambda o: [list(o[i:i + 64]) for i in range(0, len(o), 64)]
    print(f"\n## frozen encoder forward (RoNLI's default), 64 sentences, {batch['input_ids'].shape[1]} tokens: {wall * 1e3:.0f} ms "
          f"({64 / wall:.0f} sentences/s); padding over {len(sents):,} training sentences: sorted by characters "
          f"{100 * padding_waste(n, batches(by_chars)):.1f}%, by tokens {100 * padding_waste(n, batches(order)):.1f}%", flush=True)
    print(shares.round(1).to_frame("% of self CPU time").to_markdown(), flush=True)


if __name__ == "__main__":
    main()
