"""The claims rules that leave no choice after the results, each checked on a case built from a committed row, and the
committed declarations against their own history (an amendment no record names fails).

Each rule's test fails on the library as it stood before the rules (f14c551): run them on that tree with
`git worktree add /tmp/wt-f14 f14c551 && PYTHONPATH=/tmp/wt-f14 .venv/bin/pytest -q tests/test_claims_rules.py -k rule`."""
import json, subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from nlicompendium import claims as C
from nlicompendium.claims import Claim, Claims

ROOT = Path(__file__).resolve().parent.parent


def test_the_library_under_test():
    "Which tree's library these tests run on (PYTHONPATH may point at an older one)."
    print(C.__file__)
    assert Path(C.__file__).name == "claims.py"


def test_rule_a_a_conclusion_counts_once_across_settings_and_a_quote_is_one():
    "CB's cbow_poor spans settings; TaxiNLI's §4.2 sentence was split into conclusions of its own."
    t = pd.DataFrame({"kind": "paper's claim", "paper": ["CB"] * 3 + ["TaxiNLI"] * 3,
                      "setting": [C.SETTINGS["substitute data"], C.SETTINGS["substitute model"],
                                  C.SETTINGS["substitute data"]] + [C.SETTINGS["re-analysis"]] * 3,
                      "conclusion": ["cbow_poor"] * 3 + ["lr_syntactic", "lr_negation", "lr_spatial"],
                      "quote": ["CBOW performs poorly"] * 3 + ["the presence of syntactic ... indicators"] * 3,
                      "verdict": ["supported", "supported", "same direction, inconclusive"] * 2})
    bc = C.by_conclusion(t)
    assert bc.rows.tolist() == [3, 3], bc
    assert bc.verdict.tolist() == ["same direction, inconclusive"] * 2


def test_rule_a_committed_cb_counts_its_conclusions_once():
    """CB's committed rows count one conclusion per conclusion id, as many as its register declares (once, with 26
    ids, the count showed 30: one per setting a conclusion spans)."""
    import yaml
    t = pd.read_csv(ROOT / "tables" / "cb" / "claims.csv")
    reg = yaml.safe_load((ROOT / "nbs" / "registers" / "cb.yaml").read_text())
    declared = {c["key"] for c in reg["conclusions"] if c.get("job", "cb") == "cb"}
    assert len(C.by_conclusion(t)) == t.conclusion.nunique() == len(declared)


def _lr_ledger():
    "TaxiNLI's seven §4.2 coefficients as committed (one quote), each a part of one conclusion."
    est = {"syntactic": .2345, "negation": .8107, "spatial": .1856, "conditional": -.2841, "relational": -.0221,
           "causal": -.2896, "coreference": -.2027}
    ps = {"syntactic": .00302, "negation": 6.2e-14, "spatial": .325, "conditional": .212, "relational": .882,
          "causal": 6.6e-5, "coreference": .0446}
    se = {"syntactic": .0790, "negation": .1080, "spatial": .1887, "conditional": .2274, "relational": .1491,
          "causal": .0726, "coreference": .1009}
    led = Claims("TaxiNLI", "released predictions")
    for k in est:
        ex = "greater" if k in ("syntactic", "negation", "spatial") else "less"
        led.statistic(Claim(k, f"{k} predicts", "§4.2", "-", k, "0", "LR coefficient", ex, unit="examples",
                            quote="the presence of syntactic, negation ... indicators", conclusion=f"lr_{k}"),
                      est[k], ps[k], est[k] - 1.96 * se[k], est[k] + 1.96 * se[k], test="logistic regression")
    return led.table().set_index("key")


def test_rule_b_parts_of_one_sentence_are_corrected_within_their_family():
    "Holm over the seven coefficients (statsmodels): coreference, p = 0.045, is not significant among them."
    from statsmodels.stats.multitest import multipletests
    t = _lr_ledger()
    assert t.verdict["coreference"] != "supported", t.verdict["coreference"]
    assert t.verdict["causal"] == t.verdict["negation"] == "supported"
    holm = multipletests([.00302, 6.2e-14, .325, .212, .882, 6.6e-5, .0446], method="holm")[1][-1]
    assert f"adjusted p = {holm:.3g}" in t.reason["coreference"]


def test_rule_b_against_the_others_is_corrected_over_the_declared_set():
    "TaxiNLI's syntactic gain tested against the largest of 13 other gains: its family is the 13 (p 0.016 x 13)."
    led = Claims("TaxiNLI", "released predictions")
    led.statistic(Claim("gain_syntactic", "syntactic gains more than the others", "§4.1", "-", "syntactic", "spatial",
                        "gain", unit="examples", family="others", family_size=13),
                  -0.0962, 0.01615, -0.1743, -0.0180, test="Welch t-test over pairs")
    assert led.table().verdict[0] == "opposite direction, inconclusive"


def test_rule_c_a_margin_is_decided_by_tost_alone():
    "CB's Fig. 1 entailment row: 2.7 points apart, significant, far inside its margin of 10: equivalent."
    a = [61.2, 62.0, 60.7, 61.5, 62.3]; b = [64.3, 64.4, 64.1, 64.6, 63.9]  # A - B = -2.7, Welch p << 0.05
    led = Claims("CB", "model X", aso_iterations=0)
    r = led.seeds(Claim("fig1_entailment", "CB only is like the Heuristics", "§4", "-", "CB only", "Heuristics",
                        expect="equal", margin=10.0), a, b)
    assert r["p"] < 0.05 and r["TOST p"] < 0.05 and r["verdict"] == "supported", (r["verdict"], r["reason"])


def test_rule_c_without_a_margin_only_contradicted_or_undecided():
    same = [0.50, 0.51, 0.49, 0.50, 0.505], [0.50, 0.495, 0.505, 0.49, 0.51]
    r = Claims("P", "x", aso_iterations=0).seeds(Claim("nd", "no difference", "§5", "n.s.", "A", "B", expect="equal"),
                                                  *same)
    assert r["verdict"] == "inconclusive (tie)" and "only be contradicted or undecided" in r["reason"], r["verdict"]


def test_rule_d_one_seed_out_guards_an_undecided_no_difference_claim():
    "MSciNLI's 100% - 5% row as committed: per seed A - B -15.69, -3.60, +1.14, +2.11, +0.28 against a margin of 1."
    full = np.array([77.5, 77.0, 76.8, 77.3, 77.1]); cut = full + np.array([-15.69, -3.60, 1.14, 2.11, 0.28])
    r = Claims("MSciNLI", "x", aso_iterations=0).seeds(
        Claim("minus_5pct", "no difference", "§4.3.1", "-", "100% - 5%", "100%", expect="equal", margin=1.0,
              test="paired-t"), cut, full)
    assert r["verdict"] == "inconclusive (tie)", (r["verdict"], r["reason"])


def test_rule_d_one_seed_out_guards_a_verdict_over_examples():
    "A significant difference over seeds and examples that one seed carries (CB's Yes-items: p = 0.13 without one)."
    rx = np.random.default_rng(5); g = rx.integers(0, 3, 200)
    pred = lambda q: np.where(rx.random(200) < q, g, (g + 1) % 3)
    pa, pb = np.stack([pred(q) for q in (.75, .75, .75, .75, .98)]), np.stack([pred(.70) for _ in range(5)])
    r = Claims("CB", "x", n_resamples=400).examples(Claim("k", "A beats B", "§4", "-", "A", "B", "accuracy",
                                                          unit="seeds and examples"), g, pa, pb, 3)
    assert r["p"] < 0.05 and r["verdict"] == "same direction, inconclusive", (r["verdict"], r["reason"])


def test_rule_e_the_floor_is_the_higher_of_majority_and_uniform_chance():
    "MSciNLI's 33% hard model: 15.57 macro F1 on a balanced 4-class test; majority class 10, uniform chance 25."
    led = Claims("MSciNLI", "x", aso_iterations=0)
    led.system("hard", 15.57, 10.0, "SciNLI test (macro F1, %)", chance=C.uniform_chance("macro F1", [1] * 4, 100))
    r = led.seeds(Claim("amb_vs_hard", "ambiguous beats hard", "§4.3.1", "-", "amb", "hard"), [33.1, 32.0, 32.5],
                  [15.1, 16.2, 15.4])
    assert r["verdict"] == "not comparable here"
    t = C.recheck(*C.load_evidence(ROOT / "tables" / "mscinli")).set_index("key")
    assert t.verdict["ambiguous_vs_hard"] == t.verdict["hard_below_full"] == "not comparable here"


def test_rule_f_sampling_error_is_not_drift():
    "Welch p = 0.075 over 3 + 3 seeds: A - B = 0.027, inside its 95% interval but beyond the drift measured between"
    " machines (1.67 of its standard errors), names its direction (half the interval made it a tie)."
    r = Claims("P", "x", aso_iterations=0).seeds(Claim("lean", "A beats B", "§5", "-", "A", "B"),
                                                  [0.35, 0.36, 0.33], [0.32, 0.31, 0.33])
    assert r["p"] > 0.05 and r["CI low"] < 0 < r["CI high"]
    assert r["verdict"] == "same direction, inconclusive", (r["verdict"], r["reason"])


def test_rule_f_a_direction_is_named_only_beyond_the_measured_drift():
    "20 + 20 seeds, A - B at 0.6 of the drift --verify allows (no one seed moves it across 0): no direction."
    from scipy import stats
    a = np.linspace(0.30, 0.40, 20); ci = stats.ttest_ind(a, a, equal_var=False).confidence_interval()
    b = a - 0.6 * C.verify_tolerance(ci.low, ci.high)  # the same spread: the same interval, shifted
    r = Claims("P", "x", aso_iterations=0).seeds(Claim("flat", "A beats B", "§5", "-", "A", "B"), a, b)
    assert r["verdict"] == "inconclusive (tie)" and "the largest drift measured" in r["reason"], r["reason"]


def test_rule_f_the_declared_drift_is_the_measured_one():
    "VERIFY_DRIFT's largest move is the largest in benchmarks/verify_drift.csv (rounded up), and it names its source."
    t = pd.read_csv(ROOT / "benchmarks" / "verify_drift.csv")
    assert len(t) and t["moved / SE"].max() <= C.VERIFY_DRIFT["largest"] <= t["moved / SE"].max() + 0.01
    assert "verify_drift" in C.VERIFY_DRIFT["source"] and C.VERIFY_DRIFT["multiple"] >= 1
    se = (0.01 - -0.03) / 2 / 1.959963984540054
    assert C.verify_tolerance(-0.03, 0.01) == pytest.approx(C.VERIFY_DRIFT["multiple"] * C.VERIFY_DRIFT["largest"] * se)


def test_rule_f_the_tolerance_is_the_one_verify_applies():
    from nlicompendium.cli import compare_claims
    t = pd.DataFrame({"key": ["k", "d"], "unit": ["seeds", "data"], "verdict": "x", "estimate (A - B)": [0.1, 3.0],
                      "CI low": [-0.03, np.nan], "CI high": [0.01, np.nan]})
    tol = compare_claims(t, t).tolerance.tolist()
    assert tol[0] == pytest.approx(C.verify_tolerance(-0.03, 0.01)) and tol[1] == C.verify_tolerance(0, 0, "data")
    r = t.assign(evidence=C.EVIDENCE["re-analysis"])  # released predictions: nothing to drift
    assert compare_claims(r, r).tolerance.tolist() == [0.0, 0.0]


def test_rule_g_repeats_of_an_example_across_seeds_are_not_independent():
    "Seeds that disagree (A +10 on three, -8 on two): 5 x 1,000 flattened pairs give a tiny p; seeds kept apart, no."
    from nlicompendium.stats import cochrans_q
    rg = np.random.default_rng(7); g = rg.integers(0, 3, 1000)
    acc = lambda q: np.where(rg.random(1000) < q, g, (g + 1) % 3)
    pa, pb = np.stack([acc(q) for q in (.8, .8, .8, .62, .62)]), np.stack([acc(.7) for _ in range(5)])
    flat = cochrans_q(np.column_stack([(pa == g).ravel(), (pb == g).ravel()])).pvalue
    e = C.over_examples(g, pa, pb, test="cochran", n_resamples=500)
    assert flat < 0.05 < e.p and e.low < 0 < e.high, (flat, e.p)


def test_rule_h_a_data_statistic_is_contradicted_only_after_definitions_and_conventions():
    led = Claims("P", "data only")
    d = lambda k: Claim(k, "56.3%", "Table 2", "56.3", "share", "paper", "", "holds", "data")
    assert led.data(d("trunc"), 56.38, 56.3)["verdict"] == "supported"  # the paper truncates
    r = led.data(d("undeclared"), 56.4, 56.3, 0.05)
    assert r["verdict"] != "contradicted", r["verdict"]  # the official definitions were not tried
    r = led.data(d("tried"), 56.4, 56.3, 0.05, definitions={"the official code's denominator": 56.5})
    assert r["verdict"] == "contradicted" and "the official code's denominator (56.5)" in r["reason"]
    assert "rounded and truncated" in r["reason"]


def test_rule_h_nothing_declared_to_try_reads_not_run_and_names_what_to_try():
    "A statistic that differs with no definition declared is not a tie: the official definitions were not run here."
    led = Claims("P", "data only")
    d = lambda k: Claim(k, "56.3%", "Table 2", "56.3", "share", "paper", "", "holds", "data")
    for r in (led.data(d("number"), 56.4, 56.3, 0.05), led.data(d("bool"), False, statistic="2,843 vs 877")):
        assert (r["verdict"], r["evidence"], r["computed by"]) == ("not run here", C.EVIDENCE["not run"], ""), r
        assert r["reason"].startswith("not run here: needs the official code's definitions") and "; run: " in r["reason"]


def test_rule_h_declared_tries_that_all_fail_are_contradicted():
    "TaxiNLI's Fig. 4 as declared before its amendment: factivity negative with at least 12 of 13 categories, 11 here;"
    " no other definition exists (declared empty): contradicted, and the amended row keeps that verdict."
    led = Claims("TaxiNLI", "the released data")
    am = ({"field": "tolerance", "before": 1, "reason": "'almost all' re-read after a run showed 11", "date": "2026-11-26"},)
    c = Claim("fig4_factivity", "negative with almost all of 13", "Fig. 4", "-", "negative", "13", "", "holds", "data",
              amendments=am)
    r = led.data(c, 11, 13, 2, definitions={})
    assert (r["verdict"], r["kind"]) == ("contradicted", "exploratory"), (r["verdict"], r["reason"])
    assert "under the amendment: supported" in r["reason"]


def test_rule_i_an_amendment_keeps_the_verdict_declared_before():
    "CB's Fig. 1 margin, 12.8 before, 10 after the gaps were printed: 12.8's verdict stands, counted as exploratory."
    am = ({"field": "margin", "before": 12.8, "reason": "set after a read printed the gaps", "date": "2026-11-26"},)
    a, b = [70.5, 71.0, 70.8, 71.2, 70.6], [60.0, 59.6, 60.3, 59.8, 60.1]  # 11 apart: inside 12.8, outside 10
    led = Claims("CB", "x", aso_iterations=0)
    r = led.seeds(Claim("fig1", "like", "§4", "-", "A", "B", expect="equal", margin=10.0, amendments=am), a, b)
    assert (r["verdict"], r["kind"]) == ("supported", "exploratory") and "margin 12.8 -> 10.0" in r["reason"]
    assert C.count_table(led.table()).index.get_level_values("kind").tolist() == ["exploratory"]


DECLARED = ("margin", "expect", "family", "family_size", "needs", "unit", "test")  # what an amendment records
DEFAULTS = {"family": "", "family_size": 0, "needs": []}


def _history(job: str) -> list[tuple[str, dict]]:
    "Every committed version of a job's declarations, oldest first: (commit, declarations)."
    path = f"tables/{job}/claims_declarations.json"
    revs = subprocess.run(["git", "log", "--format=%h", "--reverse", "--", path], cwd=ROOT, capture_output=True,
                          text=True).stdout.split()
    out = []
    for r in revs:
        p = subprocess.run(["git", "show", f"{r}:{path}"], cwd=ROOT, capture_output=True, text=True)
        if p.returncode == 0: out.append((r, json.loads(p.stdout)))
    return out


def _decided(decl: dict) -> dict:
    "key -> its claim's declaration, for every claim decided on evidence (not 'untestable')."
    return {c["args"]["c"]["claim"]["key"]: c["args"]["c"]["claim"] for L in decl["ledgers"] for c in L["calls"]
            if c["method"] not in ("system", "untestable", "not_run")}


JOBS = sorted(p.parent.name for p in (ROOT / "tables").glob("*/claims_declarations.json"))
RENAMED = {"Ro-BERT [macro F1]": "BERT [macro F1]"}  # one system under its paper's name (e607088: SciNLI's plain row,
                                                   # the same run, floor and comparator): not a changed declaration
_same = lambda was, is_: (was == is_ or (isinstance(was, list) and [RENAMED.get(x, x) for x in was] == is_)
                         or _rescaled(was, is_))


def _rescaled(was, is_) -> bool:
    "A margin in points of a percentage then written as a fraction (CB's F1 margins moved to the bootstrap's scale,"
    " 10 -> 0.1): the same declaration on another scale, not an amendment."
    num = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)
    return num(was) and num(is_) and is_ != 0 and abs(was - 100 * is_) < 1e-9


@pytest.mark.parametrize("job", JOBS)
def test_declarations_changed_after_their_evidence_are_recorded_amendments(job):
    """A margin, family, direction or test that differs from any committed declaration made when the claim already had
    evidence is named by an amendment of today's declaration (its field and the value before)."""
    if not (ROOT / ".git").exists(): pytest.skip("no git history here")
    now = _decided(json.loads((ROOT / "tables" / job / "claims_declarations.json").read_text()))
    missing = []
    for rev, decl in _history(job):
        for key, old in _decided(decl).items():
            if key not in now: continue
            recorded = {(a["field"], json.dumps(a["before"])) for a in now[key].get("amendments", [])}
            for f in DECLARED:
                was, is_ = old.get(f, DEFAULTS.get(f)), now[key].get(f, DEFAULTS.get(f))
                if not _same(was, is_) and (f, json.dumps(was)) not in recorded: missing.append((rev, key, f, was, is_))
    assert not missing, f"changed after their evidence existed, with no amendment recorded: {missing}"


def test_an_unrecorded_amendment_fails(tmp_path):
    "The check above, on a declaration whose margin moved with no record: it is caught."
    old = {"ledgers": [{"calls": [{"method": "seeds", "args": {"c": {"claim": {"key": "k", "margin": 12.8}}}}]}]}
    new = {"ledgers": [{"calls": [{"method": "seeds", "args": {"c": {"claim": {"key": "k", "margin": 10.0}}}}]}]}
    was, is_ = _decided(old)["k"], _decided(new)["k"]
    assert [f for f in DECLARED if was.get(f) != is_.get(f)] == ["margin"]
    assert not _same(12.8, 10.0) and _same(10.0, 0.1) and not _same(10.0, 0.01)  # a rescale is not a move


def test_every_committed_row_says_its_kind_of_evidence_first():
    for p in sorted((ROOT / "tables").glob("*/claims.csv")):
        t = pd.read_csv(p)
        assert t.columns[0] == "evidence" and set(t.evidence) <= set(C.EVIDENCE.values()), p
        ran = ~t.evidence.isin([C.EVIDENCE["not run"], C.EVIDENCE["not testable"]])
        assert t["computed by"][~ran].isna().all(), p  # a row that did not run has no 'computed by'
        assert (C.evidence_kind(t.drop(columns="evidence")) == t.evidence).all(), p  # derivable from the row


def test_a_paired_test_prints_the_paired_interval():
    "A paired t-test's 95% interval is t over the per-seed differences (scipy's ttest_rel), not Welch's."
    from scipy.stats import ttest_rel
    a, b = np.array([46.1, 47.9, 46.0, 47.3, 46.9]), np.array([47.2, 48.6, 47.1, 48.5, 47.7])  # seeds move together
    ev = C.over_seeds(a, b, test="paired-t", aso_iterations=0)
    assert np.allclose((ev.low, ev.high), ttest_rel(a, b).confidence_interval(0.95)), (ev.low, ev.high)
    assert ev.high < 0  # the paired interval excludes 0 where Welch's does not
    welch = C.over_seeds(a, b, aso_iterations=0)
    assert welch.low < 0 < welch.high


def test_the_claims_caption_counts_conclusions_and_rows_apart():
    "claims.md's caption gives the distinct conclusions (`by_conclusion`) and, separately, the rows."
    class _Res:
        def table(self, name, df, caption="", index=True): self.caption = caption
        def value(self, name, value, **extra): pass
    led = Claims("P", "model X", aso_iterations=0)
    for k in ("n1", "n2"):  # two parts of one conclusion: one conclusion, two rows
        led.data(Claim(k, "550 pairs", "Table 2", "550", "pairs", "the paper's", "", "holds", "data",
                       conclusion="sizes", quote="550 pairs"), 550, 550)
    led.untestable(Claim("u", "s", "§5", "p", quote="q"), "needs X")
    r = _Res(); df = C.write_claims(r, led)
    assert len(df) == 3 and len(C.by_conclusion(df)) == 2
    assert "2 conclusions: 1 not testable here, 1 supported" in r.caption or \
        "2 conclusions: 1 supported, 1 not testable here" in r.caption, r.caption
    assert "3 rows: 2 supported, 1 not testable here" in r.caption, r.caption


def test_a_rows_setting_follows_its_kind_of_evidence():
    "No model ran for a statement about released data or a re-analysis: its setting says so, not 'the paper's model'."
    led = Claims("P", "model X", aso_iterations=0)
    data = dict(paper_numbers="550", a="pairs", b="the paper's", metric="", expect="holds", unit="data", quote="q")
    led.data(Claim("d", "550 pairs", "Table 2", setting="paper", **data), 550, 550)
    led.data(Claim("r", "3 errors", "§4", setting="paper", evidence="re-analysis", **data), 550, 550)
    led.data(Claim("s", "550 pairs", "Table 2", setting="substitute data", **data), 550, 550)  # a project-made sample
    led.untestable(Claim("u", "s", "§5", "p", quote="q", setting="paper"), "needs the paper's model")
    t = led.table().set_index("key")
    assert t.loc["d", "setting"] == "the released data" == C.SETTINGS["data"], t.loc["d", "setting"]
    assert t.loc["r", "setting"] == C.SETTINGS["re-analysis"], t.loc["r", "setting"]
    assert t.loc["s", "setting"] == C.SETTINGS["substitute data"]  # a sample's statistic is not the released data's
    assert t.loc["u", "setting"] == C.SETTINGS["paper"] and t.loc["u", "computed by"] in ("", None) or \
        pd.isna(t.loc["u", "computed by"])  # not testable: the claim's own setting, nothing computed
    assert t.loc["d", "computed by"] == "model X"
    old = t.reset_index().drop(columns=["evidence"])  # a table without the column reads the kind from the setting
    assert C.evidence_kind(old).tolist()[:2] == [C.EVIDENCE["data"], C.EVIDENCE["re-analysis"]]


def test_a_power_count_beyond_any_run_says_what_it_counts():
    "MSciNLI's 100%-25% row printed '64,500 seeds' bare: TOST's seed pairs at an estimate 0.013 inside a ±1 margin."
    from scipy.stats import norm
    d = np.array([-0.47, -1.31, -1.20, -0.85, -1.105])  # paired differences, mean -0.987 (the committed row's estimate)
    b = np.array([47.0, 48.1, 47.5, 48.6, 47.9]); a = b + d
    led = Claims("P", "m", aso_iterations=0)
    r = led.seeds(Claim("k", "A = B", "§4", "76.6 vs 77.2", "A", "B", "macro F1", "equal", test="paired-t", margin=1.0,
                        quote="q"), a, b)
    se = lambda n: d.std(ddof=1) / np.sqrt(n)  # Chow, Shao and Wang (2008) 3.2.3, by hand: the first n with 80% power
    ns = np.arange(2, 200_001); z = norm.ppf(0.95)
    pw = norm.cdf((1 - abs(d.mean())) / se(ns) - z) + norm.cdf((1 + abs(d.mean())) / se(ns) - z) - 1
    n = int(ns[np.argmax(pw >= 0.8)])
    assert r["seeds for 80% power"] == n > 1000
    assert f"{n:,} seed pairs" in r["reason"] and "inside the ±1 margin" in r["reason"], r["reason"]


def test_rule_b_a_member_that_ran_counts_in_its_family_whatever_its_verdict():
    "Three equivalence parts of one sentence: two shown (TOST p = 0.0185 each), one not (TOST p = 0.13). Holm over the"
    " three that ran: 3 x 0.0185 = 0.056, not significant; counting only the two shown (2 x 0.0185 = 0.037) is"
    " anti-conservative (CB's hypothesis lengths, a read of its register)."
    b = np.array([60.0, 61.0, 62.0, 63.0, 64.0])
    led = Claims("P", "x", aso_iterations=0)
    for k, d in (("e_n", 0.5), ("e_c", 0.5), ("n_c", 1.8)):
        led.seeds(Claim(k, "the lengths are even", "§3", "-", "A", "B", expect="equal", margin=3.0, family="len"),
                  b + d, b)
    t = led.table().set_index("key")
    assert t.verdict["n_c"] == "inconclusive (tie)"
    assert t.verdict["e_n"] != "supported" and t.verdict["e_c"] != "supported", t.verdict.to_dict()
    assert "(3 tests)" in t.reason["e_n"], t.reason["e_n"]
