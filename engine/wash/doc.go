// Package wash measures the always-loaded agent memory, cuts provable fat and proves with a fidelity gate that no structured token was lost.
//
// The lane is split into pure, separately tested packages that the apply step (through
// engine/txn) and the CLI compose:
//
//   - [github.com/prosewash/prosewash/engine/wash/discover] finds what each platform loads.
//   - [github.com/prosewash/prosewash/engine/wash/gauge] estimates tokens and decides the band.
//   - [github.com/prosewash/prosewash/engine/wash/quick] plans the mechanical cuts.
//   - [github.com/prosewash/prosewash/engine/wash/gate] proves a plan lost nothing.
//   - [github.com/prosewash/prosewash/engine/wash/frontmatter] reads pins conservatively.
//   - [github.com/prosewash/prosewash/engine/wash/mdline] classifies Markdown lines for all of them.
//   - [github.com/prosewash/prosewash/engine/wash/bins] keeps every cut and thins the kept cuts.
//   - [github.com/prosewash/prosewash/engine/wash/lane] runs it all for one project: gauge,
//     quick, semantic plans (schema in engine/wash/PLAN.md), restore, stats and the hook side.
//
// [Measure] glues discovery, reading, the Quick plan and the estimator into one gauge reading;
// [Config].Light is its cheaper session-start form, and [Tally] sums the figures per platform.
package wash
