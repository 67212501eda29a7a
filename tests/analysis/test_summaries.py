"""Tests of cross-TU summary storage: JSON records, ELF sections, ar archives."""

from __future__ import annotations

import dataclasses
import json
import os
import struct
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from mpirun import mpicc, run

from mpicc_wrap.analysis import summaries as S
from mpicc_wrap.model import Condition, Finding, FunctionSummary, Loc, Note, Pos
from mpicc_wrap.runtime import objects as O
from mpicc_wrap.switches import Options

OPTS = Options()


def summary(name: str, collectives: bool = True) -> FunctionSummary:
    seq = ["MPI_Barrier@MPI_COMM_WORLD"] if collectives else []
    return FunctionSummary(name, f"{name}.c", 3, collectives, seq, True, rank_params=[1])


def deferred(callee: str = "helper") -> Finding:
    cond = Condition(Pos(40, 7), Loc("main.c", 5, 7), "rank == 0",
                     "this condition depends on the process rank (MPI_Comm_rank at main.c:4)")
    return Finding("main", f"call to {callee}()", "MPI_COMM_WORLD", Pos(41, 9),
                   Loc("main.c", 6, 9), [cond], [Note(Loc("main.c", 9, 1), "others go on")],
                   callee=callee)


def compile_obj(directory: Path, name: str, code: str = "int f(void) { return 1; }\n") -> str:
    src = directory / f"{name}.c"
    src.write_text(code)
    obj = directory / f"{name}.o"
    result = run([*mpicc(), "-c", str(src), "-o", str(obj)], timeout=120)
    assert result.returncode == 0, result.output
    return str(obj)


def test_json_record_round_trip() -> None:
    sums, found = {"helper": summary("helper")}, [deferred()]
    assert S.decode(S.encode(sums, found)) == (sums, found)


def test_a_key_a_later_version_added_is_left_out() -> None:
    """Objects compiled by a newer mpicc-wrap keep their summaries: a field this
    version does not know is dropped, by the record decoder and the index reader.
    Before, every summary of such an object was dropped (a TypeError), and a build
    mixing versions lost them all silently."""
    record = json.loads(S.encode({"helper": summary("helper")}, []))
    record["summaries"][0]["from_the_future"] = [1, 2]
    sums, _ = S.decode(json.dumps(record).encode()) or ({}, [])
    assert sums == {"helper": summary("helper")}
    raw = {**dataclasses.asdict(summary("helper")), "from_the_future": True}
    assert S.from_raw([("helper", raw)]) == {"helper": summary("helper")}


@pytest.mark.parametrize("data", [b"", b"{", b"[]", b'{"schema": 99, "summaries": [],'
                                  b' "deferred": []}', b'{"schema": 1, "summaries": [{}]}'])
def test_unreadable_records_decode_to_none(data: bytes) -> None:
    assert S.decode(data) is None


def test_store_embeds_a_non_allocated_section_and_a_side_file(tmp_path: Path) -> None:
    obj = compile_obj(tmp_path, "helper")
    O.store(obj, {"helper": summary("helper")}, [], OPTS)
    O.store(obj, {"helper2": summary("helper2")}, [deferred()], OPTS)  # replaces
    section = O.elf_section(Path(obj).read_bytes(), S.SECTION)
    assert section is not None and S.decode(section) == ({"helper2": summary("helper2")},
                                                         [deferred()])
    assert S.decode(Path(obj + S.SIDE_SUFFIX).read_bytes()) == S.decode(section)
    listing = run(["readelf", "-S", "-W", obj]).stdout
    line = next(x for x in listing.splitlines() if S.SECTION in x)
    assert " A " not in line and "AX" not in line  # not loaded into memory
    assert run(["readelf", "-S", obj]).stdout.count(S.SECTION) == 1
    assert not [p for p in os.listdir(tmp_path)
                if p.endswith(".tmp") or ("mpicc-wrap-" in p and p != S.INDEX)]


def test_store_on_non_elf_object_writes_the_side_file_only(tmp_path: Path) -> None:
    obj = tmp_path / "x.o"
    obj.write_bytes(b"not an object")
    O.store(str(obj), {"f": summary("f")}, [], OPTS)
    assert obj.read_bytes() == b"not an object"
    assert S.decode((tmp_path / ("x.o" + S.SIDE_SUFFIX)).read_bytes()) is not None


def test_store_with_nothing_removes_a_stale_side_file(tmp_path: Path) -> None:
    obj = compile_obj(tmp_path, "a")
    O.store(obj, {"f": summary("f")}, [], OPTS)
    O.store(obj, {}, [], OPTS)
    assert not os.path.exists(obj + S.SIDE_SUFFIX)


def make_elf(is64: bool, big: bool, sections: dict[str, bytes]) -> bytes:
    """A minimal relocatable ELF image holding ``sections`` plus .shstrtab."""
    e = ">" if big else "<"
    names = [""] + list(sections) + [".shstrtab"]
    strtab = b"".join(n.encode() + b"\0" for n in names)
    offsets = [sum(len(n) + 1 for n in names[:i]) for i in range(len(names))]
    contents = [b""] + list(sections.values()) + [strtab]
    ehsize = 64 if is64 else 52
    body, data_offsets = b"", []
    for c in contents:
        data_offsets.append(ehsize + len(body))
        body += c
    shoff = ehsize + len(body)
    fmt = e + ("IIQQQQIIQQ" if is64 else "IIIIIIIIII")
    table = b"".join(struct.pack(fmt, offsets[i], 0 if i == 0 else 1, 0, 0, data_offsets[i],
                                 len(contents[i]), 0, 0, 1, 0) for i in range(len(names)))
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 2 if big else 1, 1]) + bytes(9)
    if is64:
        head = struct.pack(e + "HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, ehsize, 0, 0,
                           struct.calcsize(fmt), len(names), len(names) - 1)
    else:
        head = struct.pack(e + "HHIIIIIHHHHHH", 1, 3, 1, 0, 0, shoff, 0, ehsize, 0, 0,
                           struct.calcsize(fmt), len(names), len(names) - 1)
    return ident + head + body + table


@pytest.mark.parametrize("is64", [False, True])
@pytest.mark.parametrize("big", [False, True])
def test_elf_section_reader_handles_both_classes_and_byte_orders(is64: bool, big: bool
                                                                  ) -> None:
    image = make_elf(is64, big, {".text": b"\x90" * 5, S.SECTION: b'{"x": 1}'})
    assert O.elf_section(image, S.SECTION) == b'{"x": 1}'
    assert O.elf_section(image, ".text") == b"\x90" * 5
    assert O.elf_section(image, ".data") is None


@pytest.mark.parametrize("cut", [10, 60, -20, -1])
def test_truncated_elf_images_give_none(cut: int) -> None:
    image = make_elf(True, False, {S.SECTION: b"payload" * 10})
    assert O.elf_section(image[:cut], S.SECTION) in (None, b"payload" * 10)
    assert O.elf_section(image[:cut], ".shstrtab") is None or cut == -1


def test_archive_members_with_long_names_and_thin_archives(tmp_path: Path) -> None:
    long_name = "a_member_with_a_rather_long_file_name"
    objs = [compile_obj(tmp_path, long_name), compile_obj(tmp_path, "short")]
    for obj in objs:
        O.store(obj, {Path(obj).stem: summary(Path(obj).stem)}, [], OPTS)
    for flags, lib in (("rcs", "libx.a"), ("rcsT", "libthin.a")):
        result = run(["ar", flags, str(tmp_path / lib), *objs], cwd=tmp_path)
        assert result.returncode == 0, result.output
        members = {os.path.basename(n): m for n, m in O.archive_members(str(tmp_path / lib))}
        assert set(members) == {long_name + ".o", "short.o"}  # thin: full paths
        assert members["short.o"] == Path(objs[1]).read_bytes()
        records = O.read_inputs([str(tmp_path / lib)])
        assert sorted(n for r in records for n in r.summaries) == [long_name, "short"]


def test_bsd_archive_names() -> None:
    def header(name: bytes, size: int) -> bytes:
        return (name.ljust(16) + b"0".ljust(12) + b"0".ljust(6) + b"0".ljust(6)
                + b"644".ljust(8) + str(size).encode().ljust(10) + b"`\n")

    name, payload = b"long_bsd_member_name.o", b"DATA!"
    image = b"!<arch>\n" + header(b"#1/" + str(len(name)).encode(), len(name) + len(payload))
    image += name + payload + b"\n"
    path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bsd-{os.getpid()}.a"
    path.write_bytes(image)
    try:
        assert list(O.archive_members(str(path))) == [(name.decode(), payload)]
    finally:
        path.unlink()


def publish(obj: Path, summaries: dict) -> None:
    obj.touch()  # the object exists
    S.publish(str(obj), summaries, [])


def test_visible_sees_side_files_of_the_object_dir_and_cwd(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    build, cwd = tmp_path / "build", tmp_path / "cwd"
    build.mkdir()
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    publish(build / "old.o", {"a": summary("a")})
    publish(cwd / "c.o", {"c": summary("c")})
    publish(build / "own.o", {"own": summary("own")})
    (build / "bad.o.mpicc-wrap.json").write_bytes(b"\0garbage{")
    (build / "bad.o").touch()
    publish(tmp_path / "elsewhere.o", {"e": summary("e")})
    assert sorted(S.visible(str(build / "own.o"), OPTS)) == ["a", "c"]
    assert sorted(S.visible(str(build / "own.o"), OPTS, {"c", "zz"})) == ["c"]


def test_visible_prefers_a_summary_that_executes_collectives(tmp_path: Path) -> None:
    publish(tmp_path / "p.o", {"f": summary("f", False)})
    publish(tmp_path / "q.o", {"f": summary("f", True)})
    publish(tmp_path / "r.o", {"f": summary("f", False)})
    assert S.visible(str(tmp_path / "x.o"), OPTS)["f"].has_collectives


def test_visible_drops_a_function_its_object_no_longer_defines(tmp_path: Path) -> None:
    publish(tmp_path / "p.o", {"f": summary("f", True), "g": summary("g")})
    assert sorted(S.visible(str(tmp_path / "x.o"), OPTS)) == ["f", "g"]
    publish(tmp_path / "p.o", {"g": summary("g")})  # recompiled without f
    assert sorted(S.visible(str(tmp_path / "x.o"), OPTS)) == ["g"]


def test_dead_entries_are_deleted_once_read(tmp_path: Path) -> None:
    """After ``make clean`` every entry is dead; each compile read them all again (80 ms
    per compile in hypre's utilities).  The first reader deletes them; a rebuilt
    object publishes its own anew."""
    publish(tmp_path / "p.o", {"f": summary("f")})
    publish(tmp_path / "q.o", {"g": summary("g")})
    (tmp_path / "p.o").unlink()  # make clean, half done
    index = tmp_path / S.INDEX
    assert sorted(S.visible(str(tmp_path / "x.o"), OPTS)) == ["g"]
    assert sorted(p.parent.name for p in index.glob("*/*.json")) == ["g"]
    publish(tmp_path / "p.o", {"f": summary("f")})
    assert sorted(S.visible(str(tmp_path / "x.o"), OPTS)) == ["f", "g"]


def test_a_compile_reads_only_the_summaries_of_names_its_tu_mentions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every compile once read every side file of its directory: O(N^2) per build."""
    for i in range(60):
        publish(tmp_path / f"t{i}.o", {f"f{i}": summary(f"f{i}")})
    opened: list[str] = []
    real_open = open

    def counting_open(path: object, *args: object, **kw: object) -> object:
        opened.append(str(path))
        return real_open(path, *args, **kw)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", counting_open)
    text = "int main(void) { f3(); f41(); return other(); }"
    assert sorted(S.visible(str(tmp_path / "main.o"), OPTS, S.identifiers(text))) == [
        "f3", "f41"]
    assert len(opened) == 2


def test_corrupt_and_missing_inputs_are_ignored(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.o"
    garbage.write_bytes(b"\x7fELF\x02\x01" + b"\xff" * 100)
    bad_archive = tmp_path / "bad.a"
    bad_archive.write_bytes(b"!<arch>\nthis is not a header at all" * 3)
    side_only = tmp_path / "side.o"
    side_only.write_bytes(b"")
    (tmp_path / "side.o.mpicc-wrap.json").write_text("{not json")
    bad_section = compile_obj(tmp_path, "badsec")
    blob = tmp_path / "blob"
    blob.write_bytes(b"\x00\x01garbage")
    run(["objcopy", "--add-section", f"{S.SECTION}={blob}", bad_section])
    inputs = [str(garbage), str(bad_archive), str(side_only), bad_section,
              str(tmp_path / "missing.o"), "-lm", str(tmp_path)]
    assert O.read_inputs(inputs) == []


def _store_many(args: tuple[str, int]) -> None:
    obj, i = args
    O.store(obj, {f"f{i}": summary(f"f{i}")}, [deferred()] * (i % 3), OPTS)


def test_concurrent_stores_leave_whole_files(tmp_path: Path) -> None:
    objs = [compile_obj(tmp_path, f"o{i}") for i in range(3)]
    shared = tmp_path / "shared.o"
    shared.write_bytes(b"not elf")
    jobs = [(o, i) for i in range(4) for o in objs] + [(str(shared), i) for i in range(12)]
    with ProcessPoolExecutor(max_workers=4) as pool:
        list(pool.map(_store_many, jobs))
    for obj in [*objs, str(shared)]:
        record = S.decode(Path(obj + S.SIDE_SUFFIX).read_bytes())
        assert record is not None and len(record[0]) == 1
    for obj in objs:
        assert S.decode(O.elf_section(Path(obj).read_bytes(), S.SECTION) or b"") is not None
    assert not [p for p in os.listdir(tmp_path)
                if p.endswith(".tmp") or ("mpicc-wrap-" in p and p != S.INDEX)]
