"""Builds data/corpus/papers/lse-online-softmax-note.pdf, the embedded corpus's PDF document.

The PDF is written by hand (no reportlab): a minimal PDF 1.4 file with the standard Type 1 fonts Helvetica,
Helvetica-Bold and Courier in WinAnsiEncoding, one content stream per page, and a correct xref table, so
pypdf (and any viewer) extracts its text. Only the generated PDF is committed with the corpus; run this script
again after editing the note:  python tools/make_corpus_pdf.py
"""

from __future__ import annotations

import textwrap
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "data" / "corpus" / "papers" / "lse-online-softmax-note.pdf"

PAGE_W, PAGE_H, MARGIN = 612, 792, 72  # US letter, 1-inch margins

# (style, text): style is title | meta | h | p | code
NOTE = [
    ("title", "Technical Note TN-2025-04: The Log-Sum-Exp in Fused Attention"),
    ("meta", "Numerics working group. Forward stability, what to save for the backward, and test tolerances."),
    ("h", "1. Summary"),
    (
        "p",
        "Fused attention kernels compute softmax(Q K^T * scale) V block by block without materializing the "
        "N x N score matrix. Their numerical behaviour rests on one quantity: the row log-sum-exp "
        "L_i = log sum_j exp(S_ij). This note explains how L is computed stably in a single pass (the online "
        "softmax), why saving L is enough to recompute the exact probabilities in the backward pass, how the "
        "base-2 formulation used by fast kernels must be converted, and which error to expect from bf16 inputs "
        "with fp32 accumulation.",
    ),
    ("h", "2. Stable evaluation"),
    (
        "p",
        "In fp32, exp(x) overflows for x > 88.72 and underflows to zero for x < -103.97 (to a subnormal below "
        "-87.3). Attention scores of trained models routinely exceed 30 in magnitude, and with fp16 storage the "
        "limit is far lower: exp(11.1) already exceeds 65504. The standard identity "
        "log sum_j exp(x_j) = m + log sum_j exp(x_j - m) with m = max_j x_j makes every exponent non-positive "
        "and guarantees that the largest term of the sum is exactly one, so the sum lies in [1, n] and the "
        "logarithm is well conditioned.",
    ),
    (
        "p",
        "The online form processes the row in blocks. With running maximum m and running sum l, a block with "
        "maximum b updates m' = max(m, b) and l' = l * exp(m - m') + sum_j exp(x_j - m'). The rescaling factor "
        "exp(m - m') is at most one, so the update never overflows, and the result after the last block equals "
        "the two-pass result up to rounding. The same factor rescales the output accumulator, which is the whole "
        "of the FlashAttention forward recurrence.",
    ),
    ("h", "3. Base 2"),
    (
        "p",
        "Hardware exponentials compute 2^x (the MUFU.EX2 instruction on NVIDIA GPUs). Kernels therefore fold "
        "log2(e) = 1.4426950408889634 into the softmax scale and work in base 2: s2 = S * scale * log2(e), "
        "p = exp2(s2 - m2). The saved statistic is then L2 = m2 + log2(l), and the natural-log value is "
        "L = L2 * ln(2). Mixing the two conventions between forward and backward is a common bug: the backward "
        "computes probabilities that are all wrong by a constant power, the gradients look plausible, and only a "
        "comparison with a reference reveals it. State the base in the kernel's docstring and in the name of "
        "the saved tensor.",
    ),
    (
        "code",
        "qk_scale = sm_scale * 1.4426950408889634      # 1/ln(2)\n"
        "p        = exp2(qk * qk_scale - m2[:, None])\n"
        "lse2     = m2 + log2(l)                      # saved by the forward, base 2\n"
        "p_bwd    = exp2(qk * qk_scale - lse2[:, None])  # exact probabilities in the backward",
    ),
    ("h", "4. Why L is enough for the backward"),
    (
        "p",
        "Because L is the exact normaliser of its row, P_ij = exp(S_ij - L_i) is the normalised probability; no "
        "running maximum is needed in the backward, and since S_ij <= L_i every exponent is non-positive. The "
        "remaining ingredient of the softmax gradient, D_i = sum_j P_ij dP_ij, equals rowsum(dO * O)_i and is "
        "computed from tensors of size N x d. Together: dS = P * (dP - D), with dP = dO V^T, dV = P^T dO, "
        "dQ = dS K * scale and dK = dS^T Q * scale. Storing L costs 4 bytes per row and head; storing P would "
        "cost 2 N bytes per row.",
    ),
    (
        "p",
        "Masked rows need care. If a padding mask removes every key of a row, m stays at -inf, l stays at zero and "
        "L = -inf; the backward then evaluates exp(-inf - (-inf)) = NaN. Kernels should either forbid fully masked "
        "rows or define their output as zero and store L = +inf, which makes every recomputed probability zero.",
    ),
    ("h", "5. Expected error with bf16 inputs"),
    (
        "p",
        "bf16 has unit roundoff u = 2^-8. With fp32 accumulation the errors of the matrix products themselves are "
        "negligible; the dominant forward error is the rounding of P to bf16 before the P V product, a relative "
        "error of at most u per probability. Since the probabilities sum to one, the output error is bounded by "
        "roughly u * max|V| and is typically a few times u * rms(V) / sqrt(N_eff), where N_eff is the effective "
        "number of keys a row attends to. In the backward, dS is rounded to bf16 before two products, and dQ "
        "sums N contributions, so its error grows with the sequence length: expect dQ to be the least accurate "
        "gradient.",
    ),
    (
        "p",
        "Recommended test: compute a reference in float64 from the bf16 inputs, compute a baseline in the kernel's "
        "dtype with a straightforward implementation, and require max|kernel - ref| <= 2 * max|baseline - ref| "
        "+ 1e-3. This adapts to the shapes under test, unlike a fixed rtol, and fails loudly on real bugs: a "
        "missing scale or a wrong base produces errors of order one, three orders of magnitude above the bound.",
    ),
    ("h", "6. Checklist"),
    (
        "p",
        "(a) Subtract the running maximum before every exponential. (b) Keep m, l and all accumulators in fp32. "
        "(c) Save L, not m and l separately, and document its base. (d) Define the fully masked row. "
        "(e) Compute D = rowsum(dO * O) in fp32 in a preprocessing pass. (f) Test against float64 with a "
        "baseline-relative tolerance, including sequence lengths that are not multiples of the block size.",
    ),
    ("h", "7. A worked example"),
    (
        "p",
        "Take one row of scores in fp32, x = (31.0, 30.5, -4.0, 12.0), split into two blocks of two. Block one: "
        "m = 31.0, l = 1 + exp(-0.5) = 1.60653. Block two has maximum 12.0 < m, so the rescale factor is one and "
        "l = 1.60653 + exp(-35) + exp(-19) = 1.60653 (both new terms are below fp32 resolution relative to l). "
        "L = 31.0 + log(1.60653) = 31.47408. The naive formula log(sum(exp(x))) overflows in fp16 at the first "
        "term and is fine in fp32 only because 31 < 88.7; a score of 100, which appears in unnormalised models "
        "and after a loss spike, would overflow fp32 as well.",
    ),
    (
        "p",
        "Now the backward for the same row with dP = (0.2, -0.1, 0.4, 0.0): P = (0.62246, 0.37754, 0, 0) to five "
        "digits, D = sum P * dP = 0.08674, dS = P * (dP - D) = (0.07050, -0.07050, 0, 0). The gradient of a softmax "
        "row always sums to zero, a cheap invariant to assert in a debug build of the kernel.",
    ),
    (
        "code",
        "row      x        P         dP      dS\n"
        "0     31.0   0.62246    0.2    0.07050\n"
        "1     30.5   0.37754   -0.1   -0.07050\n"
        "2     -4.0   0.00000    0.4    0.00000\n"
        "3     12.0   0.00000    0.0    0.00000",
    ),
    ("h", "References"),
    (
        "p",
        "[1] M. Milakov, N. Gimelshein. Online normalizer calculation for softmax, 2018. "
        "[2] T. Dao et al. FlashAttention: fast and memory-efficient exact attention with IO-awareness, 2022. "
        "[3] T. Dao. FlashAttention-2: faster attention with better parallelism and work partitioning, 2023. "
        "[4] N. J. Higham. Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM, 2002.",
    ),
]

STYLE = {  # font resource, size, leading, wrap width in characters
    "title": ("F2", 15, 20, 62),
    "meta": ("F1", 9, 13, 100),
    "h": ("F2", 11.5, 18, 80),
    "p": ("F1", 10, 13, 92),
    "code": ("F3", 8.5, 11, 100),
}


def pdf_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def layout() -> list[list[tuple[str, float, float, float, str]]]:
    """Wraps the note into pages of positioned lines: (font, size, x, y, text)."""
    pages, page, y = [], [], PAGE_H - MARGIN
    for style, text in NOTE:
        font, size, leading, width = STYLE[style]
        lines = text.split("\n") if style == "code" else textwrap.wrap(text, width)
        if style == "h":
            y -= 6
        for line in lines:
            if y - leading < MARGIN:
                pages.append(page)
                page, y = [], PAGE_H - MARGIN
            y -= leading
            page.append((font, size, MARGIN + (12 if style == "code" else 0), y, line))
        y -= 5
    pages.append(page)
    for number, page in enumerate(pages, 1):
        page.append(("F1", 8, PAGE_W / 2 - 30, MARGIN / 2, f"TN-2025-04, page {number} of {len(pages)}"))
    return pages


def build() -> bytes:
    pages = layout()
    objects: list[bytes] = []  # object i+1 is objects[i]

    def add(body: str | bytes) -> int:
        objects.append(body.encode("latin-1") if isinstance(body, str) else body)
        return len(objects)

    catalog = add("")  # placeholders, filled once the page objects are known
    pages_obj = add("")
    fonts = {
        "F1": add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
        "F2": add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>"),
        "F3": add("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>"),
    }
    font_dict = " ".join(f"/{name} {num} 0 R" for name, num in fonts.items())
    page_ids = []
    for page in pages:
        ops = ["BT"]
        for font, size, x, y, text in page:
            ops.append(f"/{font} {size} Tf 1 0 0 1 {x:.1f} {y:.1f} Tm {pdf_string(text)} Tj")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        page_ids.append(
            add(
                f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {PAGE_W} {PAGE_H}] "
                f"/Resources << /Font << {font_dict} >> >> /Contents {content} 0 R >>"
            )
        )
    objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode()
    kids = " ".join(f"{p} 0 R" for p in page_ids)
    objects[pages_obj - 1] = f"<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>".encode()
    info = add("<< /Title (TN-2025-04: The Log-Sum-Exp in Fused Attention) /Author (Numerics working group) >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        info,
        xref,
    )
    return bytes(out)


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_bytes(build())
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
