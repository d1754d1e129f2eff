"""What reading the frozen encoder's sentence vectors back from the feature store costs, against reading those bytes.

The curriculum study (`make main`) encodes each distinct sentence once and keeps its vectors on disk
(`models.sentence_vectors`, shards of `.npz` under `<cache>/features/<key>/`, each named by the SHA-256 of its bytes).
A second run reads them back instead of encoding again, and loads the tokenizer. Rows, each the median of 5 runs in a
fresh process state (the in-memory store emptied):

- the bytes alone: every shard's file read (`Path.read_bytes`), what the disk and the page cache cost;
- the bytes and their SHA-256 (the check that a shard is not damaged);
- the store as the study reads it: `models._store` (read, check, unpack every vector by sentence);
- the tokenizer: `models.load_tokenizer('embedded')` (the study loads it once a run).

    NLIC_CACHE_DIR=<a cache with a filled feature store> python benchmarks/feature_store.py
"""
import hashlib, os, statistics, time

os.environ.setdefault("NLIC_OFFLINE", "1")


def timed(fn, runs=5):
    out = []
    for _ in range(runs):
        t = time.perf_counter(); fn(); out.append(time.perf_counter() - t)
    return statistics.median(out)


def main():
    from nlicompendium import models
    from nlicompendium.core import cache_dir
    keys = sorted(p for p in (cache_dir() / "features").glob("*") if p.is_dir())
    if not keys: raise SystemExit(f"no feature store under {cache_dir() / 'features'}: run `make main` first")
    key = max(keys, key=lambda p: sum(f.stat().st_size for f in p.glob("shard-*.npz")))
    shards = sorted(key.glob("shard-*.npz")); size = sum(f.stat().st_size for f in shards)

    def store():
        models._VECTORS.clear(); return models._store(key.name, True)
    n = len(store())
    rows = [("the bytes alone (read_bytes)", timed(lambda: [f.read_bytes() for f in shards])),
            ("the bytes and their SHA-256", timed(lambda: [hashlib.sha256(f.read_bytes()).hexdigest() for f in shards])),
            ("the store as the study reads it (models._store)", timed(store)),
            ("the tokenizer (load_tokenizer('embedded'))", timed(lambda: models.load_tokenizer("embedded")))]
    base = rows[0][1]
    print(f"{n:,} sentences, {len(shards)} shards, {size / 2**20:.1f} MiB\n")
    print("| row | seconds | / the bytes alone |\n|:--|--:|--:|")
    for name, s in rows: print(f"| {name} | {s:.3f} | {s / base:.1f} |")


if __name__ == "__main__":
    main()
