"""The box of a sealed record: the per-item part of a private response's scoring, closed with its item.

A sealed record (generator/sealed_record.py, format v3) publishes the call's figures in the clear and
keeps in `box` what is scored per item: the verdict rows, the suite's per-item figures, the answer
classes and the call's token counts. Those are a function of the item's answer key (fault codes, a
fake or genuine class, a gold decision, a field the key leaves empty)
and of the document's length, so they are closed with a key only the item itself gives:

    key    = SHA-256("tally-sealed-box-v1\\n" || the item's line, its keys sorted)
    stream = SHAKE-256(key || record_sha256 as 32 bytes), as long as the plain text
    box    = base64(plain XOR stream), plain = the boxed fields as JSON, keys sorted

Whoever holds the item (the publisher, or anyone once its round is revealed) opens every box of it and
scores the private half exactly as from the full rows; whoever does not, reads nothing per item. Each
record has its own stream (its `record_sha256`), so two boxes of one item never share one. The box has
no tag of its own: it is covered by the round's signed responses commitment (the sealed record line is
a Merkle leaf), and a box that does not open to the boxed fields is an input error.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

import orjson

DOMAIN = b"tally-sealed-box-v1\n"
BOXED = ("answers", "figures", "usage", "verdicts")  # the fields a v3 sealed record keeps in its box


def item_key(item_line: bytes) -> bytes:
    """The box key of an item, from its line as stored (its keys sorted, so that a round's committed
    item file, which holds the same object, gives the same key)."""
    return hashlib.sha256(DOMAIN + orjson.dumps(orjson.loads(item_line), option=orjson.OPT_SORT_KEYS)).digest()


def _xor(data: bytes, key: bytes, record_sha256: str) -> bytes:
    stream = hashlib.shake_256(key + bytes.fromhex(record_sha256)).digest(len(data))
    return (int.from_bytes(data, "big") ^ int.from_bytes(stream, "big")).to_bytes(len(data), "big")


def close(fields: dict, key: bytes, record_sha256: str) -> str:
    """The box of `fields` (some of BOXED) for the record whose full line has SHA-256 `record_sha256`."""
    plain = orjson.dumps(fields, option=orjson.OPT_SORT_KEYS)
    return base64.b64encode(_xor(plain, key, record_sha256)).decode("ascii")


def open_box(box: object, key: bytes, record_sha256: object) -> dict | None:
    """The fields in `box`, or None when it does not open with this key to an object of boxed fields."""
    if not isinstance(box, str) or not isinstance(record_sha256, str) or len(record_sha256) != 64:
        return None
    try:
        plain = _xor(base64.b64decode(box, validate=True), key, record_sha256)
        fields = orjson.loads(plain)
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        return None
    if not isinstance(fields, dict) or not set(fields) <= set(BOXED):
        return None
    return fields
