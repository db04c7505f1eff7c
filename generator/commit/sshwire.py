"""The SSH wire encoding (RFC 4251): uint32 lengths and length-prefixed strings."""

from __future__ import annotations

import struct


def u32(n: int) -> bytes:
    return struct.pack(">I", n)


def string(data: bytes | str) -> bytes:
    if isinstance(data, str):
        data = data.encode()
    return u32(len(data)) + data


class Reader:
    """Reads fields from a wire blob; raises ValueError on truncation."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise ValueError("truncated SSH data")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def u32(self) -> int:
        return struct.unpack(">I", self.take(4))[0]

    def string(self) -> bytes:
        return self.take(self.u32())

    def done(self) -> bool:
        return self.pos == len(self.data)


def armor(label: str, blob: bytes, width: int = 70) -> str:
    """PEM-like armour as OpenSSH writes it: base64 wrapped at 70 columns."""
    import base64

    text = base64.b64encode(blob).decode()
    lines = [text[i:i + width] for i in range(0, len(text), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----\n"


def unarmor(label: str, text: str) -> bytes:
    import base64
    import binascii

    begin, end = f"-----BEGIN {label}-----", f"-----END {label}-----"
    body = text.strip()
    if not body.startswith(begin) or not body.endswith(end):
        raise ValueError(f"not an armoured {label}")
    try:
        return base64.b64decode("".join(body[len(begin):-len(end)].split()), validate=True)
    except binascii.Error as exc:
        raise ValueError(f"bad base64 in {label}: {exc}") from None
