"""The first run on a GPU: what `make gpu-check` and the gpu path would get wrong there, shown on a CPU.

cuBLAS's workspace variable in place before torch does any CUDA work (the package, the script, worker processes), and
a clear error when it comes too late; the memory step at the gpu profile's heads and batches; the script's refusal
without CUDA; TF32 scoped, and off under `--verify`; a rank's own GPU before a frozen encoding; trained models in fp32
whatever their checkpoint's dtype; Dask GPU workers' memory; the card's peak by its exact name; a rehearsal that ran.
"""
import importlib.util
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest
import torch

from nlicompendium import training

NO_CUBLAS = {k: v for k, v in os.environ.items() if k != "CUBLAS_WORKSPACE_CONFIG"}


def run_py(code, root, timeout=300):
    "Run `code` in a fresh interpreter whose environment lacks CUBLAS_WORKSPACE_CONFIG; its stdout's last line."
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=root, env={**NO_CUBLAS, "OMP_NUM_THREADS": "1"},
                       capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def gpu_check(root):
    spec = importlib.util.spec_from_file_location("gpu_check", root / "benchmarks" / "gpu_check.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod


# --- the determinism variable: set before torch's first GEMM, everywhere deterministic kernels can be asked for -----

def test_package_import_sets_cublas_workspace_before_torch(root):
    "`import nlicompendium` sets it, without importing torch: nothing of ours can run a GEMM before it is in place."
    assert run_py("""
        import os, sys, nlicompendium
        print(os.environ.get("CUBLAS_WORKSPACE_CONFIG"), "torch" in sys.modules, getattr(nlicompendium, "CUBLAS_SET_LATE", "-"))
        """, root) == ":4096:8 False False"


def test_gpu_check_sets_cublas_workspace_before_importing_torch(root):
    "The script imports torch before the package: the variable must already be there when torch is first imported."
    assert run_py("""
        import os, runpy, sys
        seen = []
        class Watch:
            def find_spec(self, name, path=None, target=None):
                if name == "torch" and not seen: seen.append(os.environ.get("CUBLAS_WORKSPACE_CONFIG"))
        sys.meta_path.insert(0, Watch())
        runpy.run_path("benchmarks/gpu_check.py", run_name="gpu_check")  # its imports, not main()
        print(seen)
        """, root) == "[':4096:8']"


def test_worker_processes_inherit_cublas_workspace(root):
    "A process-pool worker (forked from the forkserver) and a Dask worker started from a process that lacked it."
    assert run_py("""
        import os
        from nlicompendium.executors import open_executor, run_units
        got = []
        for kind in ("process", "dask"):
            with open_executor(kind, workers=1, gpus=0) as ex:
                got += run_units(ex, {0: lambda: os.environ.get("CUBLAS_WORKSPACE_CONFIG")}, progress=False).values()
        print(got)
        """, root) == "[':4096:8', ':4096:8']"


def test_deterministic_kernels_refuses_when_too_late(monkeypatch):
    "With CUDA (faked) already started and no variable, a clear error at once, not a RuntimeError at the first Linear."
    import nlicompendium
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    monkeypatch.delenv("CUBLAS_WORKSPACE_CONFIG", raising=False)
    with pytest.raises(RuntimeError, match="CUBLAS_WORKSPACE_CONFIG=:4096:8"):
        with training.deterministic_kernels(): pass
    monkeypatch.setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # set now, but after CUDA started in this process
    monkeypatch.setattr(nlicompendium, "CUBLAS_SET_LATE", True, raising=False)
    with pytest.raises(RuntimeError, match="before CUBLAS_WORKSPACE_CONFIG was set"):
        with training.deterministic_kernels(): pass
    monkeypatch.setattr(nlicompendium, "CUBLAS_SET_LATE", False)  # set in time: deterministic inside, as it was after
    with training.deterministic_kernels(): assert torch.are_deterministic_algorithms_enabled()
    assert not torch.are_deterministic_algorithms_enabled()


# --- the memory step: the gpu profile's heads and batch sizes, on tiny widths and lengths -----------------------------

def test_memory_step_at_the_gpu_profiles_heads_and_batches(gpu_check, monkeypatch):
    """step_memory's full-size list (BERT-base, XLNet-base, GPT-2-medium) with each architecture shrunk to 2 layers of 32
    and its tokens cut to 16: every model is saved and reloaded with its study's classes (XLNet and RoGPT2: 4), at its
    gpu-profile batch (RoGPT2's is its row's 64), and the step passes."""
    import transformers
    from nlicompendium.core import run_sizes
    tiny = {"BertConfig": dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64),
            "XLNetConfig": dict(d_model=32, n_layer=2, n_head=2, d_inner=64),
            "GPT2Config": dict(n_embd=32, n_layer=2, n_head=2)}
    for cls, small in tiny.items():
        real = getattr(transformers, cls)
        monkeypatch.setattr(transformers, cls, lambda real=real, small=small, **kw: real(**{**kw, **small}))
    calls, real_step = [], training.peak_memory_step
    def step(model, batch, tokens, *a, **kw):
        calls.append((batch, tokens, kw.get("num_labels", 3)))
        return real_step(model, batch, min(tokens, 16), *a, **kw)
    monkeypatch.setattr(training, "peak_memory_step", step)
    ok, said = gpu_check.step_memory(torch.device("cpu"), smoke=False)
    assert ok, said
    gpu = lambda study, part: (lambda d: (d["batch_size"], d["max_length"]))(run_sizes(study, part, "gpu"))
    assert calls == [(*gpu("taxinli", "BERT"), 3), (*gpu("mscinli", "PLMs"), 4), (64, 512, 4)], calls
    assert [c[0] for c in calls] == [32, 64, 64]


# --- without CUDA: refuse, naming what is missing ------------------------------------------------------------------

def test_cuda_missing_names_the_build_the_driver_or_the_device(gpu_check, monkeypatch):
    import ctypes
    monkeypatch.setattr(gpu_check.shutil if hasattr(gpu_check, "shutil") else __import__("shutil"), "which",
                        lambda name: None)
    monkeypatch.setattr(torch.version, "cuda", None)
    assert "built without CUDA" in gpu_check.cuda_missing()
    monkeypatch.setattr(torch.version, "cuda", "12.8"); monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    def no_driver(name, *a, **k): raise OSError(f"{name}: cannot open shared object file")
    monkeypatch.setattr(ctypes, "CDLL", no_driver)
    assert "no NVIDIA driver" in gpu_check.cuda_missing()
    monkeypatch.setattr(ctypes, "CDLL", lambda name, *a, **k: object())
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert "sees no device" in gpu_check.cuda_missing() and "CUDA_VISIBLE_DEVICES=''" in gpu_check.cuda_missing()
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert gpu_check.cuda_missing() is None


def test_peak_by_the_cards_whole_name(gpu_check):
    "An H200 NVL is not an H200 SXM, nor an L40 an L4; a card not listed has no peak (MFU not said)."
    peaks = {n: gpu_check.peak_bf16(n) for n in ("NVIDIA H200", "NVIDIA H200 NVL", "NVIDIA H100 80GB HBM3",
                                                 "NVIDIA H100 PCIe", "NVIDIA L40", "NVIDIA L4", "NVIDIA A100-SXM4-80GB",
                                                 "NVIDIA GeForce RTX 4090")}
    assert peaks == {"NVIDIA H200": 989e12, "NVIDIA H200 NVL": 835e12, "NVIDIA H100 80GB HBM3": 989e12,
                     "NVIDIA H100 PCIe": 756e12, "NVIDIA L40": 181e12, "NVIDIA L4": 121e12,
                     "NVIDIA A100-SXM4-80GB": 312e12, "NVIDIA GeForce RTX 4090": None}


def test_rehearsal_step_requires_the_data_and_fails_on_a_skipped_study(gpu_check, monkeypatch, tmp_path):
    "pytest exits 0 when every case skips (no data folder): that is a FAIL here, and the data folder is required."
    seen = []
    def fake_run(cmd, cwd=None, env=None, **kw):
        seen.append(dict(env or os.environ))
        xml = next(c.split("=", 1)[1] for c in cmd if c.startswith("--junitxml="))
        suite = ET.Element("testsuite"); case = ET.SubElement(suite, "testcase", name="test_ronli_gpu_profile")
        ET.SubElement(case, "skipped", message="real data folder missing"); ET.ElementTree(suite).write(xml)
        return subprocess.CompletedProcess(cmd, 0, "1 skipped", "")
    monkeypatch.setattr(gpu_check, "ROOT", tmp_path); monkeypatch.setattr(gpu_check.subprocess, "run", fake_run)
    ok, said = gpu_check.step_rehearsal(torch.device("cpu"), False)
    assert ok is False and "ronli: skipped" in said, said
    assert seen[0].get("NLIC_REQUIRE_DATA") == "1"


# --- TF32: scoped to what asks for it, and off under --verify ------------------------------------------------------

def test_tf32_is_on_inside_a_gpu_fit_only(monkeypatch):
    "A fit that takes TF32 (as on a GPU) has it while it trains; the process's setting is back after, as before it."
    from nlicompendium import core
    from nlicompendium.contract import toy_pairs
    real_choices, real_run, inside = training.device_choices, training._Loop.run, []
    monkeypatch.setattr(training, "device_choices", lambda d, c: {**real_choices(d, c), "tf32": True})
    monkeypatch.setattr(core, "allow_tf32", lambda device: True)  # a GPU's answer, on this CPU
    def run(self, *a, **k):
        inside.append(torch.backends.cuda.matmul.allow_tf32); return real_run(self, *a, **k)
    monkeypatch.setattr(training._Loop, "run", run)
    was = torch.backends.cuda.matmul.allow_tf32; torch.backends.cuda.matmul.allow_tf32 = False
    try:
        training.fit(toy_pairs(16, 0), None, training.TrainConfig(model="tiny", epochs=1, batch_size=8, max_length=16,
                                                                    progress=False, record=None))
        assert inside == [True] and torch.backends.cuda.matmul.allow_tf32 is False
    finally: torch.backends.cuda.matmul.allow_tf32 = was


def test_verify_runs_with_tf32_off(monkeypatch, tmp_path):
    "`nlic_reproduce --verify` reruns the studies with NLIC_TF32=0 (its kernels and workers inherit it), then unsets it."
    from nlicompendium import cli
    seen = []
    class Stop(Exception): pass
    def fake_reproduce(*a, **k): seen.append(os.environ.get("NLIC_TF32")); raise Stop
    monkeypatch.setattr(cli, "reproduce", fake_reproduce); monkeypatch.delenv("NLIC_TF32", raising=False)
    with pytest.raises(Stop): cli.verify(["curriculum-ronli"], root=tmp_path)
    assert seen == ["0"] and "NLIC_TF32" not in os.environ


# --- multi-GPU, checkpoints' dtype, Dask GPU workers ----------------------------------------------------------------

def test_a_rank_takes_its_gpu_before_encoding(monkeypatch):
    "Under torchrun (WORLD_SIZE, LOCAL_RANK) the rank's GPU is made current before a frozen encoding can load on cuda:0."
    from nlicompendium.contract import toy_pairs
    order = []
    class Stop(Exception): pass
    monkeypatch.setenv("WORLD_SIZE", "2"); monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "set_device", lambda d: order.append(f"set_device {d}"))
    def encode(*a, **k): order.append("encode"); raise Stop
    monkeypatch.setattr(training, "encode_split", encode)
    with pytest.raises(Stop): training.fit(toy_pairs(8, 0), None, training.TrainConfig(model="tiny", progress=False))
    assert order == ["set_device 1", "encode"], order


def test_half_precision_checkpoints_are_trained_in_fp32(tmp_path):
    "transformers 5 loads a checkpoint in its saved dtype by default; the models we train load in fp32."
    from transformers import BertConfig, BertForSequenceClassification
    from nlicompendium.models import load_encoder, load_pair_classifier
    cfg = BertConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64, vocab_size=100)
    BertForSequenceClassification(cfg).to(torch.bfloat16).save_pretrained(tmp_path)
    from transformers import AutoModel
    assert next(AutoModel.from_pretrained(tmp_path).parameters()).dtype == torch.bfloat16  # the library's default
    assert {p.dtype for p in load_pair_classifier(str(tmp_path), 2, seed=0).parameters()} == {torch.float32}
    assert {p.dtype for p in load_encoder(str(tmp_path)).parameters()} == {torch.float32}


def test_dask_gpu_workers_get_their_share_of_memory(monkeypatch):
    "Without dask-cuda, each Nanny's memory limit is the machine's memory over the workers, not Dask's RAM / cores."
    import distributed
    from distributed.system import MEMORY_LIMIT
    from nlicompendium import executors
    monkeypatch.setitem(sys.modules, "dask_cuda", None)  # not installed: the SpecCluster path
    monkeypatch.setattr(distributed, "SpecCluster", lambda **kw: kw)
    spec = executors._gpu_cluster(2, ["0", "1"])
    limits = [w["options"].get("memory_limit", "auto") for w in spec["workers"].values()]
    assert limits == [MEMORY_LIMIT // 2] * 2, limits
