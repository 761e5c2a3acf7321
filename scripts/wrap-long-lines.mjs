// Brings the lines prettier leaves over 120 columns under it, without changing what the code does (issue 42). Prettier
// wraps code, but not the text of comments nor of strings; this script, run after it (scripts/format-tree.mjs runs
// prettier, this, prettier again), wraps both:
// - comments: the text of an own-line `//` comment or of a block comment (JSDoc included) is re-wrapped at spaces, the
//   words carried over into the lines of the same paragraph below; indentation, list items, code spans (`…`),
//   {@link …} tags, URLs, fenced code and eslint/ts/prettier directives are kept as they are, a table row wraps its
//   last column under itself, and a line that cannot be wrapped (a word longer than the room) stays;
// - strings: a string literal or template literal in an expression position whose line is over 120 becomes a
//   concatenation, 'first words ' + 'more words', cut after spaces (outside escapes and ${…}), so its value is
//   byte-identical. Not where a concatenation is not allowed or changes a type: module specifiers, property names and
//   keys, element access, enum members, types, tagged templates, directives ('use strict'), `as`/`satisfies` operands,
//   require/import()/new URL() arguments, tests' titles, and under `as const` anything but prose.
//
//   node scripts/wrap-long-lines.mjs [paths…]            rewrites the files (default: the code files of the tree)
//   node scripts/wrap-long-lines.mjs --check [paths…]    lists what it would change, exits 1 if anything
//   node scripts/wrap-long-lines.mjs --verify <rev> [paths…]
//       the proof that a formatting changed no behaviour: each file's syntax tree, against the same file at git
//       revision <rev>, is the same once parentheses, quotes, number spellings and layout are set aside and each chain
//       of concatenated string and template literals is folded into one value; and its comments hold the same words.
//       Exits 1, listing the files that differ, if any does.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WIDTH = 120;
const CODE = /\.(?:[cm]?ts|[cm]?js)$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'reports', 'coverage', '.cache']);

/** The code files under `path` (relative to the root, forward slashes). */
function codeFiles(path) {
  const full = join(ROOT, path);
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    return CODE.test(path) ? [path] : [];
  }
  return entries.flatMap((entry) => {
    const child = path === '.' ? entry.name : `${path}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : codeFiles(child);
    return entry.isFile() && CODE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [child] : [];
  });
}

function parse(fileName, text) {
  const kind = /\.[cm]?js$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
}

/** Every comment of the file, in order: the leading and trailing comments of each token, JSDoc's own nodes aside. */
function comments(sf) {
  const text = sf.text;
  const found = new Map();
  const add = (ranges) => {
    for (const range of ranges ?? []) {
      const start = text.slice(range.pos, range.pos + 2);
      if (start === '//' || start === '/*') found.set(range.pos, range);
    }
  };
  const visit = (node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  return [...found.values()].sort((a, b) => a.pos - b.pos);
}

// ---------------------------------------------------------------------------------------------------------------------
// Comments

const DIRECTIVE =
  /^\s*(?:\/\/|\/\*+)\s*(?:eslint|@ts-|prettier-ignore|istanbul|c8 |globals? |jshint|#\s*source|@vitest|@jsx|<reference)/;
/** A token that would start a list item, a JSDoc tag, a heading, a quote or a table row if a line began with it. */
const NO_LINE_START = /^(?:[-*+>|#]|\d+[.)]|@.*)$/;
/** What starts a new paragraph in a comment: a list item, a JSDoc tag, a fence. */
const PARAGRAPH_START = /^(?:[-*+] |\d+[.)] |@|```|~~~|#|>|\|)/;

/**
 * The words of `body`, cut at single spaces between two non-spaces, outside `code spans` and {@link …} tags: joined
 * again with single spaces they give `body` back exactly. A token that must not begin a line is glued to the one
 * before.
 */
function words(body) {
  const tokens = [];
  let current = '';
  let tick = false;
  let brace = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '`') tick = !tick;
    else if (!tick && c === '{' && body[i + 1] === '@') brace++;
    else if (!tick && c === '}' && brace > 0) brace--;
    if (
      c === ' ' &&
      !tick &&
      brace === 0 &&
      i > 0 &&
      body[i - 1] !== ' ' &&
      body[i + 1] !== ' ' &&
      i + 1 < body.length
    ) {
      tokens.push(current);
      current = '';
    } else current += c;
  }
  tokens.push(current);
  const glued = [];
  for (const token of tokens) {
    if (glued.length > 0 && NO_LINE_START.test(token)) glued[glued.length - 1] += ` ${token}`;
    else glued.push(token);
  }
  return glued;
}

/** Fills lines of at most `room` characters with `tokens`; a token longer than the room has a line of its own. */
function fill(tokens, room) {
  const lines = [];
  let line = [];
  let length = 0;
  for (const token of tokens) {
    if (line.length > 0 && length + 1 + token.length > room) {
      lines.push(line);
      line = [];
    }
    length = line.length === 0 ? token.length : length + 1 + token.length;
    line.push(token);
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

/**
 * One line of a comment, split into what precedes its text (`lead`: indentation and `//`, `/**` or ` * `, with one
 * space), the further spaces before the text (`inner`), the text, and what follows it (` *\/` on a block's last line).
 */
function commentLine(line, style) {
  const m =
    style === '//' ? /^(\s*\/\/+ ?)(\s*)(.*)$/.exec(line) : /^(\s*(?:\/\*\*?|\*)? ?)(\s*)(.*?)(\s*\*\/)?$/.exec(line);
  if (!m) return undefined;
  return { lead: m[1], inner: m[2], body: m[3], tail: m[4] ?? '' };
}

/** Whether a comment line can take words carried over from the line above, whose continuation prefix is `prefix`. */
function continues(parts, prefix) {
  if (!parts || parts.body === '' || parts.tail !== '' || DIRECTIVE.test(parts.lead + parts.body)) return false;
  return parts.lead + parts.inner === prefix && !PARAGRAPH_START.test(parts.body) && !/\S {2,}\S/.test(parts.body);
}

/**
 * Re-wraps the lines of one comment (or run of `//` comments) that are over the width; undefined if none changes and
 * `changed` is not already true.
 */
function wrapCommentLines(lines, style, indent, changed = false) {
  const out = [];
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const parts = commentLine(line, style);
    if (parts && /^[`~]{3}/.test(parts.body)) fenced = !fenced;
    if (line.length <= WIDTH || fenced || !parts || DIRECTIVE.test(line)) {
      out.push(line);
      continue;
    }
    // A row of a table (columns aligned with runs of spaces): its last column wraps under itself.
    const column = /^.*\S {2,}(?=\S)/.exec(parts.body);
    if (column) {
      const at = parts.lead.length + parts.inner.length + column[0].length;
      const rows = fill(words(line.slice(at)), WIDTH - at);
      if (rows.length < 2 || parts.tail !== '') out.push(line);
      else {
        changed = true;
        out.push(line.slice(0, at) + rows[0].join(' '));
        const under = parts.lead.replace(/ $/, '').padEnd(at);
        for (const row of rows.slice(1)) out.push(under + row.join(' '));
      }
      continue;
    }
    const head = fill(words(parts.body), WIDTH - parts.lead.length - parts.inner.length);
    if (head.length < 2) {
      out.push(line);
      continue;
    }
    changed = true;
    out.push(parts.lead + parts.inner + head[0].join(' '));
    // Continuation lines: ` * ` under a block's first line; a list item's text hangs under its first word.
    const lead = style === '/*' && /\/\*/.test(parts.lead) ? `${indent} * ` : parts.lead;
    const marker = /^(?:[-*+]|\d+[.)]) /.exec(parts.body);
    const prefix = lead + parts.inner + ' '.repeat(marker ? marker[0].length : 0);
    let rest = head.slice(1).flat();
    // Carry the rest into the lines below while they continue the paragraph.
    for (;;) {
      const next = parts.tail === '' && i + 1 < lines.length ? commentLine(lines[i + 1], style) : undefined;
      const merge = continues(next, prefix);
      if (merge) {
        i++;
        rest = [...rest, ...words(next.body)];
      }
      const filled = fill(rest, WIDTH - prefix.length);
      if (merge && filled.length > 1) {
        out.push(prefix + filled[0].join(' '));
        rest = filled.slice(1).flat();
        continue;
      }
      for (const tokens of filled) out.push(prefix + tokens.join(' '));
      break;
    }
    if (parts.tail !== '') {
      const last = out.length - 1;
      if (out[last].length + parts.tail.length <= WIDTH) out[last] += parts.tail;
      else out.push(`${indent} */`);
    }
  }
  return changed ? out : undefined;
}

/** The edits that re-wrap the file's long comments. */
function commentEdits(sf) {
  const text = sf.text;
  const edits = [];
  const all = comments(sf);
  const lineOf = (pos) => sf.getLineAndCharacterOfPosition(pos).line;
  const starts = sf.getLineStarts();
  const lineText = (line) => text.slice(starts[line], line + 1 < starts.length ? starts[line + 1] - 1 : text.length);
  const ownLine = (range) => text.slice(starts[lineOf(range.pos)], range.pos).trim() === '';
  for (let k = 0; k < all.length; k++) {
    const range = all[k];
    if (!ownLine(range)) continue;
    const first = lineOf(range.pos);
    let last = lineOf(range.end);
    const indent = text.slice(starts[first], range.pos);
    let end = range.end;
    if (range.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      // A run of own-line `//` comments at the same indentation, one paragraph block.
      while (k + 1 < all.length && all[k + 1].kind === range.kind && lineOf(all[k + 1].pos) === last + 1) {
        const next = all[k + 1];
        if (!ownLine(next) || text.slice(starts[last + 1], next.pos) !== indent) break;
        last++;
        k++;
        end = next.end;
      }
    }
    const lines = [];
    for (let line = first; line <= last; line++) lines.push(lineText(line));
    // Code after a block comment's end, on its last line: left alone.
    if (text.slice(end, starts[last] + lines[lines.length - 1].length).trim() !== '') continue;
    if (!lines.some((line) => line.length > WIDTH)) continue;
    const style = range.kind === ts.SyntaxKind.SingleLineCommentTrivia ? '//' : '/*';
    let source = lines;
    // A one-line block comment over the width becomes a multi-line one.
    if (style === '/*' && first === last) {
      const m = /^(\s*)(\/\*\*?)\s*(.*?)\s*\*\/(.*)$/.exec(lines[0]);
      if (!m || m[4].trim() !== '' || DIRECTIVE.test(lines[0])) continue;
      source = [`${indent}${m[2]}`, `${indent} * ${m[3]}`, `${indent} */`];
    }
    const wrapped = wrapCommentLines(source, style, indent, source !== lines);
    if (!wrapped) continue;
    edits.push({ start: starts[first], end: starts[first] + lines.join('\n').length, text: wrapped.join('\n') });
  }
  return edits;
}

// ---------------------------------------------------------------------------------------------------------------------
// Strings

const SPLITTABLE_PARENTS = new Set([
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.ArrayLiteralExpression,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.Parameter,
  ts.SyntaxKind.BindingElement,
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.ThrowStatement,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.ConditionalExpression,
  ts.SyntaxKind.TemplateSpan,
  ts.SyntaxKind.ParenthesizedExpression,
  ts.SyntaxKind.BinaryExpression,
]);
/** Binary operators that bind less tightly than +, so that `'a' + 'b' <op> x` is `('a' + 'b') <op> x`; and + itself. */
const LOOSER_OR_PLUS = new Set([
  ts.SyntaxKind.PlusToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandToken,
  ts.SyntaxKind.BarBarToken,
  ts.SyntaxKind.QuestionQuestionToken,
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.CommaToken,
]);
const TEST_CALLEE = /^(?:it|test|describe|bench)(?:\.\w+(?:\(.*\))?)*$/s;
const NOT_SPLIT_CALLEES = /^(?:require|import|URL|Worker|(?:vi|jest)\.(?:mock|doMock|unmock|importActual))$/;

const sameLine = (a, b) => {
  const sf = a.getSourceFile();
  return (
    sf.getLineAndCharacterOfPosition(a.getStart(sf)).line === sf.getLineAndCharacterOfPosition(b.getStart(sf)).line
  );
};

/** Whether a concatenation may take the place of the literal `node` without changing what the code means or types. */
function splittable(node) {
  const parent = node.parent;
  if (!SPLITTABLE_PARENTS.has(parent.kind)) return false;
  switch (parent.kind) {
    case ts.SyntaxKind.CallExpression:
    case ts.SyntaxKind.NewExpression:
      if (parent.expression === node) return false;
      if (parent.expression.kind === ts.SyntaxKind.ImportKeyword) return false;
      if (NOT_SPLIT_CALLEES.test(parent.expression.getText())) return false;
      // A test's title on the line that opens the test stays whole: a failing run prints it, and one searches the code
      // for it (eslint.config.js's max-len lets that line be long). One prettier put on a line of its own is split.
      if (parent.arguments[0] === node && TEST_CALLEE.test(parent.expression.getText()) && sameLine(parent, node)) {
        return false;
      }
      break;
    case ts.SyntaxKind.PropertyAssignment:
    case ts.SyntaxKind.VariableDeclaration:
    case ts.SyntaxKind.PropertyDeclaration:
    case ts.SyntaxKind.Parameter:
    case ts.SyntaxKind.BindingElement:
      if (parent.initializer !== node) return false;
      break;
    case ts.SyntaxKind.BinaryExpression:
      if (!LOOSER_OR_PLUS.has(parent.operatorToken.kind)) return false;
      break;
    case ts.SyntaxKind.ConditionalExpression:
      if (parent.condition === node) return false;
      break;
  }
  // A literal's type is its value, a concatenation's is string: where that may matter (under `as const`, `satisfies`,
  // a `const` without a type), only prose is split, a text with spaces that no type names; never in an enum or a type.
  const prose = /\s/.test(node.getText());
  for (let up = parent; up && !ts.isStatement(up) && !ts.isSourceFile(up); up = up.parent) {
    if (ts.isEnumMember(up) || ts.isTypeNode(up) || ts.isDecorator(up)) return false;
    if (ts.isAsExpression(up) || ts.isSatisfiesExpression(up) || ts.isTypeAssertionExpression(up)) {
      if (!prose) return false;
    }
    if (ts.isVariableDeclaration(up) && up.type === undefined && up.initializer === node && !prose) return false;
  }
  return true;
}

/** The raw stretches of a literal's source (between quotes, outside ${…}), as [start, end) offsets in the file. */
function rawStretches(node, sf) {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return [[node.getStart(sf) + 1, node.end - 1]];
  const stretches = [[node.head.getStart(sf) + 1, node.head.end - 2]];
  for (const span of node.templateSpans) {
    const literal = span.literal;
    stretches.push([literal.getStart(sf) + 1, literal.end - (ts.isTemplateTail(literal) ? 1 : 2)]);
  }
  return stretches;
}

/**
 * The offsets after which the literal may be cut: right after a space that is not escaped (an even number of
 * backslashes before it) and is followed by a non-space; and, in a template, next to a ${…} substitution. With
 * `after` (for a text with no space, such as code), right after one of those characters instead of a space.
 */
function cutPoints(node, sf, after) {
  const text = sf.text;
  const points = [];
  const stretches = rawStretches(node, sf);
  for (const [k, [from, to]] of stretches.entries()) {
    if (k > 0) points.push(from);
    if (k < stretches.length - 1 && to > from) points.push(to);
    for (let i = from; i < to - 1; i++) {
      if (after ? !after.includes(text[i]) : text[i] !== ' ' || text[i + 1] === ' ' || text[i - 1] === ' ') continue;
      let backslashes = 0;
      while (text[i - 1 - backslashes] === '\\') backslashes++;
      if (backslashes % 2 === 0) points.push(i + 1);
    }
  }
  return [...new Set(points)].sort((a, b) => a - b);
}

/**
 * The concatenation that replaces the literal `node`, each piece at most `room` characters (the first, where it stays
 * on its line, `firstRoom`); undefined if none.
 */
function split(node, sf, room, firstRoom = room) {
  const text = sf.text;
  const start = node.getStart(sf);
  const end = node.end - 1;
  const quote = text[start];
  const inside = (p) => p > start + 1 && p < end;
  const points = cutPoints(node, sf).filter(inside);
  const fallback = cutPoints(node, sf, ';,})').filter(inside);
  const pieces = [];
  let from = start + 1;
  while (end - from + 2 > (pieces.length === 0 ? firstRoom : room)) {
    const limit = pieces.length === 0 ? firstRoom : room;
    const fits = (p) => p > from && p - from + 2 <= limit;
    const within = points.some(fits) ? points.filter(fits) : fallback.filter(fits);
    const cut = within.length > 0 ? within[within.length - 1] : points.find((p) => p > from);
    if (cut === undefined) break;
    pieces.push(quote + text.slice(from, cut) + quote);
    from = cut;
  }
  pieces.push(quote + text.slice(from, end) + quote);
  return pieces.length > 1 ? pieces.join(' +\n') : undefined;
}

/** The edits that split the string and template literals of lines over the width. */
function stringEdits(sf) {
  const text = sf.text;
  const starts = sf.getLineStarts();
  const edits = [];
  const lineLength = (line) => (line + 1 < starts.length ? starts[line + 1] - 1 : text.length) - starts[line];
  const visit = (node) => {
    const literal =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
    if (literal) {
      const start = node.getStart(sf);
      const { line, character } = sf.getLineAndCharacterOfPosition(start);
      const endLine = sf.getLineAndCharacterOfPosition(node.end).line;
      if (line === endLine && lineLength(line) > WIDTH && node.end - start > 24 && splittable(node)) {
        const indent = /^ */.exec(text.slice(starts[line]))[0].length;
        const room = Math.max(40, WIDTH - indent - 8);
        const replacement = split(
          node,
          sf,
          room,
          WIDTH - character - 3 >= 30 ? Math.min(room, WIDTH - character - 3) : room,
        );
        if (replacement) {
          edits.push({ start, end: node.end, text: replacement });
          return;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edits;
}

function applyEdits(text, edits) {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** The file's text with its long comments re-wrapped and its long strings split. */
export function wrapLongLines(fileName, text) {
  const commented = applyEdits(text, commentEdits(parse(fileName, text)));
  return applyEdits(commented, stringEdits(parse(fileName, commented)));
}

// ---------------------------------------------------------------------------------------------------------------------
// --verify

/** The file's syntax tree as a string, layout, parentheses, quotes and concatenations of literals set aside. */
export function canonicalTree(fileName, text) {
  const sf = parse(fileName, text);
  const strip = (node) =>
    ts.isParenthesizedExpression(node) || ts.isParenthesizedTypeNode(node) ? strip(node.expression ?? node.type) : node;
  const isPlus = (node) => ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken;
  /** A literal's parts: strings and (canonical) substitutions; undefined for anything else. */
  const literalParts = (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text];
      for (const span of node.templateSpans) parts.push({ sub: walk(span.expression) }, span.literal.text);
      return parts;
    }
    return undefined;
  };
  const walk = (input) => {
    const node = strip(input);
    if (isPlus(node)) {
      // A left-associated chain a + b + c: adjacent literals fold into one (the value of ((x + 'a') + 'b') is that of
      // x + 'ab'); a parenthesised right operand stays a unit.
      const operands = [];
      let left = node;
      while (isPlus(left)) {
        operands.unshift(strip(left.right));
        left = strip(left.left);
      }
      operands.unshift(left);
      const folded = [];
      for (const operand of operands) {
        const parts = literalParts(operand);
        const last = folded[folded.length - 1];
        if (parts && last && last.literal) {
          for (const part of parts) {
            if (typeof part === 'string' && typeof last.literal[last.literal.length - 1] === 'string')
              last.literal[last.literal.length - 1] += part;
            else last.literal.push(part);
          }
        } else folded.push(parts ? { literal: [...parts] } : { node: walk(operand) });
      }
      if (folded.length === 1) return literalJson(folded[0].literal);
      return `Plus(${folded.map((f) => (f.literal ? literalJson(f.literal) : f.node)).join(',')})`;
    }
    const parts = literalParts(node);
    if (parts) return literalJson(parts);
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return `Id(${node.text})`;
    if (ts.isNumericLiteral(node)) return `Num(${Number(node.text.replace(/_/g, ''))})`;
    if (ts.isBigIntLiteral(node)) return `BigInt(${BigInt(node.text.replace(/_/g, '').slice(0, -1))})`;
    if (ts.isRegularExpressionLiteral(node)) return `Re(${node.text})`;
    const kind = ts.SyntaxKind[node.kind];
    const children = [];
    ts.forEachChild(
      node,
      (child) => void children.push(walk(child)),
      (array) => void children.push(`[${array.map(walk).join(',')}]`),
    );
    if (ts.isNewExpression(node) && !node.arguments) children.push('[]');
    const flags = ts.isVariableDeclarationList(node)
      ? `:${node.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const | ts.NodeFlags.Using)}`
      : '';
    return `${kind}${flags}(${children.join(',')})`;
  };
  return walk(sf);
}
const literalJson = (parts) => `Lit(${JSON.stringify(parts)})`;

/** The words of the file's comments, in order, markers (//, /*, *, *\/) set aside. */
export function commentWords(fileName, text) {
  return comments(parse(fileName, text))
    .map((range) => text.slice(range.pos, range.end))
    .map((comment) => comment.replace(/^\/\/+|^\/\*+|\*+\/$/g, '').replace(/^\s*\*+(?!\/)/gm, ''))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** The files' contents at a git revision (undefined where the file did not exist). */
function atRevision(rev, files) {
  const run = spawnSync('git', ['cat-file', '--batch'], {
    cwd: ROOT,
    input: files.map((f) => `${rev}:${f}\n`).join(''),
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`git cat-file: ${run.stderr}`);
  const out = run.stdout;
  const contents = new Map();
  let at = 0;
  for (const file of files) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString();
    at = eol + 1;
    if (header.endsWith(' missing')) continue;
    const size = Number(header.split(' ')[2]);
    contents.set(file, out.subarray(at, at + size).toString('utf8'));
    at += size + 1;
  }
  return contents;
}

function verify(rev, files) {
  const before = atRevision(rev, files);
  const differ = [];
  let compared = 0;
  let literals = 0;
  for (const file of files) {
    const old = before.get(file);
    if (old === undefined) continue;
    const now = readFileSync(join(ROOT, file), 'utf8');
    compared++;
    if (old === now) continue;
    const treeBefore = canonicalTree(file, old);
    const treeNow = canonicalTree(file, now);
    if (treeBefore !== treeNow) {
      let i = 0;
      while (treeBefore[i] === treeNow[i]) i++;
      differ.push(
        `${file}: the code differs: …${treeBefore.slice(Math.max(0, i - 80), i + 80)}… became …` +
          `${treeNow.slice(Math.max(0, i - 80), i + 80)}…`,
      );
    } else if (commentWords(file, old) !== commentWords(file, now)) differ.push(`${file}: the comments' words differ`);
    literals += (treeNow.match(/Lit\(/g) ?? []).length;
  }
  for (const line of differ) console.error(line);
  console.log(
    `verify: ${compared} files compared with ${rev}, ${files.length - compared} new; ${differ.length} differ` +
      (differ.length === 0
        ? ` (the same syntax trees, ${literals} literal values among them, and the same comment words)`
        : ''),
  );
  return differ.length === 0;
}

// ---------------------------------------------------------------------------------------------------------------------

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const verifyAt = args.includes('--verify') ? args[args.indexOf('--verify') + 1] : undefined;
  const paths = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--verify');
  const files = (paths.length > 0 ? paths : ['.'])
    .map((p) => relative(ROOT, join(process.cwd(), p)).split(sep).join('/') || '.')
    .flatMap(codeFiles);
  if (verifyAt) process.exit(verify(verifyAt, files) ? 0 : 1);
  let changed = 0;
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const wrapped = wrapLongLines(file, text);
    if (wrapped === text) continue;
    changed++;
    if (check) console.log(file);
    else writeFileSync(join(ROOT, file), wrapped);
  }
  console.log(`wrap-long-lines: ${changed} of ${files.length} files ${check ? 'would change' : 'changed'}`);
  if (check && changed > 0) process.exit(1);
}
