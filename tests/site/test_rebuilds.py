"""Serve-style rebuilds in one process: unchanged files are not parsed again, changed code is seen at once,
and nothing of the previous build (equations, problems, imported engine) leaks into the next."""
import shutil
from html import unescape

from crosslink_harness import FIXTURE, render

PAGE = ('```equation id="ln" title="LayerNorm" code="toy.norms.layernorm_forward" select="return"\ny\n```\n\n'
        "Centred: [= norms.layernorm_forward(np.array([1.0, 3.0]), np.ones(2), np.zeros(2), eps=0.0)[0]:.1f =]\n")


def test_rebuild_reparses_only_changed_files_and_sees_the_new_code(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    first, problems, build = render(PAGE, root=project)
    assert problems == [] and len(build.index.parsed) == len(build.index.files) == 9
    assert "[-1.0, 1.0]" in unescape(first)

    again, problems, build = render(PAGE, root=project)
    assert problems == [] and build.index.parsed == []  # nothing changed, nothing parsed
    assert "[-1.0, 1.0]" in unescape(again)

    norms = project / "toy" / "norms.py"
    norms.write_text(norms.read_text().replace("return gamma * x_hat + beta", "return 2 * gamma * x_hat + beta"))
    changed, problems, build = render(PAGE, root=project)
    assert problems == [] and build.index.parsed == ["toy/norms.py"]
    assert "[-2.0, 2.0]" in unescape(changed)  # the value was recomputed by the edited engine


def test_a_problem_of_one_build_does_not_outlive_it(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    _, problems, _ = render(PAGE.replace("layernorm_forward", "layernorm_fwd", 1), root=project)
    assert len(problems) == 1 and "toy.norms.layernorm_fwd" in problems[0]
    _, problems, _ = render(PAGE, root=project)
    assert problems == []
