"""Folding names so that look-alikes compare equal.

`name_key("Аlice")` (Cyrillic А) == `name_key("alice")` == `name_key("ＡＬＩＣＥ")`
== `name_key("AIice")`: two names with the same key could be taken for one
another on screen, so the site lets only one user have it (as a username or a
display name).  The fold:

1. NFKC (full-width and mathematical letters, ligatures, compatibility forms);
2. case folding;
3. accents and other combining marks dropped (NFKD, then marks removed), and
   invisible characters (format characters such as zero-width joiners and
   direction marks) dropped;
4. a small table of look-alikes from the Cyrillic and Greek alphabets and of
   digits and signs that pass for Latin letters, mapped to that letter; the
   letters i, l and the digit 1 (which many fonts draw alike, in upper or lower
   case) all become "l", 0 becomes "o", and "rn"/"vv" become "m"/"w";
5. runs of white space, "-", "_" and "." made one space, and the ends trimmed.

It is deliberately coarse: a false "taken" costs a user a second choice of
name, a false "free" lets someone pose as another player.
"""

from __future__ import annotations

import re
import unicodedata

# One character -> the Latin letter it passes for (after case folding).
# fmt: off
_LOOKALIKES = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h",
    "і": "l", "ї": "l", "ӏ": "l", "ј": "j", "к": "k", "м": "m", "п": "n", "о": "o",
    "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w",
    "ь": "b", "з": "3", "ч": "4", "г": "r",
    # Greek
    "α": "a", "β": "b", "ϲ": "c", "ε": "e", "η": "n", "ι": "l", "κ": "k", "μ": "u",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w",
    "ϳ": "j", "ζ": "z",
    # Latin variants and symbols
    "ɑ": "a", "ɡ": "g", "ı": "l", "ɩ": "l", "ℓ": "l", "ǀ": "l", "|": "l", "!": "l",
    "i": "l", "1": "l", "0": "o", "5": "s", "$": "s", "@": "a",
}
# fmt: on
_TABLE = str.maketrans(_LOOKALIKES)
_PAIRS = (("rn", "m"), ("vv", "w"))
_SEPARATORS = re.compile(r"[\s\-_.·]+")


def name_key(name: str) -> str:
    """The folded form of a name (see the module's docstring)."""
    text = unicodedata.normalize("NFKC", name or "").casefold()
    text = "".join(
        ch
        for ch in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(ch) and unicodedata.category(ch) != "Cf"
    )
    text = unicodedata.normalize("NFKC", text).casefold().translate(_TABLE)
    for pair, letter in _PAIRS:
        text = text.replace(pair, letter)
    return _SEPARATORS.sub(" ", text).strip()
