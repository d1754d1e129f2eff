"""What a reader reads speaks of the papers and the project, not of the history of the work, and stays short.

The texts: README.md, the benchmarks report, the docs pages (and the text docs/build.py generates), the tables' and
figures' Markdown, and the Markdown cells of the notebooks (the sources in nbs/ and the executed copies the site shows).
History belongs to git: commit messages say which change came when and why.
"""
import json
import re
from pathlib import Path

import pytest

PROCESS_WORDS = [
    r"\b(session|issue|item)s?\s+#?\d+",  # "session 22", "issue 40", "item 5"
    r"\b(this|that|the|each|every|previous|last|next|earlier|later|our)\s+(session|issue)s?\b",  # "the issue asks"
    r"\bissue's\b",
    r"\b(previous|last|earlier|an earlier) review\b",
    r"\breferee reads of\b", r"\b(first|second|verifying|earlier) (referee )?read\b",  # a record of reviews
]
STUDIES = ["05_curriculum", "10_datasets", "11_finetune", "12_taxinli", "13_cb", "14_mscinli", "15_codemixed"]
MAX_WORDS = {"README.md": 1200, "benchmarks/README.md": 2500}
MAX_PARAGRAPH = 150  # words in one Markdown paragraph of a study notebook, and in its opening summary


def markdown_cells(path: Path) -> list[tuple[str, str]]:
    "(cell id, source) of each Markdown cell of a notebook."
    nb = json.loads(path.read_text(encoding="utf-8"))
    return [(c.get("id", str(i)), "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown"]


def reader_texts(root: Path) -> list[tuple[str, str]]:
    "(where, text) of every text a reader reads."
    files = [root / "README.md", root / "benchmarks" / "README.md", root / "docs" / "build.py"]
    files += [p for p in (root / "docs").rglob("*.md") if not {"_build", "_gen"} & set(p.relative_to(root).parts)]
    files += sorted((root / "tables").rglob("*.md")) + sorted((root / "figures").rglob("*.md"))
    texts = [(str(p.relative_to(root)), p.read_text(encoding="utf-8")) for p in files if p.is_file()]
    for nb in sorted((root / "nbs").glob("*.ipynb")) + sorted((root / "tables").glob("*/*.ipynb")):
        texts += [(f"{nb.relative_to(root)} (cell {cid})", src) for cid, src in markdown_cells(nb)]
    return texts


def process_words(text: str) -> list[str]:
    "Each process word in `text`, with some context."
    found = []
    for rx in PROCESS_WORDS:
        for m in re.finditer(rx, text, re.I):
            found.append(repr(text[max(0, m.start() - 40):m.end() + 20]))
    return found


def test_process_words_found():
    "The check finds what it should, and leaves the papers' own words alone."
    assert process_words("six runs at the last commits of session 22")
    assert process_words("Re-checked for Issue 40: MNLI") and process_words("the counts in items 1, 2 and 5")
    assert process_words("The tests the issue asks for") and process_words("Referee reads of the scorecard")
    assert process_words("what the verifying read found")
    assert not process_words("CB's 250 items, 56 of them hand-labelled; until subsequent clarification sessions")
    assert not process_words("a known issue of the tokenizer; 12 items. A referee reads one file per paper.")


def test_no_process_words(root):
    found = [f"{where}: {hit}" for where, text in reader_texts(root) for hit in process_words(text)]
    assert not found, f"{len(found)} process words in reader-facing text:\n" + "\n".join(found)


@pytest.mark.parametrize("name", sorted(MAX_WORDS))
def test_report_lengths(root, name):
    words = len((root / name).read_text(encoding="utf-8").split())
    assert words <= MAX_WORDS[name], f"{name}: {words} words, at most {MAX_WORDS[name]}"


def paragraphs(md: str) -> list[str]:
    "A Markdown cell's paragraphs and list items, without headings, tables, code blocks or HTML comments."
    md = re.sub(r"```.*?```", "", md, flags=re.S); md = re.sub(r"<!--.*?-->", "", md, flags=re.S)
    out = []
    for block in re.split(r"\n\s*\n", md):
        lines = [l for l in block.splitlines() if l.strip() and not l.lstrip().startswith(("|", "#"))]
        for item in re.split(r"\n(?=\s*(?:[-*+]|\d+\.)\s)", "\n".join(lines)):
            if item.strip(): out.append(item)
    return out


def words(text: str) -> int:
    return len(re.findall(r"\S+", text))


def test_paragraphs_counted():
    md = "# T\n\nOne two three.\n\n| a | b |\n|---|---|\n\n- x y\n- z\n\n```python\nnot counted\n```"
    assert [words(p) for p in paragraphs(md)] == [3, 3, 2]


@pytest.mark.parametrize("nb", STUDIES)
def test_study_prose(root, nb):
    "A study opens with a summary of at most 150 words, and no Markdown paragraph is longer."
    cells = markdown_cells(root / "nbs" / f"{nb}.ipynb")
    summary = [p for p in paragraphs(cells[0][1]) if not p.startswith(">")]  # after the title and the one-line description
    assert summary and summary[0].startswith("**In short.**"), (nb, summary[:1])
    assert 60 <= words(summary[0]) <= MAX_PARAGRAPH, (nb, words(summary[0]))
    long = [(cid, words(p), p[:80]) for cid, src in cells for p in paragraphs(src) if words(p) > MAX_PARAGRAPH]
    assert not long, long
