"""A small GPT trained twice on the embedded corpus, with SDPA and with our attention: the proof in a training loop.

    cd <repo> && PYTHONPATH=. python3 benchmarks/train_gpt.py --out $OUT --steps 300
    TRITON_INTERPRET=1 PYTHONPATH=. python3 benchmarks/train_gpt.py --device cpu --layers 2 --seq 64 --batch 2 \
        --dim 64 --heads 4 --kv-heads 1 --steps 3 --out /tmp/smoke --compile-backend aot_eager   # the CPU smoke test

A Llama-style decoder (pre-norm RMSNorm, rotary positions, grouped-query attention 4:1, SwiGLU MLP, tied byte
embeddings; 8 layers, width 512, 8 query heads of 64 and 2 kv heads by default) learns to predict the next byte
of the embedded corpus's text (``data/corpus``: the HTML pages reduced to their text by the standard library's
parser, the notes and lists as they are; byte-level, 256 symbols, nothing downloaded). Every run starts from the
same seed: the same initial weights and the same batches (random 2048-byte windows of the training 90%), AdamW,
bf16 autocast. Runs: ``sdpa`` (torch.nn.functional.scaled_dot_product_attention with is_causal and enable_gqa),
``ours`` (skills.operator_adaptation.attention, the same arguments), and each again under
``torch.compile(fullgraph=True)``.

Recorded in ``<out>/train_gpt.json``: every step's loss and time, the median step time after warm-up (the
first steps pay for compilation and our tuner), tokens/s, the held-out loss at the end, and how far the curves
sit apart: ours vs SDPA next to SDPA vs compiled SDPA, which differ by rounding alone (the noise floor). The
curves are drawn as ``train_gpt_loss.svg`` (by this script) and ``train_gpt_loss.png`` when matplotlib is
importable. Needs only torch, triton, numpy and this repository's files.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import torch
import torch.nn.functional as F

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from skills.operator_adaptation.fused_attention import attention  # noqa: E402

TEXT_SUFFIXES = {".html", ".md", ".txt"}
VOCAB = 256  # bytes


# ------------------------------------------------------------------------------------------------- the data


class _Text(HTMLParser):
    """The text of an HTML page: what is between the tags, scripts and styles left out."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style") and self._skip > 0

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def corpus_bytes(root: Path = REPO / "data" / "corpus") -> bytes:
    """The corpus's text, file by file in path order: HTML reduced to its text, markdown and text files as is."""
    chunks = []
    for path in sorted(p for p in root.rglob("*") if p.suffix in TEXT_SUFFIXES and p.is_file()):
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".html":
            parser = _Text()
            parser.feed(text)
            text = "\n".join(parser.parts)
        chunks.append(text)
    return "\n\n".join(chunks).encode("utf-8")


def splits(data: bytes, held_out: float = 0.1) -> tuple[torch.Tensor, torch.Tensor]:
    tokens = torch.frombuffer(bytearray(data), dtype=torch.uint8).long()
    cut = int(len(tokens) * (1 - held_out))
    return tokens[:cut], tokens[cut:]


def batch(tokens: torch.Tensor, size: int, seq: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """``size`` random windows of seq + 1 bytes: inputs and next-byte targets."""
    starts = torch.randint(0, len(tokens) - seq - 1, (size,), generator=generator)
    windows = torch.stack([tokens[s : s + seq + 1] for s in starts.tolist()])
    return windows[:, :-1], windows[:, 1:]


# ------------------------------------------------------------------------------------------------ the model


def rotary(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Rotary position embedding (Su et al., RoFormer) on (batch, heads, seq, head_dim): pairs (x1, x2) of the
    two halves rotated by position-dependent angles."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1).type_as(x)


class Attention(torch.nn.Module):
    def __init__(self, dim: int, heads: int, kv_heads: int, impl: str):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim, self.impl = heads, kv_heads, dim // heads, impl
        self.q = torch.nn.Linear(dim, dim, bias=False)
        self.kv = torch.nn.Linear(dim, 2 * kv_heads * self.head_dim, bias=False)
        self.out = torch.nn.Linear(dim, dim, bias=False)

    def forward(self, x, cos, sin):
        b, n, _ = x.shape
        q = self.q(x).view(b, n, self.heads, self.head_dim).transpose(1, 2)  # (B, H, N, D)
        k, v = self.kv(x).view(b, n, 2, self.kv_heads, self.head_dim).permute(2, 0, 3, 1, 4)  # 2 x (B, H_kv, N, D)
        q, k = rotary(q, cos, sin), rotary(k, cos, sin)
        if self.impl == "ours":
            y = attention(q, k, v, is_causal=True, enable_gqa=True)
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return self.out(y.transpose(1, 2).reshape(b, n, -1))


class Block(torch.nn.Module):
    def __init__(self, dim: int, heads: int, kv_heads: int, hidden: int, impl: str):
        super().__init__()
        self.norm1, self.norm2 = torch.nn.RMSNorm(dim), torch.nn.RMSNorm(dim)
        self.attn = Attention(dim, heads, kv_heads, impl)
        self.gate_up = torch.nn.Linear(dim, 2 * hidden, bias=False)
        self.down = torch.nn.Linear(hidden, dim, bias=False)

    def forward(self, x, cos, sin):
        x = x + self.attn(self.norm1(x), cos, sin)
        gate, up = self.gate_up(self.norm2(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(gate) * up)  # SwiGLU


class GPT(torch.nn.Module):
    def __init__(self, layers: int, dim: int, heads: int, kv_heads: int, seq: int, impl: str):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, dim)
        hidden = 256 * math.ceil(8 * dim / 3 / 256)  # SwiGLU's 2/3 of 4x, rounded to 256
        self.blocks = torch.nn.ModuleList(Block(dim, heads, kv_heads, hidden, impl) for _ in range(layers))
        self.norm = torch.nn.RMSNorm(dim)
        head_dim = dim // heads
        angles = torch.outer(torch.arange(seq).float(), 10000.0 ** (-torch.arange(0, head_dim, 2).float() / head_dim))
        self.register_buffer("cos", angles.cos()[None, None], persistent=False)  # (1, 1, N, D/2)
        self.register_buffer("sin", angles.sin()[None, None], persistent=False)
        for name, p in self.named_parameters():  # GPT-2's init: N(0, 0.02), residual projections scaled by depth
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * layers) if name.endswith(("out.weight", "down.weight")) else 0.02
                torch.nn.init.normal_(p, std=std)

    def forward(self, idx, targets):
        x = self.embed(idx)
        n = idx.shape[1]
        for block in self.blocks:
            x = block(x, self.cos[:, :, :n], self.sin[:, :, :n])
        logits = self.norm(x) @ self.embed.weight.t()  # tied embeddings
        return F.cross_entropy(logits.float().view(-1, VOCAB), targets.reshape(-1))


# ---------------------------------------------------------------------------------------------- training


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def learning_rate(step: int, args) -> float:
    """Linear warm-up, then a cosine decay to a tenth."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    progress = (step - args.warmup) / max(1, args.steps - args.warmup)
    return args.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))


def train(run: str, args, train_tokens, val_tokens, device: torch.device) -> dict:
    """One run: ``run`` is sdpa, ours, sdpa_compiled or ours_compiled."""
    impl, compiled = run.removesuffix("_compiled"), run.endswith("_compiled")
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    torch.manual_seed(args.seed)
    model = GPT(args.layers, args.dim, args.heads, args.kv_heads, args.seq, impl).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    step_fn = (
        torch.compile(model, fullgraph=True, backend=args.compile_backend, mode=args.compile_mode)
        if compiled
        else model
    )
    data_gen = torch.Generator().manual_seed(args.seed)  # the same batches for every run
    losses, times = [], []
    started = time.perf_counter()
    for step in range(args.steps):
        for group in optimizer.param_groups:
            group["lr"] = learning_rate(step, args)
        x, y = (t.to(device, non_blocking=True) for t in batch(train_tokens, args.batch, args.seq, data_gen))
        sync(device)
        t0 = time.perf_counter()
        with torch.autocast(device.type, dtype=torch.bfloat16):
            loss = step_fn(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        sync(device)
        times.append((time.perf_counter() - t0) * 1e3)
        losses.append(loss.item())
        if step % args.log_every == 0 or step == args.steps - 1:
            print(f"{run:14} step {step:4d} loss {losses[-1]:.4f} {times[-1]:8.1f} ms", flush=True)
    wall = time.perf_counter() - started
    val_gen = torch.Generator().manual_seed(args.seed + 1)
    with torch.no_grad(), torch.autocast(device.type, dtype=torch.bfloat16):
        val = [
            model(*(t.to(device) for t in batch(val_tokens, args.batch, args.seq, val_gen))).item() for _ in range(4)
        ]
    warm = times[min(args.warmup_steps, len(times) - 1) :]
    median_ms = statistics.median(warm)
    return {
        "run": run,
        "losses": losses,
        "step_ms": [round(t, 3) for t in times],
        "median_step_ms": round(median_ms, 3),
        "tokens_per_s": round(args.batch * args.seq / (median_ms / 1e3)),
        "first_step_s": round(times[0] / 1e3, 2),  # compilation and our tuner's first timings
        "wall_s": round(wall, 1),
        "val_loss": round(statistics.mean(val), 4),
        "peak_memory_gib": round(torch.cuda.max_memory_allocated(device) / 2**30, 2) if device.type == "cuda" else None,
    }


def gap(a: list[float], b: list[float], last: int) -> dict:
    """How far two loss curves sit apart over their last ``last`` steps."""
    pairs = list(zip(a[-last:], b[-last:], strict=True))
    diffs = [x - y for x, y in pairs]
    return {
        "steps": len(pairs),
        "mean_abs_diff": round(statistics.mean(abs(d) for d in diffs), 5),
        "mean_diff": round(statistics.mean(diffs), 5),
        "max_abs_diff": round(max(abs(d) for d in diffs), 5),
    }


# ------------------------------------------------------------------------------------------------ drawing


COLOURS = {"sdpa": "#1f77b4", "ours": "#d62728", "sdpa_compiled": "#17becf", "ours_compiled": "#ff9896"}


def svg_plot(runs: list[dict], title: str) -> str:
    """The loss curves as a self-contained SVG: axes, ticks, one polyline per run, a legend."""
    width, height, left, right, top, bottom = 760, 420, 60, 170, 30, 40
    steps = max(len(r["losses"]) for r in runs)
    values = [v for r in runs for v in r["losses"] if math.isfinite(v)]
    lo, hi = min(values), max(values)
    hi = hi if hi > lo else lo + 1
    x = lambda i: left + (width - left - right) * i / max(1, steps - 1)  # noqa: E731
    y = lambda v: top + (height - top - bottom) * (hi - v) / (hi - lo)  # noqa: E731
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        'font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="14">{title}</text>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="black"/>',
        f'<text x="{(left + width - right) / 2}" y="{height - 8}" text-anchor="middle">step</text>',
        f'<text x="14" y="{height / 2}" transform="rotate(-90 14 {height / 2})" text-anchor="middle">loss</text>',
    ]
    for k in range(6):
        v = lo + (hi - lo) * k / 5
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
        parts.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" stroke="#eee"/>')
        i = round((steps - 1) * k / 5)
        parts.append(f'<text x="{x(i):.1f}" y="{height - bottom + 16}" text-anchor="middle">{i}</text>')
    for n, run in enumerate(runs):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(run["losses"]) if math.isfinite(v))
        colour = COLOURS.get(run["run"], "black")
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{points}"/>')
        ly = top + 10 + 20 * n
        parts.append(f'<line x1="{width - right + 12}" y1="{ly}" x2="{width - right + 36}" y2="{ly}" '
                     f'stroke="{colour}" stroke-width="3"/>')  # fmt: skip
        parts.append(f'<text x="{width - right + 42}" y="{ly + 4}">{run["run"]}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def png_plot(runs: list[dict], title: str, path: Path) -> bool:
    """The same curves with matplotlib, when it is installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for run in runs:
        ax.plot(run["losses"], label=run["run"], color=COLOURS.get(run["run"]), linewidth=1.2)
    ax.set(xlabel="step", ylabel="loss", title=title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


# --------------------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--runs", default="sdpa,ours,sdpa_compiled,ours_compiled")
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--kv-heads", type=int, default=2)
    parser.add_argument("--seq", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--warmup", type=int, default=30, help="steps of linear learning-rate warm-up")
    parser.add_argument("--warmup-steps", type=int, default=10, help="steps left out of the median step time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compile-backend", default="inductor", help="torch.compile backend of the compiled runs")
    parser.add_argument(
        "--compile-mode", default=None, help="torch.compile mode of the compiled runs (reduce-overhead: CUDA graphs)"
    )
    parser.add_argument("--log-every", type=int, default=25)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args(argv)
    device = torch.device(args.device)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    train_tokens, val_tokens = splits(corpus_bytes())
    import triton

    log: dict = {
        "torch": torch.__version__,
        "triton": triton.__version__,
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu (Triton interpreter)",
        "config": {k: v for k, v in vars(args).items() if k not in ("out", "runs")},
        "corpus_bytes": {"train": len(train_tokens), "held_out": len(val_tokens)},
        "runs": [],
    }
    print(json.dumps(log), flush=True)

    def save():
        (out / "train_gpt.json").write_text(json.dumps(log, indent=1))

    for run in args.runs.split(","):
        log["runs"].append(train(run, args, train_tokens, val_tokens, device))
        save()
    by_name = {r["run"]: r for r in log["runs"]}
    last = max(1, min(100, args.steps // 3))
    comparisons = {}
    for a, b in (
        ("ours", "sdpa"),
        ("sdpa_compiled", "sdpa"),
        ("ours_compiled", "sdpa_compiled"),
        ("ours_compiled", "ours"),
    ):
        if a in by_name and b in by_name:
            comparisons[f"{a} vs {b}"] = gap(by_name[a]["losses"], by_name[b]["losses"], last)
    log["comparisons"] = comparisons
    for name in ("ours", "ours_compiled"):
        base = by_name.get(name.replace("ours", "sdpa"))
        if name in by_name and base:
            log.setdefault("speed", {})[f"{name} / {base['run']} step time"] = round(
                by_name[name]["median_step_ms"] / base["median_step_ms"], 3
            )
    title = f"{args.layers}-layer GPT, GQA {args.heads}:{args.kv_heads}, seq {args.seq}, bf16 ({log['device']})"
    (out / "train_gpt_loss.svg").write_text(svg_plot(log["runs"], title))
    log["png"] = png_plot(log["runs"], title, out / "train_gpt_loss.png")
    save()
    for r in log["runs"]:
        print(f"{r['run']:14} final loss {r['losses'][-1]:.4f} val {r['val_loss']:.4f} median step "
              f"{r['median_step_ms']:.1f} ms ({r['tokens_per_s']} tok/s), first step {r['first_step_s']} s")  # fmt: skip
    for name, c in comparisons.items():
        print(f"{name}: mean |diff| {c['mean_abs_diff']} over the last {c['steps']} steps (max {c['max_abs_diff']})")
    print(json.dumps(log.get("speed", {})))
    return log


if __name__ == "__main__":
    main()
