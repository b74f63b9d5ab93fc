"""Real Discord's message limits, so a message the bot could never send fails here too.

Only the limits a dice bot can plausibly hit are checked (lengths, counts, duplicate custom ids,
empty messages). A failure becomes 400 {"code": 50035, "message": "Invalid Form Body", "errors"}
(or 50006 for an empty message), exactly what discord.py turns into HTTPException.
"""

from __future__ import annotations

from typing import Any

import emoji

FLAG_COMPONENTS_V2 = 1 << 15


class FormError(Exception):
    """Raised with Discord's error code and a human-readable path to the bad field."""

    def __init__(self, code: int, message: str, problems: list[str]) -> None:
        super().__init__(f"{message}: {'; '.join(problems)}")
        self.code = code
        self.message = message
        self.problems = problems

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message,
                "errors": {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p} for p in self.problems]}}



def _check_emoji(problems: list[str], where: str, value: dict[str, Any] | None) -> None:
    """Discord answers 400 BUTTON_COMPONENT_INVALID_EMOJI for a unicode "emoji" that is not one
    (a custom emoji has an id instead, and is not checked here)."""
    if value and not value.get("id") and not emoji.is_emoji(value.get("name") or ""):
        problems.append(f"{where}: invalid emoji {value.get('name')!r}")

def _too_long(problems: list[str], where: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        problems.append(f"{where}: must be {limit} or fewer in length (got {len(value)})")


def check_message(msg: dict[str, Any]) -> None:
    """Validate a message as it would be stored (after an edit is applied)."""
    problems: list[str] = []
    content = msg.get("content") or ""
    embeds = msg.get("embeds") or []
    components = msg.get("components") or []
    attachments = msg.get("attachments") or []
    flags = int(msg.get("flags") or 0)
    loading = bool(flags & (1 << 7))

    _too_long(problems, "content", content, 2000)
    if len(embeds) > 10:
        problems.append("embeds: must be 10 or fewer in length")
    total = 0
    for i, e in enumerate(embeds):
        total += _check_embed(problems, f"embeds.{i}", e)
    if total > 6000:
        problems.append(f"embeds: total size exceeds 6000 characters ({total})")

    if flags & FLAG_COMPONENTS_V2:
        if content or embeds:
            problems.append("content/embeds: cannot be used with the IS_COMPONENTS_V2 flag")
        count, text, media = _v2_size(components)
        if count > 40:
            problems.append(f"components: a message may hold at most 40 components (got {count})")
        if text > 4000:
            problems.append(f"components: text displays may hold at most 4000 characters (got {text})")
        shown = {url.removeprefix("attachment://") for url in media}
        for i, a in enumerate(attachments):
            if a.get("filename") not in shown and not loading:
                problems.append(f"attachments.{i}: {a.get('filename')!r} is shown by no component "
                                "(a layout message shows files only through a gallery, thumbnail or file)")
    else:
        if len(components) > 5:
            problems.append("components: must be 5 or fewer in length")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(f"components.{i}: top-level components must be action rows without IS_COMPONENTS_V2")
    _check_components(problems, components)

    if not problems and not loading and not (content or embeds or components or attachments
                                             or msg.get("sticker_items") or msg.get("poll")):
        raise FormError(50006, "Cannot send an empty message", ["message is empty"])
    if problems:
        raise FormError(50035, "Invalid Form Body", problems)


def _v2_size(components: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """Components as Discord counts them (every nested one, accessories too), the characters of
    their text displays, and the media they show."""
    count = text = 0
    media: list[str] = []
    for comp in components:
        count += 1
        ctype = comp.get("type")
        if ctype == 10:
            text += len(comp.get("content") or "")
        elif ctype == 11 or ctype == 13:
            media.append(((comp.get("media") or comp.get("file") or {}).get("url")) or "")
        elif ctype == 12:
            media += [((item.get("media") or {}).get("url")) or "" for item in comp.get("items") or []]
        children = list(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            children.append(comp["accessory"])
        c, t, m = _v2_size(children)
        count, text, media = count + c, text + t, media + m
    return count, text, media


def _check_embed(problems: list[str], where: str, e: dict[str, Any]) -> int:
    size = 0
    for key, limit in (("title", 256), ("description", 4096)):
        _too_long(problems, f"{where}.{key}", e.get(key), limit)
        size += len(e.get(key) or "")
    fields = e.get("fields") or []
    if len(fields) > 25:
        problems.append(f"{where}.fields: must be 25 or fewer in length")
    for j, f in enumerate(fields):
        name, value = f.get("name"), f.get("value")
        if not name or not value:
            problems.append(f"{where}.fields.{j}: name and value are required and cannot be empty")
        _too_long(problems, f"{where}.fields.{j}.name", name, 256)
        _too_long(problems, f"{where}.fields.{j}.value", value, 1024)
        size += len(name or "") + len(value or "")
    footer = (e.get("footer") or {}).get("text")
    _too_long(problems, f"{where}.footer.text", footer, 2048)
    author = (e.get("author") or {}).get("name")
    _too_long(problems, f"{where}.author.name", author, 256)
    return size + len(footer or "") + len(author or "")


def _check_components(problems: list[str], components: list[dict[str, Any]]) -> None:
    seen: set[str] = set()

    def visit(comp: dict[str, Any], where: str) -> None:
        ctype = comp.get("type")
        cid = comp.get("custom_id")
        if cid is not None:
            _too_long(problems, f"{where}.custom_id", cid, 100)
            if cid in seen:
                problems.append(f"{where}.custom_id: component custom id cannot be duplicated ({cid!r})")
            seen.add(cid)
        if ctype == 1:
            children = comp.get("components") or []
            if not children:
                problems.append(f"{where}: action row cannot be empty")
            if len(children) > 5:
                problems.append(f"{where}: action row must have 5 or fewer components")
            kinds = {c.get("type") for c in children}
            if len(children) > 1 and kinds & {3, 5, 6, 7, 8}:
                problems.append(f"{where}: a select menu must be alone in its action row")
        elif ctype == 2:
            _too_long(problems, f"{where}.label", comp.get("label"), 80)
            if comp.get("style") == 5:
                if not comp.get("url"):
                    problems.append(f"{where}: link buttons need a url")
            elif comp.get("style") != 6 and not cid:
                problems.append(f"{where}: non-link buttons need a custom_id")
            if not comp.get("label") and not comp.get("emoji"):
                problems.append(f"{where}: a button needs a label or an emoji")
            _check_emoji(problems, f"{where}.emoji", comp.get("emoji"))
        elif ctype == 3:
            opts = comp.get("options") or []
            if not 1 <= len(opts) <= 25:
                problems.append(f"{where}.options: must be between 1 and 25 in length (got {len(opts)})")
            values = set()
            for k, o in enumerate(opts):
                _too_long(problems, f"{where}.options.{k}.label", o.get("label"), 100)
                _too_long(problems, f"{where}.options.{k}.value", o.get("value"), 100)
                _too_long(problems, f"{where}.options.{k}.description", o.get("description"), 100)
                _check_emoji(problems, f"{where}.options.{k}.emoji", o.get("emoji"))
                if o.get("value") in values:
                    problems.append(f"{where}.options.{k}.value: option values must be unique")
                values.add(o.get("value"))
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if not (0 <= lo <= hi <= max(len(opts), 1)) or hi > 25:
                problems.append(f"{where}: min_values/max_values out of range ({lo}..{hi} of {len(opts)})")
            _too_long(problems, f"{where}.placeholder", comp.get("placeholder"), 150)
        for i, child in enumerate(comp.get("components") or []):
            visit(child, f"{where}.components.{i}")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                visit(comp[key], f"{where}.{key}")

    for i, comp in enumerate(components):
        visit(comp, f"components.{i}")
