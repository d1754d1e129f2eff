__version__ = "0.1.0"

# cuBLAS repeats its GEMMs bit for bit (`torch.use_deterministic_algorithms`) only with a fixed workspace, and PyTorch
# reads this variable once per process, at its first cuBLAS GEMM (`Context::alertCuBLASConfigNotDeterministic`): so it
# is set here, at the package's import, before anything of ours can run one; worker processes inherit it.
# `training.deterministic_kernels` refuses to run when CUDA had already started without it (`CUBLAS_SET_LATE`).
import os as _os
import sys as _sys

_torch = _sys.modules.get("torch")
CUBLAS_SET_LATE = ("CUBLAS_WORKSPACE_CONFIG" not in _os.environ and _torch is not None
                   and bool(getattr(getattr(_torch, "cuda", None), "is_initialized", lambda: False)()))
_os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
del _torch
