"""The docs site builds offline and renders in headless Chromium."""
import os
import shutil
import subprocess
import sys
import pytest

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


def chromium():
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        if os.environ.get("NLIC_REQUIRE_BROWSER"):
            pytest.fail("chromium is required (NLIC_REQUIRE_BROWSER is set) but not installed")
        pytest.skip("chromium not installed (apt-get install chromium chromium-driver)")
    return exe


@pytest.fixture(scope="module")
def site(root, real_data, tmp_path_factory):
    """`docs/build.py` (what `make docs` runs), called in this process: it has imported torch and the library already, which
    `python docs/build.py` would import anew (3 of its 20 CPU-s). Its environment variables and sys.path are put back after."""
    import contextlib, importlib.util, io, warnings
    out, log = tmp_path_factory.mktemp("site"), io.StringIO()
    spec = importlib.util.spec_from_file_location("nlic_docs_build", root / "docs" / "build.py")
    build = importlib.util.module_from_spec(spec)
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(log), contextlib.redirect_stderr(log), \
            warnings.catch_warnings():
        # the deprecations MyST-Parser's calls into Sphinx raise: a script's own process does not show them either
        warnings.simplefilter("ignore", DeprecationWarning); warnings.simplefilter("ignore", PendingDeprecationWarning)
        mp.chdir(root); mp.setattr(sys, "path", list(sys.path)); mp.setenv("NLIC_DATA_DIR", str(real_data))
        for k in ("NLIC_PROFILE", "NLIC_DOCS_EXECUTE"): mp.delenv(k, raising=False)  # build.main sets them for conf.py
        spec.loader.exec_module(build)
        rc = build.main(["--out", str(out)])
    assert rc == 0, log.getvalue()[-6000:]
    return out


def browse(exe, tmp_path, url, *args):
    udd = tmp_path / "profile"
    r = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={udd}", *args, url], capture_output=True, text=True, timeout=120)
    return r


def committed_runs(root):
    return sorted(d.name for d in (root / "tables").iterdir() if (d / f"{d.name}.ipynb").is_file())


def test_pages_exist(site, root):
    for page in ("index.html", "citation.html", "api/data.html", "api/core.html", "api/datastats.html", "nbs/10_datasets.html", "nbs/01_contract.html", "nbs/01a_data.html",
                 "tables/SCORECARD.html", *(f"results/{j}.html" for j in committed_runs(root))):
        assert (site / page).is_file(), page
    api = (site / "api" / "data.html").read_text()
    assert "load_cb" in api and "NLIDataError" in (site / "api" / "core.html").read_text()
    cite = (site / "citation.html").read_text()
    assert "poesina-etal-2024-ronli" in cite and "cff-version" in cite


def test_index_renders_in_chromium(site, tmp_path):
    exe = chromium()
    dom = browse(exe, tmp_path, (site / "index.html").as_uri(), "--dump-dom").stdout
    assert "<h1>nlicompendium" in dom and "Two commands" in dom
    shot = tmp_path / "index.png"
    browse(exe, tmp_path, (site / "index.html").as_uri(), f"--screenshot={shot}", "--window-size=1280,1600")
    import matplotlib.image as mpimg
    img = mpimg.imread(shot)
    assert img.shape[0] >= 1000 and img.shape[1] >= 1200
    assert img[..., :3].std() > 0.05  # not a blank page


def test_paper_notebook_outputs_render(site, root, tmp_path):
    "A study's page is its committed run, as it executed: outputs and figures, a banner naming the run, no smoke numbers."
    exe = chromium()
    if "datasets" not in committed_runs(root): pytest.skip("no committed run of the datasets job keeps its notebook yet")
    dom = browse(exe, tmp_path, (site / "results" / "datasets.html").as_uri(), "--dump-dom").stdout
    assert "kept 556 of 1,200 items" in dom and "The committed run, as it executed: profile" in dom
    assert "<img" in dom  # the class-balance figure
    for job in committed_runs(root):
        page = (site / "results" / f"{job}.html").read_text()
        assert "profile <strong>smoke</strong>" not in page
        assert any(f"profile <strong>{p}" in page for p in ("cpu", "gpu", "none (data only")), job


class _Tables(__import__("html.parser").parser.HTMLParser):
    "The pandas tables of a page: a list of rows of cell texts per <table class='dataframe'>."
    def __init__(self):
        super().__init__(); self.tables, self.cell, self.inside = [], None, 0
    def handle_starttag(self, tag, attrs):
        if tag == "table" and "dataframe" in (dict(attrs).get("class") or ""): self.tables.append([]); self.inside = 1
        elif self.inside and tag == "tr": self.tables[-1].append([])
        elif self.inside and tag in ("td", "th"): self.cell = ""
    def handle_endtag(self, tag):
        if tag == "table": self.inside = 0
        elif self.inside and tag in ("td", "th") and self.cell is not None: self.tables[-1][-1].append(self.cell.strip()); self.cell = None
    def handle_data(self, data):
        if self.cell is not None: self.cell += data


def test_ronli_page_shows_the_committed_table5(site, root):
    "The Table 5 on the RoNLI study page is tables/curriculum-ronli/table5_overall.csv: the committed run, not a docs-build execution."
    import pandas as pd
    if "curriculum-ronli" not in committed_runs(root): pytest.skip("the RoNLI run's notebook is not committed yet")
    csv = pd.read_csv(root / "tables" / "curriculum-ronli" / "table5_overall.csv", index_col=0)
    p = _Tables(); p.feed((site / "results" / "curriculum-ronli.html").read_text())
    shown = [t for t in p.tables if any("macro F1, mean over seeds" in c for r in t for c in r)]
    assert len(shown) == 1, f"{len(shown)} Table 5s on the page"
    rows = {r[0]: r[1:] for r in shown[0] if r and r[0] in csv.index}
    assert set(rows) == set(csv.index)
    for name, cells in rows.items():
        for col, cell in zip(csv.columns[:4], cells[:4]):  # micro, macro, mean and std of macro F1 over seeds
            want = csv.loc[name, col]
            assert (cell in ("NaN", "nan", "") and pd.isna(want)) or abs(float(cell) - want) < 1e-9, (name, col, cell, want)
        what = csv.loc[name, "what computed the row"]  # the page may cut a long cell with "..."
        assert what.startswith(cells[-1].removesuffix("...")), (cells[-1], what)
        if name.startswith(("Ro-BERT", "+ ")):  # named in words, with the protocol it ran under
            assert what.startswith("the Ro-BERT recipe (paper protocol) on all-MiniLM-L6-v2 (English sentence-transformer"), what


def test_scorecard_renders(site, root, tmp_path):
    "The scorecard page: every committed claims.csv, a count line per paper, verdicts coloured; linked from the index."
    import pandas as pd
    exe = chromium()
    dom = browse(exe, tmp_path, (site / "tables" / "SCORECARD.html").as_uri(), "--dump-dom").stdout
    assert "Scorecard: the papers" in dom and 'class="verdict v-' in dom
    for p in (root / "tables").glob("*/claims.csv"):
        c = pd.read_csv(p)
        if "verdict" not in c: continue
        from nlicompendium.cli import PROTOCOL_COLUMNS
        shown = dom.replace("&amp;", "&").replace("\u2019", "'")  # Sphinx curls apostrophes
        if p.parent.name in PROTOCOL_COLUMNS: assert p.parent.name in shown  # a second protocol: columns of its rows
        else: assert c.paper.iloc[0] in shown
        from nlicompendium.claims import VERDICTS, by_conclusion, upgrade_claims  # a row per conclusion, at its weakest
        want = by_conclusion(upgrade_claims(c)).verdict.unique()  # part: each conclusion's verdict shown, coloured
        assert all(f'class="verdict v-{list(VERDICTS).index(v)}"' in dom for v in want), p
    assert "SCORECARD.html" in (site / "index.html").read_text()
    css = (site / "_static" / "verdicts.css").read_text()
    assert ".v-0{background" in css and "white-space:normal" in css  # wide cells wrap
    if (root / "figures" / "scorecard.png").is_file():  # the verdict figure on top, before the first table
        assert '<img alt="The papers' in dom.replace("’", "'") and dom.index("scorecard.png") < dom.index("<table")
        assert list((site / "_images").glob("scorecard*.png"))
    import re
    heads = [[re.sub(r"<[^>]+>", "", c).strip() for c in h.split("</th>")[:-1]]
             for h in re.findall(r"<thead>(.*?)</thead>", dom, re.S)]  # every table's header, in order
    rows_heads = [h for h in heads if "verdict" in h]  # a row per conclusion: its verdict among the first columns
    assert rows_heads and all(h.index("verdict") <= 5 for h in rows_heads), heads[:3]
    assert "scorecard_forest" in dom  # the forest plot is on the page


def test_equation_renders_offline(site, tmp_path):
    "Eq. 1 and the metrics of the cartography notebook are typeset by the MathJax the site carries (no CDN: the machine is offline)."
    exe = chromium()
    assert not list(site.rglob("*.html")) or "cdn.jsdelivr" not in (site / "nbs" / "04b_cartography.html").read_text()
    dom = browse(exe, tmp_path, (site / "nbs" / "04b_cartography.html").as_uri(), "--virtual-time-budget=20000", "--dump-dom").stdout
    assert "MathJax-Element-1-Frame" in dom, "no equation was typeset"
    assert dom.count('class="math notranslate nohighlight"') >= 3  # $...$ became math (MyST dollarmath), not literal dollars


def test_datamap_howto_renders(site, tmp_path):
    "The how-to page shows the nlic_datamap commands, the data map made on real SciNLI pairs, and the Trainer snippet."
    exe = chromium()
    page = site / "howto" / "datamap.html"
    assert page.is_file()
    dom = browse(exe, tmp_path, page.as_uri(), "--dump-dom").stdout
    assert "nlic_datamap" in dom and "DataMapCallback" in dom and "human_train_1" in dom  # code blocks split file names into tokens
    assert '<img alt="Data map of SciNLI' in dom
    assert (site / "howto" / "figures" / "data_map.png").is_file() or list(site.rglob("_images/data_map*.png"))


def test_navigation_is_a_readers(site, root):
    """The site's sections, in order: the studies, the scorecard, the how-tos (with the verdicts page and the benchmarks
    report), the API, citing; the per-study evidence pages are built where they exist, and no page of review records."""
    import re
    caps = list(dict.fromkeys(re.findall(r'caption-text">([^<]*)<', (site / "index.html").read_text())))
    assert caps == ["Studies", "Scorecard", "How-to", "API", "Cite"], caps
    assert (site / "howto" / "verdicts.html").is_file() and (site / "benchmarks.html").is_file()
    assert not (site / "tables" / "REFEREE.html").exists()
    for ev in (root / "tables").glob("*/evidence.md"):
        assert (site / "tables" / ev.parent.name / "evidence.html").is_file(), ev


def test_links_to_missing_pages_become_text(root, tmp_path):
    "A README or how-to link to a page the site does not have (a how-to not written yet) is text, not a broken reference."
    import importlib.util
    spec = importlib.util.spec_from_file_location("nlic_docs_build_links", root / "docs" / "build.py")
    build = importlib.util.module_from_spec(spec); spec.loader.exec_module(build)
    (tmp_path / "howto").mkdir(); (tmp_path / "howto" / "there.md").write_text("# t\n")
    text = "[a](howto/there.md) [b](howto/gone.md#x) [c](https://example.org/x.md) [d](nbs/gone.ipynb)"
    assert build.unlink_missing(text, tmp_path) == "[a](howto/there.md) b [c](https://example.org/x.md) d"
