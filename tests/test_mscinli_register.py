"""MSciNLI's register (nbs/registers/mscinli.yaml, the data job's conclusions with it) against its study notebook
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
IDLE = ("not testable", "not run")


@pytest.fixture(scope="module")
def regs():
    from nlicompendium.register import load_register
    text = (ROOT.parent / "shared" / "papers" / "mscinli.txt")
    paper = text.read_text(encoding="utf-8") if text.is_file() else None
    return {j or "mscinli": load_register(REGS / "mscinli.yaml", paper, job=j) for j in (None, "datasets")}


def _code(nb=NB):
    return "\n".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code")


def test_a_decided_conclusion_holds_no_idle_part(regs):
    """A not-testable part sits in its own conclusion: a decided conclusion could never read supported. A part not run
    may sit there only naming the run that decides it (a bound the study does not hand its scores yet): it holds its
    conclusion at 'not run here' on purpose, since the decided parts alone do not test the quote."""
    bad = [(c["key"], p["key"]) for r in regs.values() for c in r["conclusions"] if c["evidence"] not in IDLE
           for p in c["parts"] if p.get("evidence", c["evidence"]) == "not testable"
           or (p.get("evidence") == "not run" and not p.get("command"))]
    rows = [("scinli_table2_row", "scinli_table2_rest"), ("mscinli_table2", "mscinli_table2_rest")]
    assert set(bad) <= set(rows), bad  # a Table 2 row is one quote: its unchecked cells, named, hold it from 'supported'


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
    "Each {fact} of a model part's reading and level is a key its job's notebook puts in F (or a run fact)."
    import yaml
    reg = yaml.safe_load((REGS / "mscinli.yaml").read_text(encoding="utf-8"))
    code = {None: _code(), "datasets": _code(ROOT / "nbs" / "10_datasets.ipynb")}  # the notebook of a conclusion's job
    named, missing = {j: set() for j in code}, []
    for c in reg["conclusions"]:
        for p in c["parts"]:
            if p["test"] == "none": continue
            for f in ("reading", "level"):
                v = p.get(f) or ""
                for s in (v if isinstance(v, list) else [v]): named[c.get("job")] |= set(re.findall(r"\{(\w+)", s))
    missing = [(j, k) for j, ks in named.items() for k in sorted(ks - RUN_FACTS) if f'"{k}"' not in code[j]]
    assert missing == [], missing


def test_code_cells_are_short():
    cells = json.loads(NB.read_text())["cells"]
    long = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and len("".join(c["source"]).splitlines()) > 60]
    assert long == [], long


def _decide_conclusion(reg, key, scores):
    "conftest.decide_conclusion for this paper."
    from conftest import decide_conclusion
    return decide_conclusion(reg, key, scores, "MSciNLI")


def _part(reg, key):
    return next(p for c in reg["conclusions"] for p in c["parts"] if p["key"] == key)


FACTS = {"plm": "the PLM", "data": "the test pairs", "lvl_hyp_full": "", "lvl_hyp_chance": "", "standin": "",
         "chance": 25.0}
SYSTEMS = {n: {"score": 60.0, "majority": 10.0, "chance": 25.0, "data": "t"}
           for n in ("PLM", "PLM, second sentence only")}


def test_a_large_drop_and_much_above_chance_have_bounds_declared_before_the_run(regs):
    """App. C.4, 'decreases by a large margin' and 'much higher than chance': each has a bound, half the paper's smaller
    printed share of the lead over chance 25 (Table 17, computed here from the paper's four numbers), declared before
    any run. The study hands each the per-seed share kept (nbs/14_mscinli.ipynb): a 1-point drop, which the direction
    part alone calls supported, keeps nearly all of the lead and contradicts the 'large margin'."""
    import numpy as np
    from scipy import stats
    lost = min((77.21 - 52.55) / (77.21 - 25), (76.48 - 53.14) / (76.48 - 25))  # Table 17: RoBERTa, SciBERT
    kept = min((52.55 - 25) / (77.21 - 25), (53.14 - 25) / (76.48 - 25))
    reg = regs["mscinli"]
    big, high = _part(reg, "hyp_only_drop_large"), _part(reg, "hyp_only_well_above_chance")
    assert f"{100 * lost / 2:.1f}%" in big["reading"] and f"{100 - 100 * lost / 2:.1f}" in big["b"], big["b"]
    assert f"{100 * kept / 2:.1f}%" in high["reading"] and f"{100 * kept / 2:.1f}%" in high["b"], high["b"]
    assert big["value"] == pytest.approx(100 - 100 * lost / 2, abs=0.05) and high["value"] == pytest.approx(
        100 * kept / 2, abs=0.05)
    assert (big["expect"], high["expect"]) == ("less", "greater") and not big.get("amendments")  # before the numbers
    seeds = np.array([60.0, 61, 59, 60.5, 60])
    share = 100 * (seeds - 1 - 25) / (seeds - 25)  # the share of the lead kept after a 1-point drop: about 97%
    scores = {"systems": SYSTEMS, "hyp_only_below_full": {"a": seeds - 1, "b": seeds, "facts": FACTS},
              "hyp_only_drop_large": {"a": share, "b": big["value"]}}
    rows, con = _decide_conclusion(reg, "second_sentence_drop", scores)
    assert rows.loc["hyp_only_below_full", "verdict"] == "supported"  # the direction alone: a 1-point drop passes
    assert rows.loc["hyp_only_drop_large", "verdict"] == "contradicted" and con.verdict == "contradicted", con
    half = 100 * (seeds - 17 - 25) / (seeds - 25)  # a 17-point drop keeps about half the lead, as the paper's
    rows, con = _decide_conclusion(reg, "second_sentence_drop", scores | {"hyp_only_below_full": {
        "a": seeds - 17, "b": seeds, "facts": FACTS}, "hyp_only_drop_large": {"a": half, "b": big["value"]}})
    assert rows.loc["hyp_only_drop_large", "verdict"] == "supported" and con.verdict == "supported", con
    assert rows.loc["hyp_only_drop_large", "p"] == pytest.approx(stats.ttest_1samp(half, big["value"]).pvalue)
    scores = {"systems": SYSTEMS, "hyp_only_above_chance": {"a": seeds - 30, "b": 25.0, "facts": FACTS},
              "hyp_only_well_above_chance": {"a": 100 * (seeds - 30 - 25) / (seeds - 25), "b": high["value"]}}
    rows, con = _decide_conclusion(reg, "second_sentence_above_chance", scores)  # 5 points above chance: 14% kept
    assert rows.loc["hyp_only_above_chance", "verdict"] == "supported", rows.loc["hyp_only_above_chance", "reason"]
    assert rows.loc["hyp_only_well_above_chance", "verdict"] == "contradicted" and con.verdict == "contradicted", con


LLM_PARTS = ("llms_challenged", "llama_vs_mistral", "prompt3_best", "few_shot_helps", "llama_in_context",
             "mistral_in_context", "llama_class_wise")


@pytest.mark.parametrize("key", LLM_PARTS)
def test_the_llm_parts_are_declared_over_examples_and_not_run_without_answers(regs, key):
    """§4.2.2 and App. C.2: each LLM part names its comparisons, each decided over the test examples of one greedy run
    (test example-pairs), declared before any LLM answered here; the study hands over every prompt's answers, read back
    from the files it writes; without them (cpu, or an LLM that could not be loaded) the row is 'not run here', with
    the gpu run that decides it."""
    from conftest import decide_one
    p = _part(regs["mscinli"], key)
    assert p["test"] == "example-pairs" and p["comparisons"] and "--profile gpu --jobs mscinli" in p["command"], key
    assert 'out_dir=st.out' in _code() and "answers(n, p) for n in ran_llm for p in PROMPTS" in _code()
    r = decide_one(regs["mscinli"], key, {"not_run": "the answers of Llama-2 (no LLM on profile cpu)",
                                              "facts": {"plm": "x", "llm_level": "y", "llm_share": "w", "standin": "z"}}, "MSciNLI")
    assert r.verdict == "not run here" and "--profile gpu" in r.reason and "Llama-2" in r.reason, r.reason


def _answers(acc: dict, n=400, seed=0):
    "Synthetic answers on n pairs of 4 classes: each system right on a share of them, else a random class."
    import numpy as np
    gold = np.random.default_rng(seed).integers(0, 4, n)
    def one(a, s):
        r = np.random.default_rng(s)
        return np.where(r.random(n) < a, gold, r.integers(0, 4, n))
    pred = {k: (np.stack([one(a[0], 100 + j) for j in range(3)]) if isinstance(a, tuple) else one(a, 10 + i))
            for i, (k, a) in enumerate(acc.items())}
    return {"gold": gold, "pred": pred, "names": ["contrasting", "reasoning", "entailment", "neutral"],
            "facts": {"llm_level": "x", "llm_share": "w", "standin": "y", "plm": "the PLM"}}


def test_the_llm_parts_decide_as_declared(regs):
    """Synthetic answers whose order is plain: Table 5's own pattern (Prompt 3 ahead but for Mistral's few-shot pair)
    holds prompt3_best's declared 5 of 8 (a majority), so does a pattern with 5 ahead and one tie, which the paper's own
    count (6) would leave undecided, and 4 against contradicts it; the best prompt 'far below' the PLM holds
    llms_challenged only beyond the declared 12.7 points (its estimate is sklearn's difference plus 12.7)."""
    import numpy as np
    from sklearn.metrics import f1_score
    from conftest import decide_one
    reg, L, M = regs["mscinli"], "Llama-2, Prompt ", "Mistral, Prompt "
    grid = lambda m3z, m3f: ({f"{L}{p}": 0.9 if p[0] == "3" else 0.4 for p in ("1zs", "2zs", "3zs", "1fs", "2fs", "3fs")}
                             | {f"{M}{p}": {"3zs": m3z, "3fs": m3f}.get(p, 0.7) for p in ("1zs", "2zs", "3zs", "1fs", "2fs", "3fs")})
    assert decide_one(reg, "prompt3_best", _answers(grid(0.95, 0.3)), "MSciNLI").verdict == "supported"  # 6 of 8
    five = _answers(grid(0.95, 0.3) | {f"{M}2zs": 0.95})  # Mistral's Prompt 3zs ties its Prompt 2zs: 5 ahead, 1 tie
    assert decide_one(reg, "prompt3_best", five, "MSciNLI").verdict == "supported"
    assert decide_one(reg, "prompt3_best", _answers(grid(0.3, 0.3)), "MSciNLI").verdict == "contradicted"  # 4 against
    six = lambda **hi: _answers({f"{L}3fs": 0.9} | {f"{M}{p}": hi.get(f"m{p}", 0.5) for p in ("1zs", "2zs", "3zs", "1fs", "2fs", "3fs")})
    assert decide_one(reg, "llama_vs_mistral", six(), "MSciNLI").verdict == "supported"
    # best against best: Mistral ahead with a prompt other than the paper's 1fs cell is a counterexample
    assert decide_one(reg, "llama_vs_mistral", six(m2zs=0.99), "MSciNLI").verdict == "contradicted"
    far, above = _answers({f"{L}3fs": 0.5, "PLM": (0.95,)}), _answers({f"{L}3fs": 0.97, "PLM": (0.8,)})
    assert "by" not in _part(reg, "llms_challenged")  # a direction: no size in points on a PLM of 2,000 pairs
    assert decide_one(reg, "llms_challenged", far, "MSciNLI").verdict == "supported"
    r = decide_one(reg, "llms_challenged", above, "MSciNLI")  # the LLM ahead of the PLM
    mf = lambda p: 100 * f1_score(above["gold"], p, labels=range(4), average="macro", zero_division=0)
    want = mf(above["pred"][f"{L}3fs"]) - np.mean([mf(p) for p in above["pred"]["PLM"]])
    assert r.verdict == "contradicted" and float(r["estimate (A - B)"]) == pytest.approx(want, abs=1e-4), r
    # App. l.181 for each LLM on its own: 2 of its 3 few-shot prompts ahead; Mistral 1 of 3 is not enough
    fs = {f"{L}{q}fs": 0.9 for q in "123"} | {f"{L}{q}zs": 0.4 for q in "123"} | {f"{M}1fs": 0.9, f"{M}2fs": 0.4,
          f"{M}3fs": 0.4} | {f"{M}{q}zs": 0.4 for q in "123"}
    assert decide_one(reg, "llama_in_context", _answers(fs), "MSciNLI").verdict == "supported"
    assert decide_one(reg, "mistral_in_context", _answers(fs), "MSciNLI").verdict != "supported"
    assert decide_one(reg, "mistral_in_context", _answers(fs | {f"{M}2fs": 0.9}), "MSciNLI").verdict == "supported"
    s = _answers({f"{L}3fs": 1.0})  # right on contrasting and neutral; half of reasoning and entailment parse to no class
    s["pred"][f"{L}3fs"] = np.where(np.isin(s["gold"], [1, 2]) & (np.arange(400) % 2 == 0), 4, s["gold"])
    assert decide_one(reg, "llama_class_wise", s, "MSciNLI").verdict == "supported"


def test_the_data_map_conclusion_is_declared(regs):
    """App. E.2: high correctness in the high-confidence region, very low in the low. The paper gives no number, so
    no bound of ours decides it (the bounds 0.8 and 0.2 were chosen with the map in view, and are recorded as
    amended to not testable): not testable here, whatever the map's thirds give; the level keeps their means."""
    from conftest import decide_one
    reg = regs["mscinli"]
    con = next(c for c in reg["conclusions"] if c["key"] == "datamap_correctness")
    hi, lo = _part(reg, "datamap_high_confidence_correct"), _part(reg, "datamap_low_confidence_incorrect")
    assert con["evidence"] == "not testable" and (hi["test"], lo["test"]) == ("none", "none")
    for p_ in (hi, lo):
        assert [a["field"] for a in p_["amendments"]] == ["added", "test"] and p_["amendments"][1]["before"] == "holds"
        assert "no number" in p_["why"] and "no number" in p_["b"]
    assert "cartography_metrics(dyn)" in _code() and '"datamap_high_confidence_correct", "33% easy"' in _code()
    for k, fact in ((hi["key"], "datamap_high"), (lo["key"], "datamap_low")):
        for here in (True, False):
            assert decide_one(reg, k, {"here": here, "facts": {fact: "x"}}, "MSciNLI").verdict == "not testable here"


def test_the_plm_class_gaps_are_decided_over_examples_and_seeds(regs):
    """App. C.2 for the PLM: a class's F1 against another's is one comparison over the test examples and the PLM's
    seeds (its p from the bootstrap, not a t over 5 seed means): a clear gap is supported, none is undecided, and the
    estimate is the seeds' mean of sklearn's per-class F1 difference."""
    import numpy as np
    from sklearn.metrics import f1_score
    from conftest import decide_one
    reg = regs["mscinli"]
    assert all(_part(reg, k)["test"] == "example-pairs" for k in ("contrasting_above_reasoning", "neutral_above_entailment"))
    facts = {"plm": "the PLM", "n_train": 2000, "data": "the test pairs", "lvl_class": "x", "standin": "y"}
    s = _answers({"PLM": (0.6,)}, n=800) | {"facts": facts}
    s["pred"]["PLM"] = np.where(np.isin(s["gold"], [0, 3]), s["gold"], s["pred"]["PLM"])  # right on contrasting, neutral
    r = decide_one(reg, "contrasting_above_reasoning", s, "MSciNLI")
    f1 = lambda pr, c: 100 * f1_score(s["gold"], pr, labels=[c], average="macro", zero_division=0)
    want = np.mean([f1(pr, 0) - f1(pr, 1) for pr in s["pred"]["PLM"]])
    assert r.verdict == "supported" and float(r["estimate (A - B)"]) == pytest.approx(want, abs=1e-4), r
    flat = _answers({"PLM": (0.6,)}, n=800) | {"facts": facts}  # no class favoured
    assert decide_one(reg, "contrasting_above_reasoning", flat, "MSciNLI").verdict != "supported"


def test_substantially_is_a_declared_share_of_berts_lead(regs):
    """§4.2.1's 'substantially': each seed's gain over BERT as a share of BERT's lead over chance, against 2.4% (half
    the paper's smaller share, XLNet's 2.27 / 48.24): 1 point over a BERT at 65 (2.5%) is not enough with this spread,
    4 points (10%) is; the p is scipy's two-sided one-sample t."""
    import numpy as np
    from scipy import stats
    from conftest import decide_one
    reg = regs["mscinli"]
    for m in ("roberta", "xlnet"):
        p = _part(reg, f"{m}_bert_substantially")
        assert (p["test"], p["value"], p["expect"]) == ("welch", 2.4, "greater")
        assert round(100 * 2.27 / (73.24 - 25) / 2, 1) == p["value"]
    bert = np.array([64.0, 65.5, 65.0, 66.0, 64.5])
    share = lambda gain: 100 * gain / (bert - 25)
    big = share(np.array([3.5, 4.5, 4.0, 3.8, 4.2]))
    r = decide_one(reg, "roberta_bert_substantially", {"a": big, "b": 2.4}, "MSciNLI")
    assert r.verdict == "supported" and r.p == pytest.approx(stats.ttest_1samp(big, 2.4).pvalue, rel=1e-9), r
    assert 'gain = lambda: 100 * (np.asarray(overall[m], float) - overall["BERT"]) / (np.asarray(overall["BERT"], float) - chance)' in _code()
    small = share(np.array([0.5, 1.5, 1.0, 0.8, 1.2]))
    assert decide_one(reg, "roberta_bert_substantially", {"a": small, "b": 2.4}, "MSciNLI").verdict != "supported"
