// Position oracle for the JavaScript/TypeScript classifier tests.
//
// Usage: node oracle.cjs NODE_MODULES MODE FILE...
//   MODE "ts":    the TypeScript compiler API (createSourceFile, every node's
//                 leading and trailing comment ranges, minus ranges that start
//                 inside JSX text, where "//" is text).
//   MODE "jsonc": Microsoft's jsonc-parser (visit: onComment, literal values
//                 and property names).
//   MODE "acorn": acorn + acorn-jsx (onComment, onToken); the source type is
//                 "module" for .mjs and for files that only parse as modules,
//                 else "script" (where "<!--" comments exist).
// Prints one JSON object per file: byte offsets (not UTF-16 indexes) of
// comments and of literal tokens (strings, template text, regexes, JSX text).
'use strict';
const fs = require('fs');
const path = require('path');

const [nodeModules, mode, ...files] = process.argv.slice(2);
const load = (name) => require(path.join(nodeModules, name));

// byteIndex maps UTF-16 indexes of text to UTF-8 byte offsets.
function byteIndex(text) {
  const out = new Uint32Array(text.length + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    out[i] = b;
    const c = text.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) { out[i + 1] = b; b += 4; i++; continue; }
      b += 3;
    } else b += 3;
  }
  out[text.length] = b;
  return out;
}

function kindOf(file) {
  const ts = load('typescript');
  const ext = path.extname(file).toLowerCase();
  switch (ext) {
    case '.ts': case '.mts': case '.cts': return ts.ScriptKind.TS;
    case '.tsx': return ts.ScriptKind.TSX;
    case '.jsx': return ts.ScriptKind.JSX;
    default: return ts.ScriptKind.JS;
  }
}

function viaTypeScript(file, text) {
  const ts = load('typescript');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kindOf(file));
  const seen = new Map();
  const literals = [];
  const jsxText = [];
  const lit = new Set([ts.SyntaxKind.StringLiteral, ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead, ts.SyntaxKind.TemplateMiddle, ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.RegularExpressionLiteral, ts.SyntaxKind.JsxText]);
  const add = (ranges) => { if (ranges) for (const r of ranges) seen.set(r.pos, r.end); };
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    if (lit.has(node.kind)) {
      const s = node.getStart(sf);
      literals.push([s, node.end]);
      if (node.kind === ts.SyntaxKind.JsxText) jsxText.push([node.pos, node.end]);
    }
    for (const c of node.getChildren(sf)) visit(c);
  };
  visit(sf);
  const inJsx = (p) => jsxText.some(([s, e]) => p >= s && p < e);
  const comments = [...seen].filter(([s]) => !inJsx(s)).sort((a, b) => a[0] - b[0]);
  return { comments, literals, diagnostics: (sf.parseDiagnostics || []).length };
}

function viaAcorn(file, text) {
  const acorn = load('acorn');
  const jsx = load('acorn-jsx');
  const Parser = acorn.Parser.extend(jsx());
  const tt = Parser.acornJsx.tokTypes;
  const run = (sourceType) => {
    const comments = [];
    const literals = [];
    Parser.parse(text, {
      ecmaVersion: 'latest', sourceType, allowHashBang: true, allowReturnOutsideFunction: sourceType === 'script',
      allowAwaitOutsideFunction: true,
      onComment: (block, _t, s, e) => comments.push([s, e]),
      onToken: (tok) => {
        if (tok.type === acorn.tokTypes.string || tok.type === acorn.tokTypes.template ||
            tok.type === acorn.tokTypes.regexp || tok.type === tt.jsxText) {
          literals.push([tok.start, tok.end]);
        }
      },
    });
    return { comments, literals, sourceType };
  };
  const ext = path.extname(file).toLowerCase();
  if (ext === '.mjs') return run('module');
  try { return run('script'); } catch (e) { return run('module'); }
}

// viaJSONC reports comments as Microsoft's jsonc-parser (VS Code) sees them.
function viaJSONC(file, text) {
  const jsonc = load('jsonc-parser');
  const comments = [];
  const literals = [];
  const errors = [];
  jsonc.visit(text, {
    onComment: (offset, length) => comments.push([offset, offset + length]),
    onLiteralValue: (_v, offset, length) => literals.push([offset, offset + length]),
    onObjectProperty: (_p, offset, length) => literals.push([offset, offset + length]),
    onError: (error) => errors.push(error),
  }, { allowTrailingComma: true, disallowComments: false });
  return { comments, literals, diagnostics: errors.length };
}

for (const file of files) {
  let out;
  try {
    const text = fs.readFileSync(file, 'utf8');
    const r = mode === 'ts' ? viaTypeScript(file, text) : mode === 'jsonc' ? viaJSONC(file, text) : viaAcorn(file, text);
    const bi = byteIndex(text);
    const conv = (list) => list.map(([s, e]) => [bi[s], bi[e]]);
    out = { path: file, comments: conv(r.comments), literals: conv(r.literals), diagnostics: r.diagnostics || 0, sourceType: r.sourceType || '' };
  } catch (e) {
    out = { path: file, error: String(e && e.message || e).slice(0, 200) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
