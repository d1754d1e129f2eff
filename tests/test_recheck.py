"""`nlic_reproduce --recheck` (issue 40 item 8): every claim re-decided from the evidence committed under tables/<job>/,
with no training, in seconds; a job with no evidence is named and left as it is."""
import functools, json, shutil, subprocess, sys, time
from pathlib import Path

import numpy as np
import pandas as pd

from nlicompendium import claims as C
from nlicompendium.claims import EVIDENCE_FILES, Claim, Claims, write_claims
from nlicompendium.cli import NO_EVIDENCE, recheck_tables, reproduce_cli
from nlicompendium.core import Results


def one_job(out: Path):
    "One job's tables as `collect` leaves them: a ledger (no model, no data) written through `core.Results`."
    led = Claims("P", "model X", aso_iterations=20, n_resamples=2000)  # a bootstrap p is at least 2 / (B + 1)
    hi, mid, lo = [.60, .62, .61, .63, .60], [.575, .59, .565, .58, .575], [.50, .52, .49, .51, .50]
    led.system("weak", 16.0, 48.0, "CB test (accuracy, %)")
    led.seeds(Claim("clear", "A beats B", "§5", "0.60 vs 0.50", "A", "B"), hi, lo)
    led.seeds(Claim("narrow", "A beats C", "§5", "0.61 vs 0.58", "A", "C"), hi, mid)  # p = 0.0016
    led.seeds(Claim("weak", "A beats weak", "§4", "-", "A", "weak"), hi, lo)  # not comparable here
    rng = np.random.default_rng(0); g = rng.integers(0, 3, 200)
    led.examples(Claim("ex", "A beats B over examples", "§5", "-", "A", "B", unit="seeds and examples"),
                 g, np.where(rng.random((3, 200)) < .9, g, 0), np.where(rng.random((3, 200)) < .5, g, 0), num_classes=3)
    led.data(Claim("n", "550 pairs", "Table 2", "550", "pairs", "the paper's", "", "holds", "data"), 550, 550)
    led.untestable(Claim("llm", "LLMs trail PLMs", "§5", "51.77 vs 77.21"), "no LLM is installed")
    write_claims(Results(out, params={"profile": "cpu"}), led)


def project(root: Path, tmp: Path) -> Path:
    "A temp project: settings.ini, one job with evidence ('new'), and a committed job's claims tables without it ('old')."
    (tmp / "tables").mkdir(parents=True); shutil.copy2(root / "settings.ini", tmp / "settings.ini")
    one_job(tmp / "tables" / "new")
    old = next(p.parent for p in sorted((root / "tables").glob("*/claims.csv")))  # a committed job, its evidence taken
    from nlicompendium.claims import EVIDENCE_FILES  # away: as one committed before the ledger recorded it
    shutil.copytree(old, tmp / "tables" / "old", ignore=shutil.ignore_patterns("*.ipynb", *EVIDENCE_FILES))
    return tmp


def files(d: Path) -> dict:
    return {p.relative_to(d): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def unpaged(f: dict) -> dict:
    "`files` without the scorecard's pages and their entries in the manifests (`scorecard.record_page` rewrites both)."
    def drop(k, v):
        if k.name != "manifest.json": return v
        m = json.loads(v); m.get("outputs", {}).pop("evidence_page", None)
        return json.dumps(m, sort_keys=True).encode()
    return {k: drop(k, v) for k, v in f.items() if k.name not in ("SCORECARD.md", "evidence.md")}


def test_nlic_reproduce_recheck_on_a_project_copy(root, tmp_path):
    """The console script on a temp project: the job with evidence rechecks to every byte it had, the job without is
    named and untouched, in seconds."""
    d = project(root, tmp_path); before = files(d / "tables")
    t = time.perf_counter()
    p = subprocess.run([str(Path(sys.executable).parent / "nlic_reproduce"), "--recheck"], cwd=d, capture_output=True,
                       text=True, timeout=120)
    secs = time.perf_counter() - t
    assert p.returncode == 0, p.stderr
    assert f"old: {NO_EVIDENCE}" in p.stdout and "6 claims of 1 jobs rechecked" in p.stdout, p.stdout
    assert "0 verdicts changed; 1 jobs with no evidence" in p.stdout and " -> " not in p.stdout, p.stdout
    after = files(d / "tables")
    assert unpaged(after) == unpaged(before)  # the same rules: the same bytes (the scorecard's pages are rewritten)
    pages = after[Path("SCORECARD.md")].decode() + after.get(Path("new/evidence.md"), b"").decode()
    assert "A beats C" in pages  # the rechecked job is on the scorecard's pages
    assert secs < 60, secs  # the interpreter, the imports and the recheck


def test_a_changed_rule_changes_the_expected_verdicts(root, tmp_path, monkeypatch, capsys):
    "alpha = 0.001 instead of 0.05: the one claim with 0.001 < p < 0.05 changes, printed old -> new, and is rewritten."
    d = project(root, tmp_path); monkeypatch.chdir(d)
    old_bytes = files(d / "tables" / "old")
    monkeypatch.setattr(C, "verdict", functools.partial(C.verdict, alpha=0.001))
    assert reproduce_cli(["--recheck"]) == 0
    out = capsys.readouterr().out
    assert "new: narrow: supported -> same direction, inconclusive\n" in out and out.count(" -> ") == 1, out
    cl = pd.read_csv(d / "tables" / "new" / "claims.csv").set_index("key")
    assert cl.verdict.to_dict() == {"clear": "supported", "narrow": "same direction, inconclusive",
                                    "weak": "not comparable here", "ex": "supported", "n": "supported",
                                    "llm": "not testable here"}
    m = json.loads((d / "tables" / "new" / "manifest.json").read_text())
    assert m["values"]["claims_verdicts"]["value"] == ("3 supported, 1 same direction, inconclusive, "
                                                       "1 not comparable here, 1 not testable here")
    assert unpaged(files(d / "tables" / "old")) == unpaged(old_bytes)  # the scorecard's page for it is rewritten


def test_committed_evidence_rechecks_to_every_committed_claims_table(root, tmp_path):
    """On a copy of the committed tables: each job that committed evidence rechecks to its claims.csv byte for byte; each
    that did not is listed 'no evidence committed: regenerate'. Every job is accounted for, in under a minute of CPU (this
    process's time: a wall clock would measure whatever else shares the machine)."""
    jobs = sorted(p.parent.name for p in (root / "tables").glob("*/claims.csv"))
    keep = {"claims.csv", "claims.md", "claims.tex", "manifest.json", *EVIDENCE_FILES}
    for j in jobs:
        (tmp_path / "tables" / j).mkdir(parents=True)
        for f in keep & {p.name for p in (root / "tables" / j).iterdir()}:
            shutil.copy2(root / "tables" / j / f, tmp_path / "tables" / j / f)
    t = time.process_time(); r = recheck_tables(tmp_path); secs = time.process_time() - t
    assert sorted(set(r.job)) == jobs
    with_ev = [j for j in jobs if (root / "tables" / j / EVIDENCE_FILES[0]).is_file()]
    assert (r[~r.job.isin(with_ev)].status == NO_EVIDENCE).all()
    assert (r[r.job.isin(with_ev)].status == "same").all(), r[r.status == "changed"]
    for j in with_ev:
        assert (tmp_path / "tables" / j / "claims.csv").read_bytes() == (root / "tables" / j / "claims.csv").read_bytes(), j
    assert secs < 60, secs
