"""`make main` and `nlic_reproduce` say what a long run is doing (nbs/00b_progress.ipynb): the papermill command line
finds the `nlic` engine through its entry point, and in a log it prints a line per finished cell and passes the kernel's
stderr (the studies' unit bars) through as it comes."""
import re
import subprocess
import sys
from pathlib import Path

import nbformat


def test_make_main_runs_papermill_with_the_progress_engine(root):
    recipe = re.search(r"^main:.*?\n((?:\t.*\n)+)", (root / "Makefile").read_text(), re.M).group(1)
    assert "papermill --engine nlic --stderr-file /dev/stderr nbs/05_curriculum.ipynb" in recipe, recipe


def test_papermill_cli_prints_a_line_per_cell_and_the_kernels_bars(tmp_path):
    cells = [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["parameters"]}),
             nbformat.v4.new_code_cell("import sys, time\nfor i in range(3): print(f'units: {i + 1}/3', file=sys.stderr)"),
             nbformat.v4.new_code_cell("time.sleep(0.2)")]
    nb = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                        "language": "python"}})
    nbformat.write(nb, tmp_path / "in.ipynb")
    papermill = Path(sys.executable).parent / "papermill"
    r = subprocess.run([str(papermill), "--engine", "nlic", "--stderr-file", "/dev/stderr", str(tmp_path / "in.ipynb"),
                        str(tmp_path / "out.ipynb"), "-p", "x", "2"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()  # stderr is a pipe here, not a terminal: lines, not papermill's bar
    done = [ln for ln in lines if re.match(r"cell \d+/\d+ done in [\d.]+ s \(\d+:\d\d elapsed\)", ln)]
    assert [d.split(" done")[0] for d in done] == ["cell 1/4", "cell 2/4", "cell 3/4", "cell 4/4"], lines  # + injected
    assert lines.index("units: 3/3") < lines.index(done[2]), lines
    assert not re.search(r"Executing:.* [1-9]/4", r.stderr)  # the cell bar, drawn at 0/4 by papermill, is not redrawn in a log


def test_the_entry_point_loads_whichever_module_is_imported_first():
    """papermill loads its engines' entry points while `papermill.engines` is imported; when `nlicompendium.progress` is
    imported first, that entry point points back into a module being imported (the docs build failed so). Both orders."""
    for first in ("nlicompendium.progress", "papermill.engines"):
        code = (f"import {first}; from papermill.engines import papermill_engines; "
                "print(papermill_engines.get_engine('nlic').__name__)")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "ProgressEngine", (first, r.stderr[-2000:])
