"""Run by tests/test_distributed.py under `accelerate launch --num_processes 2 --cpu`: train the tiny model, save coverage and dynamics."""
import sys
import numpy as np
from datasets import ClassLabel, Dataset, Features, Value
from nlicompendium.training import TrainConfig, fit

out = sys.argv[1]
rng = np.random.default_rng(0)
n = 75  # not a multiple of the batch size or the number of processes
words = "the a cat dog sat ran on mat park big small red".split()
prem = [" ".join(rng.choice(words, rng.integers(3, 12))) for _ in range(n)]
lab = rng.integers(0, 2, n)
ds = Dataset.from_dict({"id": [f"x{i}" for i in range(n)], "premise": prem, "hypothesis": [("yes " if l == 0 else "no ") + p for p, l in zip(prem, lab)],
                        "label": lab.tolist()},
                       features=Features({"id": Value("string"), "premise": Value("string"), "hypothesis": Value("string"), "label": ClassLabel(names=["yes", "no"])}))
r = fit(ds, None, TrainConfig(model="tiny", epochs=3, batch_size=8, max_length=32, lr=1e-3, bf16=False, progress=False))
import torch.distributed as dist
if dist.get_rank() == 0:
    np.savez(out, coverage=r.coverage, prob_gold=r.dynamics.prob_gold, ids=r.dynamics.ids, steps=r.steps, world=r.dynamics.meta["world_size"])
