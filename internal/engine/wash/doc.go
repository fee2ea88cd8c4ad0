// Package wash measures the always-loaded agent memory, cuts provable fat and proves with a fidelity gate that no structured token was lost.
//
// The lane is split into pure, separately tested packages that the apply step (through
// internal/engine/txn) and the CLI compose:
//
//   - [github.com/prosewash/prosewash/internal/engine/wash/discover] finds what each platform loads.
//   - [github.com/prosewash/prosewash/internal/engine/wash/gauge] estimates tokens and decides the band.
//   - [github.com/prosewash/prosewash/internal/engine/wash/quick] plans the mechanical cuts.
//   - [github.com/prosewash/prosewash/internal/engine/wash/gate] proves a plan lost nothing.
//   - [github.com/prosewash/prosewash/internal/engine/wash/frontmatter] reads pins conservatively.
//   - [github.com/prosewash/prosewash/internal/engine/wash/mdline] classifies Markdown lines for all of them.
//   - [github.com/prosewash/prosewash/internal/engine/wash/bins] keeps every cut and thins the kept cuts.
//   - [github.com/prosewash/prosewash/internal/engine/wash/lane] runs it all for one project: gauge,
//     quick, semantic plans (schema in internal/engine/wash/PLAN.md), restore, stats and the hook side.
//
// [Measure] glues discovery, reading, the Quick plan and the estimator into one gauge reading;
// [Config].Light is its cheaper session-start form, and [Tally] sums the figures per platform.
package wash
