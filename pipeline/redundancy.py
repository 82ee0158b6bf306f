"""Redundancy's building blocks: word shingles, MinHash signatures, containment, and the label's threshold.

Every document becomes the set of its word 4-shingles (four consecutive normalized words; long enough that two
independent texts rarely share one, short enough that a copy with one word in twelve edited still shares ~70%
of them). A MinHash of 128 permutations summarizes each set; an LSH index (``datasketch.MinHashLSH``: banding,
expected O(1) candidates per query) finds pairs whose estimated Jaccard similarity is at least
``CANDIDATE_JACCARD``, so no pair of documents is ever compared blindly and the cost grows with the number of
documents, not its square. datasketch is used rather than our own banding code because its band/row choice
minimizes false positives+negatives for a threshold and is well tested.

For a candidate pair the *containment* of A in B is estimated from the MinHash Jaccard J and the set sizes
(|A∩B| = J/(1+J)·(|A|+|B|)). Which of two copies repeats the other is decided by the Vision's copies stage
(``pipeline.vision.copies``: the copy to keep is the rendered, newer, more complete one, never the higher
ranked); a document's redundancy is "high" at ``HIGH_REDUNDANCY`` (half of its shingles appear in the copy
preferred over it) or above.

Threshold choice: versions of the same page and mirrors have Jaccard 0.6–1.0 over 4-shingles; a re-hosted
lecture with its own header, footer and edits to one word in twelve 0.5–0.8; two different pages on the
same topic rarely exceed 0.05. ``CANDIDATE_JACCARD = 0.3`` (42 bands of 3 rows: a pair at Jaccard 0.4 is
a candidate with probability 0.94, at 0.5 with 0.996, at 0.1 with 0.04) leaves margin for the MinHash
estimate's error (±0.04 at 128 permutations); the containment estimate then decides.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from datasketch import LeanMinHash, MinHash

from .choices import Level

SHINGLE_WORDS = 4
NUM_PERM = 128
CANDIDATE_JACCARD = 0.3
LSH_WEIGHTS = (0.2, 0.8)  # a missed duplicate costs more than a candidate pair checked for nothing
HIGH_REDUNDANCY = 0.5  # redundancy_label: "high" from here on
_SEED = 1
_MASK32 = np.uint64(0xFFFFFFFF)
_PRIME = np.uint64(1_000_003)

_word_hash: dict[str, int] = {}
_blake2b = hashlib.blake2b
_template = MinHash(num_perm=NUM_PERM, seed=_SEED)


@dataclass(frozen=True)
class Signature:
    minhash: LeanMinHash
    size: int  # distinct shingles


def redundancy_label(score: float) -> Level:
    return Level.high if score >= HIGH_REDUNDANCY else Level.low


def _identity(value: int) -> int:
    return value


def stable_hash(text: str) -> int:
    """A 64-bit hash of ``text`` (signed, as numpy's int64 holds it) that every process and machine gives alike:
    ``hash`` of a str is salted per process (``PYTHONHASHSEED``), so a sketch or a bucket keyed on it makes the
    same corpus score differently from one run to the next. BLAKE2b of the UTF-8 bytes (a lone surrogate kept
    as its bytes), 8 bytes of digest: about 0.5 µs a line against 0.1 µs for ``hash``, 0.5 s in the 10,000-page
    bench's whole scoring."""
    return int.from_bytes(
        _blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little", signed=True
    )


def stable_hashes(texts: Iterable[str]) -> np.ndarray:
    """``stable_hash`` of each text, in order, as int64."""
    return np.fromiter(map(stable_hash, texts), dtype=np.int64)


def shingle_hashes(toks: Sequence[str], k: int = SHINGLE_WORDS) -> np.ndarray:
    """Distinct 32-bit hashes of the k-word shingles of ``toks`` (a shorter text is one shingle)."""
    if not toks:
        return np.empty(0, dtype=np.uint64)
    cache = _word_hash
    if len(cache) > 2_000_000:
        cache.clear()
    for token in set(toks).difference(cache):
        cache[token] = zlib.crc32(token.encode())
    words = np.fromiter(map(cache.__getitem__, toks), dtype=np.uint64, count=len(toks))
    k = min(k, len(words))
    m = len(words) - k + 1
    rolled = words[:m].copy()
    for i in range(1, k):  # polynomial rolling hash; uint64 arithmetic wraps, then folded to 32 bits
        rolled = rolled * _PRIME + words[i : i + m]
    rolled ^= rolled >> np.uint64(32)
    return np.unique(rolled & _MASK32)


def signature(toks: Sequence[str]) -> Signature | None:
    return signature_of(shingle_hashes(toks))


# MurmurHash3's 32-bit finalizer, which datasketch's "affine32" scheme applies to each value before its permutations
_FMIX32 = (np.uint32(16), np.uint32(0x85EBCA6B), np.uint32(13), np.uint32(0xC2B2AE35), np.uint32(16))


def signature_of(hashes: np.ndarray) -> Signature | None:
    """The MinHash of a set of shingle hashes (``shingle_hashes``); None for an empty set.

    Under datasketch's "affine32" scheme the arithmetic of ``MinHash.update_batch`` is done here on the array
    itself (the hash function is the identity): the same values, without a Python call per shingle to hash it
    and a list of them (tests/test_vision_speed.py compares the two)."""
    if hashes.size == 0:
        return None
    # the array path only where every value fits 32 bits unsigned: a wider or a negative one goes to update_batch,
    # which raises datasketch's own ValueError, as before (a cast to uint32 would wrap it into a value instead)
    if _template.scheme == "affine32" and hashes.min() >= 0 and hashes.max() <= 0xFFFFFFFF:
        s1, m1, s2, m2, s3 = _FMIX32
        hv = hashes.astype(np.uint32).reshape(-1, 1)
        hv = hv ^ (hv >> s1)
        hv = hv * m1
        hv = hv ^ (hv >> s2)
        hv = hv * m2
        hv = hv ^ (hv >> s3)
        a, b = _template.permutations
        values = (hv * a + b).min(axis=0)
        return Signature(LeanMinHash(seed=_SEED, hashvalues=values, scheme="affine32"), int(hashes.size))
    minhash = MinHash(
        num_perm=NUM_PERM, seed=_SEED, hashfunc=_identity, permutations=_template.permutations, scheme=_template.scheme
    )
    minhash.update_batch(hashes.tolist())
    return Signature(LeanMinHash(minhash), int(hashes.size))


def containment(jaccard: float, size_a: int, size_b: int) -> float:
    """Estimated share of A's shingles that B holds, from the Jaccard of A and B and their sizes."""
    if jaccard <= 0:
        return 0.0
    shared = jaccard / (1.0 + jaccard) * (size_a + size_b)
    return max(0.0, min(1.0, shared / size_a))


def containments(jaccards: np.ndarray, size_a: int, sizes: np.ndarray) -> np.ndarray:
    """``containment`` of one text A in many texts at once: A's Jaccard with each and their sizes."""
    return np.clip(jaccards / (1.0 + jaccards) * (size_a + sizes) / size_a, 0.0, 1.0)
