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
    out = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, str(root / "docs" / "build.py"), "--out", str(out)], cwd=root, capture_output=True, text=True,
                       env={**os.environ, "NLIC_DATA_DIR": str(real_data)})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


def browse(exe, tmp_path, url, *args):
    udd = tmp_path / "profile"
    r = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={udd}", *args, url], capture_output=True, text=True, timeout=120)
    return r


def test_pages_exist(site):
    for page in ("index.html", "citation.html", "api/data.html", "api/core.html", "api/datastats.html", "nbs/10_datasets.html", "nbs/01_contract.html", "nbs/01a_data.html"):
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


def test_paper_notebook_outputs_render(site, tmp_path):
    exe = chromium()
    dom = browse(exe, tmp_path, (site / "nbs" / "10_datasets.html").as_uri(), "--dump-dom").stdout
    assert "CB items kept" in dom or "kept 556 of 1,200 items" in dom
    assert "<img" in dom  # the class-balance figure


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
