"""Distributed training with 2 CPU processes (torchrun + accelerate): the gathered dynamics cover every example exactly once per epoch."""
import socket
import subprocess
import sys
from pathlib import Path
import numpy as np


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0)); return s.getsockname()[1]


def test_two_processes(root, tmp_path):
    out = tmp_path / "dist.npz"
    # accelerate launch starts CPU processes only through MPI; torchrun (what it uses for GPUs) starts them directly,
    # and Accelerator() inside fit() picks the gloo backend from the environment torchrun sets.
    launch = Path(sys.executable).parent / "torchrun"
    cmd = [str(launch), "--nproc_per_node", "2", "--master_port", str(free_port()), str(root / "tests" / "dist_train.py"), str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env={"OMP_NUM_THREADS": "1", "PATH": str(launch.parent) + ":/usr/bin:/bin",
                                                                             "HF_HUB_OFFLINE": "1", "NLIC_OFFLINE": "1", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    z = np.load(out)
    assert int(z["world"]) == 2
    assert z["coverage"].shape == (75, 3)
    assert (z["coverage"] == 1).all()  # every example exactly once per epoch, gathered across both processes
    assert not np.isnan(z["prob_gold"]).any()
    assert int(z["steps"]) == 3 * 10  # ceil(75 / 8) global batches per epoch, whatever the number of processes
    assert list(z["ids"]) == [f"x{i}" for i in range(75)]
