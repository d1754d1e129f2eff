"""The dress rehearsal: every paper notebook's `gpu` profile, on offline stand-ins of the papers' checkpoints, at the
smoke profile's sizes, on the CPU (`NLIC_REHEARSAL=1`; `core.rehearsal`, `models.hub_mode`).

The people who cite the compendium run it on a GPU with the Hub: the paper checkpoints, the hub-only rows (RoGPT2,
mDeBERTa zero-shot and frozen, MSciNLI's four PLMs and two LLMs, mBERT on code-mixed NLI, BERT for TaxiNLI and CB).
Without a rehearsal that path first runs on their machine. Each stand-in has its checkpoint's architecture, head and
tokenizer family (`nbs/02c_standins.ipynb`) and random weights: the outputs go to a scratch folder, are never
collected, and say "offline stand-in" wherever a model is named. Two classes, so that pytest-xdist puts them on its
two workers.
"""
import json

import pandas as pd
import pytest
from conftest import execute


@pytest.fixture
def rehearse(root, real_data, tmp_path, monkeypatch):
    "`rehearse(notebook, **params)` -> out_dir: the notebook under `-p profile gpu` with NLIC_REHEARSAL=1."
    monkeypatch.setenv("NLIC_REHEARSAL", "1")
    def run(nb, data_dir=None, **params):
        out = tmp_path / "out"
        execute(root, nb, tmp_path / nb, profile="gpu", out_dir=str(out), data_dir=str(data_dir or real_data), **params)
        m = json.loads((out / "manifest.json").read_text())
        assert m["params"]["profile"] == "gpu"
        return out, m
    return run


def standin_said(text):
    "Every named hub model is said to be a stand-in."
    return "offline stand-in of" in text and "random weights" in text


def standins_named(m):
    "The hub ids the manifest's captions name as offline stand-ins (`models.model_in_words`)."
    import re
    return set(re.findall(r"offline stand-in of (\S+) \(random weights\)", json.dumps(m)))


class TestRehearsalRoNLIAndCodeMixed:
    def test_ronli_hub_rows_on_standins_with_the_process_executor(self, rehearse):
        out, m = rehearse("05_curriculum.ipynb", dataset="ronli", variants=["Ro-BERT", "+ Cart-Stra-CL++"], seeds=[0, 1],
                          claim_seeds=2, compare_pooling=False, confound=False,
                          baseline_rows=["RoGPT2", "Zero-shot multilingual BERT", "Fine-tuned multilingual BERT"],
                          executor="process", workers=2)
        assert m["params"]["model"] == "ro-bert" and m["executor"]["executor"] == "process"
        t5 = pd.read_csv(out / "table5_overall.csv", index_col=0)
        hub_rows = ["RoGPT2", "Zero-shot multilingual BERT", "Fine-tuned multilingual BERT"]
        assert t5.loc[hub_rows + ["Ro-BERT", "+ Cart-Stra-CL++"], "micro F1"].between(0, 1).all()  # every row ran
        assert all(standin_said(w) for w in t5["what computed the row"])

    def test_codemixed_mbert_on_the_official_gluecos_layout(self, rehearse, real_data, tmp_path):
        from nlicompendium.data import write_gluecos_nli_sample
        data = tmp_path / "data"; data.mkdir()
        (data / "hinglid").symlink_to(real_data / "hinglid")
        write_gluecos_nli_sample(data, n=24)  # GLUECoS's NLI_EN_HI as preprocess_nli_en_hi.py writes it
        out, m = rehearse("15_codemixed.ipynb", data_dir=data, seeds=[0, 1])  # two seeds: a claim over seeds needs 2
        assert m["params"]["model"] == "mbert"
        cl = pd.read_csv(out / "claims.csv")
        ran = cl["computed by"].dropna()  # a row that did not run names nothing that computed it
        assert len(ran) and ran.map(standin_said).all()
        assert (cl.query("key == 'mbert_accuracy'").verdict != "not testable here").all()  # the fine-tuning half ran


class TestRehearsalTaxiNLICBMSciNLI:
    def test_taxinli_bert(self, rehearse):
        out, m = rehearse("12_taxinli.ipynb", tsne_points=60, tsne_layers=[0, 2])
        assert m["params"]["model"] == "bert-base-uncased"
        assert (out / "ours_seeds_bert-base-uncased.csv").is_file()
        assert standins_named(m) == {"google-bert/bert-base-uncased"}  # the paper's BERT, and no other hub model, on its stand-in
        assert standin_said(m["outputs"]["ours_seeds_bert-base-uncased"]["caption"])

    def test_cb_bert(self, rehearse):
        out, m = rehearse("13_cb.ipynb")
        t4 = (out / "table4_results.md").read_text()
        assert standin_said(t4)
        assert standins_named(m) == {"google-bert/bert-base-uncased"}  # CB's BERT, and no other hub model, on its stand-in
        assert "offline stand-in of google-bert/bert-base-uncased (random weights)" in m["outputs"]["table4_results"]["caption"]

    def test_mscinli_four_plms_and_two_llms(self, rehearse):
        # the four PLMs on their stand-ins (gpu's list less the BiLSTM, which the smoke test runs: 7 s here); 2 test pairs
        # for the LLMs' 12 prompt rows (a few-shot prompt is ~3,000 stand-in tokens)
        out, m = rehearse("14_mscinli.ipynb", llm_max_test=2, models=["BERT", "SciBERT", "RoBERTa", "XLNet"])
        assert m["params"]["source"] == "SciNLI (ACL): 2,000 human-annotated training pairs"  # no MSciNLI in the data folder
        t4 = pd.read_csv(out / "table4_baselines.csv")
        plms = t4[t4.model != "bilstm"]
        assert len(plms) == 4 and plms["what computed it"].map(standin_said).all()
        assert plms["Overall macro F1"].between(0, 100).all()
        t5 = pd.read_csv(out / "table5_llms.csv")
        assert len(t5) == 12 and pd.to_numeric(t5["macro F1"], errors="coerce").notna().all()  # 2 LLMs x 6 prompts, all ran
        assert t5.model.map(standin_said).all() and m["params"]["llm_test_pairs"] == 2
        # the LLMs' answers reach the ledger: the five LLM rows are decided over the test examples, not 'not run here'
        cl = pd.read_csv(out / "claims.csv").set_index("key")
        llm = cl.loc[["llms_challenged", "llama_vs_mistral", "prompt3_best", "few_shot_helps", "llama_class_wise"]]
        assert (llm.verdict != "not run here").all() and llm.test.str.startswith("bootstrap over the test examples").all()
        assert "holds if at least 5 of 8 hold" in llm.test["prompt3_best"], llm.test["prompt3_best"]
