#!/usr/bin/env python3
"""Checks two rules of style in the site's folders: src/net, src/site, src/engine_work,
src/cluster and src/server (with the folders below them; an absent folder is skipped).

1. No function body is longer than 80 lines. A body runs from the line of its opening brace to
   the line of its closing brace, both counted. A lambda is part of the function it is written
   in; one written outside any function (a namespace-scope table of handlers) is a function of
   its own. Namespace, class, struct, union and enum bodies, and the braced initializers of
   variables and members, are not functions. Braces are matched on tokens, so braces in
   comments and in string, raw string and character literals do not count.

2. No state is compared with a string literal. A comparison is `==` or `!=` with a string
   literal on one side; the operand on the other side is the postfix expression next to the
   operator (`a.b->c(x)[i]`, with `*` or `!` in front). That operand is a state when one of
   its names has a word among state, status, phase, result, kind, mode, system and stage (or
   their plurals). Its names are the identifiers it is written with, arguments included (so
   `std::string(g.status)` and `status_name(s)` are states), and the string keys it looks up
   (`o.at("status")`, `o["phase"]`): a field read off the wire and compared in place is still
   a state kept as text. Words are the parts of a name split at `_` and at camelCase, so
   `moderation` or `statement` is no state.

   What a message asks for is not a state. A received message names its type (the protocol's
   "type" field, a route's action, a file's extension); the code compares that word with
   literals once, at the boundary where the text arrives, to pick a handler, and keeps nothing.
   Those operands are named for what they are (`type`, `action`, `ext`), and none of those
   names is a state word, so they pass without an exception list. A state (something kept and
   changed: a game's status, a tournament's phase) is an enum; its text exists only where it
   is parsed from or written to the wire.

Exit 0 when the folders keep both rules; 1 with one line per offence, `path:line: what`.

    python3 tests/arch/check_site_style.py [repo root]
"""
import pathlib
import re
import sys

FOLDERS = ("src/net", "src/site", "src/engine_work", "src/cluster", "src/server")
SOURCES = (".cpp", ".h")
MAX_BODY_LINES = 80
STATE_WORDS = {"state", "status", "phase", "result", "kind", "mode", "system", "stage"}
PLURALS = {w + ("es" if w.endswith("s") else "s") for w in STATE_WORDS}

# ---- tokens -------------------------------------------------------------------------------

PUNCT = sorted(["<=>", "...", "->*", "<<=", ">>=", "::", "->", "==", "!=", "<=", ">=", "&&",
                "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ".*"],
               key=len, reverse=True)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER = re.compile(r"\.?[0-9](?:'?[0-9A-Za-z_.]|[eEpP][+-])*")
STRING_PREFIX = re.compile(r"(?:u8|u|U|L)?R?$")


class Tok:
    """A token: its kind (id, num, str, chr, punct, or ph for a placeholder that stands for a
    closed body or initializer in a declaration's head), its text and its line."""
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return f"{self.kind}:{self.text}@{self.line}"


def tokenize(text: str):
    """The tokens of a C++ file, without comments and preprocessor lines. A string literal is
    one token (its prefix and suffix included); adjacent literals stay separate tokens."""
    toks, i, n, line = [], 0, len(text), 1
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "#" and at_line_start:  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    line += 1
                    i += 1
                i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += text.count("\n", i, end)
            i = end
            continue
        m = IDENT.match(text, i)
        if m:
            word = m.group(0)
            j = m.end()
            if j < n and text[j] in "\"'" and STRING_PREFIX.match(word):
                start_line = line  # a prefixed literal: u8"..", R"(..)", L'x'
                i, line = literal(text, j, line, raw=word.endswith("R"))
                toks.append(Tok("str" if text[j] == '"' else "chr", text[m.start():i],
                                start_line))
                continue
            toks.append(Tok("id", word, line))
            i = j
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            m = NUMBER.match(text, i)
            toks.append(Tok("num", m.group(0), line))
            i = m.end()
            continue
        if c in "\"'":
            start, start_line = i, line
            i, line = literal(text, i, line, raw=False)
            toks.append(Tok("str" if c == '"' else "chr", text[start:i], start_line))
            continue
        for p in PUNCT:
            if text.startswith(p, i):
                toks.append(Tok("punct", p, line))
                i += len(p)
                break
        else:
            toks.append(Tok("punct", c, line))
            i += 1
    return toks


def literal(text, i, line, raw):
    """Skips the string or character literal that starts at text[i] (its quote), and a
    user-defined suffix after it ("x"sv). Returns the index after it and the line it ends on."""
    n, quote = len(text), text[i]
    if raw:  # R"delim( ... )delim"
        open_paren = text.find("(", i)
        delim = text[i + 1:open_paren]
        end = text.find(")" + delim + '"', open_paren)
        end = n if end < 0 else end + len(delim) + 2
        line += text.count("\n", i, end)
        i = end
    else:
        i += 1
        while i < n and text[i] != quote:
            if text[i] == "\\":
                i += 1
            elif text[i] == "\n":  # an unterminated literal: stop at the line's end
                break
            i += 1
        i += 1
    m = IDENT.match(text, i)
    return (m.end() if m else i), line


def matching(toks, k):
    """The index of the bracket that closes (or opens) toks[k]; len(toks) or -1 if none."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    back = {v: o for o, v in pairs.items()}
    t = toks[k].text
    if t in pairs:
        step, open_, close = 1, t, pairs[t]
    else:
        step, open_, close = -1, t, back[t]
    depth = 0
    j = k
    while 0 <= j < len(toks):
        if toks[j].kind == "punct":
            if toks[j].text == open_:
                depth += 1
            elif toks[j].text == close:
                depth -= 1
                if depth == 0:
                    return j
        j += step
    return j


# ---- function bodies ----------------------------------------------------------------------

QUALIFIERS = {"const", "volatile", "noexcept", "override", "final", "mutable", "constexpr",
              "consteval", "&", "&&", "try", "throw", "requires"}


def strip_template_and_attributes(head):
    """The head of a declaration without its leading `template <...>` clauses and `[[...]]`
    attributes."""
    k = 0
    while k < len(head):
        if head[k].text == "template" and k + 1 < len(head) and head[k + 1].text == "<":
            depth, k = 0, k + 1
            while k < len(head):
                depth += {"<": 1, ">": -1, ">>": -2}.get(head[k].text, 0)
                k += 1
                if depth <= 0:
                    break
        elif head[k].text == "[" and k + 1 < len(head) and head[k + 1].text == "[":
            while k < len(head) and not (head[k].text == "]" and k > 0
                                         and head[k - 1].text == "]"):
                k += 1
            k += 1
        else:
            break
    return head[k:]


def top_level_parens(head):
    """(open, close) index pairs of the parenthesised groups at depth 0 of a head, and whether
    the head's parentheses balance."""
    groups, depth, start = [], 0, 0
    for k, t in enumerate(head):
        if t.kind != "punct":
            continue
        if t.text == "(":
            if depth == 0:
                start = k
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                groups.append((start, k))
            if depth < 0:
                return groups, False
    return groups, depth == 0


def function_tail(tail):
    """True when the tokens between a parameter list's `)` and a `{` can end a function's
    signature: qualifiers, noexcept(...), a trailing return type, a constructor's initializer
    list."""
    k = 0
    while k < len(tail):
        t = tail[k].text
        if t in ("noexcept", "throw", "requires") and k + 1 < len(tail) and tail[k + 1].text == "(":
            k = matching(tail, k + 1) + 1
        elif t in QUALIFIERS:
            k += 1
        elif t in ("->", ":"):
            return True
        else:
            return False
    return True


def is_lambda_brace(toks, k):
    """True when the `{` at toks[k] opens a lambda's body: `[..] {`, `[..](..) quals {`,
    `[..](..) -> T {`."""
    j = k - 1
    if j >= 0 and toks[j].text == "]":
        return True
    # Walk back over qualifiers and a trailing return type to the parameter list's `)`.
    while j >= 0 and toks[j].text != ")":
        if toks[j].text in ("=", ";", "{", "}", ",", "(") and toks[j].kind == "punct":
            return False
        j -= 1
    if j < 0:
        return False
    o = matching(toks, j)
    return o > 0 and toks[o - 1].text in ("]", ">")


def classify(head, toks, k, scope):
    """What the `{` at toks[k] opens, given the tokens of its declaration since the last `;`,
    `{` or `}` of the enclosing scope: "namespace" (or an extern "C" block), "type",
    "function", "lambda", "member-init" (a braced member in a constructor's initializer list)
    or "init" (a braced initializer or argument)."""
    h = strip_template_and_attributes(head)
    words = [t.text for t in h]
    if scope == "init":
        return "lambda" if is_lambda_brace(toks, k) else "init"
    if "namespace" in words[:2]:
        return "namespace"
    if words[:1] == ["extern"] and len(h) >= 2 and h[1].kind == "str":
        return "namespace"
    if words and words[0] in ("typedef",):
        words, h = words[1:], h[1:]
    if words and words[0] in ("class", "struct", "union", "enum"):
        return "type"
    depth, assign = 0, False
    for j, t in enumerate(h):
        if t.kind == "punct" and t.text in ("(", "["):
            depth += 1
        elif t.kind == "punct" and t.text in (")", "]"):
            depth -= 1
        elif t.text == "=" and depth == 0 and not (j > 0 and h[j - 1].text == "operator"):
            assign = True
    groups, balanced = top_level_parens(h)
    if assign or not balanced or not groups:
        return "lambda" if is_lambda_brace(toks, k) else "init"
    for open_, close in groups:
        if open_ > 0 and h[open_ - 1].text == "operator":
            continue  # `operator()`: the name, not the parameters
        tail = h[close + 1:]
        if function_tail(tail):
            init_list = [t.text for t in tail].count(":") > 0
            if init_list and tail and (tail[-1].kind == "id" or tail[-1].text == ">"):
                return "member-init"  # `A() : x_{1}`: x_'s braced initializer
            return "function"
    return "init"


def function_name(head):
    """A readable name for a function from its head: the words before its parameter list."""
    h = strip_template_and_attributes(head)
    groups, _ = top_level_parens(h)
    for open_, _close in groups:
        if open_ > 0 and h[open_ - 1].text == "operator":
            continue
        start = open_ - 1
        while start > 0 and (h[start - 1].text in ("::", "~", "operator")
                             or (h[start].text == "::" and h[start - 1].kind == "id")):
            start -= 1
        if h[open_ - 1].text == ")":  # `operator()(...)`
            start = matching(h, open_ - 1) - 1
        return "".join(t.text for t in h[start:open_])
    return "?"


def long_functions(toks):
    """Yields (line, name, lines) for each function body longer than MAX_BODY_LINES."""
    # The stack holds the open braces: (what classify() said, index of the `{`[, name]).
    k, n = 0, len(toks)
    stack = [("file", -1)]
    head = []
    heads = []  # the head being read in each enclosing scope, restored when a brace closes
    while k < n:
        t = toks[k]
        kind = stack[-1][0]
        if kind in ("function", "lambda"):
            close = matching(toks, stack[-1][1])  # a body is all one function: jump over it
            open_line = toks[stack[-1][1]].line
            close_line = toks[min(close, n - 1)].line
            lines = close_line - open_line + 1
            if lines > MAX_BODY_LINES:
                yield open_line, stack[-1][2], lines
            stack.pop()
            head = heads.pop()
            head.append(Tok("ph", "<body>", close_line))
            k = close + 1
            if stack[-1][0] in ("file", "namespace", "type"):
                head = []  # a function definition ends its declaration
            continue
        if t.kind == "punct" and t.text == "{":
            what = classify(head, toks, k, kind)
            if what in ("function", "lambda"):
                name = function_name(head) if what == "function" else "lambda"
                heads.append(head)
                stack.append((what, k, name))
                head = []
                continue
            heads.append(head)
            stack.append((what, k))
            head = []
            k += 1
            continue
        if t.kind == "punct" and t.text == "}":
            if len(stack) == 1:
                k += 1
                continue
            what = stack.pop()[0]
            head = heads.pop()
            if what in ("init", "member-init"):
                head.append(Tok("ph", "<init>", t.line))  # the declaration goes on
            else:
                head = []
            k += 1
            continue
        if kind != "init" and t.kind == "punct" and t.text == ";":
            head = []
        elif (kind == "type" and t.kind == "punct" and t.text == ":" and head
              and head[-1].text in ("public", "private", "protected")):
            head = []
        else:
            head.append(t)
        k += 1


# ---- states compared with strings ---------------------------------------------------------

def name_words(name: str):
    """The words of an identifier: split at `_` and at lower-to-upper case changes."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return [w.lower() for w in spaced.split("_") if w]


def is_state_name(name: str) -> bool:
    return any(w in STATE_WORDS or w in PLURALS for w in name_words(name))


def literal_text(tok):
    """The characters of a plain string literal token, without quotes; None for a raw one."""
    m = re.match(r'(?:u8|u|U|L)?"((?:[^"\\]|\\.)*)"', tok.text)
    return m.group(1) if m else None


def operand_left(toks, k):
    """Where the postfix expression that ends just before toks[k] starts (an index)."""
    j = k - 1
    while j >= 0:
        t = toks[j]
        if t.kind == "punct" and t.text in (")", "]"):
            j = matching(toks, j) - 1
        elif t.kind in ("id", "str", "num", "chr") or t.text in (".", "->", "::"):
            if t.kind == "id" and t.text in ("return", "case", "co_return", "throw"):
                break
            j -= 1
        else:
            break
    start = j + 1
    # A prefix `*` or `!`, unless it is a binary operator after an operand: `(a) * b`.
    while start > 0 and toks[start - 1].text in ("*", "!"):
        before = toks[start - 2] if start >= 2 else None
        if before and (before.kind != "punct" or before.text in (")", "]")):
            break
        start -= 1
    return start


def operand_right(toks, k):
    """Where the postfix expression that starts just after toks[k] ends (the index past it)."""
    j = k + 1
    while j < len(toks) and toks[j].text in ("*", "!", "&"):
        j += 1
    expect_name = True
    while j < len(toks):
        t = toks[j]
        if expect_name and t.kind in ("id", "str", "num", "chr"):
            j += 1
            expect_name = False
        elif t.kind == "punct" and t.text in ("(", "["):
            j = matching(toks, j) + 1
            expect_name = False
        elif t.text in (".", "->", "::"):
            j += 1
            expect_name = True
        else:
            break
    return j


def operand_names(toks, start, end):
    """The identifiers of toks[start:end], and the string keys it looks up: the literal
    argument of `at(..)`, `if_contains(..)`, `find(..)`, `contains(..)` or `[..]`."""
    names = []
    for j in range(start, end):
        t = toks[j]
        if t.kind == "id":
            names.append(t.text)
        elif t.kind == "str" and j > 0 and toks[j - 1].text in ("(", "["):
            before = toks[j - 2].text if j > 1 else ""
            if toks[j - 1].text == "[" or before in ("at", "if_contains", "find", "contains"):
                names.append(literal_text(t) or "")
    return names


def state_comparisons(toks):
    """Yields (line, operand text, literal) for each state compared with a string literal."""
    for k, t in enumerate(toks):
        if t.kind != "punct" or t.text not in ("==", "!="):
            continue
        left, right = operand_left(toks, k), operand_right(toks, k)
        sides = [(left, k), (k + 1, right)]
        for (s, e), (os, oe) in (sides, sides[::-1]):
            if oe - os == 1 and toks[os].kind == "str" and e > s:
                names = operand_names(toks, s, e)
                if any(is_state_name(name) for name in names):
                    text = " ".join(x.text for x in toks[s:e])
                    yield t.line, text, toks[os].text
                break


# ---- the check ----------------------------------------------------------------------------

def source_files(root: pathlib.Path):
    for folder in FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for f in sorted(base.rglob("*")):
            if f.suffix in SOURCES and f.is_file():
                yield f


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    problems, files = [], 0
    for f in source_files(root):
        files += 1
        toks = tokenize(f.read_text(errors="replace"))
        rel = f.relative_to(root).as_posix()
        for line, name, lines in long_functions(toks):
            problems.append(f"{rel}:{line}: function {name} has a body of {lines} lines "
                            f"(at most {MAX_BODY_LINES})")
        for line, operand, lit in state_comparisons(toks):
            problems.append(f"{rel}:{line}: state `{operand}` compared with the string {lit} "
                            f"(make it an enum; parse and name it at the boundary)")
    for p in sorted(problems, key=lambda p: (p.split(":")[0], int(p.split(":")[1]))):
        print(p)
    print(f"site style: {files} files, {len(problems)} offences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
