#!/usr/bin/env python3
"""Writes the CBOR fixtures that Python's cbor2 produces, which JSONKit's
tests read: Tests/Fixtures/CBOR/cbor2/NAME.cbor, one file per case, and
Tests/Fixtures/CBOR/cbor2/expected.tsv, each case's name and the diagnostic
notation (RFC 8949 §8) that JSONKit must read it as.

    pip install cbor2
    python3 Scripts/cbor2-fixtures.py

The expectations are written here by hand, not derived from cbor2, so that
the fixtures test JSONKit against the standard rather than against cbor2.
"""
import datetime
import decimal
import os
import uuid

import cbor2
from cbor2 import CBORSimpleValue, CBORTag, undefined

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "CBOR", "cbor2")

utc = datetime.timezone.utc
CASES = [
    # name, value, cbor2.dumps keyword arguments, expected diagnostic notation
    ("integers", [0, 23, 24, 255, 256, 65535, 65536, 2**32, 2**64 - 1, -1, -24, -25, -2**64], {},
     "[0, 23, 24, 255, 256, 65535, 65536, 4294967296, 18446744073709551615, -1, -24, -25, "
     "-18446744073709551616]"),
    ("bignums", [2**64, -2**64 - 1, 2**100], {},
     "[2(h'010000000000000000'), 3(h'010000000000000000'), 2(h'10000000000000000000000000')]"),
    ("floats", [1.5, -0.0, 1.1, 65504.0, 1e300, 5.960464477539063e-8], {},
     "[1.5, -0.0, 1.1, 65504.0, 1.0e+300, 5.960464477539063e-8]"),
    ("floats-canonical", [1.5, 100000.0, 3.4028234663852886e+38, 1.1], {"canonical": True},
     "[1.5, 100000.0, 3.4028234663852886e+38, 1.1]"),
    ("non-finite", [float("inf"), float("-inf"), float("nan")], {},
     "[Infinity, -Infinity, NaN]"),
    ("text", ["", "a", "\u00fc\u6c34\U00010151", "x" * 300, "line\nbreak \"quoted\""], {},
     '["", "a", "\u00fc\u6c34\U00010151", "' + "x" * 300 + '", "line\\nbreak \\"quoted\\""]'),
    ("bytes", [b"", b"\x00\x01\xfe\xff", bytes(range(30))], {},
     "[h'', h'0001feff', h'" + bytes(range(30)).hex() + "']"),
    ("simple", [None, True, False, undefined, CBORSimpleValue(16), CBORSimpleValue(255)], {},
     "[null, true, false, undefined, simple(16), simple(255)]"),
    ("nested", {"a": [1, {"b": [2, 3]}], "c": {"d": None}}, {},
     '{"a": [1, {"b": [2, 3]}], "c": {"d": null}}'),
    ("integer-keys", {1: "one", -2: "minus two", 300: [True]}, {},
     '{1: "one", -2: "minus two", 300: [true]}'),
    ("canonical-order", {"bb": 1, "a": 2, "ccc": 3, 10: 4}, {"canonical": True},
     '{10: 4, "a": 2, "bb": 1, "ccc": 3}'),
    ("large-map", {"k%02d" % i: i for i in range(40)}, {},
     "{" + ", ".join('"k%02d": %d' % (i, i) for i in range(40)) + "}"),
    ("datetime-text", datetime.datetime(2013, 3, 21, 20, 4, 0, tzinfo=utc), {},
     '0("2013-03-21T20:04:00Z")'),
    ("datetime-fraction", datetime.datetime(2013, 3, 21, 20, 4, 0, 500000, tzinfo=utc), {},
     '0("2013-03-21T20:04:00.500000Z")'),
    ("datetime-timestamp", datetime.datetime(2013, 3, 21, 20, 4, 0, tzinfo=utc),
     {"datetime_as_timestamp": True}, "1(1363896240)"),
    ("datetime-timestamp-fraction", datetime.datetime(2013, 3, 21, 20, 4, 0, 500000, tzinfo=utc),
     {"datetime_as_timestamp": True}, "1(1363896240.5)"),
    ("decimal", [decimal.Decimal("1234.56"), decimal.Decimal("-0.001"), decimal.Decimal("12E+3")],
     {}, "[4([-2, 123456]), 4([-3, -1]), 4([3, 12])]"),
    ("uuid", uuid.UUID("f81d4fae-7dec-11d0-a765-00a0c91e6bf6"), {},
     "37(h'f81d4fae7dec11d0a76500a0c91e6bf6')"),
    ("tags", [CBORTag(32, "http://www.example.com"), CBORTag(55799, [1]), CBORTag(1000, "x")], {},
     '[32("http://www.example.com"), 55799([1]), 1000("x")]'),
]

# Records with repeated keys and values, written plain, with string
# references (tags 256 and 25) and with shared values (tags 28 and 29, which
# cbor2 puts on every list and dict): each reads as the plain value.
owner = {"name": "Ada Lovelace", "email": "ada@example.com"}
RECORDS = {
    "owner": owner,
    "reviewer": owner,
    "tasks": [
        {"title": "analyse", "state": "done", "owner": owner},
        {"title": "engine", "state": "open", "owner": owner},
        {"title": "notes", "state": "open", "owner": {"name": "Charles", "email": "cb@example.com"}},
    ],
    "labels": ["open", "done", "open", "urgent", "urgent"],
}
RECORDS_DIAGNOSTIC = (
    '{"owner": {"name": "Ada Lovelace", "email": "ada@example.com"}, '
    '"reviewer": {"name": "Ada Lovelace", "email": "ada@example.com"}, '
    '"tasks": [{"title": "analyse", "state": "done", "owner": {"name": "Ada Lovelace", '
    '"email": "ada@example.com"}}, {"title": "engine", "state": "open", "owner": '
    '{"name": "Ada Lovelace", "email": "ada@example.com"}}, {"title": "notes", "state": '
    '"open", "owner": {"name": "Charles", "email": "cb@example.com"}}], '
    '"labels": ["open", "done", "open", "urgent", "urgent"]}')
pair = [1, 2]
NESTED = {"pairs": [pair, pair], "grid": [[pair, pair], [pair, pair]], "bytes": [b"\x00\x01\x02\x03"] * 3}
NESTED_DIAGNOSTIC = (
    '{"pairs": [[1, 2], [1, 2]], "grid": [[[1, 2], [1, 2]], [[1, 2], [1, 2]]], '
    '"bytes": [h\'00010203\', h\'00010203\', h\'00010203\']}')
# More than 24 distinct strings, so that the table passes its first threshold.
MANY = [{"key%02d" % i: "value%02d" % i} for i in range(30)] * 2
MANY_DIAGNOSTIC = "[" + ", ".join(['{"key%02d": "value%02d"}' % (i, i) for i in range(30)] * 2) + "]"
for name, value, expected in [
    ("records", RECORDS, RECORDS_DIAGNOSTIC),
    ("nested-shares", NESTED, NESTED_DIAGNOSTIC),
    ("many-strings", MANY, MANY_DIAGNOSTIC),
]:
    CASES.append((name, value, {}, expected))
    CASES.append((name + "-stringref", value, {"string_referencing": True}, expected))
    CASES.append((name + "-shared", value, {"value_sharing": True}, expected))
    CASES.append((name + "-both", value, {"string_referencing": True, "value_sharing": True},
                  expected))


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = []
    for name, value, options, expected in CASES:
        with open(os.path.join(OUT, name + ".cbor"), "wb") as f:
            f.write(cbor2.dumps(value, **options))
        lines.append(name + "\t" + expected)
    with open(os.path.join(OUT, "expected.tsv"), "w", encoding="utf-8") as f:
        f.write("# name\tdiagnostic notation JSONKit reads NAME.cbor as (written by Scripts/cbor2-fixtures.py)\n")
        f.write("\n".join(lines) + "\n")
    print("wrote %d fixtures to %s" % (len(CASES), OUT))


if __name__ == "__main__":
    main()
