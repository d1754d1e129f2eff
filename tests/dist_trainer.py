"""Run by tests/test_distributed.py under torchrun with 2 CPU processes, once per strategy named, each from a fresh model:
"fit" trains with the library's own loop (`training.fit`, an Accelerator inside), the others with transformers.Trainer and
DataMapCallback; rank 0 saves each strategy's dynamics as <out>/trainer-<strategy>.npz. One launch for every strategy: a
launch costs two processes' imports and the process group's start."""
import sys, tempfile
import numpy as np, torch, datasets
from transformers import AutoConfig, AutoModelForSequenceClassification, DataCollatorWithPadding, Trainer, TrainingArguments
from nlicompendium.models import embedded_path, load_tokenizer, TINY_CONFIG
from nlicompendium.datamap import DataMapCallback, use_plan
from nlicompendium.samplers import random_sampler

out, strategies = sys.argv[1], sys.argv[2:]  # each "random", "group_by_length" or "plan" (a curriculum BatchPlan)
tok = load_tokenizer("embedded")
rng = np.random.default_rng(0)
n = 75  # not a multiple of the batch size times the number of processes: the distributed sampler repeats a few examples
words = "the a cat dog sat ran on mat park big small red".split()
raw = datasets.Dataset.from_dict({"id": [f"x{i}" for i in range(n)], "text": [" ".join(rng.choice(words, rng.integers(3, 12))) for _ in range(n)],
                                  "label": rng.integers(0, 2, n).tolist()})
ds = raw.map(lambda b: tok(b["text"], truncation=True, max_length=32), batched=True).remove_columns(["text"])
def fit_run():
    "The library's loop on 75 pairs (ids x0..x74), 3 epochs of batches of 8: coverage, dynamics and steps as it gathers them."
    from datasets import ClassLabel, Features, Value
    from nlicompendium.training import TrainConfig, fit
    r2 = np.random.default_rng(0)
    prem = [" ".join(r2.choice(words, r2.integers(3, 12))) for _ in range(n)]
    lab = r2.integers(0, 2, n)
    d = datasets.Dataset.from_dict({"id": [f"x{i}" for i in range(n)], "premise": prem, "label": lab.tolist(),
                                    "hypothesis": [("yes " if y == 0 else "no ") + p for p, y in zip(prem, lab)]},
                                   features=Features({"id": Value("string"), "premise": Value("string"), "label": ClassLabel(names=["yes", "no"]),
                                                      "hypothesis": Value("string")}))
    r = fit(d, None, TrainConfig(model="tiny", epochs=3, batch_size=8, max_length=32, lr=1e-3, bf16=False, progress=False))
    if torch.distributed.get_rank() == 0:
        np.savez(f"{out}/trainer-fit.npz", coverage=r.coverage, prob_gold=r.dynamics.prob_gold, ids=r.dynamics.ids, steps=r.steps,
                 world=r.dynamics.meta["world_size"])
    torch.distributed.barrier()


def train(strategy):
    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_config(AutoConfig.from_pretrained(embedded_path(), num_labels=2, **TINY_CONFIG))
    with tempfile.TemporaryDirectory() as d:
        plan = random_sampler(raw["label"], 8, 24, oversample=True, seed=1) if strategy == "plan" else None  # 192 draws: 2 epochs and a part
        args = TrainingArguments(d, per_device_train_batch_size=8, num_train_epochs=1 if plan else 3, learning_rate=1e-3, report_to=[],
                                 save_strategy="no", logging_strategy="no", use_cpu=True, disable_tqdm=True,
                                 train_sampling_strategy="random" if plan else strategy)
        t = Trainer(model, args, train_dataset=ds, data_collator=DataCollatorWithPadding(tok))
        cb = DataMapCallback(ds, epochs="drawn" if plan else "trainer").attach(use_plan(t, plan) if plan else t)
        try: t.train(); error = ""
        except RuntimeError as e: error = str(e)
    if torch.distributed.get_rank() == 0:
        path = f"{out}/trainer-{strategy}.npz"
        if error: np.savez(path, error=error, world=torch.distributed.get_world_size())
        else:
            dyn = cb.dynamics()
            np.savez(path, prob_gold=dyn.prob_gold, ids=dyn.ids, repeats=np.array(cb.repeats), world=torch.distributed.get_world_size(),
                     coverage=np.stack(cb.coverage, 1), plan=np.array(plan.batches if plan else []))
    torch.distributed.barrier()


for strategy in strategies: fit_run() if strategy == "fit" else train(strategy)
