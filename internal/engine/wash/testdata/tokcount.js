// tokcount.js counts real BPE tokens for the estimator comparison in engine/wash/gauge.
//
// Usage: node tokcount.js MODULES_DIR < paths.txt
// MODULES_DIR is a scratch npm project (outside the repository) where
//   npm install @anthropic-ai/tokenizer gpt-tokenizer
// was run. Reads one file path per line on stdin and prints one JSON object per line:
//   {"path": "...", "bytes": N, "claude": N, "o200k": N}
// "claude" is @anthropic-ai/tokenizer (the published Claude tokenizer; Anthropic notes it is
// only approximate for Claude 3 and later models), "o200k" is gpt-tokenizer's default o200k_base.
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('usage: node tokcount.js MODULES_DIR < paths.txt\n');
  process.exit(2);
}
const req = createRequire(path.join(path.resolve(dir), 'package.json'));
const claude = req('@anthropic-ai/tokenizer');
let gpt = null;
try {
  gpt = req('gpt-tokenizer');
} catch (e) {
  gpt = null;
}

// One tokenizer for every file: countTokens builds (and frees) a new one per call, which costs
// far more than the counting itself. Counting is what countTokens does: NFKC, then encode.
const tokenizer = claude.getTokenizer();
const input = fs.readFileSync(0, 'utf8');
for (const p of input.split('\n')) {
  if (!p) continue;
  const text = fs.readFileSync(p, 'utf8');
  const n = tokenizer.encode(text.normalize('NFKC'), 'all').length;
  const out = { path: p, bytes: Buffer.byteLength(text, 'utf8'), claude: n };
  if (gpt) out.o200k = gpt.encode(text, { disallowedSpecial: new Set() }).length;
  process.stdout.write(JSON.stringify(out) + '\n');
}
