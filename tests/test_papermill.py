"""Paper notebooks run end to end under papermill and write their outputs with provenance.

Each paper notebook executes once in the suite (`smoke` and `dask_study` in conftest.py; `make nbtest` leaves them to
this file): RoNLI, SciNLI, TaxiNLI, CB and MSciNLI in-process (the executor `nlic_reproduce` uses), the datasets
notebook through `nlic_reproduce`, and the code-mixed study with its units on the shared Dask cluster (`dask_study`
checks that they went there, each once). The four on Dask cost more CPU: the two classes below, run side by side
under the same load, 285 CPU-s with all four on Dask against 241 with the code-mixed study alone there (a cluster's
start is ~13 CPU-s). So Dask runs where it costs least, the code-mixed study, and where a test asserts what it does
with a killed worker, SciNLI's second run. Two runs repeat one on purpose: RoNLI's, from its cache,
to show that it resumes; SciNLI's, on the Dask cluster with a worker killed, to show the same tables (SciNLI is the
cheapest curriculum run with units: 13 against RoNLI's 27, and a third of the time).
"""
import json
import os, signal, threading, time
import papermill as pm
import pandas as pd
import pytest
from conftest import execute, runs_per_task

from nlicompendium.claims import CLAIM_COLUMNS, VERDICTS

RONLI = ("ronli", "05_curriculum.ipynb")
SCINLI = ("scinli", "05_curriculum.ipynb", {"dataset": "scinli", "claim_seeds": 3})


def one_claims_schema(out_dir):
    cl = pd.read_csv(out_dir / "claims.csv")
    assert list(cl.columns) == CLAIM_COLUMNS and set(cl.verdict) <= set(VERDICTS) and len(cl), cl.columns
    return cl


def rechecks(out_dir):
    """A run's committed claims evidence (listed in its manifest) re-decides to its claims.csv exactly, with no training
    (`claims.recheck`, issue 40 item 8): every column of the table, and the file byte for byte."""
    import io
    from nlicompendium.claims import EVIDENCE_FILES, load_evidence, recheck
    listed = {f["path"] for o in json.loads((out_dir / "manifest.json").read_text())["outputs"].values() for f in o["files"].values()}
    assert set(EVIDENCE_FILES) <= listed, listed
    again = recheck(*load_evidence(out_dir))
    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(again.to_csv(index=False))), pd.read_csv(out_dir / "claims.csv"))
    assert again.to_csv(index=False) == (out_dir / "claims.csv").read_text()
    return again


TABLES = (".csv", ".md", ".tex")


def tables(out):
    "A run's table files (bytes), less its timing tables."
    return {p.name: p.read_bytes() for p in sorted(out.glob("*")) if p.suffix in TABLES and not p.stem.endswith("_times")}


class TestRoNLI:
    """The RoNLI study (05, smoke): executed once in-process, resumed once, and once on a Dask cluster with a worker killed
    mid-study. One class, so that pytest-xdist (`--dist loadscope`) keeps its tests on one worker, with the run they share."""

    def test_curriculum_study_smoke_and_resume(self, root, real_data, tmp_path, smoke):
        out_dir = smoke(*RONLI, dataset="ronli")
        m = json.loads((out_dir / "manifest.json").read_text())
        assert m["params"]["train_data"] == "ronli-distant/train"
        assert {"table3_regions", "region_overlaps", "fig1_data_map", "table4_per_class", "table5_overall", "variant_times",
                "score_by_region", "claims", "deviations", "cartography_metrics", "pooling", "confound_lr"} <= set(m["outputs"])
        assert m["params"]["protocol"] == "paper" and m["params"]["config"]["pooling"] == "cls"  # tiny has no pooling config: [CLS]
        pool = pd.read_csv(out_dir / "pooling.csv", header=[0, 1], index_col=0)
        assert {p for _, p in pool.columns} == {"cls", "mean"} and len(pool) == 12  # every variant, both poolings
        # provenance: the code fingerprints, the commit that computed each variant, and no absolute path anywhere in the manifest
        assert set(m["code"]) == {"library", "notebook"} and len(m["variants_computed_at"]) == 12
        assert all(set(r) >= {"commit", "dirty", "seconds"} for r in m["variants_computed_at"].values())
        assert str(root) not in (out_dir / "manifest.json").read_text() and str(out_dir) not in (out_dir / "manifest.json").read_text()
        assert "tiny" in m["outputs"]["table5_overall"]["caption"] and "ronli-distant/train" in m["outputs"]["table5_overall"]["caption"]
        t5 = pd.read_csv(out_dir / "table5_overall.csv", index_col=0)
        from nlicompendium.baselines import RONLI_BASELINES
        assert len(t5) == 6 + 12 and list(t5.index[:6]) == list(RONLI_BASELINES)  # the baselines first, in the paper's order
        ran = t5["micro F1"].notna()
        assert list(t5.index[~ran]) == ["RoGPT2", "ChatGPT 3.5 Turbo", "Zero-shot multilingual BERT", "Fine-tuned multilingual BERT"]  # offline
        assert t5.loc[~ran, "what computed the row"].str.contains("needs").all() and t5.loc[ran, "micro F1"].between(0, 1).all()
        assert "table12_agreement_by_region" in m["outputs"] and len(m["params"]["baseline_rows"]) == 6
        cl = one_claims_schema(out_dir)  # smoke has one seed, so no claim over seeds is decided
        assert len(cl) >= 15
        # one seed: what a claim over seeds needs is not run at this size ("not run here"), or absent offline
        assert cl.query("unit == 'seeds'").verdict.isin(["not run here", "not testable here"]).all()
        assert cl.query("unit == 'seeds'").verdict.eq("not run here").any()
        assert m["machine"]["torch_cpu_capability"] and m["machine"]["cpu"]
        assert pd.read_csv(out_dir / "variant_times.csv", index_col=0)["cached"].eq(False).all()
        # a second run with the same parameters resumes from the cache: no variant is trained again, same numbers
        execute(root, RONLI[1], tmp_path / "resumed.ipynb", dataset="ronli", out_dir=str(out_dir), data_dir=str(real_data))
        assert pd.read_csv(out_dir / "variant_times.csv", index_col=0)["cached"].eq(True).all()
        assert pd.read_csv(out_dir / "table5_overall.csv", index_col=0).equals(t5)
        assert len(list((out_dir / "cartography").glob("*/done.json"))) == 1  # the cartography model was not trained again
        m2 = json.loads((out_dir / "manifest.json").read_text())
        assert m2["values"]["cartography_seconds"] == m["values"]["cartography_seconds"]


class TestCBAndMSciNLI:
    "The two costliest smoke studies, each executed once in-process (see the module's docstring for why not on Dask)."

    def test_cb_notebook_smoke(self, smoke, real_data):
        """The CommitmentBank study writes Tables 2-5 and Figs. 1-2 with provenance; the recast and the Heuristics are exact computations."""
        out_dir = smoke("cb", "13_cb.ipynb")
        m = json.loads((out_dir / "manifest.json").read_text())
        want = {"table2_recast", "hypothesis_length", "table3_pmi", "heuristics_rules", "table4_results", "fig1_per_class",
                "table5_heuristics_subsets", "mcnemar_tests", "agreement_with_heuristics", "fig2_probing"}
        assert want <= set(m["outputs"]), want - set(m["outputs"])
        t4 = pd.read_csv(out_dir / "table4_results.csv", header=[0, 1], index_col=0)
        assert t4[("ours", "CB acc")].between(0, 100).all()
        # the MNLI stage's seeds are seeds.SeedRun units of the cache shared with TaxiNLI; the manifest says where each came from
        assert set(m["values"]["mnli_stage_shared"]["value"]) == {str(s) for s in m["seed"]}
        probes = pd.read_csv(out_dir / "fig2_probing.csv")
        assert set(probes.setting) == {"frozen", "fine-tuned"} and probes["macro F1"].between(0, 1).all()
        one_claims_schema(out_dir)
        # the recast: the label totals after the 80% rule are the paper's Table 2 (251 / 37 / 268, 556 items)
        t2 = pd.read_csv(out_dir / "table2_recast.csv", header=[0, 1], index_col=0)
        assert t2.loc["Total", "ours"][["entailment", "neutral", "contradiction", "Total"]].tolist() == [251, 37, 268, 556]
        # the Heuristics: each test item's rule re-derived here from `cb.heuristic_rule`, counted and scored against gold
        from collections import Counter
        from nlicompendium.cb import heuristic_rule
        from nlicompendium.data import load
        test = load("cb", data_dir=real_data)["test"]; names = test.features["label"].names
        got = [heuristic_rule(e, bool(f), t) for e, f, t in zip(test["embedding"], test["factive"], test["target"])]
        rules = pd.read_csv(out_dir / "heuristics_rules.csv", index_col="rule")
        assert rules["items"].to_dict() == dict(Counter(r for _, r in got)) and rules["items"].sum() == len(test), rules
        assert rules["label"].to_dict() == {r: lab for lab, r in got}
        right = {r: [lab == names[y] for (lab, rr), y in zip(got, test["label"]) if rr == r] for r in rules.index}
        assert all(abs(rules.loc[r, "accuracy"] - sum(v) / len(v)) <= 5e-4 for r, v in right.items())  # the table rounds to 3 places

    def test_cb_rerun_reads_its_units_and_probes_back(self, smoke, root, real_data, tmp_path):
        """A second run at the same code (after a register edit, say) trains nothing: its seed units and its fine-tuned
        probes come back from the unit cache, and Fig. 2's table is the first run's, number for number."""
        first = smoke("cb", "13_cb.ipynb")
        execute(root, "13_cb.ipynb", tmp_path / "cb.ipynb", out_dir=str(tmp_path / "out"), data_dir=str(real_data))
        v = json.loads((tmp_path / "out" / "manifest.json").read_text())["values"]
        assert all(v["seed_units_cached"]["value"].values()) and v["probing_seconds"]["value"] < 1.0, v["probing_seconds"]
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "out" / "fig2_probing.csv"), pd.read_csv(first / "fig2_probing.csv"))

    def test_cb_evidence_rechecks_to_its_claims(self, smoke):
        "CB's run (the one above, not another) commits the evidence of claims over seeds, examples, data and statistics."
        again = rechecks(smoke("cb", "13_cb.ipynb"))
        assert {"seeds", "data"} <= set(again.unit) and again.unit.str.contains("examples").any()

    def test_mscinli_notebook_smoke(self, smoke, real_data, tmp_path_factory):
        """The MSciNLI study on a data folder that holds the official-layout sample (`data.write_mscinli_sample`: project-made
        pairs, 5 domains x 4 classes) beside the real SciNLI and TaxiNLI: the source is MSciNLI and its five-domain paths run
        (Table 4 per domain, Table 13 over the domains); tables with provenance, one claims schema; Table 13's similarities are cosines."""
        from nlicompendium.data import write_mscinli_sample
        from nlicompendium.mscinli import DOMAINS
        data = tmp_path_factory.mktemp("mscinli-data")
        for d in ("scinli", "taxinli"): (data / d).symlink_to(real_data / d)
        write_mscinli_sample(data)
        out_dir = smoke("mscinli", "14_mscinli.ipynb", data_dir=str(data), papers_dir=str(real_data.parent / "papers"))
        m = json.loads((out_dir / "manifest.json").read_text())
        want = {"table4_baselines", "table5_llms", "table7_subsets", "table8_genre_shift", "table13_vocab", "fig1_datamap", "distant_totals"}
        assert want <= set(m["outputs"]), want - set(m["outputs"])
        assert m["params"]["source"] == "MSciNLI" and m["params"]["sizes"]["train"] == m["params"]["sizes"]["test"] == 40  # 5 x 4 x 2
        t4 = pd.read_csv(out_dir / "table4_baselines.csv")
        per_domain = t4[[f"{d} macro F1" for d in DOMAINS]]  # the model x domain matrix of Table 4
        assert per_domain.shape == (len(m["params"]["models"]), 5) and per_domain.notna().all().all()
        t13 = pd.read_csv(out_dir / "table13_vocab.csv", index_col=0)
        assert list(t13.index) == list(t13.columns) == sorted(DOMAINS) + ["ACL (SciNLI)"]  # the 6 x 6 domain matrix
        assert (abs(pd.Series([t13.iloc[i, i] for i in range(len(t13))]) - 1) < 1e-3).all()  # a distribution's cosine with itself
        assert ((t13.to_numpy() - t13.to_numpy().T) == 0).all() and t13.to_numpy().max() <= 1 + 1e-9
        cl = one_claims_schema(out_dir)
        ran = cl[~cl.evidence.isin(["not run here", "not testable here"])]  # a row that did not run names its claim's setting
        assert "the paper's data and model" not in set(ran.setting)  # the official-layout sample is not MSciNLI's release


class TestTaxiNLIAndCodeMixed:
    "TaxiNLI, executed once in-process, and the code-mixed study, once with its units on this worker's Dask cluster."

    def test_taxinli_notebook_smoke(self, smoke):
        """The TaxiNLI study writes every table and figure of the issue, with provenance, and Table 2's label counts are the paper's."""
        out_dir = smoke("taxinli", "12_taxinli.ipynb", tsne_points=100)  # the t-SNE plots' path, on a third of smoke's 300
        m = json.loads((out_dir / "manifest.json").read_text())
        want = {"table2_statistics", "fig3_categories_by_label", "fig4_category_correlation", "table3_accuracy", "fig5_accuracy_by_category",
                "fig6_lda_coefficients", "fig6_logistic_regression", "fig6_fig9_coefficients", "significant_coefficients_vs_paper",
                "fig8_bayes_estimate", "fig7_tsne_layers"}
        assert want <= set(m["outputs"]), want - set(m["outputs"])
        t2 = pd.read_csv(out_dir / "table2_statistics.csv", index_col=0)
        for row in ("Total datapoints", "Contradiction", "Neutral", "Entailment", "Neutral: same general topic"):  # the release as shipped
            assert t2.loc[row, "as shipped"] == t2.loc[row, "paper"], row
        for row in ("Total datapoints", "Neutral", "Neutral: same general topic"):  # the loader drops the released file's one duplicated (neutral) pair, 135182n
            assert t2.loc[row, "loaded (duplicate dropped)"] == t2.loc[row, "paper"] - 1, row
        cl = one_claims_schema(out_dir).set_index("key")  # Table 2 against the release as shipped; the removal is one control row
        assert cl.loc["table2_total", "verdict"] == cl.loc["table2_labels", "verdict"] == "supported"
        assert cl.loc["table2_duplicate_dropped", "kind"] == "control" and cl.loc["table2_duplicate_dropped", "verdict"] == "contradicted"
        lr = pd.read_csv(out_dir / "fig6_logistic_regression.csv", header=[0, 1], index_col=0)
        assert {"NB", "ESIM", "BERT"} <= set(lr.columns.get_level_values(0))
        shared = m["values"]["shared_units"]["value"]  # model -> seed -> read back from the shared cache or trained here
        assert list(shared) == m["params"]["models"] or m["params"]["models"] is None and len(shared) == 1

    def test_codemixed_notebook_smoke(self, dask_study):
        """The code-mixed study writes its language-ID and CMI tables with provenance and one claims schema."""
        out_dir = dask_study("codemixed", "15_codemixed.ipynb")
        m = json.loads((out_dir / "manifest.json").read_text())
        want = {"lid_accuracy", "lid_confusion", "cmi_distribution", "cmi_agreement"}
        assert want <= set(m["outputs"]), want - set(m["outputs"])
        assert m["machine"]["cpu"] and m["params"]["profile"] == "smoke"
        # without GLUECoS's NLI file the fine-tuning half runs on the project-made sample, whose claims test the code only
        cl = one_claims_schema(out_dir / "sample")
        sample = json.loads((out_dir / "sample" / "manifest.json").read_text())
        assert "test the code, not the paper" in sample["outputs"]["claims"]["caption"]
        assert {"far_from_solved", "mbert_accuracy", "premises_hypotheses", "scenes_turns", "validation_agreement"} <= set(cl.key)
        assert set(cl.setting) <= {"substitute data and model", "the paper's data and model"}  # the sample is not the paper's data
        assert (cl.set_index("key").setting[["far_from_solved", "premises_hypotheses"]] == "substitute data and model").all()


def test_curriculum_official_protocol(smoke):
    "RoNLI under its released code's settings (protocol=official): per-variant rates, batches, stages and stopping, and the confound test."
    v = ["Ro-BERT", "Ro-BERT (spurious)", "Ro-BERT + oversampling", "+ Length-CL", "+ Cart-Stra-CL++"]
    out = smoke("ronli-official", RONLI[1], dataset="ronli", protocol="official", variants=v, baseline_rows=[],
                compare_pooling=False)  # the paper-protocol smoke run checks the pooling table
    m = json.loads((out / "manifest.json").read_text())
    assert m["params"]["protocol"] == "official" and m["params"]["score_form"] == "official"
    t = pd.read_csv(out / "variant_times.csv", index_col=0)
    from nlicompendium.samplers import OFFICIAL_RONLI
    for name in ("Ro-BERT", "Ro-BERT (spurious)", "Ro-BERT + oversampling", "+ Cart-Stra-CL++"):  # the code's rate, batch, stopping
        assert (t.loc[name, "lr"], t.loc[name, "batch"], t.loc[name, "stopping on"]) == (OFFICIAL_RONLI[name].lr, OFFICIAL_RONLI[name].batch_size, "loss")
    assert t.loc["+ Cart-Stra-CL++", "steps taken per seed (early stopping)"] == 100 + 200 + 300 + 400 + 1500  # fixed stages, no stopping
    assert t.loc["+ Length-CL", "stopping on"] == "macro_f1"  # not in the code: the paper protocol's settings
    dev = pd.read_csv(out / "deviations.csv")
    assert list(dev.columns) == ["setting", "paper", "official code", "here", "why"] and dev.notna().all().all()
    assert "official_protocol" in m["outputs"] and len(pd.read_csv(out / "official_protocol.csv")) == 12
    conf = pd.read_csv(out / "confound_lr.csv")
    assert len(conf) == 4 and conf["the released code's rate"].sum() == 2  # oversampled at 1e-4, Cart-Stra-CL++ at 1e-3
    keys = set(one_claims_schema(out).key)
    assert {"confound_matched_1e-3", "confound_matched_1e-4", "confound_code_rates"} <= keys


class TestSciNLI:
    """The curriculum study on SciNLI (05, smoke): executed once in-process, and once on a Dask cluster with a worker
    killed mid-study. SciNLI is the study's cheapest run with units (3 variants x 3 seeds), so the Dask test reruns it and
    not RoNLI's (27 units and twice the time). One class, so that pytest-xdist keeps both on one worker with the run they
    share."""

    def test_curriculum_scinli_table6(self, smoke):
        out_dir = smoke(SCINLI[0], SCINLI[1], **SCINLI[2])
        t6 = pd.read_csv(out_dir / "table6_scinli.csv", index_col=0)
        assert list(t6.index) == ["BERT", "+ Length-CL", "+ Cart-Stra-CL++"]  # Table 6's plain row is BERT
        # Table 6 is the paper's protocol on the one smoke seed; the claims are tested over three seeds per variant
        assert t6["macro F1, std over seeds"].isna().all()
        cl = one_claims_schema(out_dir)
        # Table 6's micro and macro F1 against both rows, over seeds; SciNLI's balance, a statement about its data
        assert cl.query("unit == 'seeds'").n.tolist() == ["3 + 3 seeds"] * 4
        assert cl.verdict.ne("not testable here").all()
        assert json.loads((out_dir / "manifest.json").read_text())["params"]["claim_seeds"] == [0, 1, 2]

    def test_scinli_evidence_rechecks_to_its_claims(self, smoke):
        "SciNLI's run (the one above, not another): its claims' evidence rechecks to its claims.csv exactly."
        again = rechecks(smoke(SCINLI[0], SCINLI[1], **SCINLI[2]))
        assert again.query("unit == 'seeds'").n.tolist() == ["3 + 3 seeds"] * 4

    def test_dask_same_tables_each_unit_once_and_a_killed_worker(self, root, tmp_path, smoke, cluster, real_data):
        c, client = cluster
        ref = tables(smoke(SCINLI[0], SCINLI[1], **SCINLI[2]))
        assert len(ref) > 15  # tables 3, 4, 6, regions, scores, claims, deviations, ... in three formats

        # kill the worker of the first unit that starts; the scheduler reruns it on a worker that lives, and the study completes
        before, pids, killed = set(runs_per_task(client)), client.run(os.getpid), []
        def killer():
            t0 = time.time()
            while time.time() - t0 < 120 and not killed:
                busy = {w: ks for w, ks in client.processing().items() if ks}
                if busy:
                    w, keys = next(iter(busy.items()))
                    os.kill(pids[w], signal.SIGKILL); killed.append(set(map(str, keys)))
                time.sleep(0.02)
        th = threading.Thread(target=killer); th.start()
        out = tmp_path / "dask"
        execute(root, SCINLI[1], tmp_path / "dask.ipynb", **SCINLI[2], out_dir=str(out), data_dir=str(real_data),
                executor="dask", executor_address=c.scheduler_address)
        th.join()
        assert killed, "no unit was seen running: nothing was killed"
        assert tables(out) == ref  # byte-identical, whatever order the units finished in and wherever they ran
        runs = {k: n for k, n in runs_per_task(client).items() if k not in before}
        # the cartography model, the 3 variants x 3 seeds (the table's seed 0 is the first of the claims' seeds 0-2), and
        # the 3 variants again with the other pooling (seed 0)
        assert len(runs) == 1 + 3 * 3 + 3
        assert all(runs[k] >= 2 for k in killed[0])  # the killed units went to a worker again
        assert all(n == 1 for k, n in runs.items() if k not in killed[0])  # every other unit ran exactly once
        assert len(list((out / "variants").glob("*/*/done.json"))) == 3 * 3
        assert len(list((out / "variants-mean").glob("*/*/done.json"))) == 3


def test_bad_parameter_fails(root, real_data, tmp_path):
    with pytest.raises(pm.PapermillExecutionError, match="unknown profile"):
        execute(root, "05_curriculum.ipynb", tmp_path / "huge.ipynb", profile="huge", data_dir=str(real_data), out_dir=str(tmp_path / "x"))


def test_reproduce_cli_runs_the_datasets_job_and_skips_it_unchanged(root, real_data, capsys, monkeypatch):
    """`nlic_reproduce` runs a job for a profile (the datasets notebook: its tables, with provenance), and skips it when
    nothing changed. The command's function, called here with its arguments (tests/test_recheck.py runs the installed
    `nlic_reproduce` itself)."""
    from nlicompendium.cli import reproduce_cli
    monkeypatch.chdir(root)
    args = ["--profile", "smoke", "--jobs", "datasets", "--no-collect", "--data-dir", str(real_data)]
    assert reproduce_cli(args + ["--force"]) == 0
    first = capsys.readouterr().out
    assert reproduce_cli(args) == 0
    second = capsys.readouterr().out
    import re
    status = lambda out: re.search(r"^datasets\s+(\w+)\s", out, re.M).group(1)  # the job's row of the printed table
    assert (status(first), status(second)) == ("ran", "unchanged"), (first, second)
    out_dir = root / "runs" / "smoke" / "datasets"
    m = json.loads((out_dir / "manifest.json").read_text())
    assert {"dataset_sizes", "cb_recast_counts", "ronli_table2", "ronli_table2_vs_paper", "scinli_table2", "class_balance"} <= set(m["outputs"])
    assert m["git"]["commit"] and m["packages"]["torch"] and m["data_fingerprint"]
    for name, o in m["outputs"].items():
        for f in o["files"].values():
            assert (out_dir / f["path"]).stat().st_size > 0
    assert pd.read_csv(out_dir / "cell_times.csv").seconds.gt(0).any()  # where the run's time went
