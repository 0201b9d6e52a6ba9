#!/usr/bin/env python3
"""Validate the strength-review sentiment data files.

Checks Sources/HeartworkApp/Resources/strength/{sentiment-lexicon.tsv,
lexicon-modifiers.tsv,motivation.json}: header comments, line format,
sorting, duplicates, score ranges, minimum counts and that every review
score has at least one applicable motivational message.

Usage: python3 scripts/check_sentiment_lexicon.py [resource-dir]
Prints a one-line summary and exits 0, or prints the problems and exits 1.
Standard library only.
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = ROOT / "Sources" / "HeartworkApp" / "Resources" / "strength"

LICENCE_LINE = "Licence: CC0-1.0, written for Heartwork"
WORD_RE = re.compile(r"^[a-z']+$")
SCORE_RE = re.compile(r"^[+-]?[0-9]+$")

MIN_LEXICON_ENTRIES = 450
MIN_NEGATORS = 20
MIN_BOOSTERS = 12
MIN_MESSAGES = 8
MAX_MESSAGE_CHARS = 200

REQUIRED_NEGATORS = [
    "not", "no", "never", "don't", "didn't", "wasn't", "isn't", "can't",
    "couldn't", "won't", "hardly", "without", "nothing", "nobody", "neither",
    "nor", "dont", "didnt", "wasnt", "isnt", "cant", "couldnt", "wont",
]
REQUIRED_BOOSTERS = [
    "very", "really", "so", "extremely", "super", "incredibly", "totally",
    "absolutely", "quite",
]
# Gym slang that reads negative but praises a session: must be mildly positive.
GYM_SLANG = ["crushed", "smashed", "killed", "destroyed", "beast", "pumped", "burn"]
# Inflection families that must be present in full.
REQUIRED_WORDS = [
    "hurt", "hurts", "hurting", "love", "loved", "loving", "loves",
    "sore", "injured", "injury", "cramp", "dizzy", "great", "awful", "fun",
    "boring", "happy", "frustrated", "strong", "weak", "pr", "personal",
    "crushed", "smashed", "failed", "struggled", "easy", "heavy",
]


class Problems:
    def __init__(self):
        self.items = []

    def add(self, where, message):
        self.items.append(f"{where}: {message}")


def read_lines(path, problems):
    try:
        data = path.read_bytes()
    except OSError as exc:
        problems.add(path.name, f"cannot read file ({exc})")
        return None
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        problems.add(path.name, f"file must be plain ASCII ({exc})")
        return None
    if "\r" in text:
        problems.add(path.name, "file must use LF line endings")
    if not text.endswith("\n"):
        problems.add(path.name, "file must end with a newline")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def split_header(path, lines, problems):
    """Return (comment lines, [(line number, line)] for the body)."""
    header = []
    body = []
    for number, line in enumerate(lines, start=1):
        if line.startswith("#"):
            if body:
                problems.add(f"{path.name}:{number}", "comment lines are only allowed at the top of the file")
            else:
                header.append(line)
        elif line.strip() == "":
            problems.add(f"{path.name}:{number}", "blank lines are not allowed")
        else:
            body.append((number, line))
    if len(header) < 3:
        problems.add(path.name, f"expected at least 3 header comment lines (title, licence, format), found {len(header)}")
    elif not header[0].lstrip("# ").strip():
        problems.add(path.name, "first comment line must be a title")
    if not any(h.lstrip("#").strip() == LICENCE_LINE for h in header):
        problems.add(path.name, f"header must contain the comment line '# {LICENCE_LINE}'")
    if not any("format" in h.lower() for h in header):
        problems.add(path.name, "header must describe the format (a comment line mentioning 'Format')")
    return header, body


def check_lexicon(path, problems):
    lines = read_lines(path, problems)
    if lines is None:
        return {}
    header, body = split_header(path, lines, problems)
    if not any("slang" in h.lower() for h in header):
        problems.add(path.name, "header must have a comment line explaining the positive gym-slang scores")

    entries = {}
    words_in_order = []
    for number, line in body:
        where = f"{path.name}:{number}"
        parts = line.split("\t")
        if len(parts) != 2:
            problems.add(where, f"expected 'word<TAB>score', got {line!r}")
            continue
        word, score_text = parts
        if not WORD_RE.match(word):
            problems.add(where, f"word {word!r} must be lowercase ASCII letters and apostrophes only")
        if not SCORE_RE.match(score_text):
            problems.add(where, f"score {score_text!r} for {word!r} is not an integer")
            continue
        score = int(score_text)
        if score == 0 or not -5 <= score <= 5:
            problems.add(where, f"score {score} for {word!r} must be a non-zero integer in -5..+5")
        if word in entries:
            problems.add(where, f"duplicate word {word!r}")
        else:
            entries[word] = score
        words_in_order.append(word)

    for i in range(1, len(words_in_order)):
        if words_in_order[i - 1] > words_in_order[i]:
            problems.add(path.name, f"not sorted: {words_in_order[i - 1]!r} comes before {words_in_order[i]!r}")
            break

    if len(entries) < MIN_LEXICON_ENTRIES:
        problems.add(path.name, f"expected at least {MIN_LEXICON_ENTRIES} entries, found {len(entries)}")

    missing = [w for w in REQUIRED_WORDS if w not in entries]
    if missing:
        problems.add(path.name, f"missing required words: {', '.join(missing)}")
    for word in GYM_SLANG:
        if word in entries and not 1 <= entries[word] <= 2:
            problems.add(path.name, f"gym slang {word!r} should be mildly positive (1..2), got {entries[word]}")
        elif word not in entries:
            problems.add(path.name, f"missing gym-slang word {word!r}")
    if entries.get("sore") not in (None, -1):
        problems.add(path.name, f"'sore' should be -1, got {entries['sore']}")
    for word in ("injured", "injury"):
        if word in entries and entries[word] > -3:
            problems.add(path.name, f"{word!r} should be strongly negative (<= -3), got {entries[word]}")
    return entries


def check_modifiers(path, lexicon, problems):
    lines = read_lines(path, problems)
    if lines is None:
        return {}, {}
    _, body = split_header(path, lines, problems)
    kinds = {"negator": [], "booster": []}
    seen = {}
    for number, line in body:
        where = f"{path.name}:{number}"
        parts = line.split("\t")
        if len(parts) != 2:
            problems.add(where, f"expected 'kind<TAB>word', got {line!r}")
            continue
        kind, word = parts
        if kind not in kinds:
            problems.add(where, f"kind must be 'negator' or 'booster', got {kind!r}")
            continue
        if not WORD_RE.match(word):
            problems.add(where, f"word {word!r} must be lowercase ASCII letters and apostrophes only")
        if word in seen:
            problems.add(where, f"duplicate word {word!r} (already a {seen[word]})")
            continue
        seen[word] = kind
        if word in lexicon:
            problems.add(where, f"{word!r} is both a modifier and a scored lexicon word")
        kinds[kind].append(word)

    negators, boosters = kinds["negator"], kinds["booster"]
    if len(negators) < MIN_NEGATORS:
        problems.add(path.name, f"expected at least {MIN_NEGATORS} negators, found {len(negators)}")
    if len(boosters) < MIN_BOOSTERS:
        problems.add(path.name, f"expected at least {MIN_BOOSTERS} boosters, found {len(boosters)}")
    missing = [w for w in REQUIRED_NEGATORS if seen.get(w) != "negator"]
    if missing:
        problems.add(path.name, f"missing negators: {', '.join(missing)}")
    missing = [w for w in REQUIRED_BOOSTERS if seen.get(w) != "booster"]
    if missing:
        problems.add(path.name, f"missing boosters: {', '.join(missing)}")
    return negators, boosters


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def check_messages(path, problems):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        problems.add(path.name, f"cannot read JSON ({exc})")
        return [], []
    if not isinstance(data, dict):
        problems.add(path.name, "top level must be an object")
        return [], []
    extra = set(data) - {"licence", "positive", "negative"}
    if extra:
        problems.add(path.name, f"unexpected keys: {', '.join(sorted(extra))}")
    if data.get("licence") != "CC0-1.0":
        problems.add(path.name, "'licence' must be 'CC0-1.0'")

    texts_seen = set()

    def messages(key, bound, low, high):
        items = data.get(key)
        if not isinstance(items, list):
            problems.add(path.name, f"'{key}' must be a list")
            return []
        good = []
        for i, item in enumerate(items):
            where = f"{path.name}:{key}[{i}]"
            if not isinstance(item, dict) or set(item) != {bound, "text"}:
                problems.add(where, f"must be an object with exactly the keys '{bound}' and 'text'")
                continue
            value, text = item[bound], item["text"]
            if not is_int(value) or not low <= value <= high:
                problems.add(where, f"'{bound}' must be an integer in {low}..{high}, got {value!r}")
                continue
            if not isinstance(text, str) or not text.strip():
                problems.add(where, "'text' must be a non-empty string")
                continue
            if text != text.strip() or "  " in text or "\n" in text:
                problems.add(where, "'text' has stray whitespace")
            if len(text) > MAX_MESSAGE_CHARS:
                problems.add(where, f"'text' is {len(text)} characters, keep it under {MAX_MESSAGE_CHARS}")
            sentences = len(re.findall(r"[.!?]+(?=\s|$)", text))
            if not 1 <= sentences <= 2:
                problems.add(where, f"'text' should be one or two sentences, found {sentences}")
            if text in texts_seen:
                problems.add(where, "duplicate message text")
            texts_seen.add(text)
            good.append((value, text))
        if len(items) < MIN_MESSAGES:
            problems.add(path.name, f"expected at least {MIN_MESSAGES} '{key}' messages, found {len(items)}")
        return good

    positive = messages("positive", "min", 0, 5)
    negative = messages("negative", "max", -5, -1)

    for score in range(0, 6):
        if not any(minimum <= score for minimum, _ in positive):
            problems.add(path.name, f"no positive message applies to score {score}")
    for score in range(-1, -6, -1):
        if not any(score <= maximum for maximum, _ in negative):
            problems.add(path.name, f"no negative message applies to score {score}")

    # Very low scores should point towards rest, and persistent pain towards a professional.
    if not any(
        maximum <= -4
        and "pain" in text.lower()
        and "persist" in text.lower()
        and "professional" in text.lower()
        for maximum, text in negative
    ):
        problems.add(path.name, "a negative message with max <= -4 must say persistent pain should be checked by a professional")
    if not any(maximum <= -3 and re.search(r"\b(rest|recover|recovery)\b", text.lower()) for maximum, text in negative):
        problems.add(path.name, "a negative message with max <= -3 must encourage rest or recovery")
    return positive, negative


def main(argv):
    directory = Path(argv[1]) if len(argv) > 1 else DEFAULT_DIR
    problems = Problems()
    lexicon = check_lexicon(directory / "sentiment-lexicon.tsv", problems)
    negators, boosters = check_modifiers(directory / "lexicon-modifiers.tsv", lexicon, problems)
    positive, negative = check_messages(directory / "motivation.json", problems)

    if problems.items:
        print(f"check_sentiment_lexicon: FAILED with {len(problems.items)} problem(s):", file=sys.stderr)
        for item in problems.items:
            print(f"  - {item}", file=sys.stderr)
        return 1

    positive_words = sum(1 for s in lexicon.values() if s > 0)
    print(
        f"check_sentiment_lexicon: OK - {len(lexicon)} lexicon entries "
        f"({positive_words} positive, {len(lexicon) - positive_words} negative), "
        f"{len(negators)} negators, {len(boosters)} boosters, "
        f"{len(positive)} positive and {len(negative)} negative messages"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
