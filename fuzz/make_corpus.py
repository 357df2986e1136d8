"""Write the seed corpora of the fuzz targets, fuzz/corpus/<target>/ (run from the
repository's root with the kernel built: ``python fuzz/make_corpus.py``).

Every seed is small and made by lexiko's own writers (games it played, positions and
leave tables it wrote, automata it compiled), so the fuzzer starts from inputs that
reach deep into each reader. Files already there are kept: the fuzzer's finds that
were worth keeping (``fuzz/run --keep``) live beside the seeds."""

from __future__ import annotations

import shutil
import struct
import sys
from array import array
from pathlib import Path

from lexiko import _kernel, cgp, gcg  # type: ignore[attr-defined]
from lexiko.kernel import prune_data, wordmap_data
from lexiko.leave_formats import write_csv, write_klv2
from lexiko.leaves import LeaveTable
from lexiko.lexicon import Lexicon
from lexiko.tiles import ENGLISH, SPANISH

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
WORDS = ["AA", "AT", "TA", "CAT", "CATS", "SCAT", "ACTS", "EAST", "SEAT", "TEAS", "SATE", "ETAS", "STAINED"]


def seed(target: str, name: str, data: bytes | str) -> None:
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"seed-{name}").write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def gcg_seeds() -> None:
    for path in sorted((ROOT / "tests" / "data" / "gcg").rglob("*.gcg")):
        shutil.copyfile(path, CORPUS / "gcg" / f"seed-{path.stem}.gcg")
    seed(
        "gcg",
        "spanish.gcg",
        "#character-encoding UTF-8\n#game-type spanish\n#player1 ana Ana\n#player2 luis Luis\n"
        ">ana: [CH]AEORS? 8D [CH]ORAS +30 30\n#note una nota\n>luis: ABEILMN -ABE +0 0\n",
    )
    seed(
        "gcg",
        "latin1.gcg",
        "#character-encoding ISO-8859-1\n#player1 a Zoë\n#player2 b Bo\n>a: DINNVWY 8D WINDY +32 32\n"
        ">b: ADEEGIL 7C GALE +16 16\n>a: AINNV?? -  +0 32\n>b: DEEIO?? (challenge) +5 21\n"
        "#rack1 AINNV??\n".encode("latin-1"),
    )


def cgp_seeds() -> None:
    for path in sorted((ROOT / "tests" / "data" / "gcg" / "corpus").glob("*.gcg"))[:3]:
        game = gcg.load(path)
        seed("cgp", f"end-of-{path.stem}", cgp.dumps(cgp.from_game(game)))
    seed("cgp", "empty", "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0")
    seed("cgp", "spanish", "15/15/15/15/15/15/15/7[CH]E6/15/15/15/15/15/15/15 [LL]A?/ 0/0 0 ld spanish;")
    seed("cgp", "ops", "15/15/15/15/15/15/15/4CAt8/15/15/15/15/15/15/15 ERS?/ABC 12/-3 2 lex TWL06; bb 35; cr 5;")
    seed("cgp", "super", "/".join(["21"] * 21) + " AEINRST/ 0/0 0 bdn SuperCrosswordGame;")


def move_seeds() -> None:
    # the first byte picks how the text is read (fuzz_move.py): 0 alone, 1 on a board, 2 Spanish, 3 tiles
    for n, text in enumerate(["8D WORD", "D8 WORD", "-ABC", "-", "pass", "exchange ABC", "8H (AB)C", "h8 cAT"]):
        seed("move", f"alone-{n}", "\x00" + text if n else "\x04 " + text)
    for n, text in enumerate(["8F CATS", "8F ....S", "F8 CoAT", "8E SCATS", "9F AT"]):
        seed("move", f"board-{n}", "\x01" + text)
    for n, text in enumerate(["8D [CH]E", "H8 PE[RR]O", "-[LL]A?"]):
        seed("move", f"spanish-{n}", "\x02" + text)
    seed("move", "tiles", "\x03AEQ?")


def leave_tables() -> list[LeaveTable]:
    english = LeaveTable(
        ENGLISH,
        {(): 0.0, (19,): 8.0, (5, 18, 19): 12.5, (0,): 25.0, (17, 21): -1.5, (22, 22): -12.0},
        tile_values={5: [3.0, 1.0], 19: [8.0, 2.0], 0: [25.0, 12.0]},
        balance={(0, 2): -3.0, (2, 0): -4.0, (1, 1): 1.0},
        offset=-0.5,
        meta={"games": "10"},
    )
    spanish = LeaveTable(SPANISH, {(4,): 3.0, (SPANISH.parse("[LL]")[0], 1): 1.5}, tile_values={1: [1.0]})
    return [english, spanish]


def leave_seeds() -> None:
    for n, table in enumerate(leave_tables()):
        seed("leaves", f"table-{n}.tsv", table.dumps())
        seed("leaves", f"table-{n}.tsv.gz", table.to_bytes())
    seed("leaves", "model-only.tsv", LeaveTable(ENGLISH, tile_values={1: [1.0]}).dumps())


def leave_format_seeds() -> None:
    table = leave_tables()[0]
    stored = [(k, v) for k, v in table.items() if k]
    klv2 = write_klv2(stored)
    (n,) = struct.unpack_from("<I", klv2)
    nodes_end = 4 + 4 * n + 4
    values = struct.unpack_from(f"<{len(stored)}f", klv2, nodes_end)
    klv = klv2[:nodes_end] + struct.pack(f"<{len(values)}h", *(round(v * 256) for v in values))
    # the first byte picks the suffix (fuzz_leave_formats.py): 0 .klv2, 1 .klv, 2 .csv
    seed("leave_formats", "table.klv2", b"\x00" + klv2)
    seed("leave_formats", "table.klv", b"\x01" + klv)
    seed("leave_formats", "table.csv", b"\x02" + write_csv((ENGLISH.format(k), v) for k, v in stored).encode())
    seed("leave_formats", "header.csv", b"\x02leave,value\n?,25.5\nERS,12\n# a comment\n\nQU,-1.5\n")


def leave_map_seeds() -> None:
    rack = bytes([1, 5, 9, 14, 19, 20, 0])  # AEINST?
    for n, table in enumerate(leave_tables()[:1]):
        packed = table.packed()
        assert packed is not None
        seed("leave_map", f"table-{n}.bin", rack + bytes(packed))
    # the smallest map the kernel writes: two slots, one key (S)
    zeros = bytes(8 * 64 * 33 * 2)
    tiny = _kernel.leave_map(
        array("Q", [1 << 6 | 19]), array("d", [8.0]), 1, -0.5, bytes(64), zeros, bytes(8 * 33 * 33)
    )
    seed("leave_map", "tiny.bin", bytes([19, 19, 0, 27, 27, 27, 27]) + tiny)


def kwg_seeds() -> None:
    for name, words in (("small", WORDS), ("two", ["QI", "ZA"]), ("one", ["AB"])):
        lex = Lexicon.from_words(words, name=name)
        path = CORPUS / "kwg" / f"seed-{name}.kwg"
        path.parent.mkdir(parents=True, exist_ok=True)
        lex._write_cache(path)


def kwg_build_seeds() -> None:
    # the first byte: its low bit asks for the DAWG alone (fuzz_kwg_build.py); then words of codes ended by 0
    codes = [bytes(ENGLISH.parse(w)) + b"\0" for w in WORDS]
    seed("kwg_build", "small", b"\x00" + b"".join(codes))
    seed("kwg_build", "small-dawg", b"\x01" + b"".join(codes))
    seed("kwg_build", "long-and-high", b"\x00" + bytes([1] * 21) + b"\0" + bytes([1] * 22) + b"\0\x3f\x3f\0")


def wordmap_seeds() -> None:
    lex = Lexicon.from_words(WORDS)
    depths, anagrams = prune_data(lex.kwg)
    wordmap = wordmap_data(lex.kwg)
    # the first byte picks which blob the input replaces (fuzz_wordmap.py): 0 depths, 1 anagrams, 2 word map
    seed("wordmap", "depths", b"\x00" + bytes(depths))
    seed("wordmap", "anagrams", b"\x01" + bytes(anagrams))
    seed("wordmap", "wordmap", b"\x02" + bytes(wordmap))


def wordlist_seeds() -> None:
    # the first byte picks the tile set (fuzz_wordlist.py): 0 English, 1 Spanish, 2 Catalan, 3 German, 4 Polish
    seed("wordlist", "english", b"\x00" + "\n".join(WORDS).encode() + b"\n")
    seed("wordlist", "english-notes", b"\x00# a comment\nCAT a small animal\ncats\n\nQI # a note\n")
    seed("wordlist", "spanish", "\x01perro\ncamión\nllama\nchico\nMadrid\nñu\n".encode())
    seed("wordlist", "catalan", "\x02col·legi\nnyap\nquè\n".encode())
    seed("wordlist", "german", "\x03Straße\nÄrger\nüben\n".encode())
    seed("wordlist", "polish", "\x04żółw\nźdźbło\nąę\n".encode())
    seed("wordlist", "latin1", b"\x01cami\xf3n\nni\xf1o\n")


TARGETS = {
    "gcg": gcg_seeds,
    "cgp": cgp_seeds,
    "move": move_seeds,
    "leaves": leave_seeds,
    "leave_formats": leave_format_seeds,
    "leave_map": leave_map_seeds,
    "kwg": kwg_seeds,
    "kwg_build": kwg_build_seeds,
    "wordmap": wordmap_seeds,
    "wordlist": wordlist_seeds,
}


def main() -> None:
    for target, make in TARGETS.items():
        (CORPUS / target).mkdir(parents=True, exist_ok=True)
        make()
    print(f"seeds written under {CORPUS.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
