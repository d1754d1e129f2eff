"""Jupyter kernels forked from a warm process, for the test suite: a kernel that papermill (or nbclient) starts imports
torch, transformers, datasets and the library anew, about 4 CPU-seconds each time; the suite starts about 30.

    python tests/warm_kernel.py run -- make nbtest pytest

starts a server that imports those modules once, puts a `python3` kernelspec first on JUPYTER_PATH whose launcher asks
the server for a fork, runs the command (at once, beside the server's imports: a launcher that comes before the server
listens waits for it), and stops the server. Each kernel is then a fork of the server that becomes
`ipykernel_launcher -f <connection file>` with the launcher's arguments, working directory, environment and standard
streams, and torch's thread count as OMP_NUM_THREADS says. Where a kernel's environment differs from the server's in a
variable its preloaded imports read (HF_*, TORCH_*, the CPU kernels' switches, ...), or no server answers (it failed to
start, or is not listening within a minute), the launcher starts an ordinary kernel instead (`cold`). The launcher stays the kernel's process for jupyter_client: it passes on
SIGINT and SIGTERM, exits when the kernel exits, and the kernel exits when the launcher dies (SIGKILL included).
`benchmarks/warm_kernel.py` measures it; `tests/test_warm_kernel.py` checks that a warm kernel is a cold one's equal.
"""
from __future__ import annotations
import json, os, signal, socket, subprocess, sys

PRELOAD = ("numpy", "pandas", "scipy.stats", "sklearn.metrics", "torch", "transformers", "datasets", "statsmodels.api",
           "papermill", "nlicompendium.study", "nlicompendium.claims", "nlicompendium.models", "nlicompendium.training",
           "matplotlib.pyplot", "seaborn", "distributed", "ipykernel.kernelapp",  # pyplot under ipykernel's inline backend
           # what every smoke study imported after the fork (1.3 s a kernel): torch's compiler stack (torch.optim and
           # transformers reach it), the auto classes and fast tokenizers, the PDF backend that saves the figures
           "torch._dynamo", "transformers.models.auto.modeling_auto", "transformers.models.auto.tokenization_auto",
           "transformers.models.bert.tokenization_bert", "transformers.optimization", "transformers.trainer_pt_utils",
           "matplotlib.backends.backend_pdf", "matplotlib.backends.backend_agg", "nlicompendium.data",
           # and what the first model a study loads imports (0.6 s a kernel, session 21): transformers' modelling base
           # (generation, integrations, accelerate, torch.distributed) and BERT's classes, the fastText baseline's gensim,
           # scikit-learn's linear models and t-SNE
           "transformers.modeling_utils", "transformers.models.bert.modeling_bert", "gensim.models", "sklearn.linear_model",
           "sklearn.manifold")
# what the preloaded imports read from the environment when they load: a kernel whose values differ starts cold
# (not TOKENIZERS_PARALLELISM or TORCHINDUCTOR_*, which tokenizers and torch's compiler read when used, and which a test
# process sets as it runs: a kernel's copy is read in the kernel)
IMPORT_ENV = ("HF_", "HUGGINGFACE_", "TRANSFORMERS_", "DATASETS_", "TORCH_", "PYTORCH_", "CUDA_", "ATEN_", "ONEDNN_",
              "DNNL_", "MKL_", "OPENBLAS_", "KMP_", "GOMP_", "PYTHON", "LD_", "MPLBACKEND", "MPLCONFIGDIR", "XDG_CACHE_HOME",
              "HOME", "VIRTUAL_ENV", "DASK_")
# set in the kernel as they say, not at import (THREADS); PYTHONHASHSEED: a kernel that names one gets a warm kernel only if
# it is the server's, one that names none may have any (the server's)
THREADS = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
# Dask's nanny sets PYTHONHASHSEED=6640 (and one BLAS thread) in the process that starts a LocalCluster
# (distributed/nanny.py, Nanny.__init__ and WorkerProcess.start), so kernels started from it later name that seed
HASH_SEED = "6640"
SOCKET_ENV = "NLIC_WARM_KERNEL"
LAUNCHER = "ipykernel_launcher"  # the launcher module's file, as a kernel's sys.argv[0] (set by `serve`)


def _import_env(env: dict) -> dict:
    return {k: v for k, v in env.items() if k.startswith(IMPORT_ENV) and k not in THREADS and k != "PYTHONHASHSEED"}


def _cold(argv: list[str]):
    "An ordinary kernel: this process becomes `python -m ipykernel_launcher <argv>`."
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])


def _connect(path: str, wait: float = 60.0) -> socket.socket | None:
    "A connection to the server at `path`, waiting while it is still importing (`run` starts the command beside it);"
    " None if it failed to start (`<path>.failed`) or is not listening within `wait` seconds."
    import time
    t = time.monotonic()
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path); return s
        except (FileNotFoundError, ConnectionRefusedError):  # not bound yet, or bound and not yet listening
            s.close()
            if os.path.exists(path + ".failed") or time.monotonic() - t > wait: return None
            time.sleep(0.02)
        except OSError:
            s.close(); return None


def launch(argv: list[str]):
    "The kernelspec's command: ask the server for a fork and stand in for it, or start an ordinary kernel."
    path = os.environ.get(SOCKET_ENV)
    if not path: _cold(argv)
    s = _connect(path)
    if s is None: _cold(argv)
    req = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}
    try:
        socket.send_fds(s, [json.dumps(req).encode() + b"\n"], [0, 1, 2])
        reply = s.makefile("rb").readline()
    except OSError: reply = b""
    if not reply:
        _cold(argv)  # the server refused (another environment) or died
    pid, parent = int(reply), os.getppid()  # the kernel leads its own process group (its subprocesses too)
    def forward(signum, _frame):
        try: os.killpg(pid, signum)
        except (ProcessLookupError, PermissionError): pass
        if signum != signal.SIGINT: os._exit(128 + signum)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(sig, forward)
    s.settimeout(1.0)
    while True:  # the kernel holds the other end: EOF when it exits
        try:
            if not s.recv(4096): break
        except (InterruptedError, TimeoutError, socket.timeout):
            if os.getppid() != parent:  # the client died (a fresh kernel's own poller would end it): end the kernel
                forward(signal.SIGTERM, None)
        except OSError: break
    os._exit(0)


class _CurrentStderr:
    "Writes to whatever sys.stderr is now: the kernel's stream once ipykernel has replaced it."
    def write(self, text): return sys.stderr.write(text)
    def flush(self): return sys.stderr.flush()


def _rebind_streams():
    "Loggers the preloaded libraries set up write to the server's stderr; a fresh kernel's write to the notebook."
    import logging
    loggers = [logging.getLogger()] + [v for v in logging.Logger.manager.loggerDict.values() if isinstance(v, logging.Logger)]
    for lg in loggers:
        for h in lg.handlers:
            if isinstance(h, logging.StreamHandler) and h.stream in (sys.__stderr__, sys.stderr):
                try: h.stream = _CurrentStderr()
                except AttributeError: pass  # logging's last resort reads sys.stderr itself
    for m in ("tqdm.auto", "tqdm.autonotebook"): sys.modules.pop(m, None)  # chosen again, now that IPython runs


def _child(conn: socket.socket, fds: list[int], req: dict, default_threads: int):
    "In the fork: become the kernel `req` asks for."
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()  # its own process group, as jupyter_client gives a new kernel: signals reach its subprocesses too
    for i, fd in enumerate(fds[:3]): os.dup2(fd, i)
    for fd in fds: os.close(fd)
    os.chdir(req["cwd"])
    os.environ.clear(); os.environ.update(req["env"])
    sys.argv = [LAUNCHER, *req["argv"]]
    if os.environ.get("JPY_PARENT_PID"):  # what the traitlet's default would have read, had ipykernel been imported here
        sys.argv.append(f"--IPKernelApp.parent_handle={os.environ['JPY_PARENT_PID']}")
    import random, threading, numpy as np, torch
    from threadpoolctl import threadpool_limits
    random.seed(); np.random.seed(); torch.seed()  # a fresh interpreter's unseeded generators differ from kernel to kernel
    _rebind_streams()
    env = os.environ  # torch's intra-op count reads OMP_NUM_THREADS, then MKL_NUM_THREADS; OpenBLAS its own, then OMP's
    n = int(env.get("OMP_NUM_THREADS") or env.get("MKL_NUM_THREADS") or default_threads)
    torch.set_num_threads(n); threadpool_limits(n, user_api="openmp")
    threadpool_limits(int(env.get("OPENBLAS_NUM_THREADS") or env.get("MKL_NUM_THREADS") or env.get("OMP_NUM_THREADS")
                          or default_threads), user_api="blas")
    def watch():  # the launcher's end closes when it dies: so does this kernel
        try:
            while conn.recv(4096): pass
        except OSError: pass
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()
    from ipykernel import kernelapp
    kernelapp.launch_new_instance()


def serve(path: str):
    "Import PRELOAD once, then fork a kernel for each launcher that connects to the Unix socket `path`."
    import importlib, importlib.util
    try:  # Linux: SIGTERM when `run` (the parent) dies, however it dies
        import ctypes; ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError): pass
    # the path and argv[0] of `python -m ipykernel_launcher`, whoever started this server (pytest puts tests/ first)
    sys.path[:] = json.loads(subprocess.check_output([sys.executable, "-c", "import sys, json; print(json.dumps(sys.path[1:]))"]))
    global LAUNCHER
    LAUNCHER = importlib.util.find_spec("ipykernel_launcher").origin
    env0, before = _import_env(dict(os.environ)), dict(os.environ)
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")  # what ipykernel sets
    for m in PRELOAD: importlib.import_module(m)
    import torch
    default_threads = torch.get_num_threads()
    # what the imports set (e.g. KMP_INIT_AT_FORK): a kernel that imported them would have it too
    added = {k: v for k, v in os.environ.items() if k not in before and k != "MPLBACKEND"}
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forks reap themselves
    # what the imports made is never garbage: kept out of every collection a kernel runs (IPython collects when a
    # kernel starts and when it ends), which otherwise walked these millions of objects each time (half a kernel's CPU)
    import gc; gc.collect(); gc.freeze()
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); srv.bind(path); srv.listen(16)
    print("ready", flush=True)
    while True:
        conn, _ = srv.accept()
        try: _fork_kernel(srv, conn, env0, added, default_threads)
        except Exception as e:  # noqa: BLE001 (a launcher that died early must not stop the server: it starts cold)
            print(f"warm kernel server: {type(e).__name__}: {e}", file=sys.stderr)
        finally: conn.close()


def _fork_kernel(srv, conn, env0, added, default_threads):
    "Read one launcher's request and fork its kernel; a request in another import-time environment gets no reply."
    fds = []
    try:
        msg, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        while not msg.endswith(b"\n"):
            more = conn.recv(1 << 20)
            if not more: return
            msg += more
        req = json.loads(msg)
        # what its imports would have read, less what they set themselves (a client that imported scikit-learn has
        # KMP_INIT_AT_FORK as the server does): where it differs from the server's, an ordinary kernel
        a = {k: v for k, v in _import_env(req["env"]).items() if added.get(k) != v or k in env0}
        seed = req["env"].get("PYTHONHASHSEED")
        if seed not in (None, os.environ.get("PYTHONHASHSEED")): a["PYTHONHASHSEED"] = seed
        if a != env0:
            _log(srv, "cold: " + " ".join(sorted(k for k in a.keys() | env0.keys() if a.get(k) != env0.get(k))))
            return
        pid = os.fork()
        if pid == 0:
            srv.close()
            code = 0
            try: _child(conn, fds, {**req, "env": {**added, **req["env"]}}, default_threads)
            except SystemExit as e: code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:  # noqa: BLE001 (shown, and the kernel's exit status says so)
                import traceback; traceback.print_exc(); code = 1
            finally:  # what an interpreter does at exit: atexit handlers, flushed streams; then no server cleanup
                import atexit
                try: atexit._run_exitfuncs()
                except Exception: pass  # noqa: BLE001
                for f in (sys.stdout, sys.stderr):
                    try: f.flush()
                    except Exception: pass  # noqa: BLE001
                os._exit(code)
        conn.sendall(f"{pid}\n".encode())
        _log(srv, "warm")
    finally:
        for fd in fds: os.close(fd)


def _log(srv, line: str):
    "One line per kernel asked for, beside the socket: `run` sums them up."
    with open(srv.getsockname() + ".log", "a") as f: f.write(line + "\n")


def summary(path: str) -> str:
    "How many kernels were forked warm, and why the others started cold."
    from collections import Counter
    try: lines = open(path + ".log").read().splitlines()
    except FileNotFoundError: lines = []
    c = Counter(lines); warm = c.pop("warm", 0)
    why = "; ".join(f"{n} cold ({w.removeprefix('cold: ')} differed)" for w, n in c.most_common())
    return f"warm kernels: {warm} of {len(lines)} forked from the server" + (f"; {why}" if why else "")


def kernelspec_dir(root: str) -> str:
    "A JUPYTER_PATH folder whose `python3` kernel is `launch`."
    d = os.path.join(root, "kernels", "python3"); os.makedirs(d, exist_ok=True)
    spec = {"argv": [sys.executable, os.path.abspath(__file__), "launch", "-f", "{connection_file}"],
            "display_name": "Python 3 (ipykernel, forked from a warm process)", "language": "python",
            "interrupt_mode": "signal", "metadata": {"debugger": False}}
    with open(os.path.join(d, "kernel.json"), "w") as f: json.dump(spec, f)
    return root


def spawn_server(tmp: str) -> tuple[subprocess.Popen, dict]:
    "Start the server (a new interpreter, PYTHONHASHSEED as set here, else HASH_SEED) without waiting for it; returns its"
    " process and the environment that uses it (a launcher waits for the server while it imports PRELOAD)."
    path = os.path.join(tmp, "warm.sock")
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED") or HASH_SEED}
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "serve", path], env=env, stdout=subprocess.PIPE,
                         start_new_session=True, text=True)
    jp = os.environ.get("JUPYTER_PATH")
    return p, {SOCKET_ENV: path, "JUPYTER_PATH": kernelspec_dir(tmp) + (os.pathsep + jp if jp else "")}


def server_ready(p: subprocess.Popen, env: dict) -> bool:
    "Wait until the server says it has imported PRELOAD; if it ended instead, say so beside its socket (`<path>.failed`)"
    " so that waiting launchers start ordinary kernels at once."
    ok = p.stdout.readline().strip() == "ready"
    p.stdout.close()
    if not ok: open(env[SOCKET_ENV] + ".failed", "w").close()
    return ok


def start_server(tmp: str) -> tuple[subprocess.Popen, dict]:
    "Start the server and wait until it has imported PRELOAD; returns its process and the environment that uses it."
    p, env = spawn_server(tmp)
    if not server_ready(p, env): raise RuntimeError(f"the warm-kernel server did not start ({p.wait()})")
    return p, env


def stop_server(p: subprocess.Popen):
    "Stop the server (SIGKILL after 5 s)."
    try: os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError: return
    try: p.wait(5)
    except subprocess.TimeoutExpired: os.killpg(p.pid, signal.SIGKILL); p.wait()


def run(cmd: list[str]) -> int:
    "Run `cmd` with warm kernels; returns its exit status."
    import tempfile, time
    if not hasattr(socket, "AF_UNIX") or not hasattr(socket, "send_fds") or not hasattr(os, "fork"):
        print("warm kernels: not on this platform (no Unix sockets or fork); ordinary kernels", flush=True)
        return subprocess.call(cmd)
    def stop(signum, _frame): raise SystemExit(128 + signum)  # a CI timeout or a closed terminal: clean up first
    for sig in (signal.SIGTERM, signal.SIGHUP): signal.signal(sig, stop)
    with tempfile.TemporaryDirectory(prefix="nlic-warm-") as tmp:
        t = time.perf_counter()
        try: p, env = spawn_server(tmp)
        except OSError as e:  # the tests still run, each kernel a new interpreter
            print(f"warm kernels: the server did not start ({e}); ordinary kernels", flush=True)
            return subprocess.call(cmd)
        def said():  # the command starts at once, beside the server's imports: its first kernels wait for them
            ok = server_ready(p, env)
            print(f"warm kernels: server {p.pid} " + (f"ready in {time.perf_counter() - t:.1f} s ({SOCKET_ENV}="
                  f"{env[SOCKET_ENV]})" if ok else f"did not start ({p.wait()}); ordinary kernels"), flush=True)
        import threading
        threading.Thread(target=said, daemon=True).start()
        try: return subprocess.call(cmd, env={**os.environ, **env})
        finally:
            stop_server(p)
            print(summary(env[SOCKET_ENV]), flush=True)


if __name__ == "__main__":
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # this folder (tests/) is not on a kernel's path
    if sys.argv[1:2] == ["launch"]: launch(sys.argv[2:])
    elif sys.argv[1:2] == ["run"] and sys.argv[2:3] == ["--"]: sys.exit(run(sys.argv[3:]))
    elif sys.argv[1:2] == ["serve"] and len(sys.argv) == 3: serve(sys.argv[2])
    else: sys.exit("usage: warm_kernel.py run -- COMMAND... | launch ARGS... | serve SOCKET")
