"""Distributed training with 2 CPU processes (torchrun + accelerate): the gathered dynamics cover every example exactly once per epoch."""
import math
import socket
import subprocess
import sys
from pathlib import Path
import numpy as np
import pytest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


def test_two_processes(trainer_runs):
    "The library's own loop (`training.fit`) in 2 processes: every example exactly once per epoch, gathered across both."
    z = trainer_runs["fit"]
    assert int(z["world"]) == 2
    assert z["coverage"].shape == (75, 3)
    assert (z["coverage"] == 1).all()  # every example exactly once per epoch, gathered across both processes
    assert not np.isnan(z["prob_gold"]).any()
    assert int(z["steps"]) == 3 * 10  # ceil(75 / 8) global batches per epoch, whatever the number of processes
    assert list(z["ids"]) == [f"x{i}" for i in range(75)]


@pytest.fixture(scope="module")
def trainer_runs(root, tmp_path_factory):
    """The library's loop and the three Trainer strategies in one torchrun launch (tests/dist_trainer.py): strategy -> what
    rank 0 saved. accelerate launch starts CPU processes only through MPI; torchrun (what it uses for GPUs) starts them
    directly, and the Accelerator inside `fit` picks the gloo backend from the environment torchrun sets."""
    out = tmp_path_factory.mktemp("trainer")
    launch = Path(sys.executable).parent / "torchrun"
    cmd = [str(launch), "--nproc_per_node", "2", "--master_port", str(free_port()), str(root / "tests" / "dist_trainer.py"), str(out),
           *STRATEGIES]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env={"OMP_NUM_THREADS": "1", "PATH": str(launch.parent) + ":/usr/bin:/bin",
                                                                             "HF_HUB_OFFLINE": "1", "NLIC_OFFLINE": "1", "HOME": str(out)})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    return {s: np.load(out / f"trainer-{s}.npz") for s in STRATEGIES}


STRATEGIES = ("fit", "random", "plan", "group_by_length")  # the library's loop first; the one that stops with an error last


def test_trainer_callback_two_processes(trainer_runs):
    "DataMapCallback under transformers.Trainer in 2 processes: records gathered by index, every example in every epoch, ids in order."
    z = trainer_runs["random"]
    assert int(z["world"]) == 2
    assert z["prob_gold"].shape == (75, 3) and not np.isnan(z["prob_gold"]).any()  # every example recorded in every epoch, across both processes
    assert list(z["ids"]) == [f"x{i}" for i in range(75)]
    # only the padding repeats examples: 75 examples make 10 per-device batches of 8 (the last of 3), dealt to 2 processes
    # 5 each, and accelerate's even_batches completes the last from the start of the epoch: 5 * 2 * 8 - 75 = 5 per epoch
    padded = math.ceil(math.ceil(75 / 8) / 2) * 2 * 8  # 80 draws per epoch
    assert z["repeats"].tolist() == [padded - 75] * 3  # 5 per epoch, measured; the bound was a whole global batch (16)


def test_trainer_group_by_length_two_processes_is_caught(trainer_runs):
    """transformers 5's Trainer with group_by_length in 2 processes does not show every example in every epoch after the first
    (measured here: 8 of 75 unseen in epoch 2); the callback refuses to build a data map from such epochs and names an unseen id."""
    z = trainer_runs["group_by_length"]
    assert "training examples were never seen" in str(z["error"]) and "epoch 2" in str(z["error"])


def test_trainer_batch_plan_two_processes(trainer_runs):
    """A curriculum BatchPlan under Trainer in 2 processes (accelerate deals batch i to process i mod 2): with epochs='drawn' the gathered
    coverage equals the plan's own draws counted in windows of N = 75 examples, computed here by hand from the plan."""
    z = trainer_runs["plan"]
    assert int(z["world"]) == 2
    expect, drawn = np.zeros((75, 3), int), 0
    for b in z["plan"]:
        e = drawn // 75  # the batch's window, decided by the draws before it
        for i in b: expect[i, e] += 1
        drawn += len(b)
    assert (z["coverage"] == expect).all()
    assert (np.isnan(z["prob_gold"]) == (expect == 0)).all()
