"""MSciNLI's registers (nbs/registers/mscinli.yaml, mscinli_data.yaml) against its study notebook
(nbs/14_mscinli.ipynb): a decided conclusion holds no not-testable part, one quote is one conclusion, post-hoc
comparators are amendments, and every fact a part names in braces is one the notebook computes."""
import json
import re
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
REGS = ROOT / "nbs" / "registers"
NB = ROOT / "nbs" / "14_mscinli.ipynb"
RUN_FACTS = {"data_all", "data", "model", "seeds"}  # `decide`'s run facts, not the notebook's F


@pytest.fixture(scope="module")
def regs():
    from nlicompendium.register import load_register
    text = (ROOT.parent / "shared" / "papers" / "mscinli.txt")
    paper = text.read_text(encoding="utf-8") if text.is_file() else None
    return {n: load_register(REGS / f"{n}.yaml", paper) for n in ("mscinli", "mscinli_data")}


def _code():
    return "\n".join("".join(c["source"]) for c in json.loads(NB.read_text())["cells"] if c["cell_type"] == "code")


def test_a_decided_conclusion_holds_no_idle_part(regs):
    "A not-testable or not-run part sits in its own conclusion: a decided conclusion could never read supported."
    idle = ("not testable", "not run")
    bad = [(c["key"], p["key"]) for r in regs.values() for c in r["conclusions"] if c["evidence"] not in idle
           for p in c["parts"] if p.get("evidence", c["evidence"]) in idle]
    assert bad in ([], [("scinli_table2_row", "scinli_table2_rest")]), bad  # a data row: its unchecked cells, named


def test_one_quote_one_conclusion(regs):
    "No quote of one conclusion stands inside another's: overlapping quotes of one sentence or row count once."
    qs = [(c["key"], re.sub(r"\s+", " ", c["quote"])) for r in regs.values() for c in r["conclusions"]]
    inside = lambda qa, qb: all(s.strip() in qb for s in qa.split("...") if s.strip())
    bad = [(a, b) for a, qa in qs for b, qb in qs if a != b and inside(qa, qb)]
    assert bad == [], bad


def test_post_hoc_comparator_is_an_amendment(regs):
    "The random-draw comparator of 'ambiguousness helps' came after Table 7 printed: it is recorded, dated."
    parts = {p["key"]: p for c in regs["mscinli"]["conclusions"] for p in c["parts"]}
    am = parts["ambiguous_vs_random"].get("amendments") or []
    assert am and str(am[0]["date"]) == "2026-11-28", am
    for k in ("minus_25pct_hard_equal", "minus_5pct_hard_equal"):  # the margin is the committed one
        assert parts[k]["margin"] == 1.0 and any("power" in x for x in parts[k]["level"]), k
    for k in ("easy_below_full", "hard_below_full", "ambiguous_below_full"):  # the size control is cited
        assert "{size_control}" in parts[k]["level"], k


def test_every_fact_a_part_names_is_computed():
    "Each {fact} of a model part's reading and level is a key the notebook puts in F (or a run fact)."
    import yaml
    reg = yaml.safe_load((REGS / "mscinli.yaml").read_text(encoding="utf-8"))
    code = _code()
    named = set()
    for c in reg["conclusions"]:
        for p in c["parts"]:
            if p["test"] == "none": continue
            for f in ("reading", "level"):
                v = p.get(f) or ""
                for s in (v if isinstance(v, list) else [v]): named |= set(re.findall(r"\{(\w+)", s))
    missing = [k for k in sorted(named - RUN_FACTS) if f'"{k}"' not in code]
    assert missing == [], missing


def test_code_cells_are_short():
    cells = json.loads(NB.read_text())["cells"]
    long = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and len("".join(c["source"]).splitlines()) > 60]
    assert long == [], long
