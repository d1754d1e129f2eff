"""Build the docs site offline: notebooks (with nbdev directives stripped), the committed runs, the scorecard, an API page
per module and a citation page.

    python docs/build.py [--out docs/_build/html] [--execute]

Nothing is executed by default: a study's page is the executed notebook its committed run kept beside its tables
(`tables/<job>/<job>.ipynb`, written by `nlic_reproduce`), shown as it ran, so the site shows the numbers in `tables/`.
Library and study notebooks are shown as source; `--execute` runs the library notebooks under the smoke profile.

Warnings are errors (`sphinx -W --keep-going`): a docstring that docutils misreads fails the build.

Quarto is not needed; users who have it can still run `nbdev_docs`.
"""
import argparse, os, shutil, sys, time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT))  # the checkout's nlicompendium: model names and the scorecard


def proc_notebook(src: Path, dst: Path):
    "Copy a notebook without `#| hide` cells and without nbdev's `#|` directive lines."
    nb = nbformat.read(src, as_version=4)
    cells = []
    for c in nb.cells:
        if c.cell_type == "code":
            lines = c.source.splitlines()
            if any(l.strip().startswith("#| hide") for l in lines): continue
            c.source = "\n".join(l for l in lines if not l.strip().startswith("#|"))
        cells.append(c)
    nb.cells = cells
    nbformat.write(nb, dst)


def run_page(job_dir: Path, dst: Path):
    "The executed notebook of a committed run, opened by a banner naming the run that made it (from its manifest)."
    import json
    from nlicompendium.models import model_in_words
    m = json.loads((job_dir / "manifest.json").read_text())
    nb = nbformat.read(job_dir / f"{job_dir.name}.ipynb", as_version=4)
    machine = m.get("machine") or {}
    profile = m["params"].get("profile") or "none (data only, no model)"
    banner = (f"# Results: `{job_dir.name}`\n\nThe committed run, as it executed: profile **{profile}**, model "
              f"{model_in_words(m['params']['model']) if m['params'].get('model') else 'none'}, seeds {m['params'].get('seeds', m.get('seed'))}, commit "
              f"`{(m.get('git') or {}).get('commit', '')[:8]}`, {m.get('created', '')}, CPU: {machine.get('cpu', 'not recorded')}. "
              f"Its tables are in `tables/{job_dir.name}/`, its figures in `figures/{job_dir.name}/`; the claims it decides are on "
              f"the [scorecard](../tables/SCORECARD.md). Nothing on this page was executed by the docs build.")
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(banner))
    for c in nb.cells:  # the study's own title becomes a section under the banner's
        if c.cell_type == "markdown" and c.source.startswith("# ") and c is not nb.cells[0]: c.source = "#" + c.source; break
    tmp = dst.with_suffix(".src.ipynb"); nbformat.write(nb, tmp); proc_notebook(tmp, dst); tmp.unlink()


HOWTO_ORDER = ["verdicts", "review", "profiles", "data", "install", "gpu", "datamap"]  # how-tos in order; others after


def site_readme(gen: Path) -> str:
    "README.md as the site's front page: its links to files of the repository turned into links to the site's pages."
    text = (ROOT / "README.md").read_text()
    text = text.replace("](docs/howto/", "](howto/").replace("](benchmarks/README.md)", "](benchmarks.md)")
    text = text.replace("](CITATION.cff)", "](citation.md)")
    return unlink_missing(text, gen)


def unlink_missing(text: str, here: Path) -> str:
    "Links to pages of the site that are not there (a how-to not written yet) become plain text: no broken reference."
    import re
    return re.sub(r"\[([^\]]*)\]\(([^):#]+\.(?:md|ipynb))(#[^)]*)?\)",
                  lambda m: m.group(0) if (here / m.group(2)).exists() else m.group(1), text)


def generate(gen: Path):
    if gen.exists(): shutil.rmtree(gen)
    (gen / "nbs").mkdir(parents=True); (gen / "api").mkdir()
    import jupyter_server_mathjax  # MathJax 2, served from the site itself: the docs render equations offline
    shutil.copytree(Path(jupyter_server_mathjax.__file__).parent / "static", gen / "_static" / "mathjax",
                    ignore=shutil.ignore_patterns("localization", "*.otf", "*.eot", "png", "unpacked"))
    nbs = sorted(p for p in (ROOT / "nbs").glob("*.ipynb") if p.name != "index.ipynb")
    for p in nbs: proc_notebook(p, gen / "nbs" / p.name)
    mods = sorted(p.stem for p in (ROOT / "nlicompendium").glob("*.py") if not p.stem.startswith("_"))
    for m in mods:
        (gen / "api" / f"{m}.md").write_text(f"# `nlicompendium.{m}`\n\n```{{eval-rst}}\n.. automodule:: nlicompendium.{m}\n   :members:\n   :undoc-members:\n```\n")
    shutil.copytree(DOCS / "howto", gen / "howto")  # how-to pages, with the figures they show
    for src, dst in (("figures/datamap-scinli", "howto/figures"), ("tables/datamap-scinli", "howto/figures")):
        shutil.copytree(ROOT / src, gen / dst, dirs_exist_ok=True)
    from nlicompendium.cli import RUN_SIZES_MARK
    from nlicompendium.core import run_sizes_table
    howtos = [f"howto/{p.stem}" for p in sorted((DOCS / "howto").glob("*.md"), key=lambda p: (HOWTO_ORDER + [p.stem]).index(p.stem))]
    report = ROOT / "benchmarks" / "README.md"  # the benchmarks report, a page of its own
    if report.is_file():
        (gen / "benchmarks.md").write_text(unlink_missing(report.read_text().replace("](../docs/howto/", "](howto/"), gen))
        howtos.append("benchmarks")
    papers = [p for p in nbs if '"parameters"' in p.read_text()]  # the studies: papermill runs them with a parameters cell
    lib = [p for p in nbs if p not in papers]
    (gen / "results").mkdir()
    runs = sorted(d for d in (ROOT / "tables").iterdir() if (d / f"{d.name}.ipynb").is_file())
    for d in runs: run_page(d, gen / "results" / f"{d.name}.ipynb")
    from nlicompendium.cli import SCORECARD_FIGURE, scorecard
    fig = ROOT / SCORECARD_FIGURE  # the committed verdict figure, where the page's ../figures/ link finds it
    if fig.is_file():
        (gen / SCORECARD_FIGURE).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(fig, gen / SCORECARD_FIGURE)
    try: card = scorecard(ROOT, html=True, figure=f"../{SCORECARD_FIGURE}" if fig.is_file() else None)
    except FileNotFoundError as e: card = f"# Scorecard\n\nNo committed run has a claims ledger yet ({e}); `nlic_reproduce` writes them.\n"
    (gen / "tables").mkdir(); (gen / "tables" / "SCORECARD.md").write_text(card)
    evidence = sorted(d.name for d in (ROOT / "tables").iterdir() if (d / "evidence.md").is_file())  # per-study evidence
    for job in evidence:
        (gen / "tables" / job).mkdir(parents=True, exist_ok=True); shutil.copy2(ROOT / "tables" / job / "evidence.md", gen / "tables" / job)
    for page in (gen / "howto").glob("*.md"):  # after the scorecard and evidence pages: links to them stay links
        text = unlink_missing(page.read_text(), page.parent)  # the profiles page shows core.RUN_SIZES, as the code has it
        page.write_text(text.replace(RUN_SIZES_MARK, run_sizes_table().to_markdown(index=False)))
    (gen / "_static" / "verdicts.css").write_text(
        ".verdict{padding:0 .3em;border-radius:3px;white-space:nowrap}.v-0{background:#c8efc8}.v-1{background:#e6f2d5}"
        ".v-2{background:#f2f0d5}.v-3{background:#fbe7c6}.v-4{background:#f6c6c6}.v-5{background:#dcd6ee}"
        ".v-6{background:#e3e3e3}"  # in the order of claims.VERDICTS
        # wide tables wrap their cells instead of running off the page: every column readable without scrolling far
        "table.docutils td,table.docutils th{white-space:normal;overflow-wrap:anywhere;vertical-align:top;min-width:5em}"
        "table.docutils{font-size:.8em}")
    (gen / "citation.md").write_text(
        "# Citing\n\nCite the compendium with its `CITATION.cff`, and the papers and data sets you use with the BibTeX below.\n\n"
        "## The compendium\n\n```{literalinclude} ../../CITATION.cff\n:language: yaml\n```\n\n"
        "## The five papers and their data sets\n\n```{literalinclude} ../references.bib\n:language: bibtex\n```\n")
    toc = lambda title, items, hidden=False: (f"```{{toctree}}\n:caption: {title}\n:maxdepth: 1\n" + (":hidden:\n" if hidden else "")
                                              + "\n" + "\n".join(items) + "\n```\n")
    studies = [f"results/{d.name}" for d in runs] + [f"nbs/{p.stem}" for p in papers]  # as they ran, then their source
    (gen / "index.md").write_text(site_readme(gen) + "\n" + toc("Studies", studies) + toc("Scorecard", ["tables/SCORECARD"] + [f"tables/{j}/evidence" for j in evidence])
                                  + toc("How-to", howtos) + toc("API", [f"nbs/{p.stem}" for p in lib] + [f"api/{m}" for m in mods])
                                  + toc("Cite", ["citation"]))



def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(DOCS / "_build" / "html"))
    ap.add_argument("--execute", action="store_true", help="run the library notebooks (the committed runs are never rerun)")
    ap.add_argument("--profile", default="smoke", help="run profile for executed notebooks (smoke keeps the build to seconds)")
    a = ap.parse_args(argv)
    gen = DOCS / "_gen"; generate(gen)
    os.environ.update({"NLIC_PROFILE": a.profile, "NLIC_DOCS_EXECUTE": "force" if a.execute else "off"})  # read by conf.py
    t = time.time()
    from sphinx.cmd.build import build_main  # in this process, which has imported the library (and torch) already
    rc = build_main(["-b", "html", "-c", str(DOCS), "-q", "-W", "--keep-going", "-j", "1", str(gen), a.out])  # -W: warnings fail
    print(f"docs built in {time.time() - t:.1f} s -> {a.out}/index.html" if rc == 0 else "docs build FAILED")
    return rc


if __name__ == "__main__":
    sys.exit(main())
