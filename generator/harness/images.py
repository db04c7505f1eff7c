"""Image input of a run: the document's pages as image parts of the chat request.

A run declares its input kind (`generator.page_images.INPUT_KINDS`):

- ``text``: the suite's messages as they are (the document's text inside the prompt template);
- ``image``: the same messages with the document's text replaced by a line saying the document
  follows as page images, and the user message's content turned into the OpenAI-compatible content
  parts: that text, then one ``image_url`` part per page (a ``data:`` URL of the page's bytes);
- ``text+image``: the document's text inside the template, then the page images.

The request as sent carries each page's bytes once; the stored request carries, in their place,
``sha256:<hex>`` of the page as sent (the item's page file after the suite's `prepare_page`), so a
stored run does not hold the image bytes a second time. `expand_request`, given the pages as sent,
rebuilds the request exactly as it was sent.
"""

from __future__ import annotations

import base64
import binascii
import copy
import hashlib
from collections.abc import Iterator
from pathlib import Path

from generator.inputs.page_images import INPUT_KINDS, media_type, read_page

IMAGE_PLACEHOLDER = "(The document is not given as text: it follows as {n} page image(s), in page order.)"
HASH_PREFIX = "sha256:"


def page_bytes(item: dict, items_dir: Path) -> list[bytes]:
    """The checked bytes of each page of `item`'s document (`read_page` raises PageError)."""
    return [read_page(items_dir, page) for page in item["document"].get("pages") or []]


def text_view(item: dict, kind: str) -> dict:
    """The item whose document text the suite's prompt shows for `kind`."""
    if kind != "image":
        return item
    pages = item["document"].get("pages") or []
    return {**item, "document": {**item["document"], "text": IMAGE_PLACEHOLDER.format(n=len(pages))}}


def with_images(messages: list[dict], pages: list[bytes], kind: str) -> list[dict]:
    """`messages` (the suite's, for `text_view(item, kind)`) with the pages added to the last user
    message as image parts, for the image kinds."""
    if kind not in INPUT_KINDS:
        raise ValueError(f"input kind must be one of {', '.join(INPUT_KINDS)}")
    if kind == "text":
        return messages
    out = copy.deepcopy(messages)
    user = max(i for i, m in enumerate(out) if m.get("role") == "user")
    parts: list[dict] = [{"type": "text", "text": out[user]["content"]}]
    for data in pages:
        url = f"data:{media_type(data)};base64,{base64.b64encode(data).decode('ascii')}"
        parts.append({"type": "image_url", "image_url": {"url": url}})
    out[user] = {**out[user], "content": parts}
    return out


def _map_image_urls(request: dict, change) -> dict:
    out = copy.deepcopy(request)
    for message in out.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    part["image_url"]["url"] = change(part["image_url"]["url"])
    return out


def _hash_of_data_url(url: str) -> str:
    head, _, payload = url.partition(",")
    if not head.startswith("data:") or not head.endswith(";base64"):
        return url
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return url
    return HASH_PREFIX + hashlib.sha256(data).hexdigest()


def stored_request(request: dict) -> dict:
    """The request as stored: every image data URL replaced by ``sha256:<hex>`` of its bytes."""
    return _map_image_urls(request, _hash_of_data_url)


def expand_request(stored: dict, pages: list[bytes]) -> dict:
    """The request as sent, from the stored one and the item's page bytes."""
    by_hash = {HASH_PREFIX + hashlib.sha256(d).hexdigest(): d for d in pages}

    def expand(url: str) -> str:
        if not url.startswith(HASH_PREFIX):
            return url
        data = by_hash[url]
        return f"data:{media_type(data)};base64,{base64.b64encode(data).decode('ascii')}"

    return _map_image_urls(stored, expand)


def _image_urls(messages: list) -> Iterator[str]:
    """The URL of every image part of `messages`, in order."""
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    yield str((part.get("image_url") or {}).get("url", ""))


def image_hashes(messages: list) -> list[str]:
    """The sha256 hex digests of the image parts of `messages` (data URLs or stored references)."""
    urls = (_hash_of_data_url(url) for url in _image_urls(messages))
    return [url[len(HASH_PREFIX):] for url in urls if url.startswith(HASH_PREFIX)]


def image_bytes(messages: list) -> list[bytes]:
    """The bytes of the image parts of `messages` sent as base64 data URLs, in order."""
    out = []
    for url in _image_urls(messages):
        head, _, payload = url.partition(",")
        if head.startswith("data:") and head.endswith(";base64"):
            try:
                out.append(base64.b64decode(payload, validate=True))
            except (binascii.Error, ValueError):
                pass
    return out
