"""The modern switches (and GPT-2's block) against PyTorch in float64 with autograd: the loss and every gradient to
1e-9 relative. PyTorch is not a dependency: PyPI serves Linux only its CUDA build (about 3 GB with the nvidia-*
packages), too large to install in CI here, so this module says so when it skips; ``pip install torch`` and rerun it.
It cannot run inside Pyodide (no PyTorch there), so ``test_pyodide.py`` leaves it out."""
import math

import numpy as np
import pytest
from test_modern_reference import BASE, SWITCHED, random_model

from engine import model

torch = pytest.importorskip("torch", reason="torch is not installed, so the PyTorch reference did not run: PyPI "
                            "serves Linux only the CUDA build (about 3 GB), which this project does not install; "
                            "`pip install torch` to run it")
F = torch.nn.functional


def torch_loss_and_grads(params, ids, targets, config):
    """The same model in PyTorch float64: torch's own complex rotation, silu, tanh GELU, softmax and cross-entropy."""
    p = {name: torch.tensor(array, dtype=torch.float64, requires_grad=True) for name, array in params.items()}
    ids, targets = torch.as_tensor(ids), torch.as_tensor(targets)
    B, T = ids.shape
    H, G, hs = config.num_heads, config.num_kv_heads, config.head_size

    def norm(x, prefix):
        if config.norm == "rmsnorm":
            return p[f"{prefix}_g"] * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5)
        return F.layer_norm(x, (x.shape[-1],), p[f"{prefix}_g"], p[f"{prefix}_b"], eps=1e-5)

    def rotate(x):  # (B, heads, T, hs)
        theta = config.rope_base ** (-torch.arange(0, hs, 2, dtype=torch.float64) / hs)
        turn = torch.polar(torch.ones(T, hs // 2, dtype=torch.float64), torch.outer(torch.arange(T), theta))
        return torch.view_as_real(torch.view_as_complex(x.reshape(*x.shape[:-1], hs // 2, 2)) * turn).flatten(-2)

    x = p["tok_emb"][ids] + (p["pos_emb"][:T] if config.positions == "learned" else 0)
    for b in range(config.num_layers):
        h = norm(x, f"b{b}.ln1")
        q = (h @ p[f"b{b}.wq"] + p[f"b{b}.bq"]).view(B, T, H, hs).transpose(1, 2)
        k = (h @ p[f"b{b}.wk"] + p[f"b{b}.bk"]).view(B, T, G, hs).transpose(1, 2)
        v = (h @ p[f"b{b}.wv"] + p[f"b{b}.bv"]).view(B, T, G, hs).transpose(1, 2)
        if config.positions == "rope":
            q, k = rotate(q), rotate(k)
        k, v = k.repeat_interleave(H // G, dim=1), v.repeat_interleave(H // G, dim=1)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(hs)
        scores = scores.masked_fill(~torch.tril(torch.ones(T, T, dtype=torch.bool)), float("-inf"))
        y = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, H * hs)
        x = x + y @ p[f"b{b}.wo"] + p[f"b{b}.bo"]
        h = norm(x, f"b{b}.ln2")
        if config.ffn == "swiglu":
            x = x + (F.silu(h @ p[f"b{b}.ff_gate_w"]) * (h @ p[f"b{b}.ff_up_w"])) @ p[f"b{b}.ff_down_w"]
        else:
            hidden = F.gelu(h @ p[f"b{b}.ff1_w"] + p[f"b{b}.ff1_b"], approximate="tanh")
            x = x + hidden @ p[f"b{b}.ff2_w"] + p[f"b{b}.ff2_b"]
    logits = norm(x, "lnf") @ p["head_w"] + p["head_b"]
    loss = F.cross_entropy(logits.reshape(B * T, -1), targets.reshape(-1))
    loss.backward()
    return loss.item(), {name: tensor.grad.numpy() for name, tensor in p.items()}


@pytest.mark.parametrize("name", SWITCHED)
def test_loss_and_every_gradient_equal_pytorch_in_float64(name):
    config = BASE.with_overrides(**SWITCHED[name])
    params, ids, targets = random_model(config, seed=2)
    loss, grads = model.loss_and_grads(params, ids, targets, config)
    torch_loss, torch_grads = torch_loss_and_grads(params, ids, targets, config)
    assert loss == pytest.approx(torch_loss, rel=1e-9)
    for param, grad in grads.items():
        difference, scale = np.abs(grad - torch_grads[param]).max(), np.abs(torch_grads[param]).max()
        assert difference <= 1e-9 * scale or difference < 1e-12, param  # key biases' true gradient is 0 without RoPE
