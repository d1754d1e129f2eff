"""The install metadata, README, environment.yml and the exported package agree with each other."""
import configparser
import subprocess
import sys
from pathlib import Path


def test_pip_check():
    r = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_pins(root):
    cfg = configparser.ConfigParser(delimiters=["="]); cfg.read(root / "settings.ini")
    reqs = cfg["DEFAULT"]["requirements"]
    for pin in ("nbdev==2.4.14", "execnb<0.2", "fastcore<2"):
        assert pin in reqs
    assert cfg["DEFAULT"]["allowed_cell_metadata_keys"].strip() == "tags"
    lock = (root / "requirements" / "cpu.txt").read_text().splitlines()
    assert "torch==2.13.0" in lock and "nbdev==2.4.14" in lock


def test_installed_matches_lock(root):
    from importlib import metadata
    pins = dict(l.split("==") for l in (root / "requirements" / "cpu.txt").read_text().splitlines() if "==" in l and not l.startswith("#"))
    for name in ("torch", "transformers", "datasets", "nbdev", "papermill", "seaborn", "statsmodels"):
        assert metadata.version(name).split("+")[0] == pins[name], name


def test_excluded_packages_stay_out(root):
    """What requirements/excludes.txt names is neither pinned nor installed, and reading a notebook builds no IRI grammar
    (rfc3987-syntax's 35 Earley parsers: 0.7 CPU-s in every process that imports nbformat, benchmarks/import_nbformat.py)."""
    from importlib import metadata
    excluded = [l.strip() for l in (root / "requirements" / "excludes.txt").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert "rfc3987-syntax" in excluded
    pinned = {l.split("==")[0].lower() for l in (root / "requirements" / "cpu.txt").read_text().splitlines() if "==" in l}
    for name in excluded:
        assert name not in pinned, name
        try: metadata.version(name); installed = True
        except metadata.PackageNotFoundError: installed = False
        assert not installed, f"{name} is installed; `make install` leaves it out (requirements/excludes.txt)"
    r = subprocess.run([sys.executable, "-c", "import nbformat, sys; print('rfc3987_syntax' in sys.modules)"], capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stdout + r.stderr


def test_environment_yml_uses_same_pins(root):
    env = (root / "environment.yml").read_text()
    assert "-c requirements/cpu.txt" in env and "-e .[dev]" in env
    assert "python=3.11" in env and sys.version_info[:2] == (3, 11)


def test_readme_in_sync(root):
    r = subprocess.run([str(Path(sys.executable).parent / "nlic_readme"), "--check"], cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_readme_two_commands_and_ci(root):
    readme = (root / "README.md").read_text()
    assert "make main" in readme and "make test" in readme
    assert "papermill nbs/05_curriculum.ipynb" in readme
    ci = (root / ".ci" / "run").read_text()
    assert "make test" in ci and "shared/data" in ci


def test_package_is_the_export(root, tmp_path):
    """nbdev_export reproduces the committed package exactly: nobody edited nlicompendium/ by hand. It exports into a
    copy of the project, so the package other tests import at the same moment is never rewritten under them (the docs
    build's autodoc failed so when both ran at once)."""
    import shutil
    for name in ("settings.ini", "pyproject.toml"): shutil.copy2(root / name, tmp_path / name)
    for d in ("nbs", "nlicompendium"): shutil.copytree(root / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([str(Path(sys.executable).parent / "nbdev_export")], cwd=tmp_path, check=True, capture_output=True)
    before = {p.name: p.read_text() for p in (root / "nlicompendium").glob("*.py")}
    after = {p.name: p.read_text() for p in (tmp_path / "nlicompendium").glob("*.py")}
    assert before == after


def test_cli_data(real_data):
    r = subprocess.run([str(Path(sys.executable).parent / "nlic_data"), "cb", "--data-dir", str(real_data)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "excluded 644" in r.stdout and "Overall" in r.stdout


def test_no_undefined_names(root):
    "Names a notebook imported only in a test cell are undefined in the exported module: ruff's pyflakes rules catch them."
    r = subprocess.run([str(Path(sys.executable).parent / "ruff"), "check", "nlicompendium"], cwd=root, capture_output=True, text=True)  # pyproject.toml's rules
    assert r.returncode == 0, r.stdout


def _notebook_order(nb: str) -> tuple:
    "00a_executors -> (0, 'a'): the order nbdev notebooks are read in."
    import re
    m = re.match(r"(\d+)([a-z]?)_", nb)
    return (int(m.group(1)), m.group(2)) if m else (999, "")


def upward_imports(pkg: Path) -> list[str]:
    "Every import, at module top or inside a function, of a module exported from a higher-numbered notebook."
    import ast, re
    home = {}
    for p in pkg.glob("*.py"):
        m = re.search(r"File to edit: \.\./nbs/(\w+)\.ipynb", p.read_text())
        if m: home[p.stem] = m.group(1)
    found = []
    for mod, nb in sorted(home.items()):
        for node in ast.walk(ast.parse((pkg / f"{mod}.py").read_text())):
            names = []
            if isinstance(node, ast.ImportFrom):
                if node.level == 1: names = [node.module] if node.module else [a.name for a in node.names]
                elif (node.module or "").startswith(pkg.name + "."): names = [node.module.split(".")[1]]
                elif node.module == pkg.name: names = [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[1] for a in node.names if a.name.startswith(pkg.name + ".")]
            for other in names:
                if other in home and other != mod and _notebook_order(home[other]) > _notebook_order(nb):
                    found.append(f"{mod} ({home[mod]}) imports {other} ({home[other]}) at line {node.lineno}")
    return found


def test_no_upward_imports(root):
    "Layering: no library module imports one that a higher-numbered notebook exports."
    assert upward_imports(root / "nlicompendium") == []


def test_upward_import_is_caught(root, tmp_path):
    "The layering check fails on an upward import, lazy or not (a copy of the package with one added)."
    import shutil
    pkg = tmp_path / "nlicompendium"; shutil.copytree(root / "nlicompendium", pkg)
    core = pkg / "core.py"; core.write_text(core.read_text() + "\ndef _f():\n    from nlicompendium.study import Study\n")
    assert [u.split(" at ")[0] for u in upward_imports(pkg)] == ["core (00_core) imports study (07_study)"]


def test_lines_within_120(root):
    "Every line of the package is at most 120 columns, except the first line of nbdev's generated `__all__` (see pyproject.toml)."
    long = [f"{p.name}:{i}" for p in sorted((root / "nlicompendium").glob("*.py")) if p.name != "_modidx.py"
            for i, line in enumerate(p.read_text().splitlines(), 1) if len(line) > 120 and not line.startswith("__all__ = ")]
    assert long == [], long


def test_committed_outputs_hold_no_machine_paths(root):
    "Manifests, tables and the executed notebooks kept beside them name no folder of the machine that ran them."
    import re
    pat = re.compile(r"(/home/|/root/|/tmp/|/work/|/Users/|/opt/|/usr/)")
    found = [f"{p.relative_to(root)}: {m.group(0)}" for p in sorted((root / "tables").rglob("*")) + sorted((root / "figures").rglob("*.json"))
             if p.suffix in (".ipynb", ".json", ".csv", ".md") for m in [pat.search(p.read_text(errors="ignore"))] if m]
    assert not found, found[:10]


def test_paper_notebooks_take_their_seeds_from_run_sizes(root):
    """A study with fine-tuned parts names one (`study_setup(part=...)`), so its default seeds are `core.RUN_SIZES`' for the
    profile: without it TaxiNLI and CB ran the profile's 3 seeds on cpu where RUN_SIZES asks for 5."""
    import json, re
    from nlicompendium.core import RUN_SIZES
    studies = {s for s, _ in RUN_SIZES} - {"curriculum"}  # 05 passes its 5 seeds itself (the 'frozen head' part)
    for nb in sorted((root / "nbs").glob("1[0-9]_*.ipynb")):
        src = "".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code")
        for call in re.findall(r'study_setup\(\s*"(\w+)"[^\n]*', src):
            if call in studies:
                line = re.search(rf'study_setup\(\s*"{call}"[^\n]*', src).group(0)
                part = re.search(r'part="([^"]+)"', line)
                assert part and (call, part.group(1)) in RUN_SIZES, f"{nb.name}: study_setup({call!r}) names no part of RUN_SIZES"


def unlisted_outputs(tables: Path) -> list[str]:
    """Files in tables/<job>/ that the job's manifest.json does not list. Allowed beside the listed outputs: what
    `cli.collect` and `cli.reproduce` write themselves (manifest.json, the executed <job>.ipynb, cell_times.csv), and the
    .csv/.md/.tex of a figure's name: `core.Results` records a table and a figure of one name under one manifest entry, the
    figure's. Runs of a library before that entry listed the table's files too (cb and mscinli, committed at library
    eb58fb4ec52cf5d1) list the figure's files only, so their figures' data tables are allowed by name."""
    import json
    found = []
    for d in sorted(p for p in tables.iterdir() if p.is_dir()):
        m = json.loads((d / "manifest.json").read_text()) if (d / "manifest.json").is_file() else {"outputs": {}}
        listed = {f["path"] for o in m["outputs"].values() for f in o.get("files", {}).values()}
        figures = {k for k, o in m["outputs"].items() if o.get("kind") == "figure"}
        own = {"manifest.json", "cell_times.csv", f"{d.name}.ipynb"}  # evidence.md: listed by the scorecard (record_page)
        found += [f"{d.name}/{p.name}" for p in sorted(d.iterdir()) if p.name not in listed | own
                  and not (p.stem in figures and p.suffix in (".csv", ".md", ".tex"))]
    return found


def test_no_file_outside_its_manifest(root):
    "Everything in tables/<job>/ is an output its manifest lists (issue 40: stale tables were committed and shown)."
    assert unlisted_outputs(root / "tables") == []


def test_evidence_pages_are_vouched_for(root):
    "Each study's evidence page is listed in its manifest with the SHA-256 of its bytes (`scorecard.record_page`)."
    import json
    from nlicompendium.core import sha256_file
    pages = sorted((root / "tables").glob("*/evidence.md"))
    bad = [p.parent.name for p in pages if json.loads((p.parent / "manifest.json").read_text())["outputs"].get(
        "evidence_page", {}).get("files", {}).get("md") != {"path": "evidence.md", "sha256": sha256_file(p)}]
    assert pages and bad == [], bad


def test_unlisted_output_is_caught(tmp_path):
    "The check above finds a stale table and a job folder with no manifest, and passes what collect writes."
    import json
    job = tmp_path / "job"; job.mkdir()
    (job / "manifest.json").write_text(json.dumps({"outputs": {
        "t": {"kind": "table", "files": {"csv": {"path": "t.csv"}}},
        "f": {"kind": "figure", "files": {"png": {"path": "f.png"}}}}}))
    for name in ("t.csv", "f.csv", "job.ipynb", "cell_times.csv"): (job / name).write_text("x")
    assert unlisted_outputs(tmp_path) == []
    (job / "old.md").write_text("x"); (tmp_path / "bare").mkdir(); (tmp_path / "bare" / "a.csv").write_text("x")
    (job / "evidence.md").write_text("x")  # a scorecard page its manifest does not list: stale, or never vouched for
    assert unlisted_outputs(tmp_path) == ["bare/a.csv", "job/evidence.md", "job/old.md"]


def test_scorecard_reads_tables_from_before_quotes(root):
    """The committed claims.csv files predate the quote, setting, level and kind columns (issue 40): the scorecard reads
    them, says 'not yet quoted', counts per paper and setting, and puts the learning-rate controls in their own section."""
    import pandas as pd
    from nlicompendium.claims import CLAIM_COLUMNS
    from nlicompendium.cli import scorecard
    old = [p for p in (root / "tables").glob("*/claims.csv") if "quote" not in pd.read_csv(p, nrows=0).columns]
    sc = scorecard(root)
    if old: assert "not yet quoted" in sc and "| not yet declared |" in sc
    assert "| kind of evidence " in sc  # the count table per paper and kind of evidence
    ctl = sc.split("# Controls the papers did not run", 1)
    rows0 = [ln for ln in ctl[0].splitlines() if ln.startswith("| ")]  # the papers' tables (their sections open with
    assert len(ctl) == 2 and "(a control the paper did not run)" in ctl[1]  # what the controls show, not in a table)
    assert not any("(a control the paper did not run)" in ln for ln in rows0)
    # the controls' count, recounted here from the tables themselves (each control is a conclusion of its own; a job
    # that is a second protocol column of another's rows is not counted again)
    from nlicompendium.claims import by_conclusion, upgrade_claims
    from nlicompendium.cli import PROTOCOL_COLUMNS
    here = {p.parent.name for p in (root / "tables").glob("*/claims.csv")}
    folded = {j for j, (m, _) in PROTOCOL_COLUMNS.items() if m in here}
    tabs = pd.concat([upgrade_claims(pd.read_csv(p)) for p in sorted((root / "tables").glob("*/claims.csv"))
                      if p.parent.name not in folded])
    want = by_conclusion(tabs).query("kind == 'control'").verdict.value_counts()  # each control conclusion once
    line = next(ln for ln in sc.splitlines() if "Controls the papers did not run, counted apart:" in ln)
    assert len(want) and all(f"{n} {v}" in line.split("counted apart:")[1] for v, n in want.items()), (want, line)
    assert {"quote", "setting", "level", "kind"} <= set(CLAIM_COLUMNS)


PAPER_TEXTS = {"RoNLI": "ronli_cartography_curriculum.txt", "CommitmentBank": "commitmentbank_bert.txt",
               "MSciNLI": "mscinli.txt", "TaxiNLI": "taxinli.txt", "Code-mixed": "codemixed_nli.txt"}  # ../shared/papers/README.md


def misquoted(tables: Path, papers: Path) -> list[str]:
    "Rows of every tables/<job>/claims.csv whose quote is not in its paper's text (claims.quote_in_paper); 'not yet quoted' is skipped."
    import pandas as pd
    from nlicompendium.claims import NOT_QUOTED, quote_in_paper
    bad, texts = [], {}
    for p in sorted(tables.glob("*/claims.csv")):
        c = pd.read_csv(p)
        if "quote" not in c: continue
        for _, r in c[c.quote.notna() & (c.quote != NOT_QUOTED)].iterrows():
            f = next((f for k, f in PAPER_TEXTS.items() if str(r.paper).startswith(k)), None)
            if f is None: bad.append(f"{p.parent.name}/{r.key}: no paper text for {r.paper!r}"); continue
            texts.setdefault(f, (papers / f).read_text())
            if not quote_in_paper(r.quote, texts[f]): bad.append(f"{p.parent.name}/{r.key}")
    return bad


def test_every_quote_is_in_its_paper(root):
    "Every quoted claim's words stand in its paper's text (case, white space, hyphenation and quote marks aside)."
    import pytest
    papers = root.parent / "shared" / "papers"
    if not papers.is_dir(): pytest.skip("the papers' texts (../shared/papers) are not beside this checkout")
    assert misquoted(root / "tables", papers) == []


def test_a_misquote_is_caught(root, tmp_path):
    "One altered word in a quote fails; the true sentence and 'not yet quoted' pass."
    import pytest
    import pandas as pd
    from nlicompendium.claims import NOT_QUOTED
    papers = root.parent / "shared" / "papers"
    if not papers.is_dir(): pytest.skip("the papers' texts (../shared/papers) are not beside this checkout")
    true = "Among the various language models, Ro-BERT achieves the highest performance level."
    (tmp_path / "job").mkdir()
    rows = {"paper": ["RoNLI (Poesina et al., 2024)"] * 3, "key": ["ok", "old", "bad"],
            "quote": [true, NOT_QUOTED, true.replace("highest", "lowest")]}
    pd.DataFrame(rows).to_csv(tmp_path / "job" / "claims.csv", index=False)
    assert misquoted(tmp_path, papers) == ["job/bad"]


def test_the_suite_caches_in_a_folder_of_its_own():
    "conftest.py points `core.cache_dir()` at a folder made for this run: no test reads or fills ~/.cache/nlicompendium."
    from nlicompendium.core import cache_dir
    assert cache_dir().name.startswith("nlic-test-cache-") and cache_dir() != Path.home() / ".cache" / "nlicompendium"


def test_every_test_scope_has_its_place_in_the_costliest_first_order(root):
    "conftest.COSTLIEST_FIRST names every scope pytest-xdist hands out (a test class, or a module's functions): one left out"
    " would be handed out last, however long it takes."
    import ast
    from conftest import COSTLIEST_FIRST
    scopes = set()
    for f in sorted((root / "tests").glob("test_*.py")):
        body = ast.parse(f.read_text()).body
        scopes |= {f"{f.name}::{n.name}" for n in body if isinstance(n, ast.ClassDef) and n.name.startswith("Test")}
        if any(isinstance(n, ast.FunctionDef) and n.name.startswith("test_") for n in body): scopes.add(f.name)
    assert scopes == set(COSTLIEST_FIRST), (scopes - set(COSTLIEST_FIRST), set(COSTLIEST_FIRST) - scopes)
