"""The GPU path without a GPU: with CUDA faked, every place that asks for it routes to the gpu branch.

What the branch then computes (sdpa attention, bf16 autocast, fused AdamW) is run on the CPU in nbs/04a_training.ipynb
(`device_choices` and the GPU-like `fit`); models trained in another process come back on the CPU (`seed_run`, nbs/04a).
"""
import numpy as np
import pandas as pd
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
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda d=None: (8, 0))  # an A100: native bf16
    return monkeypatch


def test_auto_profile_device_and_bf16(fake_cuda):
    assert resolve_profile("auto").name == "gpu"
    assert get_device().type == "cuda" and get_device("cpu").type == "cpu"  # an explicit choice still wins
    assert bf16_supported("cuda") is True and bf16_supported() is True
    # a V100 (7.0): torch.cuda.is_bf16_supported() still answers True (it counts emulation), but bf16 would be slow: fp32
    fake_cuda.setattr(torch.cuda, "get_device_capability", lambda d=None: (7, 0))
    assert torch.cuda.is_bf16_supported() is True and bf16_supported("cuda") is False
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
        def __init__(self, cpu=False, kwargs_handlers=()): seen.append(cpu)
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


# --- The gpu profile's Hub path, offline: every checkpoint of the one table through its stand-in -----------------------
# nlicompendium.standins (nbs/02c_standins.ipynb) builds, for each hub id of models.HUB_MODELS, a tiny random model of the
# same type and head with a tokenizer of its family trained offline; NLIC_HUB=standins makes resolve_model hand it out.

from nlicompendium import models as M  # noqa: E402
from nlicompendium.models import HUB_MODELS, ModelUnavailable, resolve_model, model_in_words  # noqa: E402

PAIRS = (["A man is playing a guitar on the street.", "Ploua, așa că am rămas în casă."],
         ["Nobody plays.", "Am citit o carte."])
# what each study loads, typed here from the studies (not read from the stand-in table): hub id -> (model_type, the
# class the study's loader gives)
ENCODERS = {  # fine-tuned through training.fit -> models.load_pair_classifier (AutoModelForSequenceClassification)
    "dumitrescustefan/bert-base-romanian-cased-v1": ("bert", "BertForSequenceClassification"),
    "google-bert/bert-base-multilingual-cased": ("bert", "BertForSequenceClassification"),
    "google-bert/bert-base-cased": ("bert", "BertForSequenceClassification"),
    "google-bert/bert-base-uncased": ("bert", "BertForSequenceClassification"),
    "allenai/scibert_scivocab_cased": ("bert", "BertForSequenceClassification"),
    "FacebookAI/roberta-base": ("roberta", "RobertaForSequenceClassification"),
    "xlnet/xlnet-base-cased": ("xlnet", "XLNetForSequenceClassification"),
    "readerbench/RoGPT2-medium": ("gpt2", "GPT2ForSequenceClassification"),  # RoNLI's decoder row, a head on the last token
}
LLMS = {"meta-llama/Llama-2-13b-chat-hf": ("llama", "LlamaForCausalLM"),  # MSciNLI Table 5, mscinli.load_llm
        "mistralai/Mistral-7B-Instruct-v0.1": ("mistral", "MistralForCausalLM")}
ZERO_SHOT = {"MoritzLaurer/mDeBERTa-v3-base-mnli-xnli": ("deberta-v2", "DebertaV2ForSequenceClassification")}


@pytest.fixture(scope="module")
def standin_cache(tmp_path_factory):
    "Every stand-in, built once for this module into its own cache folder (resolve_model with NLIC_HUB=standins)."
    cache = tmp_path_factory.mktemp("nlic-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("NLIC_HUB", "standins"); mp.setenv("NLIC_CACHE_DIR", str(cache))
        built = {hub: resolve_model(hub) for hub in HUB_MODELS.values()}
    return cache, built


@pytest.fixture
def hub_standins(standin_cache, monkeypatch):
    monkeypatch.setenv("NLIC_HUB", "standins"); monkeypatch.setenv("NLIC_CACHE_DIR", str(standin_cache[0]))
    return standin_cache[1]


def test_the_table_is_every_checkpoint_the_studies_name(standin_cache):
    from nlicompendium.baselines import RONLI_BASELINES
    from nlicompendium.mscinli import LLM_MODELS, PLM_MODELS
    from nlicompendium.standins import STANDINS
    assert set(HUB_MODELS.values()) == set(ENCODERS) | set(LLMS) | set(ZERO_SHOT) == set(STANDINS) == set(standin_cache[1])
    hub_rows = {r["needs"] for r in RONLI_BASELINES.values() if "/" in r["needs"] and " " not in r["needs"]}
    assert hub_rows == {"readerbench/RoGPT2-medium", "MoritzLaurer/mDeBERTa-v3-base-mnli-xnli"} <= set(HUB_MODELS.values())
    assert set(PLM_MODELS.values()) | set(LLM_MODELS.values()) <= set(HUB_MODELS)  # MSciNLI names its models by alias
    assert HUB_MODELS[PLM_MODELS["SciBERT"]] == "allenai/scibert_scivocab_cased"  # msadat3/SciNLI@853493b Models.py:23


@pytest.mark.parametrize("hub", sorted(ENCODERS))
def test_fine_tuned_checkpoints_load_and_classify(hub_standins, hub):
    "Each PLM's stand-in through the study's loaders: tokenizer, pair classifier (4 labels), one forward pass with loss."
    from nlicompendium.models import encode_pairs, load_pair_classifier, load_tokenizer
    alias = {v: k for k, v in HUB_MODELS.items()}[hub]
    path = resolve_model(alias)
    assert path == hub_standins[hub] and model_in_words(alias) == model_in_words(path) == f"offline stand-in of {hub} (random weights)"
    tok, model = load_tokenizer(alias), load_pair_classifier(alias, num_labels=4, seed=0).eval()
    assert (model.config.model_type, type(model).__name__) == ENCODERS[hub]
    assert tok.pad_token is not None and model.config.pad_token_id == tok.pad_token_id  # a decoder's EOS doubles as pad
    enc = encode_pairs(tok, *PAIRS, max_length=64)  # the joint encoding, as training.encode_split makes it
    batch = tok.pad([{k: v[i] for k, v in enc.items()} for i in range(2)], return_tensors="pt")  # as PairCollator pads
    with torch.no_grad(): out = model(**batch, labels=torch.tensor([0, 3]))
    assert tuple(out.logits.shape) == (2, 4) and torch.isfinite(out.loss)
    assert batch["input_ids"].shape[1] <= 64


@pytest.mark.parametrize("hub", sorted(LLMS))
def test_llms_load_chat_and_generate(hub_standins, hub):
    "Llama-2 and Mistral stand-ins through mscinli.load_llm: the chat template's roles, a few-shot prompt, greedy generation."
    from nlicompendium.mscinli import LLM_MODELS, build_messages, few_shot_exemplars, generate_answers, load_llm, render
    name = {HUB_MODELS[a]: n for n, a in LLM_MODELS.items()}[hub]
    tok, lm = load_llm(name)
    assert (lm.config.model_type, type(lm).__name__) == LLMS[hub] and lm.name_or_path == hub_standins[hub]
    names = ["contrasting", "reasoning", "entailment", "neutral"]
    dev = {"premise": ["p0", "p1", "p2", "p3"], "hypothesis": ["h0", "h1", "h2", "h3"], "label": [0, 1, 2, 3]}
    prompts = [render(build_messages(p, h, 3, few_shot_exemplars(dev, names)), tok) for p, h in zip(*PAIRS)]
    if hub.startswith("meta-llama"):  # Meta's format: <s>[INST] user [/INST] answer </s> per exchange
        assert prompts[0].startswith("<s>[INST] Consider the following two sentences:") and prompts[0].endswith(" [/INST]")
        assert prompts[0].count("<s>[INST]") == 5 and prompts[0].count(" </s>") == 4
        system = render([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}], tok)
        assert system == "<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nHi [/INST]"
    else:  # Mistral-7B-Instruct-v0.1: one <s>, [INST] user [/INST]answer</s>, and no system turn
        assert prompts[0].startswith("<s>[INST] Consider") and prompts[0].count("<s>") == 1 and prompts[0].count("</s>") == 4
        with pytest.raises(Exception, match="Only user and assistant roles"):
            render([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}], tok)
    ids = tok(prompts[0], add_special_tokens=False)["input_ids"]
    assert ids[0] == tok.bos_token_id and ids.count(tok.bos_token_id) == prompts[0].count("<s>")  # <s> is the BOS token
    outs = generate_answers(lm, tok, prompts, batch_size=2, max_new_tokens=4)
    assert len(outs) == 2 and all(isinstance(o, str) for o in outs)
    assert outs == [generate_answers(lm, tok, [p], batch_size=1, max_new_tokens=4)[0] for p in prompts]  # left padding


@pytest.mark.parametrize("name", ["Llama-2", "Mistral"])
def test_table5_rows_on_standins(hub_standins, name, tmp_path):
    "The study's Table 5 call (mscinli.prompt_llm on a Dataset split): six rows, each naming the stand-in, and the completions."
    from datasets import ClassLabel, Dataset, Features, Value
    from nlicompendium.mscinli import PROMPTS, few_shot_exemplars, prompt_llm
    names = ["contrasting", "reasoning", "entailment", "neutral"]
    feats = Features({"id": Value("string"), "premise": Value("string"), "hypothesis": Value("string"), "label": ClassLabel(names=names)})
    test = Dataset.from_dict({"id": ["t0", "t1"], "premise": PAIRS[0], "hypothesis": PAIRS[1], "label": [2, 3]}, features=feats)
    dev = Dataset.from_dict({"id": list("abcd"), "premise": list("pqrs"), "hypothesis": list("wxyz"), "label": [3, 2, 1, 0]}, features=feats)
    rows = prompt_llm(name, test, names, few_shot_exemplars(dev, names), out_dir=tmp_path, batch_size=2, max_new_tokens=3)
    hub = {"Llama-2": "meta-llama/Llama-2-13b-chat-hf", "Mistral": "mistralai/Mistral-7B-Instruct-v0.1"}[name]
    assert [r["prompt"] for r in rows] == list(PROMPTS)
    assert {r["model"] for r in rows} == {f"{name} (offline stand-in of {hub} (random weights))"}  # never passes for the LLM
    assert all(isinstance(r["macro F1"], float) and 0 <= r["macro F1"] <= 100 for r in rows)
    done = pd.read_csv(tmp_path / f"llm_{name}_3fs.csv")
    assert done.id.tolist() == ["t0", "t1"] and done.gold.tolist() == ["entailment", "neutral"]


def test_zero_shot_nli_checkpoint_runs_the_pipeline(hub_standins):
    "RoNLI's zero-shot row: mDeBERTa's stand-in (NLI labels) through baselines.zero_shot_predict, both readings."
    from transformers import AutoConfig
    from nlicompendium.baselines import zero_shot_predict
    from nlicompendium.models import load_encoder, load_tokenizer
    hub = "MoritzLaurer/mDeBERTa-v3-base-mnli-xnli"
    cfg = AutoConfig.from_pretrained(resolve_model(hub))
    assert (cfg.model_type, cfg.architectures) == (ZERO_SHOT[hub][0], [ZERO_SHOT[hub][1]])
    assert cfg.id2label == {0: "entailment", 1: "neutral", 2: "contradiction"}
    classes = ["contrastive", "entailment", "reasoning", "neutral"]
    s = zero_shot_predict(hub, *PAIRS, classes, progress=False)
    assert s.shape == (2, 4) and np.allclose(s.sum(1), 1, atol=1e-5)
    m = zero_shot_predict(hub, *PAIRS, classes, mode="nli-mapping", progress=False)
    assert m.shape == (2, 4) and np.allclose(m.sum(1), 1, atol=1e-5) and (m[:, 2] == 0).all()  # no NLI class maps to reasoning
    enc = load_encoder("mdeberta-nli")  # the frozen multilingual row reads the encoder's [CLS]
    with torch.no_grad(): h = enc(**load_tokenizer(hub)(PAIRS[0], padding=True, return_tensors="pt")).last_hidden_state
    assert h.shape[0] == 2 and h.shape[2] == 64


def test_mscinli_gpu_training_is_adam_at_a_constant_rate(hub_standins, monkeypatch):
    """MSciNLI's gpu PLM configuration (`mscinli.plm_train_config`: Adam, lr 2e-5 constant, clip 1, msadat3/SciNLI@853493b
    Train_and_test_helper.py:45, 68) on the training engine, with XLNet's stand-in (left padding): the optimiser `fit` builds has
    every parameter group at weight decay 0 and lr 2e-5 (AdamW with no decay is Adam), and the rate never moves."""
    from dataclasses import replace
    from datasets import ClassLabel, Dataset, Features, Value
    from nlicompendium.mscinli import plm_train_config
    from nlicompendium.training import fit
    scheds = []
    real = training._schedule
    monkeypatch.setattr(training, "_schedule", lambda opt, cfg, steps: scheds.append(real(opt, cfg, steps)) or scheds[-1])
    feats = Features({"id": Value("string"), "premise": Value("string"), "hypothesis": Value("string"),
                      "label": ClassLabel(names=["contrasting", "reasoning", "entailment", "neutral"])})
    ds = Dataset.from_dict({"id": [f"x{i}" for i in range(8)], "premise": [PAIRS[0][i % 2] for i in range(8)],
                            "hypothesis": [PAIRS[1][i % 2] + " " * (i % 3) + "!" * i for i in range(8)],
                            "label": [i % 4 for i in range(8)]}, features=feats)
    cfg = plm_train_config("XLNet", "gpu", {"batch_size": 4, "epochs": 2, "max_length": 48})  # what the study's gpu profile trains with
    r = fit(ds, None, replace(cfg, progress=False, bf16=False))  # only the display and the CPU's precision changed
    assert r.steps == 4 and r.dynamics is not None and type(r.model).__name__ == "XLNetForSequenceClassification"
    opt = scheds[0].optimizer  # the optimiser fit built (its schedule holds it)
    assert isinstance(opt, torch.optim.AdamW) and len(opt.param_groups) == 2
    assert [(g["weight_decay"], g["lr"]) for g in opt.param_groups] == [(0.0, 2e-5)] * 2, [(g["weight_decay"], g["lr"]) for g in opt.param_groups]
    assert sum(len(g["params"]) for g in opt.param_groups) == sum(p.requires_grad for p in r.model.parameters())  # every parameter
    assert [round(x, 12) for x in scheds[0].get_last_lr()] == [2e-5, 2e-5]  # both parameter groups, after the last step
    # AdamW with weight decay 0 takes Adam's step (torch.optim.Adam, the official optimizer), from the same start
    torch.manual_seed(0); a = torch.nn.Linear(3, 2); b = torch.nn.Linear(3, 2); b.load_state_dict(a.state_dict())
    oa, ob = torch.optim.Adam(a.parameters(), lr=2e-5), torch.optim.AdamW(b.parameters(), lr=2e-5, weight_decay=0.0)
    for _ in range(3):
        for m, o in ((a, oa), (b, ob)):
            o.zero_grad(); m(torch.ones(1, 3)).pow(2).sum().backward(); o.step()
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters()))


# --- Hub reachability and gated checkpoints, decided by huggingface_hub's own switch and client (no network) ----------

@pytest.fixture
def fake_hub(monkeypatch):
    """huggingface_hub's HTTP client answered by a fake Hub (`httpx2.MockTransport`, the client library huggingface_hub
    uses): `routes` maps (method, path) to (status, json, headers); `seen` lists the URLs asked for (scheme, host, path)."""
    import httpx2
    from huggingface_hub import close_session, set_client_factory
    from huggingface_hub import constants
    routes, seen = {}, []
    def answer(request):
        seen.append(f"{request.url.scheme}://{request.url.host}{request.url.path}")
        if "/resolve/" in request.url.path and routes.get("files") == "gated":  # a file download, refused as the Hub does
            return httpx2.Response(403, json={}, headers={"X-Error-Code": "GatedRepo", "X-Error-Message": "Access restricted."})
        status, body, headers = routes.get((request.method, request.url.path), (404, {}, {"X-Error-Code": "RepoNotFound"}))
        return httpx2.Response(status, json=body, headers=headers)
    for k in ("NLIC_OFFLINE", "NLIC_HUB", "HF_TOKEN"): monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", "https://hub-mirror.test")  # as HF_ENDPOINT would set it
    from huggingface_hub.utils import _http
    default = _http._GLOBAL_CLIENT_FACTORY  # the factory in force before (huggingface_hub's default), put back after
    set_client_factory(lambda: httpx2.Client(transport=httpx2.MockTransport(answer), follow_redirects=True))
    routes[("HEAD", "/")] = (200, {}, {})
    yield routes, seen
    set_client_factory(default); close_session()


def test_reachability_follows_huggingface_hub(fake_hub, monkeypatch):
    "Its offline switch (HF_HUB_OFFLINE as it parses it: '0' is online), NLIC_OFFLINE, its endpoint, and the answer."
    from huggingface_hub import constants
    routes, seen = fake_hub
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")  # online to huggingface_hub (its constant above is False): not offline here either
    assert M._hub_reachable() is True and seen == ["https://hub-mirror.test/"]  # HF_ENDPOINT's host, asked through its client
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # HF_HUB_OFFLINE=1 (or TRANSFORMERS_OFFLINE=1) at import
    assert M._hub_reachable() is False and len(seen) == 1  # decided without a request
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False); monkeypatch.setenv("NLIC_OFFLINE", "1")
    assert M._hub_reachable() is False and len(seen) == 1
    monkeypatch.delenv("NLIC_OFFLINE")
    for status, reachable in ((503, False), (407, False), (401, True), (200, True)):  # an answer, unless down or a proxy's
        routes[("HEAD", "/")] = (status, {}, {})
        assert M._hub_reachable() is reachable, status


def test_reachability_goes_through_the_proxy(monkeypatch):
    """huggingface_hub's own client (no fake) takes HTTP_PROXY: an endpoint whose name cannot resolve is reached through a
    local proxy, and is unreachable without it."""
    import http.server, threading
    from huggingface_hub import close_session, constants
    asked = []
    class Proxy(http.server.BaseHTTPRequestHandler):
        def do_HEAD(self):
            asked.append(self.path); self.send_response(200); self.end_headers()
        def log_message(self, *a): pass
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    for k in ("NLIC_OFFLINE", "NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", "http://hub.invalid")  # .invalid never resolves (RFC 2606)
    try:
        close_session(); assert M._hub_reachable(timeout=2) is False and asked == []
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{srv.server_port}")
        close_session(); assert M._hub_reachable(timeout=2) is True
        assert asked == ["http://hub.invalid/"]  # the proxy was asked for the endpoint
    finally:
        srv.shutdown(); srv.server_close(); monkeypatch.delenv("HTTP_PROXY", raising=False); close_session()


LLAMA = "meta-llama/Llama-2-13b-chat-hf"


def gated_llama(routes):
    "The fake Hub lists Llama-2 as gated and refuses its auth check the way the Hub does (403, X-Error-Code: GatedRepo)."
    routes[("GET", f"/api/models/{LLAMA}")] = (200, {"id": LLAMA, "gated": "manual"}, {})
    routes[("GET", f"/api/models/{LLAMA}/auth-check")] = (
        403, {"error": "restricted"}, {"X-Error-Code": "GatedRepo", "X-Error-Message": f"Access to model {LLAMA} is restricted."})


def test_gated_and_missing_checkpoints_say_why(fake_hub):
    from huggingface_hub import HfApi
    from huggingface_hub.errors import GatedRepoError
    routes, _ = fake_hub
    gated_llama(routes)
    with pytest.raises(GatedRepoError):
        HfApi().auth_check(LLAMA)  # huggingface_hub itself reads the fake answer as a gated refusal
    why = M.hub_refusal(LLAMA)
    assert why.startswith(f"{LLAMA} is gated: accept its licence at https://hub-mirror.test/{LLAMA}") and "HF_TOKEN" in why
    assert "GatedRepoError" in why
    routes[("GET", "/api/models/FacebookAI/roberta-base")] = (200, {"id": "FacebookAI/roberta-base", "gated": False}, {})
    assert M.hub_refusal("FacebookAI/roberta-base") is None  # public: nothing stands in the way
    assert M.hub_refusal("someone/missing").startswith("someone/missing is not on https://hub-mirror.test")
    routes[("GET", f"/api/models/{LLAMA}/auth-check")] = (200, {}, {})  # licence accepted, token set
    assert M.hub_refusal(LLAMA) is None
    gated_llama(routes)
    with pytest.raises(ModelUnavailable, match="is gated"):
        resolve_model("llama-2-chat")


def test_a_gated_llm_is_a_not_run_row(fake_hub, monkeypatch):
    "MSciNLI's LLM table: a gated checkpoint, refused at the check or later at download, is one 'not run' row, not a crash."
    from nlicompendium.mscinli import prompt_llm
    routes, _ = fake_hub
    gated_llama(routes)
    pairs = {"id": ["a"], "premise": ["A man plays."], "hypothesis": ["Nobody plays."], "label": [2]}
    names = ["contrasting", "reasoning", "entailment", "neutral"]
    (row,) = prompt_llm("Llama-2", pairs, names, [])
    assert (row["model"], row["prompt"], row["macro F1"]) == (f"Llama-2 ({LLAMA})", "all six", "not run")
    assert row["why"].startswith("not run: model 'llama-2-chat'") and "is gated" in row["why"] and "HF_TOKEN" in row["why"]
    monkeypatch.setattr(M, "resolve_model", lambda name: HUB_MODELS.get(name, name))  # the check passed, but the Hub
    routes["files"] = "gated"  # refuses the files (say, a token of an account without the licence)
    (row,) = prompt_llm("Llama-2", pairs, names, [])  # transformers downloads through huggingface_hub's client: refused
    assert (row["macro F1"], row["why"].startswith(f"not run: Llama-2 ({LLAMA}) could not be loaded")) == ("not run", True)
    assert "gated" in row["why"].lower()
