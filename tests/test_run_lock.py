"One run at a time, and collection that cannot half-happen (issue 41 item 2): real processes, a real kill."
import json, os, signal, subprocess, sys, textwrap, time
from pathlib import Path
import nbformat, pytest

CLI = "nlicompendium.cli"  # the module under test (the old code was checked by pointing this at HEAD's copy)


def _tree(p: Path) -> dict:
    return {q.relative_to(p).as_posix(): q.read_bytes() for q in sorted(p.rglob("*")) if q.is_file()}


def _python(code: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kw)


@pytest.fixture
def toy(tmp_path):
    "A project with one job whose notebook waits for a file `release` (a run that is still running when the others start)."
    (tmp_path / "nbs").mkdir()
    release = tmp_path / "release"
    cells = [nbformat.v4.new_code_cell("out_dir = None\nprofile = 'cpu'", metadata={"tags": ["parameters"]}),
             nbformat.v4.new_code_cell(f"import pathlib, time\nt = time.time()\nwhile not pathlib.Path({str(release)!r}).exists() "
                                       "and time.time() - t < 60: time.sleep(0.05)\nfrom nlicompendium.core import Results\n"
                                       "import pandas as pd\nResults(out_dir, params={'profile': profile})"
                                       ".table('t', pd.DataFrame({'a': [1]}))")]
    ks = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    nbformat.write(nbformat.v4.new_notebook(cells=cells, metadata=ks), tmp_path / "nbs" / "toy.ipynb")
    return tmp_path


def _reproduce(root: Path, **kw) -> subprocess.Popen:
    return _python(f"""
        import sys, time
        from {CLI} import reproduce
        try: reproduce(profile="smoke", root={str(root)!r}, registry={{"toy": ("toy.ipynb", {{}})}}, force=True, **{kw!r})
        except Exception as e: print(type(e).__name__, e, file=sys.stderr); sys.exit(75)
        print("finished", time.time())""")


def test_two_concurrent_runs(toy):
    first = _reproduce(toy)
    side = toy / "runs" / ".locks" / "runs--smoke.json"
    t0 = time.time()
    while not side.is_file() and time.time() - t0 < 60: time.sleep(0.1)
    second = _reproduce(toy)  # started while the first runs: refused, naming the holder
    waiter = _reproduce(toy, wait=True)  # ...or, with wait, runs after it
    out2, err2 = second.communicate(timeout=120)
    said = []  # the waiter's log until it says it waits (or ends)
    while not (said and "waiting" in said[-1]) and (line := waiter.stderr.readline()): said.append(line)
    (toy / "release").touch()  # the first run's notebook may finish now
    out1, err1 = first.communicate(timeout=120)
    outw, errw = waiter.communicate(timeout=120)
    errw = "".join(said) + errw
    assert first.returncode == 0, err1
    assert second.returncode == 75, (out2, err2)
    assert "RunLocked" in err2 and f"pid {first.pid} on " in err2 and ", started 20" in err2, err2
    assert waiter.returncode == 0, errw
    assert "waiting" in errw and f"pid {first.pid}" in errw, errw
    assert float(outw.split()[-1]) > float(out1.split()[-1])  # it finished after the first
    assert not side.exists()  # released: the holder's record is gone


def test_killed_mid_collection_leaves_the_committed_job_byte_identical(tmp_path):
    run = tmp_path / "runs" / "cpu" / "job"; run.mkdir(parents=True)
    for n in ("a.csv", "b.csv", "b.md", "f.png", "manifest.json"): (run / n).write_text(f"old {n}")
    code = f"""
        import os, shutil, signal, sys
        from pathlib import Path
        import {CLI} as C
        run, k = Path({str(run)!r}), int(sys.argv[1])
        real, n = shutil.copy2, [0]
        def copy2(src, dst, **kw):  # the hook: SIGKILL once the k-th file of the run has been written
            out = real(src, dst, **kw)
            if Path(src).parent == run:
                n[0] += 1
                if n[0] == k: os.kill(os.getpid(), signal.SIGKILL)
            return out
        shutil.copy2 = copy2
        C.collect(run, "job", {str(tmp_path)!r})"""
    assert subprocess.run([sys.executable, "-c", textwrap.dedent(code), "0"]).returncode == 0
    committed = _tree(tmp_path / "tables" / "job"), _tree(tmp_path / "figures" / "job")
    for n in ("a.csv", "b.csv", "b.md", "f.png", "manifest.json"): (run / n).write_text(f"new {n}")
    for k in (1, 2, 4, 5):  # killed between files: in the tables, after the manifest, in the figures
        p = subprocess.run([sys.executable, "-c", textwrap.dedent(code), str(k)])
        assert p.returncode == -signal.SIGKILL
        assert (_tree(tmp_path / "tables" / "job"), _tree(tmp_path / "figures" / "job")) == committed, k
    assert subprocess.run([sys.executable, "-c", textwrap.dedent(code), "0"]).returncode == 0  # the next run finishes
    assert _tree(tmp_path / "tables" / "job")["b.md"] == b"new b.md"
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == ["job"]  # the killed runs' staging removed
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == ["job"]
