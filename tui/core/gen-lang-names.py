#!/usr/bin/env python3
"""Writes tui/core/lang_names_data.c: the English and native names of every language code
the spec's tables use, from Debian's iso-codes data (ISO 639-3, ISO 3166-1, ISO 15924 and
their gettext translations). Run by hand when iso-codes or the spec tables change:

    python3 tui/core/gen-lang-names.py > tui/core/lang_names_data.c

Needs python3 and the Debian package iso-codes (JSON under /usr/share/iso-codes/json,
translations under /usr/share/locale/*/LC_MESSAGES). The codes are read from
tui/api/spec_tables.c, so the table covers exactly what the client can show.

Rules (documented in the README):
- English: language name (ISO 639-3 `name`, a trailing parenthesised qualifier such as
  "(macrolanguage)" dropped), then in parentheses the script (ISO 15924; "Han (Simplified
  variant)" reads "Simplified Han") and the region (ISO 3166-1 `common_name`, else `name`):
  ja-JP -> "Japanese (Japan)".
- Native: the same three names translated into the language itself, from the iso_639-3,
  iso_15924 and iso_3166-1 catalogues of the locale that matches the code (ll_RR, ll_Script,
  then ll; cmn and yue read zh_CN/zh_TW/zh_HK, no reads nb). Empty when the language's own
  catalogue does not translate its name.
"""
import gettext
import json
import os
import re
import sys

ISO = os.environ.get("ISO_CODES_DIR", "/usr/share/iso-codes/json")
LOCALE = os.environ.get("ISO_CODES_LOCALE", "/usr/share/locale")
HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, key):
    with open(os.path.join(ISO, name), encoding="utf-8") as f:
        return json.load(f)[key]


langs = {}
for e in load("iso_639-3.json", "639-3"):
    langs[e["alpha_3"]] = e
    if "alpha_2" in e:
        langs[e["alpha_2"]] = e
regions = {e["alpha_2"]: e for e in load("iso_3166-1.json", "3166-1")}
scripts = {e["alpha_4"]: e for e in load("iso_15924.json", "15924")}
# ISO 639-2 spells some names differently ("Greek, Modern (1453-)"); older catalogues
# translate only those spellings.
langs2 = {}
for e in load("iso_639-2.json", "639-2"):
    for k in ("alpha_2", "alpha_3"):
        if k in e:
            langs2[e[k]] = e
# A language with no translation of its own name in its catalogues borrows its
# macrolanguage's (Mandarin and Yue are Chinese).
MACRO = {"cmn": "zh", "yue": "zh"}


def spec_codes():
    """Every quoted language code in the spec tables' three language arrays."""
    with open(os.path.join(HERE, "..", "api", "spec_tables.c"), encoding="utf-8") as f:
        text = f.read()
    codes = []
    for array in ("languages", "target_languages", "source_languages"):
        m = re.search(r"\b" + array + r"\[\] = \{(.*?)\n\};", text, re.S)
        if not m:
            sys.exit("gen-lang-names: array %s not found in spec_tables.c" % array)
        for code in re.findall(r'"([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*)"', m.group(1)):
            if code not in codes:
                codes.append(code)
    return codes


catalogues = {}


def catalogue(locale, domain):
    key = (locale, domain)
    if key not in catalogues:
        path = os.path.join(LOCALE, locale, "LC_MESSAGES", domain + ".mo")
        try:
            with open(path, "rb") as f:
                catalogues[key] = gettext.GNUTranslations(f)
        except OSError:
            catalogues[key] = None
    return catalogues[key]


def locales_for(lang, script, region):
    base = {"cmn": "zh", "yue": "zh", "no": "nb"}.get(lang, lang)
    out = []
    if region:
        out.append(base + "_" + region)
    if script:
        out.append(base + "_" + script)
    if base == "zh":
        out += ["zh_TW", "zh_HK"] if script == "Hant" else ["zh_CN"]
    out.append(base)
    return out


def translate(locales, domain, msgid):
    for loc in locales:
        cat = catalogue(loc, domain)
        if cat is None:
            continue
        # Only a real entry counts (a translation may equal its msgid: "Chile").
        text = cat._catalog.get(msgid)
        if text:
            return text
    return None


def translate_language(locs, lang):
    """The name of lang in its own language, from the newest catalogue that has it."""
    for code in (lang, MACRO.get(lang)):
        if code is None:
            continue
        candidates = [("iso_639-3", langs[code]["name"])]
        if code in langs2:
            candidates += [("iso_639-2", langs2[code]["name"]), ("iso_639", langs2[code]["name"])]
        for domain, msgid in candidates:
            text = translate(locs, domain, msgid)
            if text:
                return text
    return None


def english_or(lang, english):
    return english if lang == "en" else None


def drop_qualifier(name):
    return re.sub(r"\s*\([^()]*\)$", "", name)


def script_name(name):
    m = re.match(r"^(\S+) \((\S+) variant\)$", name)
    return m.group(2) + " " + m.group(1) if m else name


def region_msgid(e):
    return e.get("common_name", e["name"])


def names(code):
    parts = code.split("-")
    lang, script, region = parts[0], None, None
    for p in parts[1:]:
        if len(p) == 4:
            script = p
        else:
            region = p.upper()
    le = langs.get(lang)
    if le is None:
        sys.exit("gen-lang-names: unknown language subtag in %s" % code)
    english = drop_qualifier(le["name"])
    locs = locales_for(lang, script, region)
    if lang == "en":
        native = english   # no catalogue translates English into English
    else:
        native = translate_language(locs, lang)
        native = drop_qualifier(native.split(",")[0]) if native else None
    en_extra, na_extra = [], []
    if script:
        se = scripts[script]
        en_extra.append(script_name(se["name"]))
        t = english_or(lang, script_name(se["name"])) or translate(locs, "iso_15924", se["name"])
        na_extra.append(t if t else None)
    if region:
        re_ = regions[region]
        en_extra.append(region_msgid(re_))
        t = english_or(lang, region_msgid(re_)) or translate(locs, "iso_3166-1", region_msgid(re_))
        if not t and region_msgid(re_) != re_["name"]:
            t = translate(locs, "iso_3166-1", re_["name"])
        na_extra.append(t if t else None)
    if en_extra:
        english += " (" + ", ".join(en_extra) + ")"
    if native and na_extra and all(na_extra):
        native += " (" + ", ".join(na_extra) + ")"
    return english, native or ""


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    print("/* Generated by tui/core/gen-lang-names.py from Debian's iso-codes data; do not edit.")
    print(" * Regenerate: python3 tui/core/gen-lang-names.py > tui/core/lang_names_data.c */")
    print('#include "config.h"')
    print('#include "core/lang_names.h"')
    print()
    print("const struct lang_name lang_names_table[] = {")
    for code in sorted(spec_codes()):
        english, native = names(code)
        print("\t{%s, %s, %s}," % (c_string(code), c_string(english), c_string(native)))
    print("};")
    print()
    print("const size_t lang_names_table_count = sizeof(lang_names_table) / "
          "sizeof(lang_names_table[0]);")


main()
