"""The scorecard page built from the committed tables: its size, its counts against the tables' own conclusions, its
links to each study's evidence page, the controls once and apart, the forest plot, the README's headline."""
import re
import pytest


@pytest.fixture(scope="module")
def built(root):
    from nlicompendium.scorecard import FIGURE, page
    return page(root, figure=f"../{FIGURE.as_posix()}")


def test_committed_page_is_the_page_the_committed_tables_give(root, built):
    "tables/SCORECARD.md is what `nlic_scorecard` writes from the committed claims tables, and under 40 KB."
    committed = (root / "tables" / "SCORECARD.md").read_text()
    assert len(committed.encode()) < 40_000, len(committed.encode())
    assert len(built.encode()) < 40_000, len(built.encode())
    assert committed == built, "tables/SCORECARD.md is out of date: run nlic_scorecard"


def test_counts_are_the_tables_conclusions(root, built):
    "Each paper's count on the page is the number of distinct conclusions of its rows, counted once each."
    import pandas as pd
    from nlicompendium.claims import by_conclusion, upgrade_claims
    from nlicompendium.scorecard import PROTOCOL_COLUMNS
    here = {p.parent.name for p in (root / "tables").glob("*/claims.csv")}
    tabs = pd.concat([upgrade_claims(pd.read_csv(p)) for p in sorted((root / "tables").glob("*/claims.csv"))
                      if not (p.parent.name in PROTOCOL_COLUMNS and PROTOCOL_COLUMNS[p.parent.name][0] in here)])
    from nlicompendium.scorecard import APART  # controls and exploratory conclusions: counted apart
    bc = by_conclusion(tabs)
    want = bc[~bc.kind.isin(APART)].groupby("paper", sort=False).size()
    summary = built.split("\n\n| paper | all |", 1)[1].split("\n\n", 1)[0]
    got = {ln.split(" | ")[0].strip("| "): int(ln.split(" | ")[1]) for ln in summary.splitlines()[2:]}
    assert got == {p.split(" (")[0]: int(n) for p, n in want.items()}, (got, want)
    # one entry per conclusion under each paper's heading: a table row, or a line of the conclusions that did not run
    for paper, n in want.items():
        block = built.split(f"\n## {paper}\n", 1)[1].split("\n## ", 1)[0]
        numbers = re.findall(r"^(?:\| |- )\[(\d+)\]\(", block, flags=re.M)
        assert sorted(map(int, numbers)) == list(range(1, n + 1)), paper


def test_rows_link_to_evidence_and_stay_short(root, built):
    "Every row links to a heading of a committed tables/<job>/evidence.md; its note has at most 10 words (then its parts)."
    from nlicompendium.scorecard import anchor
    links = re.findall(r"\]\(([\w.-]+)/evidence\.md#([^)]+)\)", built)
    assert links
    heads = {}
    for job, a in set(links):
        if job not in heads:
            text = (root / "tables" / job / "evidence.md").read_text()
            heads[job] = {anchor(h) for h in re.findall(r"^## (.+)$", text, flags=re.M)}
        assert a in heads[job], (job, a)
    rows = [ln for ln in built.splitlines() if re.match(r"^\| (?:[^|]+ \| )?\[\d+\]\(", ln)]
    notes = [ln.rstrip(" |").rsplit(" | ", 1)[1] for ln in rows]
    short = [n.split("; weakest of ")[0] for n in notes]
    assert all(len(n.split()) <= 10 for n in short), max(short, key=lambda n: len(n.split()))


def test_controls_once_and_apart(built):
    "A control appears in the controls' section only, once."
    head, _, ctl = built.partition("\n## Controls the papers did not run\n")
    assert ctl, "no controls section"
    for job, a in re.findall(r"\]\(([\w.-]+)/evidence\.md#([^)]+)\)", ctl):
        assert built.count(f"]({job}/evidence.md#{a})") == 1, a
    assert "Controls the papers did not run, counted apart:" in head


def test_forest_plot_and_headline(root, built):
    "The forest plot is committed as PNG and PDF beside its manifest and shown; the README's headline is the page's."
    from nlicompendium.scorecard import FIGURE, HEADLINE_MARKS
    assert f"](../{FIGURE.as_posix()})" in built
    for ext in ("png", "pdf"): assert (root / FIGURE.with_suffix(f".{ext}")).is_file()
    assert (root / FIGURE.parent / "manifest.json").is_file()
    readme = (root / "README.md").read_text()
    if HEADLINE_MARKS[0] in readme:
        line = readme.split(HEADLINE_MARKS[0], 1)[1].split(HEADLINE_MARKS[1], 1)[0]
        assert line.strip() and line.strip() in built, line


def test_no_process_words(root, built):
    "The page and the evidence pages speak of the papers, not of the project's history."
    pages = {"SCORECARD.md": built, **{str(p): p.read_text() for p in (root / "tables").glob("*/evidence.md")}}
    for name, text in pages.items():
        assert not re.search(r"\b(?:session|issue|item)s? \d", text, flags=re.I), name
