"""The runtime protocol as Python sees it: read from ``cclib/mpiccwrap_protocol.h``.

The header is the single source of the numbers shared by the inserted checks, the C
runtime and the trace readers (record kinds, event and operator codes, check bits,
sentinels, the abort code, the record and trace-header layouts, the protocol
version).  Nothing here repeats a value: the section between the header's
``BEGIN``/``END mpiccwrap protocol`` markers goes through ``cffi.FFI.cdef`` once, and
constants, enum names and struct layouts are asked of that FFI.  cffi lays the structs
out as the C compiler does on this machine (fixed-width fields only);
``tests/runtime/test_protocol.py`` compiles a program against the header and compares.

cffi (and the pycparser it parses with) is imported on first use only: the driver
needs the protocol only when it rewrites a TU.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from mpicc_wrap.packagedata import data_dir

if TYPE_CHECKING:
    import cffi

__all__ = ["CHECKER_HEADER", "HEADER", "checker_declarations", "constant", "constants",
           "enum_names", "ffi", "header_text", "protocol_section", "version"]

HEADER = "mpiccwrap_protocol.h"
CHECKER_HEADER = "mpiccwrap_cc.h"  # the checker's C API, which inserted code calls
_DECLS = ("/* BEGIN mpiccwrap declarations */", "/* END mpiccwrap declarations */")
_BEGIN = "/* BEGIN mpiccwrap protocol */"
_END = "/* END mpiccwrap protocol */"
_NAMES = re.compile(r"^\s*#\s*define\s+(MPICCWRAP_\w+)|\b(MPICCWRAP_\w+)\s*=", re.M)


@cache
def header_text(name: str = HEADER) -> str:
    """A header of the package's ``cclib`` (default: the protocol header)."""
    return data_dir("cclib").joinpath(name).read_text()


def _between(name: str, begin: str, end: str) -> str:
    text = header_text(name)
    if begin not in text or end not in text:
        raise ValueError(f"{name}: marker {begin!r} or {end!r} missing")
    return text.split(begin, 1)[1].split(end, 1)[0]


@cache
def protocol_section() -> str:
    """The cdef-able part of the protocol header (between the markers)."""
    return _between(HEADER, _BEGIN, _END)


@cache
def checker_declarations() -> str:
    """The checker's C declarations (site struct and entry points) that the rewriter
    emits into TUs, which cannot #include once preprocessed: one line, taken from
    ``mpiccwrap_cc.h``."""
    block = _between(CHECKER_HEADER, *_DECLS)
    return " ".join(line.strip() for line in block.splitlines() if line.strip())


@cache
def ffi() -> cffi.FFI:
    """An FFI that knows the protocol's constants, enums and structs."""
    import cffi

    result = cffi.FFI()
    result.cdef(protocol_section())
    return result


@cache
def _lib() -> Any:
    return ffi().dlopen(None)  # ABI mode: gives the #define and enum values, loads nothing


@cache
def constants() -> dict[str, int]:
    """Every ``MPICCWRAP_*`` integer constant of the protocol (#defines and enumerators),
    in header order."""
    section = re.sub(r"/\*.*?\*/", "", protocol_section(), flags=re.S)
    names = [m.group(1) or m.group(2) for m in _NAMES.finditer(section)]
    lib = _lib()
    return {name: int(getattr(lib, name)) for name in dict.fromkeys(names)}


def constant(name: str) -> int:
    """One protocol constant, e.g. ``constant("MPICCWRAP_COLOR_EXIT")``."""
    try:
        return constants()[name]
    except KeyError:
        raise KeyError(f"{name} is not defined in {HEADER}") from None


def enum_names(enum: str, prefix: str = "") -> dict[int, str]:
    """{value: name} of ``enum <enum>``, with ``prefix`` removed from the names."""
    elements: dict[int, str] = ffi().typeof(f"enum {enum}").elements
    return {value: name.removeprefix(prefix) for value, name in elements.items()}


def version() -> int:
    """MPICCWRAP_PROTOCOL_VERSION: the trace format the readers understand."""
    return constant("MPICCWRAP_PROTOCOL_VERSION")
