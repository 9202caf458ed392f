// Tokenizes every built-in rules file (specs/*.rules), every ```rules block of
// docs/language.md and sample.rules with the TextMate grammar of editors/vscode, and checks
// the scopes: every non-blank character gets one besides the root (and none is `invalid`),
// and keywords, strings, comments, numbers, rule ids, declaration names, enum members,
// built-ins and card codes get theirs. The places to check are found by searching the text
// (no line numbers), with the keyword list read from grammar/spec.pest and the built-ins
// from the engine's table of them (tests/highlight.rs passes their names in
// SHINPAN_BUILTINS), so a new keyword or built-in the grammar misses fails here.
// Run by tests/highlight.rs; exits 1 with the list of failures.
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const ROOT = path.resolve(__dirname, '../..');
const GRAMMAR = path.join(ROOT, 'editors/vscode/syntaxes/shinpan.tmLanguage.json');
const read = (rel) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

// ---------------------------------------------------------------- the language's words

const pest = read('grammar/spec.pest');
/** Every `k_NAME = @{ "word" ... }` of the grammar: the keyword tokens. */
const K_WORDS = [...pest.matchAll(/^k_\w+\s*=\s*@\{\s*"(\w+)"/gm)].map((m) => m[1]);
/** The reserved words (`keyword = @{ ... }`): never names, so keywords wherever they stand. */
const RESERVED = (() => {
  const body = pest.match(/^keyword\s*=\s*@\{([\s\S]*?)\}/m);
  return body ? [...body[1].matchAll(/"(\w+)"/g)].map((m) => m[1]) : [];
})();
/** Reserved words that are values (`true_lit = @{ "true" ...}`): constants, not keywords. */
const LITERALS = [...pest.matchAll(/^\w+_lit\s*=\s*@\{\s*"(\w+)"/gm)].map((m) => m[1]);
/** Other keyword tokens of the grammar (`stands`, `nonempty`, `all`, ...). */
const OTHER_WORDS = ['stands', 'now', 'nonempty', 'distinct', 'total', 'all', 'exists', 'and', 'or', 'not', 'in'];
const TYPE_WORDS = ['int', 'bool', 'str', 'null', 'list', 'map', 'file', 'player', 'nonempty', 'distinct', 'total'];
const BUILTINS = (process.env.SHINPAN_BUILTINS || '').split(',').filter((name) => name !== '');
const RULE_ID = '[A-Za-z][A-Za-z0-9_-]*';

// ---------------------------------------------------------------- the scopes expected

const SCOPE = {
  keyword: 'keyword.',
  constant: 'constant.language.',
  string: 'string.quoted.double.shinpan',
  escape: 'constant.character.escape.shinpan',
  comment: 'comment.line.double-slash.shinpan',
  number: 'constant.numeric.',
  ruleId: 'entity.name.tag.rule-id.shinpan',
  game: 'entity.name.namespace.game.shinpan',
  function: 'entity.name.function.',
  action: 'entity.name.function.action.shinpan',
  variable: 'entity.name.variable.',
  type: 'entity.name.type.',
  member: 'variable.other.enummember.shinpan',
  builtin: 'support.function.builtin.shinpan',
  cardCode: 'constant.other.card-code.shinpan',
  parameter: 'variable.parameter.shinpan',
  property: 'variable.other.property.shinpan',
  language: 'variable.language.shinpan',
  call: 'entity.name.function.call.shinpan',
};

// ---------------------------------------------------------------- tokenizing

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.shinpan' ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR) : null,
  });
  return registry.loadGrammar('source.shinpan');
}

/** A text as lines, each with the scopes of every character. */
function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  return text.split('\n').map((line) => {
    const result = grammar.tokenizeLine(line, stack);
    stack = result.ruleStack;
    const scopes = new Array(line.length).fill(null);
    for (const token of result.tokens) {
      for (let i = token.startIndex; i < Math.min(token.endIndex, line.length); i++) scopes[i] = token.scopes;
    }
    return { line, scopes };
  });
}

// ---------------------------------------------------------------- what each character is

/**
 * An independent reading of a text, after the pest grammar: each character is `code`,
 * `comment`, `string` (delimiters and text), `escape` or `interp` (the braces of `{EXPR}` in
 * a string; the expression inside is code).
 */
function classify(text) {
  const kinds = new Array(text.length).fill('code');
  const stack = [{ mode: 'code', depth: 0 }];
  for (let i = 0; i < text.length; i++) {
    const top = stack[stack.length - 1];
    const c = text[i];
    if (top.mode === 'string') {
      if (c === '\\') {
        kinds[i] = 'escape';
        if (i + 1 < text.length) kinds[++i] = 'escape';
      } else if (c === '{') {
        kinds[i] = 'interp';
        stack.push({ mode: 'code', depth: 0, interp: true });
      } else {
        kinds[i] = 'string';
        if (c === '"') stack.pop();
      }
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') kinds[i++] = 'comment';
      i--;
    } else if (c === '"') {
      kinds[i] = 'string';
      stack.push({ mode: 'string' });
    } else if (c === '{') {
      top.depth++;
    } else if (c === '}') {
      if (top.interp && top.depth === 0) {
        kinds[i] = 'interp';
        stack.pop();
      } else {
        top.depth--;
      }
    }
  }
  // Per line, as the tokenizer gives them.
  let at = 0;
  return text.split('\n').map((line) => {
    const slice = kinds.slice(at, at + line.length);
    at += line.length + 1;
    return slice;
  });
}

// ---------------------------------------------------------------- checking

class Checker {
  constructor() {
    this.failures = [];
    this.checked = 0;
    this.seen = new Map(); // what each kind of check matched, so a check that finds nothing fails
  }

  fail(where, message) {
    this.failures.push(`${where}: ${message}`);
  }

  count(kind) {
    this.seen.set(kind, (this.seen.get(kind) || 0) + 1);
  }

  /** Every character of `line.line[start, end)` has a scope starting with `prefix`. */
  expect(file, lineNo, line, start, end, prefix, kind, negate = false) {
    this.count(kind);
    for (let i = start; i < end; i++) {
      const scopes = line.scopes[i] || [];
      const has = scopes.some((s) => s.startsWith(prefix));
      this.checked++;
      if (has === negate) {
        const text = line.line.slice(start, end);
        this.fail(
          `${file}:${lineNo + 1}:${start + 1}`,
          `${kind}: \`${text}\` should ${negate ? 'not ' : ''}have a scope ${prefix}*, has ${scopes.join(' ') || 'none'}`
        );
        return;
      }
    }
  }
}

/** `m`'s group `g` as [start, end) in its line (the `d` flag). */
const span = (m, g) => m.indices[g];

/** Checks the scopes of one tokenized text against its independent reading. */
function checkText(checker, file, lines, kinds) {
  lines.forEach((line, n) => {
    const kind = kinds[n];
    const isCode = (i) => kind[i] === 'code';
    const at = (start, end, prefix, what, negate) => checker.expect(file, n, line, start, end, prefix, what, negate);
    /** Each match of `re` whose group `g` starts in code. */
    const each = (re, g, f) => {
      const global = re.global ? re : new RegExp(re.source, `${re.flags}g`);
      for (const m of line.line.matchAll(global)) {
        const [s, e] = span(m, g) || [];
        if (s !== undefined && isCode(s)) f(s, e, m);
      }
    };

    // Every character: a scope besides the root, none invalid; comments, strings, escapes.
    for (let i = 0; i < line.line.length; i++) {
      if (/\s/.test(line.line[i])) continue;
      const scopes = line.scopes[i] || [];
      if (scopes.length < 2) checker.fail(`${file}:${n + 1}:${i + 1}`, `\`${line.line[i]}\` has no scope but the root`);
      const invalid = scopes.find((s) => s.startsWith('invalid'));
      if (invalid) checker.fail(`${file}:${n + 1}:${i + 1}`, `\`${line.line[i]}\` is ${invalid}`);
      if (kind[i] === 'comment') at(i, i + 1, SCOPE.comment, 'comment');
      if (kind[i] === 'string' || kind[i] === 'escape') at(i, i + 1, SCOPE.string, 'string');
      if (kind[i] === 'escape') at(i, i + 1, SCOPE.escape, 'escape');
    }

    // Numbers, reserved words and literals wherever code has them (a rule id such as
    // `not-held` is not the word `not`).
    each(/(?<![A-Za-z0-9_])[0-9]+(?![A-Za-z0-9_])/dg, 0, (s, e) => at(s, e, SCOPE.number, 'number'));
    for (const word of RESERVED) {
      const prefix = LITERALS.includes(word) ? [SCOPE.constant, SCOPE.keyword] : [SCOPE.keyword];
      each(new RegExp(`(?<![\\w-])${word}(?![\\w-])`, 'dg'), 0, (s, e) => {
        const scopes = line.scopes[s] || [];
        checker.count('reserved word');
        checker.checked++;
        if (!prefix.some((p) => scopes.some((x) => x.startsWith(p))))
          checker.fail(`${file}:${n + 1}:${s + 1}`, `reserved word: \`${word}\` should have a scope ${prefix.join('* or ')}*, has ${scopes.join(' ')}`);
      });
    }

    // Declarations: their word is a keyword, their name has the declaration's scope.
    const decl = (words, nameRe, prefix, what) =>
      each(new RegExp(`^\\s*(${words})\\s+(${nameRe})`, 'd'), 1, (s, e, m) => {
        at(s, e, SCOPE.keyword, 'declaration keyword');
        if (prefix) at(...span(m, 2), prefix, what);
      });
    decl('game|extends', RULE_ID, SCOPE.game, 'game name');
    decl('rule', RULE_ID, SCOPE.ruleId, 'rule id');
    decl('fn|proc|check', '\\w+(?=\\s*\\()', SCOPE.function, 'function name');
    decl('due', '\\w+(?=\\s+when\\b)', SCOPE.function, 'due name');
    decl('action', '\\w+(?=\\s*:)', SCOPE.action, 'action name');
    decl('var|param', '\\w+', SCOPE.variable, 'variable name');
    decl('enum', '\\w+', SCOPE.type, 'enum name');
    decl('card|codes', '\\w+(?=\\s*\\()', SCOPE.type, 'card kind');
    decl('players', '[0-9]+\\s*\\.\\.|[A-Za-z_]\\w*\\s*,', null);
    decl('always|window', '\\w+(?=\\s*\\()', SCOPE.action, 'action name');
    decl('scores|winners|view|history', '(?![-+]?=)\\S+', null);
    each(/^\s*(flow)\s*\{/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'declaration keyword'));
    each(/^\s*(each)\s+\w+\s+in\b/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'card keyword'));
    each(/^\s*(code)\s+[\w("[]/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'card keyword'));
    each(/^\s*(from)\s+\w+\.\w+/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'card keyword'));
    each(/^\s*var\s+\w+\s+(per)\s+(player)\b/d, 1, (s, e, m) => {
      at(s, e, SCOPE.keyword, 'per player');
      at(...span(m, 2), SCOPE.keyword, 'per player');
    });
    each(/^\s*rule\s.*"\s*(stands)\s*(\/\/.*)?$/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'stands'));
    each(/^\s*enum\s+\w+\s*\{([^}]*)\}/d, 1, (s, e, m) => {
      for (const member of m[1].matchAll(/\w+/dg)) at(s + member.indices[0][0], s + member.indices[0][1], SCOPE.member, 'enum member');
    });
    // The words of a shape: `action NAME: SHAPE`, `param NAME: SHAPE =`, a card's fields.
    // (`player` in `{player: player}` is first a record's key.)
    const shapeWords = new RegExp(`\\b(${TYPE_WORDS.join('|')})\\b(?!\\s*\\??\\s*:)`, 'dg');
    each(/^\s*action\s+\w+\s*:(.*)$/d, 1, (s, e, m) => {
      for (const w of m[1].matchAll(shapeWords)) if (isCode(s + w.index)) at(s + w.index, s + w.index + w[0].length, SCOPE.keyword, 'shape word');
    });
    each(/^\s*param\s+\w+\s*:([^=]*)/d, 1, (s, e, m) => {
      for (const w of m[1].matchAll(shapeWords)) at(s + w.index, s + w.index + w[0].length, SCOPE.keyword, 'shape word');
    });
    each(/^\s*(?:card|codes)\s+\w+\s*\((.*)\)\s*\{/d, 1, (s, e, m) => {
      for (const w of m[1].matchAll(/:\s*((?:nonempty|total)\s+)?(\w+)/dg)) {
        if (TYPE_WORDS.includes(w[2])) at(s + w.indices[2][0], s + w.indices[2][1], SCOPE.keyword, 'shape word');
      }
    });

    // Statements whose words are keywords only there.
    each(/\b(finish)[ \t]+(now)\b/dg, 2, (s, e) => at(s, e, SCOPE.keyword, 'finish now'));
    each(/^\s*(open)\s+\w+\s*(\/\/.*)?$/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'open'));
    each(/^\s*(note)\s+"/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'note'));
    each(/^\s*(settle)\s*(\/\/.*)?$/d, 1, (s, e) => at(s, e, SCOPE.keyword, 'settle'));
    each(/\b(costs)\s*\{/dg, 1, (s, e) => at(s, e, SCOPE.keyword, 'costs'));
    each(/=\s*(by)\s+(players)\s*\{/dg, 2, (s, e) => at(s, e, SCOPE.keyword, 'by players'));

    // Rule ids after `else` in a `require`, before its message.
    each(new RegExp(`\\belse\\s+(${RULE_ID})\\s*"`, 'dg'), 1, (s, e, m) => {
      if (m[1] !== 'if') at(s, e, SCOPE.ruleId, 'rule id');
    });

    // Names: enum members, built-ins, branch heads, card codes.
    each(/\b[A-Z]\w*\.(\w+)/dg, 1, (s, e) => at(s, e, SCOPE.member, 'enum member'));
    each(new RegExp(`\\b(${BUILTINS.join('|')})\\s*\\(`, 'dg'), 1, (s, e) => at(s, e, SCOPE.builtin, 'built-in'));
    each(/\b(\w+)\s*\(\s*\w+\s*\)\s+by\b/dg, 1, (s, e) => at(s, e, SCOPE.action, 'branch action'));
    for (const m of line.line.matchAll(/^\s*"((?:[^"\\{]|\\.)+)"\s*\(/dg)) at(...span(m, 1), SCOPE.cardCode, 'card code');
  });
}

// ---------------------------------------------------------------- the hand-written sample

/** Places in sample.rules: [a piece of the line, the token in it, the scope, not?]. */
const SAMPLE_EXPECTATIONS = [
  ['extends "base.rules"', '"base.rules"', SCOPE.string],
  ['game sample-game', 'sample-game', SCOPE.game],
  ['players 2..4', '2', SCOPE.number],
  ['rule not-held', 'not-held', SCOPE.ruleId],
  ['rule not-held', 'stands', SCOPE.keyword],
  ['rule bad-deal', '\\"', SCOPE.escape],
  ['rule bad-deal', '\\t', SCOPE.escape],
  ['rule bad-deal', 'len', SCOPE.builtin],
  ['rule bad-deal', 'hand', 'meta.interpolation.shinpan'],
  ['rule bad-deal', 'card', SCOPE.property],
  ['param pool', 'file', SCOPE.keyword],
  ['param hand_size', 'players', SCOPE.language],
  ['param hand_size', 'by', SCOPE.keyword],
  ['= by players', 'players', SCOPE.keyword],
  ['enum Suit', 'Suit', SCOPE.type],
  ['enum Suit', 'G', SCOPE.member],
  ['card Drink', 'suit', SCOPE.property],
  ['card Drink', 'bool', SCOPE.keyword],
  ['card Drink', 'if', SCOPE.keyword],
  ['card Drink', 'R', SCOPE.member],
  ['"+1/+2"', '+1/+2', SCOPE.cardCode],
  ['"-4/+4" (-4, 4)', '-4/+4', SCOPE.cardCode],
  ['from pool.cards', 'cards', SCOPE.property],
  ['require matches(code', 'code', SCOPE.keyword, true],
  ['require matches(code', '"^[A-Z]+-[0-9]+$"', SCOPE.string],
  ['  draw,', 'draw', SCOPE.member],
  ['  level: int 1..7', 'int', SCOPE.keyword],
  ['  level: int 1..7', 'level', SCOPE.property],
  ['  strain: Suit', 'Suit', SCOPE.type],
  ['    players where p', 'players', SCOPE.language],
  ['    players where p', 'where', SCOPE.keyword],
  ['action deal', '->', 'keyword.operator.'],
  ['action deal', 'player', SCOPE.keyword],
  ['action deal', 'Drink', SCOPE.type],
  ['action take', 'nonempty', SCOPE.keyword],
  ['action take', 'distinct', SCOPE.keyword],
  ['action take', 'null', SCOPE.keyword],
  ['action tally_up', 'total', SCOPE.keyword],
  ['action snack', 'card', SCOPE.property],
  ['action snack', 'card', SCOPE.keyword, true],
  ['action snack', 'str', SCOPE.keyword],
  ['action open', 'open', SCOPE.action],
  ['var card = 0', 'card', SCOPE.variable],
  ['var card = 0', 'card', SCOPE.keyword, true],
  ['var leader = null', 'null', SCOPE.constant],
  ['fn strength', 'strength', SCOPE.function],
  ['fn strength', 'c', SCOPE.parameter],
  ['fn strength', 'rank', SCOPE.property],
  ['fn apply', 'x', SCOPE.parameter],
  ['card = card + 1', 'card', SCOPE.keyword, true],
  ['c not in []', 'not', SCOPE.keyword],
  ['c not in []', 'not-held', SCOPE.ruleId],
  ['due refresh', 'refresh', SCOPE.function],
  ['due refresh', 'exists', SCOPE.keyword],
  ['due refresh', 'all', SCOPE.keyword],
  ['due refresh', 'true', SCOPE.constant],
  ['always tally_up', 'tally_up', SCOPE.action],
  ['always tally_up', 'table', SCOPE.constant],
  ['always tally_up', 'card', SCOPE.property],
  ['require v >= 0 else score', 'score', SCOPE.ruleId],
  ['require v >= 0 else score', '>=', 'keyword.operator.'],
  ['window take(w)', 'take', SCOPE.action],
  ['note "taken', 'note', SCOPE.keyword],
  ['scores zip_map', 'zip_map', SCOPE.builtin],
  ['winners players', 'players', SCOPE.language],
  ['history hand', 'hand', 'variable.other.'],
  ['deal(d) by leader', 'q', SCOPE.parameter],
  ['holds(q, d)', 'holds', SCOPE.call],
  ['"{q}" costs', 'costs', SCOPE.keyword],
  ['open take', 'take', SCOPE.action],
  ['open(s) by table', 'open', SCOPE.action],
  ['open(s) by table', 'open', SCOPE.keyword, true],
  ['settle_up(s, 1)', 'settle_up', SCOPE.call],
  ['finish now', 'now', SCOPE.keyword],
  ['  settle', 'settle', SCOPE.keyword],
];

function checkSample(checker, lines) {
  for (const [marker, token, prefix, negate] of SAMPLE_EXPECTATIONS) {
    const n = lines.findIndex((l) => l.line.includes(marker));
    if (n < 0) {
      checker.fail('sample.rules', `no line with \`${marker}\``);
      continue;
    }
    const from = lines[n].line.indexOf(marker);
    const start = lines[n].line.indexOf(token, from);
    if (start < 0) {
      checker.fail('sample.rules', `no \`${token}\` in \`${marker}\``);
      continue;
    }
    checker.expect('sample.rules', n, lines[n], start, start + token.length, prefix, `sample \`${token}\``, negate);
  }
  // Every keyword of the grammar is one in the sample somewhere.
  for (const word of [...new Set([...K_WORDS, ...OTHER_WORDS])]) {
    const found = lines.some((l) =>
      [...l.line.matchAll(new RegExp(`(?<![\\w-])${word}(?![\\w-])`, 'g'))].some((m) =>
        (l.scopes[m.index] || []).some((s) => s.startsWith(SCOPE.keyword))
      )
    );
    if (!found) checker.fail('sample.rules', `the keyword \`${word}\` (grammar/spec.pest) is never scoped keyword.*`);
  }
}

/** Every built-in, called, is a built-in; the same name not called is a plain name. */
function checkBuiltins(checker, grammar) {
  for (const name of BUILTINS) {
    const [line] = tokenize(grammar, `fn f(xs) = ${name}(xs, x => x) + ${name}`);
    const start = line.line.indexOf(name);
    checker.expect('built-ins', 0, line, start, start + name.length, SCOPE.builtin, `built-in \`${name}\``);
    const bare = line.line.lastIndexOf(name);
    checker.expect('built-ins', 0, line, bare, bare + name.length, SCOPE.builtin, `bare \`${name}\``, true);
  }
}

/** The extension's script is JavaScript node reads (VS Code is not here to run it). */
function checkExtensionScript(checker) {
  const script = path.join(ROOT, 'editors/vscode/extension.js');
  const run = require('child_process').spawnSync(process.execPath, ['--check', script], { encoding: 'utf8' });
  if (run.status !== 0) checker.fail('editors/vscode/extension.js', run.stderr.trim());
}

// ---------------------------------------------------------------- the corpus

/** [name, text] of every rules text to check. */
function corpus() {
  const texts = [];
  for (const f of fs.readdirSync(path.join(ROOT, 'specs')).sort()) {
    if (f.endsWith('.rules')) texts.push([`specs/${f}`, read(`specs/${f}`)]);
  }
  const doc = read('docs/language.md').split('\n');
  let block = null;
  doc.forEach((l, i) => {
    if (block === null && /^\s*```rules\s*$/.test(l)) block = { start: i + 1, lines: [] };
    else if (block !== null && /^\s*```\s*$/.test(l)) {
      texts.push([`docs/language.md (block at line ${block.start})`, block.lines.join('\n')]);
      block = null;
    } else if (block !== null) block.lines.push(l);
  });
  return texts;
}

/** The kinds of places checkText finds: each must be found somewhere in the texts. */
const CORPUS_CHECKS = ['comment', 'string', 'escape', 'number', 'reserved word', 'declaration keyword', 'rule id',
  'game name', 'function name', 'due name', 'action name', 'variable name', 'enum name', 'card kind', 'card keyword',
  'per player', 'stands', 'enum member', 'shape word', 'finish now', 'open', 'note', 'settle', 'costs', 'by players',
  'built-in', 'branch action', 'card code'];

async function main() {
  const grammar = await loadGrammar();
  const checker = new Checker();
  const texts = corpus();
  if (!texts.some(([n]) => n.startsWith('specs/')) || !texts.some(([n]) => n.startsWith('docs/')))
    checker.fail('corpus', 'no specs/*.rules or no ```rules block in docs/language.md found');
  const sampleText = fs.readFileSync(path.join(__dirname, 'sample.rules'), 'utf8');
  for (const [name, text] of [...texts, ['tests/highlight/sample.rules', sampleText]]) {
    checkText(checker, name, tokenize(grammar, text), classify(text));
  }
  checkSample(checker, tokenize(grammar, sampleText));
  checkBuiltins(checker, grammar);
  checkExtensionScript(checker);
  if (K_WORDS.length < 40 || RESERVED.length < 20 || BUILTINS.length < 20)
    checker.fail('setup', `read ${K_WORDS.length} keywords, ${RESERVED.length} reserved words, ${BUILTINS.length} built-ins: has the grammar moved, or SHINPAN_BUILTINS not been given?`);
  // Each kind of check found something to check: a search that matches nothing proves nothing.
  for (const kind of CORPUS_CHECKS) {
    if (!checker.seen.get(kind)) checker.fail('corpus', `no place to check found for: ${kind}`);
  }
  if (checker.failures.length) {
    console.error(`${checker.failures.length} highlighting failures:`);
    for (const f of checker.failures.slice(0, 300)) console.error(`  ${f}`);
    if (checker.failures.length > 300) console.error(`  ... and ${checker.failures.length - 300} more`);
    process.exit(1);
  }
  const counts = CORPUS_CHECKS.map((k) => `${k} ${checker.seen.get(k)}`).join(', ');
  console.log(`${texts.length + 1} texts highlighted, ${checker.checked} characters checked (${counts})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
