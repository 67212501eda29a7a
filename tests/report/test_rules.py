"""The rules registry: one Rule per -W tag, feeding flags, diagnostics, SARIF and the
corpus harness."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from analysis_helpers import parse_source

from mpicc_wrap import rules
from mpicc_wrap.analysis import unit
from mpicc_wrap.driver import cli, cmdline
from mpicc_wrap.report import diagnostics, sarif
from mpicc_wrap.switches import Options

PACKAGE = Path(rules.__file__).parent
README = PACKAGE.parent / "README.md"


def test_every_rule_is_well_formed() -> None:
    for tag, rule in rules.RULES.items():
        assert tag == rule.tag and tag.startswith("mpi-")
        assert rule.level in ("warning", "off") and rule.summary and rule.help
    assert rules.lookup("collective-order") is rules.COLLECTIVE_ORDER
    assert rules.lookup("mpi-nonsense") is None


def test_no_tag_is_spelled_outside_the_registry() -> None:
    """Tags in the code are the registry's constants, never bare strings."""
    tag = re.compile(r"[\"']mpi-(?:" + "|".join(
        re.escape(t.removeprefix("mpi-")) for t in rules.RULES) + r")[\"']")
    spelled = [f"{p.relative_to(PACKAGE)}:{n}" for p in sorted(PACKAGE.rglob("*.py"))
               if p.name != "rules.py"
               for n, line in enumerate(p.read_text().splitlines(), 1) if tag.search(line)]
    assert not spelled


def test_readme_names_every_tag() -> None:
    text = README.read_text()
    assert all(f"`{tag}`" in text for tag in rules.RULES)


def test_sarif_rule_metadata_comes_from_the_registry() -> None:
    for rule in rules.RULES.values():
        data = sarif.rule(rule.tag)
        assert data["shortDescription"]["text"] == rule.summary
        assert data["help"]["text"] == rule.help
        assert data["defaultConfiguration"]["enabled"] == (rule.level != "off")


def test_default_level_comes_from_the_registry() -> None:
    options = Options()
    assert diagnostics.severity(rules.COLLECTIVE_ORDER.tag, options, {}) == "warning"
    assert diagnostics.severity(rules.EXIT_DIVERGENCE.tag, options, {}) == "off"
    on = {rules.EXIT_DIVERGENCE.tag: "on"}
    assert diagnostics.severity(rules.EXIT_DIVERGENCE.tag, options, on) == "warning"


def test_unknown_warning_flag_is_reported(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    inv = cmdline.parse(["-Wno-mpi-collective-order", "-Werror=mpi-colective-root", "-c",
                         "a.c"])
    assert inv.unknown_flags == ["-Wmpi-colective-root"]
    monkeypatch.setattr(cli.compiler, "find", lambda: ["true"])
    monkeypatch.setenv("MPICC_WRAP_DISABLE", "1")
    assert cli.main(["-Wmpi-colective-root", "-c", "a.c"]) == 0
    err = capsys.readouterr().err
    assert "unknown warning option '-Wmpi-colective-root'" in err
    assert "-Wmpi-collective-root" in err


def test_emitted_tags_are_registered() -> None:
    source = """
    #include <mpi.h>
    void f(int r, int root) {
        if (r) MPI_Barrier(MPI_COMM_WORLD);
        MPI_Bcast(&r, 1, MPI_INT, r, MPI_COMM_WORLD);
    }
    int main(int c, char **v) { int r; MPI_Init(&c, &v);
        MPI_Comm_rank(MPI_COMM_WORLD, &r); f(r, 0); MPI_Finalize(); return 0; }
    """
    tags = {f.tag for f in unit.analyse(parse_source(source), {}).findings}
    assert tags == {rules.COLLECTIVE_ORDER.tag, rules.COLLECTIVE_ROOT.tag}
