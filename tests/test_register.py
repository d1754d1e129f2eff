"""The papers' registers (nbs/registers/*.yaml): each validates, every quote stands in its paper, the study notebook that
reads it keeps its code cells short, and the committed evidence was decided on what the register declares (an amendment
the register does not record fails)."""
import json
from pathlib import Path
import pytest

REGISTERS = sorted((Path(__file__).resolve().parent.parent / "nbs" / "registers").glob("*.yaml"))
STUDY = {"ronli": ("05_curriculum.ipynb", "10_datasets.ipynb"),  # the notebooks reading a register, where they are
         "mscinli": ("14_mscinli.ipynb", "10_datasets.ipynb")}      # not only nbs/1*_<register>.ipynb (`job: datasets`)
JOBS = {"ronli": ("curriculum-ronli", "curriculum-ronli-official", "curriculum-scinli", "datasets"),
        "mscinli": ("mscinli", "datasets")}  # jobs deciding a register's conclusions; a job's ledgers of other papers
                                             # (the datasets job writes RoNLI's and MSciNLI's) are left to theirs


def test_there_are_registers():
    assert [p.stem for p in REGISTERS], "no register in nbs/registers"


@pytest.mark.parametrize("path", REGISTERS, ids=lambda p: p.stem)
def test_register_validates_and_quotes_its_paper(root, path):
    "The register reads; every conclusion's quote stands in the paper's text (claims.quote_in_paper)."
    from nlicompendium.register import load_register
    import yaml
    text = root.parent / "shared" / "papers" / yaml.safe_load(path.read_text())["text"]
    if not text.is_file(): pytest.skip(f"the paper's text ({text.name}) is not beside this checkout")
    reg = load_register(path, text.read_text(), job="all")
    assert reg["conclusions"]


CHAINED = ("margin", "tolerance", "family", "family_size")  # fields whose amendments must form one chain


@pytest.mark.parametrize("path", REGISTERS, ids=lambda p: p.stem)
def test_each_margins_amendments_form_one_chain(path):
    "A margin, tolerance, family or family size amended more than once records one chain: each change starts where the"
    " one before ended, and the last ends at the value declared now, so which declaration a row keeps is never left open."
    from nlicompendium.register import load_register
    for c in load_register(path, job="all")["conclusions"]:
        for p in c["parts"]:
            by = {}
            for a in p.get("amendments") or ():
                if a["field"] in CHAINED: by.setdefault(a["field"], []).append(a)
            for field, chain in by.items():
                links = list(zip(chain, chain[1:]))
                assert all(str(x.get("after")) == str(y["before"]) for x, y in links), (p["key"], field, chain)
                if field in p and chain[-1].get("after") is not None:
                    assert str(chain[-1]["after"]) == str(p[field]), (p["key"], field, chain[-1], p[field])


def test_a_misquote_in_a_register_is_caught(root, tmp_path):
    "One word changed in one quote fails, naming the file and the conclusion."
    from nlicompendium.register import load_register, RegisterError
    path = next(p for p in REGISTERS if p.stem == "taxinli")
    text = root.parent / "shared" / "papers" / "taxinli.txt"
    if not text.is_file(): pytest.skip("the paper's text is not beside this checkout")
    bad = tmp_path / "taxinli.yaml"
    bad.write_text(path.read_text().replace("ESIM shows largest improvement on negation.",
                                            "ESIM shows largest improvement on syntax."))
    with pytest.raises(RegisterError, match="taxinli.yaml, conclusion 'esim_largest_on_negation': its quote"):
        load_register(bad, text.read_text())


@pytest.mark.parametrize("path", REGISTERS, ids=lambda p: p.stem)
def test_its_study_notebook_has_short_code_cells(root, path):
    "No code cell of the paper notebook that reads a register is longer than 60 lines."
    nbs = ([root / "nbs" / n for n in STUDY[path.stem]] if path.stem in STUDY
           else [p for p in (root / "nbs").glob(f"1*_{path.stem}.ipynb")])
    assert nbs, f"no study notebook nbs/1*_{path.stem}.ipynb"
    for nb in nbs:
        cells = json.loads(nb.read_text())["cells"]
        long = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and len("".join(c["source"]).splitlines()) > 60]
        assert long == [], f"{nb.name}: code cells {long} are over 60 lines"


def _declared(part: dict) -> dict:
    "What a part declares that a verdict rests on, as the ledger records it in its Claim (`register.make_claim`)."
    from nlicompendium.register import TESTS
    expect = part.get("expect", "holds" if TESTS[part["test"]] == "data" else "greater")
    return {"expect": expect, "margin": part.get("margin"), "family": part.get("family") or "",
            "at_least": int(part.get("at_least") or 0), "by": float(part.get("by") or 0.0)}


@pytest.mark.parametrize("path", REGISTERS, ids=lambda p: p.stem)
def test_committed_evidence_follows_the_register(root, path):
    """Each committed call's declaration (tables/<job>/claims_declarations.json) equals the register's: margin, expect,
    family, and for data statements the paper's value and tolerance. A field that differs must be one of the part's
    amendments, with the committed value as the value after it."""
    from nlicompendium.register import load_register
    decls = [root / "tables" / j / "claims_declarations.json" for j in JOBS.get(path.stem, (path.stem,))]
    if not all(d.is_file() for d in decls): pytest.skip(f"no committed evidence for {path.stem}")
    reg = load_register(path, job="all")
    short = lambda name: name.split()[0].split("'")[0]  # 'RoNLI' in "RoNLI's SciNLI analogue (...)": a paper's ledgers
    by_job = [[c for L in json.loads(d.read_text())["ledgers"] if short(L["paper"]) == short(reg["paper"])
               for c in L["calls"] if "c" in c["args"]] for d in decls]
    calls = [c for cs in by_job for c in cs]
    parts = {p["key"]: p for c in reg["conclusions"] for p in c["parts"]}
    keys = [{c["args"]["c"]["claim"]["key"] for c in cs} for cs in by_job]  # each job decides a share of the register
    if not all(k <= set(parts) for k in keys) or set().union(*keys) != set(parts):
        pytest.skip("the committed evidence predates the register: its keys differ (regenerate the job)")
    bad = []
    for call in calls:
        claim, args = call["args"]["c"]["claim"], call["args"]
        p = parts.get(claim["key"])
        if p is None: bad.append(f"{claim['key']}: in the evidence, not in the register"); continue
        want = _declared(p) | ({"paper": p.get("value"), "tolerance": float(p.get("tolerance", 0.0))}
                               if call["method"] == "data" and p["test"] != "holds" else {})
        got = {k: claim.get(k, args.get(k)) for k in want}
        got["family"] = got.get("family") or ""
        got |= {k: claim.get(k, 0) for k in ("at_least", "by")}  # evidence older than these fields: none declared
        amended = {a["field"]: a for a in p.get("amendments") or ()}
        for k in want:
            if got[k] != want[k] and not (k in amended and amended[k]["after"] == got[k]):
                bad.append(f"{claim['key']}: {k} committed {got[k]!r}, registered {want[k]!r}, no amendment says so")
        recorded = [(a["field"], a["before"]) for a in claim.get("amendments") or ()]
        if recorded != [(a["field"], a["before"]) for a in p.get("amendments") or ()]:
            bad.append(f"{claim['key']}: amendments committed {recorded}, registered otherwise")
    assert bad == [], bad
