"""Every loader on files laid out as the official scripts write them, and a missing field failing loudly, by name.

The fixtures are project-made sentences written at test time into temporary folders, in the official layouts: header
lines, column names, label spellings, separators, quoting and encoding. Beside each writer is the official code it
follows (repository, commit, file:line), read in the fetched repositories. The writers that the package itself needs
(`write_mscinli_sample`, `write_gluecos_nli_sample`) live in nbs/01a_data.ipynb; the others are here.
"""
import gzip
import json
import random
import shutil
import uuid

import datasets
import numpy as np
import pandas as pd
import pytest

from nlicompendium import data as D
from nlicompendium.contract import DataFileNotFound, NLIDataError
from nlicompendium.data import (MSCINLI_DOMAINS, MSCINLI_HUB, SCINLI_LABELS, fasttext_file, load, load_codemixed,
                                load_mscinli, load_ronli, load_scinli, write_gluecos_nli_sample, write_mscinli_sample)

datasets.disable_progress_bars()


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    "Each test has its own download cache: nothing found in (or left in) ~/.cache/nlicompendium."
    monkeypatch.setenv("NLIC_CACHE_DIR", str(tmp_path / "nlic-cache"))


# ----------------------------------------------------------------------------------------------------------- RoNLI
# Eduard6421/RONLI at fd75ce0a8cf09af638a94efea2e0e016bbfcb112:
#   dataset/generate_datasets/generate_splits.py:63  train items are {'sentence1', 'sentence2', 'label'} (an int label)
#   dataset/generate_datasets/generate_splits.py:92-95  json.dump(split, f, indent=4, ensure_ascii=False), UTF-8
#   dataset/generate_datasets/add_guid.py:10, 13  obj['guid'] = str(uuid.uuid4()); rewritten with the same json.dump
#   nli_learning/Dataset/NLIDataset.py:20-26  the official reader takes guid, sentence1, sentence2, label of each item
RONLI_PAIRS = [("Ana are mere și pere.", "Ana are fructe.", 1), ("Plouă de trei zile.", "Drumurile sunt ude.", 2),
               ("Țara are munți înalți.", "Țara e plată.", 0), ("Cerul e senin.", "Mâine e luni.", 3),
               ("Ionuț citește, apoi scrie.", "Ionuț scrie.", 1), ("Marea e caldă.", "Plaja e plină.", 3)]


def write_ronli_split(path, pairs, seed):
    "A RoNLI split file as generate_splits.py:92-95 and add_guid.py:10-13 write it (guids seeded here)."
    rng = random.Random(seed)
    items = [{"sentence1": p, "sentence2": h, "label": y} for p, h, y in pairs]  # generate_splits.py:63
    for obj in items: obj["guid"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))  # add_guid.py:10
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f: json.dump(items, f, indent=4, ensure_ascii=False)  # add_guid.py:13
    return items


def ronli_folder(root):
    d = root / "ronli"
    train = write_ronli_split(d / "train.json", RONLI_PAIRS, 0)
    write_ronli_split(d / "validation.json", RONLI_PAIRS[:2], 1)
    test = write_ronli_split(d / "test.json", [RONLI_PAIRS[3], ("Ziua e lungă.", "Noaptea e scurtă.", 0)], 2)
    return d, train, test


def test_ronli_fixture_is_the_real_layout(tmp_path, real_data):
    "The writer's bytes have the shape of the official test.json here: a 4-space-indented array, non-ASCII kept."
    d, _, _ = ronli_folder(tmp_path)
    real = (real_data / "ronli" / "test.json").read_text(encoding="utf-8")
    ours = (d / "train.json").read_text(encoding="utf-8")
    shape = lambda t: [line.split(":")[0] for line in t.splitlines()[:7]]
    assert shape(ours) == shape(real) == ["[", "    {", '        "sentence1"', '        "sentence2"', '        "label"',
                                          '        "guid"', "    },"]
    assert "ș" in ours and "\\u" not in ours


def test_ronli_train(tmp_path):
    _, train, test = ronli_folder(tmp_path)
    r = load_ronli(tmp_path)
    assert {k: len(v) for k, v in r.items()} == {"train": 5, "validation": 2, "test": 2}
    assert r["train"]["id"] == [t["guid"] for t in train if t["sentence1"] != test[0]["sentence1"]]
    assert r["train"].features["label"].int2str(r["train"]["label"]) == ["entailment", "reasoning", "contrastive",
                                                                         "entailment", "neutral"]
    assert r.report.rows_read == {"validation.json": 2, "test.json": 2, "train.json": 6}
    assert r.report.renamed == {"guid": "id", "sentence1": "premise", "sentence2": "hypothesis"}
    assert r.report.excluded == {"train: pair also in test (normalised text)": 1}


@pytest.mark.parametrize("field", ["guid", "sentence1", "sentence2", "label"])
def test_ronli_missing_field(tmp_path, field):
    d, train, _ = ronli_folder(tmp_path)
    for t in train: del t[field]
    (d / "train.json").write_text(json.dumps(train, indent=4, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(NLIDataError, match=rf"train\.json: missing field\(s\) \['{field}'\]"):
        load_ronli(tmp_path)


def test_ronli_field_missing_from_one_record(tmp_path):
    d, train, _ = ronli_folder(tmp_path)
    del train[2]["guid"]
    (d / "train.json").write_text(json.dumps(train, indent=4, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(NLIDataError, match=r"train\.json, row 3: missing field 'guid'"):
        load_ronli(tmp_path)


def test_ronli_distant_missing_field(tmp_path, real_data):
    d = tmp_path / "ronli"; d.mkdir()
    recs = json.loads((real_data / "ronli" / "validation_auto_vs_manual.json").read_text(encoding="utf-8"))
    for r in recs: del r["corrected_label"]
    (d / "validation_auto_vs_manual.json").write_text(json.dumps(recs, ensure_ascii=False), encoding="utf-8")
    shutil.copy(real_data / "ronli" / "test.json", d)
    with pytest.raises(NLIDataError, match=r"missing field\(s\) \['corrected_label'\]"):
        load("ronli-distant", data_dir=tmp_path)


# ---------------------------------------------------------------------------------------------------------- SciNLI
# msadat3/SciNLI at 853493b527d60677145200cb138bdc0c12334525:
#   README.md:19-25  train.csv, test.csv, dev.csv: "Each file has three columns": sentence1, sentence2, label
#   README.md:28  train/test/dev.jsonl: one JSON object per line with the keys sentence1, sentence2, label
#   Train_and_test_models.py:63-65  pandas.read_csv(base+'train.csv'): commas, '"' quoting (written here by to_csv)
#   Train_and_test_models.py:37-42  the labels contrasting, reasoning, entailment, neutral
# The release's readme.txt (the copy in ../shared/data/scinli, lines 27-31) adds an 'id' column; its dev.csv also has
# pandas' unnamed index column in front (to_csv with the index), its test.csv not.
SCI_PAIRS = [('We use "BERT", then fine-tune it.', "the model improves.", "reasoning"),
             ("Prior work used rules.", "however, rules do not scale.", "contrasting"),
             ("The corpus has 5,000 pairs.", "the corpus is small.", "entailment"),
             ("Results are in Table 2.", "we thank the reviewers.", "neutral")] * 3


def write_scinli_readme_csv(path, pairs):
    "README.md:19-25's layout: sentence1, sentence2, label and no id, as pandas writes a CSV (what :63-65 reads)."
    pd.DataFrame(pairs, columns=["sentence1", "sentence2", "label"]).to_csv(path, index=False)


def write_scinli_release_csv(path, pairs, index_column):
    "The release's layout (readme.txt:27-31): id '<stem>_<row>', sentence1, sentence2, label; dev.csv with the index."
    df = pd.DataFrame(pairs, columns=["sentence1", "sentence2", "label"])
    df.insert(0, "id", [f"{path.stem}_{i}" for i in range(len(df))])
    df.to_csv(path, index=index_column)


@pytest.fixture
def scinli_root(tmp_path, real_data):
    d = tmp_path / "scinli"; d.mkdir()
    for f in ("human_train_1.tsv", "human_train_2.tsv"): (d / f).symlink_to(real_data / "scinli" / f)  # on this machine
    write_scinli_readme_csv(d / "train.csv", SCI_PAIRS)
    write_scinli_release_csv(d / "dev.csv", SCI_PAIRS[:8], index_column=True)
    write_scinli_release_csv(d / "test.csv", SCI_PAIRS[:4], index_column=False)
    return tmp_path


def test_scinli_fixture_header_is_the_real_one(scinli_root, real_data):
    for f in ("dev.csv", "test.csv"):
        assert (scinli_root / "scinli" / f).read_text().splitlines()[0] == (real_data / "scinli" / f).read_text().splitlines()[0]


def test_scinli_official_layouts(scinli_root):
    s = load_scinli(scinli_root)
    assert {k: len(v) for k, v in s.items()} == {"train": 12, "train_human": 2000, "validation": 8, "test": 4}
    assert s["train"]["id"][:3] == ["train_0", "train_1", "train_2"]  # derived: no id column in README's layout
    assert s["validation"]["id"][:2] == ["dev_0", "dev_1"] and s["test"]["id"][-1] == "test_3"  # the files' own ids
    assert s["train"][0]["premise"] == 'We use "BERT", then fine-tune it.'  # commas and quotes survive the CSV
    assert s["train"].features["label"].int2str(s["train"]["label"][:4]) == ["reasoning", "contrasting", "entailment",
                                                                            "neutral"]
    assert "train.csv: no 'id' field: ids derived as 'train_<0-based data row>'" in s.report.notes
    assert not any(n.startswith(("dev.csv", "test.csv")) for n in s.report.notes)
    assert s.report.rows_read["train.csv"] == 12 and s.report.renamed == {"sentence1": "premise", "sentence2": "hypothesis"}


def test_scinli_derived_ids_are_the_release_ids(tmp_path, real_data):
    "The real dev.csv rewritten in README's three columns gets back exactly the ids the release gives its rows."
    real = pd.read_csv(real_data / "scinli" / "dev.csv", dtype=str, keep_default_na=False)
    write_scinli_readme_csv(tmp_path / "dev.csv", real[["sentence1", "sentence2", "label"]].values.tolist())
    derived = D._sci_file(tmp_path / "dev.csv", D.LoadReport("t"))
    assert derived["id"].tolist() == real["id"].tolist() and len(real) == 2000


@pytest.mark.parametrize("field", ["sentence1", "sentence2", "label"])
def test_scinli_missing_field(scinli_root, field):
    p = scinli_root / "scinli" / "train.csv"
    pd.read_csv(p, dtype=str).drop(columns=field).to_csv(p, index=False)
    with pytest.raises(NLIDataError, match=rf"train\.csv: missing column\(s\) \['{field}'\]"):
        load_scinli(scinli_root)


def test_scinli_label_outside_the_four_fails(scinli_root):
    "Train_and_test_models.py:67-73 drops such a row silently; the loader names it."
    p = scinli_root / "scinli" / "train.csv"
    write_scinli_readme_csv(p, SCI_PAIRS[:2] + [("a", "b", "contrast")])
    with pytest.raises(NLIDataError, match=r"train\.csv, row 3: unknown label 'contrast'"):
        load_scinli(scinli_root)


# --------------------------------------------------------------------------------------------- MSciNLI, the release
# msadat3/MSciNLI at a5da0d1 holds only a README ("The code, and data ... will be released here"), so there is no
# official code to follow: write_mscinli_sample writes SciNLI's layouts (README.md:19-28 above) with a domain column.
def test_mscinli_release_jsonl_and_csv(tmp_path):
    for fmt in ("jsonl", "csv"):
        root = write_mscinli_sample(tmp_path / fmt, per_cell=3, fmt=fmt)
        ms = load_mscinli(root)
        assert {k: len(v) for k, v in ms.items()} == {"train": 60, "validation": 60, "test": 60}
        assert sorted(set(ms["test"]["domain"])) == sorted(MSCINLI_DOMAINS)
        assert ms["test"]["id"][0] == "test_0_contrasting_0" and ms["test"][0]["premise"].endswith('"measured".')
        assert ms.report.rows_read == {f"train.{fmt}": 60, f"dev.{fmt}": 60, f"test.{fmt}": 60}


@pytest.mark.parametrize("name", ["Domain", "genre"])
def test_mscinli_release_other_domain_names(tmp_path, name):
    ms = load_mscinli(write_mscinli_sample(tmp_path, domain_field=name, ids=False))
    assert ms.report.renamed[name] == "domain" and ms["train"]["domain"][0] == "Hardware"
    assert ms["train"]["id"][0] == "train_0" and "train.jsonl: no 'id' field: ids derived as 'train_<0-based data row>'" in ms.report.notes


def test_mscinli_release_domain_field_by_name(tmp_path):
    root = write_mscinli_sample(tmp_path, domain_field="area")
    with pytest.raises(NLIDataError, match=r"train\.jsonl: missing field 'domain' \(looked for \['domain', 'Domain', 'genre'\]\)"):
        load_mscinli(root)
    assert load_mscinli(root, domain_field="area")["test"]["domain"][-1] == "NeurIPS"


@pytest.mark.parametrize("field", ["sentence1", "sentence2", "label", "domain"])
def test_mscinli_release_missing_field(tmp_path, field):
    root = write_mscinli_sample(tmp_path)
    p = root / "mscinli" / "dev.jsonl"
    recs = [json.loads(line) for line in p.read_text().splitlines()]
    p.write_text("".join(json.dumps({k: v for k, v in r.items() if k != field}) + "\n" for r in recs))
    with pytest.raises(NLIDataError, match=rf"dev\.jsonl: missing field.*'{field}'"):
        load_mscinli(root)


# ----------------------------------------------------------------------------------------------- MSciNLI, the Hub
# The Hub copy sadat2307/MSciNLI holds train.jsonl, dev.jsonl and test.jsonl (its file tree at 5bb814b); its dataset
# card declares no features, so `datasets.load_dataset` infers them from the JSON and maps dev.jsonl to the
# 'validation' split (datasets' split keywords). The fixture is exactly that: the same files, loaded by `datasets`
# from a local folder, which is how it resolves a Hub repository without a loading script.
@pytest.fixture
def hub(tmp_path, monkeypatch):
    "`hub(**write_kw)` -> what load_mscinli reads when it falls back to the Hub: the fixture files through `datasets`."
    def make(cast_label=False, **kw):
        folder = write_mscinli_sample(tmp_path / "hub-files", **kw) / "mscinli"
        dd = datasets.load_dataset(str(folder), cache_dir=str(tmp_path / "hf-cache"))
        if cast_label: dd = dd.cast_column("label", datasets.ClassLabel(names=SCINLI_LABELS))
        monkeypatch.setattr(D.datasets, "load_dataset",
                            lambda name, *a, **k: dd if name == MSCINLI_HUB else pytest.fail(f"asked for {name}"))
        monkeypatch.delenv("NLIC_OFFLINE", raising=False); monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        return dd
    return make


def test_mscinli_hub_as_datasets_returns_it(tmp_path, hub):
    dd = hub()
    assert sorted(dd) == ["test", "train", "validation"] and dd["train"].features["label"] == datasets.Value("string")
    ms = load_mscinli(tmp_path / "no-release-here")
    assert {k: len(v) for k, v in ms.items()} == {"train": 40, "validation": 40, "test": 40}
    assert ms["validation"]["domain"] == dd["validation"]["domain"] and ms["test"]["id"] == dd["test"]["id"]
    assert list(ms.report.files) == ["hf://datasets/sadat2307/MSciNLI"]
    assert ms.report.rows_read == {"sadat2307/MSciNLI train": 40, "sadat2307/MSciNLI validation": 40,
                                   "sadat2307/MSciNLI test": 40}


def test_mscinli_hub_classlabel_and_no_ids(tmp_path, hub):
    dd = hub(cast_label=True, ids=False)
    ms = load_mscinli(tmp_path / "no-release-here")
    assert ms["train"].features["label"].int2str(ms["train"]["label"]) == dd["train"].features["label"].int2str(dd["train"]["label"])
    assert ms["test"]["id"][:2] == ["test-0", "test-1"]
    assert any(n.startswith("sadat2307/MSciNLI test: no 'id' field: ids derived") for n in ms.report.notes)
    assert any("label is a ClassLabel" in n for n in ms.report.notes)


@pytest.mark.parametrize("name", ["Domain", "genre"])
def test_mscinli_hub_other_domain_names(tmp_path, hub, name):
    hub(domain_field=name)
    ms = load_mscinli(tmp_path / "no-release-here")
    assert ms.report.renamed[name] == "domain" and sorted(set(ms["train"]["domain"])) == sorted(MSCINLI_DOMAINS)


def test_mscinli_hub_without_domain_fails_by_name(tmp_path, hub):
    "Issue 29 (12): a Hub copy whose domain field is not found fails at load, naming it (it was dropped silently)."
    hub(domain_field="area")
    with pytest.raises(NLIDataError, match=r"sadat2307/MSciNLI \(train\): missing field 'domain' \(looked for"):
        load_mscinli(tmp_path / "no-release-here")
    assert load_mscinli(tmp_path / "no-release-here", domain_field="area")["train"]["domain"][0] == "Hardware"


@pytest.mark.parametrize("field", ["sentence1", "sentence2", "label"])
def test_mscinli_hub_missing_field(tmp_path, hub, field):
    dd = hub()
    for s in dd: dd[s] = dd[s].remove_columns(field)
    with pytest.raises(NLIDataError, match=rf"\(train\): missing field\(s\) \['{field}'\]"):
        load_mscinli(tmp_path / "no-release-here")


def test_mscinli_hub_not_tried_offline(tmp_path, hub, monkeypatch):
    hub(); monkeypatch.setenv("NLIC_OFFLINE", "1")
    with pytest.raises(DataFileNotFound, match="is not tried offline"):
        load_mscinli(tmp_path / "no-release-here")


# --------------------------------------------------------------------------------------------- GLUECoS NLI_EN_HI
# microsoft/GLUECoS at 7fdc51653e37a32aee17505c47b7d1da364fa77e, Data/Preprocess_Scripts/preprocess_nli_en_hi.py:
#   :107  new_path = args.output_dir + '/NLI_EN_HI/' (download_data.sh:8, 209: output_dir is Data/Processed_Data)
#   :66-67  XNLI-MT-1.0/multinli/multinli.train.en.tsv and XNLI-1.0/xnli.test.tsv under it
#   :76  the train header 'Premise\tHypothesis\tLabel'; :78-82 premise flattened 'SPEAKER : utterance ## ' per turn
#   :85, :91  the test header and rows: en, label, 4 empty fields, premise, hypothesis, 8 empty, premise, hypothesis
#   :45, :47-50  test labels all 'entailment'; train labels 'entailment' (entailed) or 'contradictory'
#   :93-94  train.json and test.json deleted
def test_gluecos_fixture_bytes(tmp_path):
    "The writer's header lines and field counts, compared with lines 76, 85 and 91 typed out by hand."
    root = write_gluecos_nli_sample(tmp_path)
    train = (root / "NLI_EN_HI" / "XNLI-MT-1.0" / "multinli" / "multinli.train.en.tsv").read_text().split("\n")
    test = (root / "NLI_EN_HI" / "XNLI-1.0" / "xnli.test.tsv").read_text().split("\n")
    assert train[0] == "Premise\tHypothesis\tLabel" and train[-1] == "" and len(train) == 1 + 6 + 1
    assert train[1].startswith("RAHUL : aaj movie dekhne chalein 0? ## PRIYA : nahi yaar, kal exam hai ## \t")
    assert [line.split("\t")[2] for line in train[1:7]] == ["entailment", "contradictory"] * 3
    assert test[0] == "en\tLabel\t\t\t\t\tPremise\tHypothesis\t\t\t\t\t\t\t\t\tPremise\tHypothesis"
    f = test[1].split("\t")
    assert len(f) == 18 and f[:2] == ["en", "entailment"] and f[2:6] == [""] * 4 and f[8:16] == [""] * 8
    assert f[6:8] == f[16:18] and f[7] == "RAHUL movie nahi jaana chahta 0"
    assert not (root / "NLI_EN_HI" / "train.json").exists() and not (root / "NLI_EN_HI" / "test.json").exists()


@pytest.mark.parametrize("folder", ["NLI_EN_HI", "codemixed"])
def test_gluecos_both_folder_names(tmp_path, folder):
    processed = tmp_path / "Data" / "Processed_Data"  # data_dir may be GLUECoS's own output folder
    write_gluecos_nli_sample(processed, n=8, folder=folder)
    cm = load("codemixed", data_dir=processed)
    assert {k: len(v) for k, v in cm.items()} == {"train": 8, "test": 2} and cm["test"]["label"] == [-1, -1]
    assert cm["train"]["id"][:2] == ["multinli.train.en-1", "multinli.train.en-2"]
    assert cm.report.rows_read == {"multinli.train.en.tsv": 8, "xnli.test.tsv": 2}
    assert cm.report.notes[0].startswith(f"GLUECoS files read from {folder}/")
    assert "multinli.train.en.tsv: 1 header line skipped" in cm.report.notes
    assert "xnli.test.tsv: labels hidden upstream (GLUECoS writes 'entailment' for every test pair): stored as -1" in cm.report.notes
    assert cm.report.renamed["Hypothesis"] == "hypothesis"


def test_gluecos_neither_folder(tmp_path):
    with pytest.raises(DataFileNotFound, match=r"NLI_EN_HI/XNLI-MT-1\.0.*codemixed/XNLI-MT-1\.0"):
        load_codemixed(tmp_path)


def test_gluecos_missing_field(tmp_path):
    write_gluecos_nli_sample(tmp_path)
    p = tmp_path / "NLI_EN_HI" / "XNLI-MT-1.0" / "multinli" / "multinli.train.en.tsv"
    lines = p.read_text().splitlines()
    p.write_text("\n".join(lines[:3] + ["\t".join(lines[3].split("\t")[:2])] + lines[4:]) + "\n")  # row 3 lacks Label
    with pytest.raises(NLIDataError, match=r"multinli\.train\.en\.tsv, row 3: expected 3 tab-separated fields "
                                           r"\(premise, hypothesis, label\), found 2"):
        load_codemixed(tmp_path)
    p.write_text("Premise\tLabel\n" + "\n".join(lines[1:]) + "\n")
    with pytest.raises(NLIDataError, match=r"header line lacks field\(s\) \['Hypothesis', 'Label'\]"):
        load_codemixed(tmp_path)
    write_gluecos_nli_sample(tmp_path)
    t = tmp_path / "NLI_EN_HI" / "XNLI-1.0" / "xnli.test.tsv"
    tl = t.read_text().splitlines()
    t.write_text("\n".join(tl[:2] + ["\t".join(tl[2].split("\t")[:7])]) + "\n")  # the second test pair lacks its hypothesis
    with pytest.raises(NLIDataError, match=r"xnli\.test\.tsv, row 2: expected the XNLI test layout"):
        load_codemixed(tmp_path)


# ----------------------------------------------------------------------------------- TaxiNLI and CB: missing fields
def test_taxinli_missing_field(tmp_path, real_data):
    d = tmp_path / "taxinli"; d.mkdir()
    df = pd.read_csv(real_data / "taxinli" / "taxinli10k.tsv", sep="\t", dtype=str, keep_default_na=False)
    df.drop(columns="genre").to_csv(d / "taxinli10k.tsv", sep="\t", index=False)
    shutil.copy(real_data / "taxinli" / "taxinli10k_MNLIDev.tsv", d)
    with pytest.raises(NLIDataError, match=r"taxinli10k\.tsv: missing column\(s\) \['genre'\]"):
        load("taxinli", data_dir=tmp_path)


def test_cb_missing_field(tmp_path, real_data):
    d = tmp_path / "commitmentbank"; d.mkdir()
    df = pd.read_csv(real_data / "commitmentbank" / "CommitmentBank-items.csv", dtype=str, keep_default_na=False)
    df.drop(columns="Prompt").to_csv(d / "CommitmentBank-items.csv", index=False)
    with pytest.raises(NLIDataError, match=r"CommitmentBank-items\.csv: missing column\(s\) \['Prompt'\]"):
        load("cb", data_dir=tmp_path)


# -------------------------------------------------------------------------------------------- fastText, as a .gz
# Eduard6421/RONLI fd75ce0 nli_learning/cbow/bow_svc.py:12 loads "cc.ro.300.bin"; facebookresearch/fastText 1142dc4
# docs/crawl-vectors.md:187 distributes it as cc.ro.300.bin.gz only.
def test_fasttext_gz_is_decompressed_once_and_loads(tmp_path):
    from gensim.models import FastText
    from gensim.models.fasttext import save_facebook_model
    from nlicompendium.baselines import load_fasttext
    m = FastText(vector_size=8, min_count=1, bucket=200, seed=0, workers=1)
    words = [["ana", "are", "mere"], ["plouă", "azi", "mult"]] * 20
    m.build_vocab(corpus_iterable=words); m.train(corpus_iterable=words, total_examples=len(words), epochs=1)
    plain = tmp_path / "model.bin"; save_facebook_model(m, str(plain))
    (tmp_path / "data" / "fasttext").mkdir(parents=True)
    (tmp_path / "data" / "fasttext" / "cc.ro.300.bin.gz").write_bytes(gzip.compress(plain.read_bytes()))
    p = fasttext_file(tmp_path / "data")
    assert p == tmp_path / "nlic-cache" / "fasttext" / "cc.ro.300.bin" and p.read_bytes() == plain.read_bytes()
    np.testing.assert_allclose(load_fasttext(p)["mere"], m.wv["mere"], rtol=1e-6)
    stamp = p.stat().st_mtime_ns
    assert fasttext_file(tmp_path / "data") == p and p.stat().st_mtime_ns == stamp  # once


def test_fasttext_bad_gz_and_none(tmp_path):
    assert fasttext_file(tmp_path) is None
    (tmp_path / "fasttext").mkdir(); (tmp_path / "fasttext" / "cc.ro.300.bin.gz").write_bytes(b"not gzip at all")
    with pytest.raises(NLIDataError, match=r"cc\.ro\.300\.bin\.gz: cannot decompress"):
        fasttext_file(tmp_path)
    assert not (tmp_path / "nlic-cache" / "fasttext" / "cc.ro.300.bin").exists()
