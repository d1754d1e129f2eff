"""The GPU path without a GPU: with CUDA faked, every place that asks for it routes to the gpu branch.

What the branch then computes (sdpa attention, bf16 autocast, fused AdamW) is run on the CPU in nbs/04a_training.ipynb
(`device_choices` and the GPU-like `fit`); models trained in another process come back on the CPU (`seed_run`, nbs/04a).
"""
import pytest
import torch

from nlicompendium import training
from nlicompendium.core import bf16_supported, get_device, resolve_profile
from nlicompendium.models import paper_model
from nlicompendium.study import study_setup


@pytest.fixture
def fake_cuda(monkeypatch):
    "torch says a bf16-capable GPU is there; nothing is ever put on it."
    monkeypatch.delenv("IN_TEST", raising=False); monkeypatch.delenv("NLIC_PROFILE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    return monkeypatch


def test_auto_profile_device_and_bf16(fake_cuda):
    assert resolve_profile("auto").name == "gpu"
    assert get_device().type == "cuda" and get_device("cpu").type == "cpu"  # an explicit choice still wins
    assert bf16_supported("cuda") is True and bf16_supported() is True
    fake_cuda.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: False)  # e.g. a V100: no bf16, so fp32
    assert bf16_supported("cuda") is False
    assert training.device_choices(get_device(), training.TrainConfig()) == {"bf16": False, "attn_implementation": None, "fused": True,
                                                                                      "tf32": True}


@pytest.mark.parametrize("dataset, study, expected", [("ronli", "curriculum", "ro-bert"), ("scinli", "curriculum", "bert-base-cased"),
                                                      ("taxinli", None, "bert-base-uncased"), ("codemixed", None, "mbert")])
def test_gpu_studies_take_the_papers_checkpoint_and_seeds(fake_cuda, tmp_path, dataset, study, expected):
    st = study_setup("t", "auto", dataset=dataset, study=study, out_dir=tmp_path)
    assert (st.profile.name, st.model, st.seeds) == ("gpu", expected, [0, 1, 2, 3, 4])
    assert st.model == paper_model(dataset, study)


def test_several_gpu_processes_ask_accelerate_for_gpus(fake_cuda):
    "Launched with WORLD_SIZE > 1 on GPUs, fit asks accelerate for its GPU mode (cpu=False: NCCL), on CPUs for gloo (cpu=True)."
    import accelerate
    seen = []
    class FakeAccelerator:
        def __init__(self, cpu=False): seen.append(cpu)
    fake_cuda.setattr(accelerate, "Accelerator", FakeAccelerator)
    assert training._distributed() is None  # one process: no accelerator at all
    fake_cuda.setenv("WORLD_SIZE", "2")
    training._distributed()
    fake_cuda.setattr(torch.cuda, "is_available", lambda: False)
    training._distributed()
    assert seen == [False, True]


def test_sentencepiece_checkpoint_tokenizer_loads(tmp_path):
    """mDeBERTa-v3 (RoNLI's zero-shot and frozen multilingual rows) ships only a SentencePiece `spm.model`.

    With sentencepiece and protobuf pinned it loads; without them transformers 5 asks for `tiktoken` instead.
    The stand-in is a unigram SentencePiece model trained here, in a folder laid out as the checkpoint's.
    """
    import json, shutil
    import sentencepiece as spm
    from transformers import AutoTokenizer
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(["the cat sat on the mat", "aaj movie dekhne chalein", "nahi yaar kal exam hai"] * 50))
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(tmp_path / "spm"), vocab_size=30, model_type="unigram",
                                   hard_vocab_limit=False, pad_id=0, bos_id=1, eos_id=2, unk_id=3, pad_piece="[PAD]",
                                   bos_piece="[CLS]", eos_piece="[SEP]", unk_piece="[UNK]", minloglevel=2)
    folder = tmp_path / "mdeberta-standin"; folder.mkdir()
    shutil.copy(tmp_path / "spm.model", folder / "spm.model")
    (folder / "config.json").write_text(json.dumps({"model_type": "deberta-v2"}))
    tok = AutoTokenizer.from_pretrained(folder)
    assert type(tok).__name__.startswith("DebertaV2Tokenizer")
    pieces = tok.convert_ids_to_tokens(tok("the cat")["input_ids"])
    assert pieces[0] == "[CLS]" and pieces[-1] == "[SEP]" and len(pieces) > 2
