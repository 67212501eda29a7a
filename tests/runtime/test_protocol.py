"""The protocol header (cclib/mpiccwrap_protocol.h) is the one source of the runtime's
numbers and layouts: what Python reads from it through cffi must be what a C compiler
sees, and Python must not keep its own copies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mpirun import mpicc, run

from mpicc_wrap import protocol
from mpicc_wrap.packagedata import data_dir
from mpicc_wrap.runtime import library
from mpicc_wrap.switches import Options

STRUCTS = ("mpiccwrap_trace_header", "mpiccwrap_record", "mpiccwrap_wf_op", "mpiccwrap_wf_state",
           "mpiccwrap_cdag_header", "mpiccwrap_cdag_record")


def _c_view(tmp_path: Path) -> dict[str, int]:
    """Compile a program against the header that prints every constant Python knows and
    the size and field offsets of every protocol struct; return what it printed."""
    ffi = protocol.ffi()
    lines = [f'printf("{name} %lld\\n", (long long)({name}));' for name in protocol.constants()]
    for struct in STRUCTS:
        lines.append(f'printf("sizeof {struct} %zu\\n", sizeof(struct {struct}));')
        for field, _ in ffi.typeof(f"struct {struct}").fields:
            lines.append(f'printf("offsetof {struct}.{field} %zu\\n", '
                         f"offsetof(struct {struct}, {field}));")
    src = tmp_path / "view.c"
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n#include \"mpiccwrap_protocol.h\"\n"
                   "int main(void) {\n" + "\n".join(lines) + "\nreturn 0;\n}\n")
    exe = tmp_path / "view"
    include = str(data_dir("cclib"))
    built = run([*mpicc(), "-std=c99", "-Wall", "-Werror", "-I", include, str(src), "-o",
                 str(exe)], timeout=120)
    assert built.returncode == 0, built.output
    ran = run([str(exe)], timeout=30)
    assert ran.returncode == 0, ran.output
    return {line.rsplit(" ", 1)[0]: int(line.rsplit(" ", 1)[1]) for line in
            ran.stdout.splitlines()}


def _python_view() -> dict[str, int]:
    ffi = protocol.ffi()
    view = dict(protocol.constants())
    for struct in STRUCTS:
        view[f"sizeof {struct}"] = ffi.sizeof(f"struct {struct}")
        for field, _ in ffi.typeof(f"struct {struct}").fields:
            view[f"offsetof {struct}.{field}"] = ffi.offsetof(f"struct {struct}", field)
    return view


def test_python_and_c_agree_on_every_constant_and_layout(tmp_path: Path) -> None:
    assert _c_view(tmp_path) == _python_view()


def test_every_protocol_name_is_read() -> None:
    """No MPICCWRAP_ name of the header's protocol section escapes the Python reader."""
    section = re.sub(r"/\*.*?\*/", "", protocol.protocol_section(), flags=re.S)
    names = set(re.findall(r"\bMPICCWRAP_[A-Z0-9_]+\b", section))
    assert names == set(protocol.constants())
    assert protocol.version() == protocol.constant("MPICCWRAP_PROTOCOL_VERSION") >= 1
    assert protocol.enum_names("mpiccwrap_event", "MPICCWRAP_EV_") == {1: "AGREED",
                                                                       2: "MISMATCH"}
    with pytest.raises(KeyError, match="not defined in mpiccwrap_protocol.h"):
        protocol.constant("MPICCWRAP_NOT_THERE")


def test_the_checker_header_takes_its_constants_from_the_protocol() -> None:
    """mpiccwrap_cc.h includes the protocol header and defines none of its names."""
    checker = protocol.header_text(protocol.CHECKER_HEADER)
    assert '#include "mpiccwrap_protocol.h"' in checker
    defined = set(re.findall(r"#\s*define\s+(MPICCWRAP_\w+)", checker))
    assert not defined & set(protocol.constants())


PYTHON_SOURCES = sorted(Path(__file__).resolve().parents[2].joinpath("mpicc_wrap").rglob("*.py"))


@pytest.mark.parametrize("path", PYTHON_SOURCES, ids=lambda p: p.name)
def test_no_python_module_copies_a_protocol_value(path: Path) -> None:
    """The values that once were copied by hand (abort code, exit colour, check bits,
    sentinels) appear in no module as a literal assigned to a name."""
    text = path.read_text()
    for value in ("-1000000", "77"):
        assert not re.search(rf"^\s*[A-Z_]+\s*=\s*\"?{value}\b", text, re.M), (path, value)
    assert not re.search(r"^\s*CHECK_\w+\s*(?:,\s*CHECK_\w+)*\s*=", text, re.M), path


def test_cffi_module_api_is_read_from_the_headers() -> None:
    api = library.c_api()
    assert protocol.protocol_section() in api
    assert "struct mpiccwrap_site {" in api and "extern" not in api


@pytest.mark.mpi
def test_cffi_module_exposes_the_protocol(tmp_path: Path) -> None:
    """cffi's API mode compiled the module against the real headers: its constants are
    the header's."""
    import importlib.util

    runtime = library.ensure_runtime(mpicc(), Options(cache=str(tmp_path)))
    spec = importlib.util.spec_from_file_location(library.MODULE, runtime.module)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, value in protocol.constants().items():
        assert getattr(module.lib, name) == value, name  # type: ignore[attr-defined]
    for struct in STRUCTS:
        assert module.ffi.sizeof(f"struct {struct}") == protocol.ffi().sizeof(  # type: ignore
            f"struct {struct}")
