"""A reader's model against the papers' conclusions: `nlic_reproduce --model` (nbs/90_cli), its scorecard (nbs/02e_scorecard)
and the checks before anything runs (nbs/03_models).

The runs go to a project of their own (its nbs, tables and settings.ini linked to this checkout's), so that runs/ here
is never written. Two TaxiNLI runs at the smoke profile: a small BERT encoder built here and copied under a new folder
name (fine-tuned as the paper's model; the embedded MiniLM takes the same path, at several times the cost), and a tiny
3-label classifier built here, evaluated as it is. The same command with
CB beside TaxiNLI (`--jobs taxinli cb`, the issue's check) runs with NLIC_TEST_CB_MODEL=1: CB's smoke run fine-tunes
the model in five variants and probes it, some 4 minutes on two free cores, more than CI's budget allows."""
import os
import hashlib, json, re, shutil
from pathlib import Path
import pandas as pd
import pytest

from nlicompendium.cli import reproduce_cli
from nlicompendium.claims import VERDICTS
from nlicompendium.scorecard import SHORT, job_register, NoModelPart

WORDS = {SHORT.get(v, v) for v in VERDICTS} | {"not committed"}


@pytest.fixture(scope="module")
def project(root, tmp_path_factory):
    "A project folder with this checkout's nbs and settings.ini, a copy of its tables (9 MB), and runs/ of its own."
    p = tmp_path_factory.mktemp("project")
    for name in ("nbs", "settings.ini"): (p / name).symlink_to(root / name)
    shutil.copytree(root / "tables", p / "tables")  # what the runs read as the committed tables, and must not write
    return p


@pytest.fixture
def cli(project, real_data, monkeypatch):
    "`nlic_reproduce ARGS` in `project`, one thread, offline, on the real data: (exit status, stderr)."
    monkeypatch.chdir(project); monkeypatch.setenv("OMP_NUM_THREADS", "1")
    def run(*argv):
        return reproduce_cli([*argv, "--data-dir", str(real_data), "--wait"])
    return run


def tables_state(root: Path) -> str:
    "A digest of every file under tables/: its path, size and modification time."
    h = hashlib.sha256()
    for p in sorted((root / "tables").rglob("*")):
        if p.is_file(): s = p.stat(); h.update(f"{p.relative_to(root)} {s.st_size} {s.st_mtime_ns}\n".encode())
    return h.hexdigest()


def model_studies() -> list[str]:
    "TaxiNLI; with NLIC_TEST_CB_MODEL=1, CB beside it (its register names the model under test)."
    if not os.environ.get("NLIC_TEST_CB_MODEL"): return ["taxinli"]
    try: job_register("cb"); return ["taxinli", "cb"]
    except NoModelPart: return ["taxinli"]


def redecided_rows(page: str) -> list[list[str]]:
    "The cells of each re-decided row of a model's SCORECARD.md (rows that link to a study's evidence page)."
    return [[c.strip() for c in line.strip("|").split(" | ")] for line in page.splitlines() if line.startswith("| [")]


class TestYourModel:
    "A reader's own encoder, fine-tuned by TaxiNLI (and CB) as the paper's model."

    def test_a_copied_model_reproduces_and_rechecks(self, root, project, cli, tmp_path):
        """A model folder copied under a new name: every re-decided row names it, with the committed verdict beside; the
        manifest records its fingerprint (the copy's files are the original's: the same SHA-256); --recheck on the run's
        folder writes the same scorecard."""
        import torch
        from transformers import BertConfig, BertModel
        from nlicompendium.models import _model_fingerprint, load_tokenizer
        torch.manual_seed(0); base = tmp_path / "base"
        BertModel(BertConfig(vocab_size=30522, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                             intermediate_size=128)).save_pretrained(base)
        load_tokenizer("embedded").save_pretrained(base)
        mine = tmp_path / "my-bert"; shutil.copytree(base, mine)
        jobs, before = model_studies(), tables_state(project)
        assert cli("--profile", "smoke", "--model", str(mine), "--jobs", *jobs) == 0
        run = project / "runs" / "my-bert"; page = (run / "SCORECARD.md").read_text()
        rows = redecided_rows(page)
        assert rows and all(r[3] in ("the paper's data with my-bert", "substitute data with my-bert") for r in rows), rows
        assert all(r[4] in WORDS and r[5] in WORDS and r[5] != "not committed" for r in rows), rows  # committed beside
        for job in jobs:
            m = json.loads((run / job / "manifest.json").read_text())["model_under_test"]
            assert m["fingerprint"] == _model_fingerprint(str(base)) and m["name"] == "my-bert", m
            cl = pd.read_csv(run / job / "claims.csv").set_index("key")
            model_rows = cl[cl.evidence.str.startswith("a model result")]  # rows on the run's model, whatever verdict
            assert len(model_rows) and all("my-bert" in s for s in model_rows.statement), model_rows.statement
            ev = (run / job / "evidence.md").read_text()
            assert f"`runs/my-bert/{job}/claims.csv`" in ev
            listed = json.loads((run / job / "manifest.json").read_text())["outputs"]["evidence_page"]["files"]["md"]
            assert listed["sha256"] == hashlib.sha256((run / job / "evidence.md").read_bytes()).hexdigest()
        assert re.search(r"\|\s+my-bert\s+\|", (run / "taxinli" / "evidence.md").read_text())  # per-category table
        claims = {j: (run / j / "claims.csv").read_bytes() for j in jobs}
        assert cli("--recheck", str(run)) == 0
        assert (run / "SCORECARD.md").read_text() == page  # re-decided from the run's evidence: the same page
        assert {j: (run / j / "claims.csv").read_bytes() for j in jobs} == claims
        assert tables_state(project) == before  # nothing written under tables/


class TestAsIs:
    "A checkpoint trained for NLI, evaluated as it is (a scope of its own: pytest-xdist runs it beside the other)."

    def test_as_is_classifier_gives_taxinli_categories(self, root, project, cli, tmp_path):
        """A 3-label classifier built here (GLUE's label order), evaluated as it is: no training step, TaxiNLI's
        per-category table with the model's column, and its rows re-decided."""
        import torch
        from transformers import BertConfig, BertForSequenceClassification
        from nlicompendium.models import load_tokenizer
        torch.manual_seed(0); nli = tmp_path / "tiny-nli"
        cfg = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64,
                         num_labels=3, id2label={0: "CONTRADICTION", 1: "ENTAILMENT", 2: "NEUTRAL"})
        BertForSequenceClassification(cfg).save_pretrained(nli); load_tokenizer("embedded").save_pretrained(nli)
        assert cli("--profile", "smoke", "--model", str(nli), "--as-is", "--jobs", "taxinli") == 0
        run = project / "runs" / "tiny-nli"
        seeds = next(pd.read_csv(p) for p in (run / "taxinli").glob("ours_seeds_*.csv"))
        assert (seeds.steps == 0).all(), seeds  # evaluated as it is
        acc = pd.read_csv(run / "taxinli" / "fig5_accuracy_by_category.csv", index_col=0)
        assert {"NB", "ESIM", "BERT", "n"} <= set(acc.columns) and len(acc) == 15
        ours = [c for c in acc.columns if c.startswith("ours")]; assert len(ours) == 1 and acc[ours[0]].between(0, 1).all()
        page = (run / "SCORECARD.md").read_text(); rows = redecided_rows(page)
        assert rows and all(r[3] == "the paper's data with tiny-nli" for r in rows), rows
        assert "as it is" in page and json.loads((run / "model.json").read_text())["as_is"] is True
        assert "## Accuracy per reasoning category (TaxiNLI Fig. 5)" in (run / "taxinli" / "evidence.md").read_text()


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    "Bad models for TaxiNLI, one per kind of refusal (built here, no download)."
    from transformers import BertConfig, BertForSequenceClassification, BertModel, GPT2Config, GPT2LMHeadModel
    from nlicompendium.models import load_tokenizer
    small = dict(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64)
    tmp_path = tmp_path_factory.mktemp("bad")
    (tmp_path / "notes").mkdir(); (tmp_path / "notes" / "README.md").write_text("not a model")
    BertModel(BertConfig(**small)).save_pretrained(tmp_path / "no-tokenizer")
    GPT2LMHeadModel(GPT2Config(n_layer=1, n_embd=32, n_head=2, vocab_size=30522)).save_pretrained(tmp_path / "decoder")
    BertForSequenceClassification(BertConfig(**small, num_labels=3)).save_pretrained(tmp_path / "generic-labels")
    for d in ("decoder", "generic-labels"): load_tokenizer("embedded").save_pretrained(tmp_path / d)
    return tmp_path


@pytest.mark.parametrize("folder, extra, words", [
    ("notes", [], "is not a checkpoint (no config.json"),
    ("no-tokenizer", [], "it has no tokenizer"),
    ("decoder", [], "it is a decoder (gpt2), and taxinli fine-tunes an encoder"),
    ("generic-labels", ["--as-is"], "its labels ['LABEL_0', 'LABEL_1', 'LABEL_2'] cannot be mapped"),
])
def test_bad_model_is_refused(root, project, cli, bad, capsys, folder, extra, words):
    "Each bad input: exit status 2, a message naming the model and the study, and nothing written (tables/, the run)."
    before = tables_state(project)
    assert cli("--profile", "smoke", "--model", str(bad / folder), *extra, "--jobs", "taxinli") == 2
    err = capsys.readouterr().err
    assert words in err and str(bad / folder) in err and "for taxinli" in err, err
    assert not (project / "runs" / folder).exists() and tables_state(project) == before


def test_study_without_a_model_part_is_refused(root, project, cli, capsys):
    "A study none of whose parts tests a model (the data statistics) is refused, named, and nothing runs."
    assert cli("--model", "embedded", "--jobs", "datasets", "taxinli") == 2
    err = capsys.readouterr().err
    assert "no part of datasets tests a model" in err and not (project / "runs" / "embedded").exists(), err


def test_fit_leaves_an_as_is_copy_untrained(tmp_path, monkeypatch):
    "`training.fit` on an as-is copy takes no step: the weights stay the checkpoint's, and dev still scores it (a seed is picked)."
    import torch
    from datasets import ClassLabel, Dataset
    from transformers import BertConfig, BertForSequenceClassification
    from nlicompendium.models import as_is_checkpoint, load_tokenizer
    from nlicompendium.training import TrainConfig, fit
    monkeypatch.setenv("NLIC_CACHE_DIR", str(tmp_path / "cache")); torch.manual_seed(0)
    cfg = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=64,
                     num_labels=3, id2label={0: "entailment", 1: "neutral", 2: "contradiction"})
    BertForSequenceClassification(cfg).save_pretrained(tmp_path / "nli"); load_tokenizer("embedded").save_pretrained(tmp_path / "nli")
    copy = as_is_checkpoint(str(tmp_path / "nli"), "taxinli")
    ds = Dataset.from_dict({"id": ["a", "b", "c"], "premise": ["a cat sat", "it rains", "no one came"],
                            "hypothesis": ["an animal sat", "it is dry", "someone came"], "label": [0, 2, 2]})
    ds = ds.cast_column("label", ClassLabel(names=["entailment", "neutral", "contradiction"]))
    r = fit(ds, ds, TrainConfig(model=copy, epochs=2, batch_size=2, max_length=16, progress=False))
    before = BertForSequenceClassification.from_pretrained(tmp_path / "nli").state_dict()
    assert r.steps == 0 and r.best["dev"] and all(torch.equal(v, before[k]) for k, v in r.model.state_dict().items())
