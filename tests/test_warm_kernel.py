"""`tests/warm_kernel.py`: a kernel forked from the warm server is the equal of an ordinary one where a notebook can tell
(threads, environment, working directory, path, matplotlib's backend, arithmetic), falls back to an ordinary kernel where
an import-time variable differs, passes on an interrupt, and does not outlive its launcher."""
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import warm_kernel  # noqa: E402

PROBE = [  # what a notebook can see of the process it runs in
    "import sys\nwarm = 'transformers' in sys.modules  # a fork of the server has it already\n"
    "import os, json, torch, matplotlib, sklearn  # scikit-learn sets KMP_* in the environment as it loads, as in the server",
    "import atexit; atexit.register(lambda: open('atexit.txt', 'w').write('ran'))  # a kernel's exit runs them\n"
    "unseeded = float(torch.rand(1))  # differs from kernel to kernel, as in new interpreters\n"
    "import gc; frozen = gc.get_freeze_count()  # the server's imports, kept out of collections; a new interpreter: none\n"
    "cycle = []; cycle.append(cycle); del cycle; collected = gc.collect()  # what the notebook makes is collected\n"
    "torch.manual_seed(0); x = torch.randn(64, 64)\n"
    "print(json.dumps({'threads': torch.get_num_threads(), 'omp': os.environ.get('OMP_NUM_THREADS'), 'cwd': os.getcwd(),\n"
    "  'path': sys.path, 'backend': matplotlib.get_backend(), 'sum': float((x @ x).sum()),\n"
    "  'marker': os.environ.get('NLIC_PROBE'), 'unseeded': unseeded, 'frozen': frozen, 'collects': collected >= 1,\n"
    "  'kmp': os.environ.get('KMP_INIT_AT_FORK'), 'argv0': os.path.basename(sys.argv[0]), 'warm': warm, 'hash': hash('nli'),\n"
    "  'blas': sorted({d['num_threads'] for d in __import__('threadpoolctl').threadpool_info() if d['user_api'] == 'blas'})}))",
    "import matplotlib.pyplot as plt\nplt.plot([0, 1]); plt.show()",
]


def probe_nb(tmp_path):
    import nbformat as nbf
    nb = nbf.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}})
    nb.cells = [nbf.v4.new_code_cell(c) for c in PROBE]
    p = tmp_path / "probe.ipynb"; nbf.write(nb, p)
    return p


def figures(out):
    "The kinds of output of the probe's figure cell."
    return sorted({k for o in json.loads(out.read_text())["cells"][2]["outputs"] for k in o.get("data", {})})


def execute_probe(nb, env, cwd):
    """Run the probe with papermill, its kernel started from `env` (this process's environment, replaced while papermill
    starts it: jupyter_client hands a kernel a copy of it) in `cwd`; returns what it printed."""
    import papermill as pm
    from unittest import mock
    out = nb.with_name(f"out{time.monotonic_ns()}.ipynb")
    with mock.patch.dict(os.environ, env, clear=True):
        pm.execute_notebook(str(nb), str(out), progress_bar=False, kernel_name="python3", cwd=str(cwd))
    assert figures(out) == ["image/png", "text/plain"], figures(out)  # the inline backend drew the figure
    cell = json.loads(out.read_text())["cells"][1]
    return json.loads("".join("".join(o["text"]) for o in cell["outputs"] if o.get("name") == "stdout"))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    "The suite's server where `make test` started one (tests/warm_kernel.py run), else one of this module's own."
    if os.environ.get(warm_kernel.SOCKET_ENV):
        yield {k: os.environ[k] for k in (warm_kernel.SOCKET_ENV, "JUPYTER_PATH")}
        return
    tmp = tmp_path_factory.mktemp("warm")
    p, env = warm_kernel.start_server(str(tmp))
    yield env
    warm_kernel.stop_server(p)


def test_a_warm_kernel_is_an_ordinary_ones_equal_and_another_environment_gets_an_ordinary_one(server, tmp_path):
    nb = probe_nb(tmp_path)
    # as a kernel started after a Dask cluster asks (distributed's nanny sets these in the process that starts it)
    base = {**os.environ, **server, "OMP_NUM_THREADS": "1", "NLIC_PROBE": "x", "PYTHONHASHSEED": warm_kernel.HASH_SEED,
            "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    # a variable the preloaded imports read, set otherwise than in the server: the launcher starts an ordinary kernel
    other = "0" if os.environ.get("HF_HUB_DISABLE_TELEMETRY") == "1" else "1"
    cold = execute_probe(nb, {**base, "HF_HUB_DISABLE_TELEMETRY": other}, tmp_path)
    (tmp_path / "atexit.txt").unlink()
    warm = execute_probe(nb, base, tmp_path)
    assert (tmp_path / "atexit.txt").read_text() == "ran"  # the fork ran the notebook's atexit handler on shutdown
    assert warm.pop("warm") and not cold.pop("warm")  # the second ran in a fork, the first in a new interpreter
    unseeded = warm.pop("unseeded"); cold.pop("unseeded")
    assert warm.pop("frozen") > 100_000 and cold.pop("frozen") == 0  # the fork's collections skip the server's imports
    assert warm == cold, (warm, cold)
    assert warm["threads"] == 1 and warm["blas"] == [1] and warm["marker"] == "x" and warm["cwd"] == str(tmp_path)
    # no thread counts and no seed: torch's own default, as in a new interpreter
    two = {k: v for k, v in base.items() if k not in warm_kernel.THREADS + ("PYTHONHASHSEED",)}
    fresh = subprocess.run([sys.executable, "-c", "import torch; print(torch.get_num_threads())"], env=two, check=True,
                           capture_output=True, text=True).stdout
    again = execute_probe(nb, two, tmp_path)
    assert again["threads"] == int(fresh)
    assert again["unseeded"] != unseeded  # two forks do not share torch's unseeded stream


def launched(server, tmp_path):
    "A kernel started through the kernelspec, as papermill starts it; returns (manager, client)."
    from jupyter_client import KernelManager
    env = {**os.environ, **server}
    km = KernelManager(kernel_name="python3")
    km.kernel_spec_manager.kernel_dirs = [str(Path(server["JUPYTER_PATH"].split(os.pathsep)[0]) / "kernels")]
    km.start_kernel(env=env, cwd=str(tmp_path))
    kc = km.client(); kc.start_channels(); kc.wait_for_ready(timeout=60)
    return km, kc


def kernel_pid(kc):
    msg_id = kc.execute("import os, sys; print(os.getpid(), 'transformers' in sys.modules)")
    out = ""
    while True:
        m = kc.get_iopub_msg(timeout=30)
        if m["parent_header"].get("msg_id") != msg_id: continue
        if m["msg_type"] == "stream": out += m["content"]["text"]
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle": break
    pid, warm = out.split()
    return int(pid), warm == "True"


def gone(pid, within=10.0):
    t = time.monotonic()
    while time.monotonic() - t < within:
        try: os.kill(pid, 0)
        except ProcessLookupError: return True
        time.sleep(0.1)
    return False


def test_interrupt_reaches_the_kernel_and_a_killed_launcher_takes_it_along(server, tmp_path):
    km, kc = launched(server, tmp_path)
    pid, warm = kernel_pid(kc)
    assert warm and pid != km.provisioner.process.pid  # the kernel is the fork, the launcher stands in for it
    sleep_id = kc.execute("import time; time.sleep(60)")
    time.sleep(1.0); km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=20)
    while reply["parent_header"].get("msg_id") != sleep_id: reply = kc.get_shell_msg(timeout=20)
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    os.kill(km.provisioner.process.pid, signal.SIGKILL)  # jupyter_client's last resort
    assert gone(pid), "the kernel outlived its launcher"
    kc.stop_channels()
    km.cleanup_resources()


def test_a_client_that_imported_the_library_gets_a_warm_kernel(server, tmp_path):
    """What the preloaded imports set in the environment (scikit-learn's KMP_* variables), or a test process sets as it
    runs (tokenizers' TOKENIZERS_PARALLELISM after a fork), does not make a kernel cold."""
    env = {**os.environ, **server, "KMP_INIT_AT_FORK": "FALSE", "KMP_DUPLICATE_LIB_OK": "True",
           "TOKENIZERS_PARALLELISM": "false", "TORCHINDUCTOR_CACHE_DIR": "/tmp/x",  # and what a test process sets as it runs
           "PYTHONHASHSEED": warm_kernel.HASH_SEED, "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}  # Dask's nanny's
    assert execute_probe(probe_nb(tmp_path), env, tmp_path)["warm"]


def test_a_launcher_before_the_server_listens_waits_for_it(tmp_path):
    """`run` starts the command beside the server's imports: a launcher that comes first waits until the server listens,
    and one whose server failed to start (`<socket>.failed`, written by `run`) gives up at once."""
    import socket, threading
    path = str(tmp_path / "warm.sock")
    def listen_later():
        time.sleep(0.4); srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); srv.bind(path); srv.listen(1)
        srv.accept()[0].close(); srv.close()
    th = threading.Thread(target=listen_later); th.start()
    t = time.monotonic(); s = warm_kernel._connect(path, wait=10)
    assert s is not None and 0.3 < time.monotonic() - t < 5; s.close(); th.join()
    gone = str(tmp_path / "never.sock"); open(gone + ".failed", "w").close()
    t = time.monotonic(); assert warm_kernel._connect(gone, wait=10) is None and time.monotonic() - t < 1
    assert warm_kernel._connect(str(tmp_path / "silent.sock"), wait=0.2) is None  # nobody ever listens: a cold kernel
