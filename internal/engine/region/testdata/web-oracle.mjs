// Test oracle for the HTML and CSS classifiers (run by web_oracle_test.go,
// never shipped). It reads a JSON array of jobs from the file named by the
// first argument and prints one JSON object per job and line:
//
//   {kind: "html"|"css"|"scss"|"less", file}: where the languages' own
//     parsers put comments and literals, as byte offsets [start, end), and a
//     hash of the program without its comments (parse5's DOM serialised
//     without comment nodes, <style> text as CSS tokens without comments,
//     <script> text left out;
//     the CSS tokens without comments).
//   {kind: "sass"|"lessc", file, loadPaths}: a hash of the compiled,
//     compressed CSS (which keeps no comment but /*! ones).
//
// Offsets: JavaScript strings count UTF-16 units, so every position is
// mapped back to a byte offset of the file.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'node_modules', 'x.js'));
const parse5 = await import(require.resolve('parse5'));
const csstree = require('css-tree');
const postcssTokenize = require('postcss/lib/tokenize');
const Input = require('postcss/lib/input');
const scssTokenize = require('postcss-scss/lib/scss-tokenize');
const postcssLess = require('postcss-less');
const sass = require('sass');
const sassParser = await import(require.resolve('sass-parser'));
const less = require('less');

// byteOffsets maps each UTF-16 index of s (and s.length) to a byte offset.
function byteOffsets(s) {
  const out = new Int32Array(s.length + 1);
  let b = 0;
  for (let i = 0; i < s.length; i++) {
    out[i] = b;
    const c = s.charCodeAt(i);
    if (c < 0x80) b += 1;
    else if (c < 0x800) b += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) { out[i + 1] = b; b += 4; i++; }
    else b += 3;
  }
  out[s.length] = b;
  return out;
}

const hash = (s) => createHash('sha256').update(s).digest('hex');

// postcss-style tokens: [type, text, start, end] with an inclusive end.
// A tokenizer that throws (postcss-scss on an unclosed string, whatever
// ignoreErrors says) leaves tokenError set: its lists are then incomplete.
function tokenSpans(tokenizer, css, bo, base = 0) {
  const comments = [], strings = [];
  const tk = tokenizer(new Input(css), { ignoreErrors: true });
  try {
    while (!tk.endOfFile()) {
      const t = tk.nextToken();
      if (!t || t.length < 4) continue;
      const span = [base + bo[t[2]], base + bo[Math.min(t[3] + 1, css.length)]];
      if (t[0] === 'comment') comments.push(span);
      else if (t[0] === 'string') strings.push(span);
    }
  } catch (e) {
    return { comments, strings, tokenError: String(e.message || e).split('\n')[0] };
  }
  return { comments, strings };
}

// css-tree's tokenizer follows CSS Syntax 3.
function cssTreeComments(css, bo, base = 0) {
  const out = [];
  csstree.tokenize(css, (type, start, end) => {
    if (type === csstree.tokenTypes.Comment) out.push([base + bo[start], base + bo[end]]);
  });
  return { comments: out };
}

// cssNorm is the CSS as its parser sees it: css-tree's tokens (CSS Syntax 3)
// without the comments, which the tokenizer drops before any parsing.
function cssNorm(css) {
  const out = [];
  csstree.tokenize(css, (type, start, end) => {
    if (type !== csstree.tokenTypes.Comment) out.push(type + ':' + css.slice(start, end));
  });
  return out.join('\u0000');
}

function walk(n, f) {
  f(n);
  for (const c of n.childNodes || []) walk(c, f);
  if (n.content) walk(n.content, f);
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

function html(src) {
  const bo = byteOffsets(src);
  const doc = parse5.parse(src, { sourceCodeLocationInfo: true });
  const comments = [], texts = [], attrs = [], styles = [], scripts = [];
  walk(doc, (n) => {
    const loc = n.sourceCodeLocation;
    if (n.nodeName === '#comment' && loc) comments.push([bo[loc.startOffset], bo[loc.endOffset]]);
    if (n.nodeName === '#text' && loc) {
      const span = [bo[loc.startOffset], bo[loc.endOffset]];
      const p = n.parentNode;
      if (p && p.namespaceURI === HTML_NS && p.nodeName === 'style') {
        // The text as written: the node's value has its line breaks
        // normalised, which would shift every offset after a \r.
        const text = src.slice(loc.startOffset, loc.endOffset);
        const pc = tokenSpans(postcssTokenize, text, byteOffsets(text), span[0]);
        const ct = cssTreeComments(text, byteOffsets(text), span[0]);
        styles.push({ span, postcss: pc.comments, csstree: ct.comments, tokenError: pc.tokenError });
      } else if (p && p.namespaceURI === HTML_NS && p.nodeName === 'script') {
        scripts.push(span);
      } else if (!/<[a-zA-Z\/!?]/.test(src.slice(loc.startOffset, loc.endOffset))) {
        // A text node that the tree builder appended to later (whitespace
        // after </body>) has a location spanning the markup in between.
        texts.push(span);
      }
    }
    if (loc && loc.attrs) {
      for (const a of Object.values(loc.attrs)) attrs.push([bo[a.startOffset], bo[a.endOffset]]);
    }
  });
  // The program: the DOM without comments, <style> text without CSS comments.
  walk(doc, (n) => {
    if (n.childNodes) n.childNodes = n.childNodes.filter((c) => c.nodeName !== '#comment');
    if (n.nodeName === 'style' && n.namespaceURI === HTML_NS && n.childNodes.length === 1 && n.childNodes[0].nodeName === '#text') {
      try { n.childNodes[0].value = cssNorm(n.childNodes[0].value); } catch { /* keep the text */ }
    }
    // Script text is the JavaScript classifier's, proven by its own
    // oracles (TypeScript, acorn, esbuild): left out here.
    if (n.nodeName === 'script' && n.namespaceURI === HTML_NS) n.childNodes = [];
  });
  return { comments, texts, attrs, styles, scripts, norm: hash(parse5.serialize(doc)) };
}

function css(src) {
  const bo = byteOffsets(src);
  const pc = tokenSpans(postcssTokenize, src, bo);
  const ct = cssTreeComments(src, bo);
  let norm = '';
  try { norm = hash(cssNorm(src)); } catch (e) { norm = 'error: ' + e.message; }
  return { postcss: pc.comments, strings: pc.strings, tokenError: pc.tokenError, csstree: ct.comments, norm };
}

function scss(src) {
  const bo = byteOffsets(src);
  const pc = tokenSpans(scssTokenize, src, bo);
  const sassComments = [];
  let error;
  try {
    sassParser.scss.parse(src).walkComments((c) => {
      const s = c.source && c.source.start, e = c.source && c.source.end;
      if (s && e && s.offset !== undefined) sassComments.push([bo[s.offset], bo[e.offset]]);
    });
  } catch (e) {
    error = String(e.message || e).split('\n')[0];
  }
  return { postcss: pc.comments, strings: pc.strings, tokenError: pc.tokenError, sass: sassComments, error };
}

function lessFile(src) {
  const bo = byteOffsets(src);
  const comments = [];
  let error;
  try {
    postcssLess.parse(src).walkComments((c) => {
      const s = c.source && c.source.start, e = c.source && c.source.end;
      if (!s || !e || s.offset === undefined) return;
      let end = e.offset;
      if (c.inline) {
        // postcss-less builds an inline comment from postcss's tokens up
        // to a line break, and ends its span at the start of the last
        // token: the comment runs to the line's end.
        end = src.indexOf('\n', s.offset);
        if (end < 0) end = src.length;
      }
      comments.push([bo[s.offset], bo[end]]);
    });
  } catch (e) {
    error = String(e.message || e).split('\n')[0];
  }
  const pc = lessTokens(src, bo);
  // Quotes inside "//" comments make strings that Less never sees.
  const all = comments.concat(pc.comments);
  const inComment = (sp) => all.some((c) => sp[0] < c[1] && c[0] < sp[1]);
  return { postcssLess: comments, postcss: pc.comments, strings: pc.strings.filter((sp) => !inComment(sp)), tokenError: pc.tokenError, error };
}

// lessTokens reads Less the way postcss-less does: postcss's tokens, where a
// word starting with "//" (or the word "/" right before a block comment,
// postcss-less's issue #135) starts a comment that runs to the line's end;
// tokenizing starts again after it, so a quote inside such a comment does
// not derail the rest. A backquote in a word opens Less's
// JavaScript evaluation, up to the next backquote.
function lessTokens(src, bo) {
  const comments = [], strings = [];
  let off = 0;
  outer: while (off < src.length) {
    const css = src.slice(off);
    const tk = postcssTokenize(new Input(css), { ignoreErrors: true });
    let prevSlash = -1;
    try {
      while (!tk.endOfFile()) {
        const t = tk.nextToken();
        if (!t || t.length < 4) continue;
        const tick = t[0] === 'word' ? t[1].indexOf('`') : -1;
        if (tick >= 0) {
          // Less's JavaScript evaluation, `...`, which postcss does not know.
          const close = src.indexOf('`', off + t[2] + tick + 1);
          if (close >= 0) { off = close + 1; continue outer; }
        }
        let start = -1;
        if (t[0] === 'word' && t[1].startsWith('//')) start = off + t[2];
        if (t[0] === 'comment' && prevSlash >= 0 && prevSlash === t[2] - 1) start = off + t[2] - 1;
        if (start >= 0) {
          let end = src.indexOf('\n', start);
          if (end < 0) end = src.length;
          comments.push([bo[start], bo[end]]);
          off = end;
          continue outer;
        }
        prevSlash = t[0] === 'word' && t[1] === '/' ? t[2] : -1;
        const span = [bo[off + t[2]], bo[off + Math.min(t[3] + 1, css.length)]];
        if (t[0] === 'comment') comments.push(span);
        else if (t[0] === 'string') strings.push(span);
      }
    } catch (e) {
      return { comments, strings, tokenError: String(e.message || e).split('\n')[0] };
    }
    break;
  }
  return { comments, strings };
}

async function run(job) {
  const out = { id: job.id };
  try {
    switch (job.kind) {
      case 'html': Object.assign(out, html(readFileSync(job.file, 'utf8'))); break;
      case 'css': Object.assign(out, css(readFileSync(job.file, 'utf8'))); break;
      case 'scss': Object.assign(out, scss(readFileSync(job.file, 'utf8'))); break;
      case 'less': Object.assign(out, lessFile(readFileSync(job.file, 'utf8'))); break;
      case 'sass': {
        const r = sass.compile(job.file, { style: 'compressed', loadPaths: job.loadPaths || [], logger: sass.Logger.silent, quietDeps: true });
        out.norm = hash(r.css);
        break;
      }
      case 'lessc': {
        const r = await less.render(readFileSync(job.file, 'utf8'), { filename: job.file, paths: job.loadPaths || [], compress: true });
        out.norm = hash(r.css);
        break;
      }
      default: out.error = 'unknown kind ' + job.kind;
    }
  } catch (e) {
    out.error = String(e.message || e).split('\n')[0];
  }
  return out;
}

const jobs = JSON.parse(readFileSync(process.argv[2], 'utf8'));
for (const job of jobs) process.stdout.write(JSON.stringify(await run(job)) + '\n');
