"""Bad input fails with one clear NLIDataError naming the file and, where it applies, the row."""
import json
import shutil
import pytest
from nlicompendium.data import load
from nlicompendium.contract import NLIDataError, DataFileNotFound


def ronli_dir(tmp_path, records, name="test.json"):
    d = tmp_path / "ronli"; d.mkdir(exist_ok=True)
    good = [{"sentence1": "Un munte înalt.", "sentence2": "Muntele e mare.", "label": 1, "guid": "g1"},
            {"sentence1": "Plouă azi.", "sentence2": "Soarele strălucește.", "label": 0, "guid": "g2"}]
    for f in ("validation.json", "test.json"):
        (d / f).write_text(json.dumps(good, ensure_ascii=False), encoding="utf-8")
    (d / name).write_text(records if isinstance(records, str) else json.dumps(records, ensure_ascii=False), encoding="utf-8")
    return tmp_path, d / name


def test_missing_file(tmp_path):
    (tmp_path / "ronli").mkdir()
    with pytest.raises(DataFileNotFound) as e:
        load("ronli", data_dir=tmp_path)
    assert "validation.json" in str(e.value) and str(tmp_path / "ronli" / "validation.json") in str(e.value)
    assert isinstance(e.value, FileNotFoundError)


def test_truncated_json(tmp_path):
    d, p = ronli_dir(tmp_path, '[{"sentence1": "a", "sentence2": "b", "label": 1, "guid": "x"}, {"sentence1": "c", "sent')
    with pytest.raises(NLIDataError, match=r"test\.json: invalid or truncated JSON at line 1"):
        load("ronli", data_dir=d)


def test_missing_column_json(tmp_path):
    d, p = ronli_dir(tmp_path, [{"sentence1": "a", "label": 1, "guid": "x"}])
    with pytest.raises(NLIDataError, match=r"test\.json: missing field\(s\) \['sentence2'\]"):
        load("ronli", data_dir=d)


def test_unknown_label_names_row(tmp_path):
    recs = [{"sentence1": "a", "sentence2": "b", "label": 1, "guid": "x"}, {"sentence1": "c", "sentence2": "d", "label": 7, "guid": "y"}]
    d, p = ronli_dir(tmp_path, recs)
    with pytest.raises(NLIDataError) as e:
        load("ronli", data_dir=d)
    assert e.value.row == 2 and e.value.path == p and "unknown label 7 (id 'y')" in str(e.value)


def test_empty_text_names_row(tmp_path):
    recs = [{"sentence1": "a", "sentence2": "b", "label": 1, "guid": "x"}, {"sentence1": "c", "sentence2": "d", "label": 1, "guid": "y"},
            {"sentence1": "   ", "sentence2": "f", "label": 1, "guid": "z"}]
    d, p = ronli_dir(tmp_path, recs)
    with pytest.raises(NLIDataError, match=r"test\.json, row 3: empty premise \(id 'z'\)"):
        load("ronli", data_dir=d)


def scinli_dir(tmp_path, real_data):
    d = tmp_path / "scinli"; d.mkdir()
    for f in ("dev.csv", "test.csv", "human_train_1.tsv", "human_train_2.tsv"):
        shutil.copy(real_data / "scinli" / f, d / f)
    return d


def test_wrong_delimiter(tmp_path, real_data):
    d = scinli_dir(tmp_path, real_data)
    (d / "human_train_2.tsv").write_text((real_data / "scinli" / "dev.csv").read_text())  # a CSV where a TSV belongs
    with pytest.raises(NLIDataError, match=r"human_train_2\.tsv: missing column.*not '\\t'-delimited"):
        load("scinli", data_dir=tmp_path)


@pytest.mark.parametrize("content, message", [
    ("id,sentence1,label\nt0,a premise,neutral\n", r"test\.csv: missing column\(s\) \['sentence2'\]"),
    ("id,sentence1,sentence2,label\nt0,a,b,neutral\nt1,c,d,entails\n", r"test\.csv, row 2: unknown label 'entails'"),
    ("id,sentence1,sentence2,label\nt0,a,b,neutral\nt1,c,,neutral\n", r"test\.csv, row 2: empty hypothesis \(id 't1'\)"),
    ('id,sentence1,sentence2,label\nt0,a,b,neutral\nt1,"c,d', r"test\.csv(, row \d+)?: cannot parse with delimiter ','"),
], ids=["missing-column", "unknown-label", "empty-text", "truncated"])
def test_bad_csv(tmp_path, real_data, content, message):
    d = scinli_dir(tmp_path, real_data)
    (d / "test.csv").write_text(content)
    with pytest.raises(NLIDataError, match=message):
        load("scinli", data_dir=tmp_path)


def test_taxinli_bad_category(tmp_path, real_data):
    d = tmp_path / "taxinli"; d.mkdir()
    lines = (real_data / "taxinli" / "taxinli10k.tsv").read_text().splitlines()
    f = lines[3].split("\t"); f[4] = "yes"; lines[3] = "\t".join(f)
    (d / "taxinli10k.tsv").write_text("\n".join(lines) + "\n")
    shutil.copy(real_data / "taxinli" / "taxinli10k_MNLIDev.tsv", d)
    with pytest.raises(NLIDataError, match=r"taxinli10k\.tsv, row 3: column 'lexical_linguistic' holds 'yes'"):
        load("taxinli", data_dir=tmp_path)


def test_cb_bad_responses(tmp_path, real_data):
    d = tmp_path / "commitmentbank"; d.mkdir()
    text = (real_data / "commitmentbank" / "CommitmentBank-items.csv").read_text()
    (d / "CommitmentBank-items.csv").write_text(text.replace('"2, 3, 3, 1, 3, 1, 2, 1, 2"', '"2, 3, 9, 1, 3, 1, 2, 1, 2"', 1))
    with pytest.raises(NLIDataError, match=r"CommitmentBank-items\.csv, row 1: annotations must lie in \[-3, 3\]"):
        load("cb", data_dir=tmp_path)


def test_unknown_dataset():
    with pytest.raises(KeyError, match="registered"):
        load("snli")
